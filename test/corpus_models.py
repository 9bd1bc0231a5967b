"""
The real-robot regression corpus under ``test/corpus/`` and what real tools do with each file.

Thirteen URDF files copied unchanged from two PyPI packages, each with exactly the meshes,
``.mtl`` and textures it references (``test/corpus/SOURCES.md`` gives origin, licence and why
each file is here):

* ``example-robot-data`` 6.0.0 under ``test/corpus/example-robot-data/robots/...``; the files
  name their meshes ``package://example-robot-data/robots/...``, which resolve with
  :data:`PACKAGE_PATHS`.
* ``pybullet`` 3.2.7's ``pybullet_data`` under ``test/corpus/pybullet_data/...``; meshes are
  relative to the file, except ``xarm/xarm6_with_gripper.urdf``, which names
  ``package://xarm_description/...`` and ``package://xarm_gripper/...`` (both folders ship
  inside ``pybullet_data/xarm/``, and :data:`PACKAGE_PATHS` maps them).

The verdicts in :data:`MODELS` were measured on these copies, one tool at a time:

* urdfdom 3.0.1 (``/usr/bin/check_urdf FILE``, Debian ``liburdfdom-tools`` 3.0.1-1) and
  urdfdom 6.0.0 (``check_urdf`` of the ``cmeel-urdfdom`` 6.0.0 wheel): exit status 0 is
  ``urdfdom_loads``. Both versions agree on every file here.
* pinocchio 4.1.0 (``pin`` wheel): ``pinocchio.buildModelFromUrdf(path)`` returns.
* MuJoCo 4.0.0: ``mujoco.MjModel.from_xml_path`` on a temporary copy whose mesh file names are
  made absolute (``package://`` through :data:`PACKAGE_PATHS`, relative ones against the
  file's folder; ``oracles.mujoco``). MuJoCo has no COLLADA decoder: a ``.dae`` collision
  mesh makes it refuse the file (hyq_no_sensors: ``no decoder found for mesh file
  '.../trunk.dae'``). Its URDF import discards ``<visual>`` by default, so only collision
  meshes are decoded.

``notes`` also records urdf_parser_py's verdict (``URDF.from_xml_file``, urdfdom_py
1.2.1.post1), Gazebo's where it refuses (SDFormat 12.3.0's URDF -> SDF conversion through
``oracles.gazebo``; it loads the ten other files) and a snapshot of the finding codes
``urdf_tools_ros`` reported for target ``ros`` when the corpus was made (commit 096deb9); that
snapshot is history, not an expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Root of the corpus: ``test/corpus``.
CORPUS_DIR: Path = Path(__file__).resolve().parent / 'corpus'

#: Package share directories by name (absolute) for the ``package://`` URIs of the corpus.
PACKAGE_PATHS: dict[str, str] = {
    'example-robot-data': str(CORPUS_DIR / 'example-robot-data'),
    'xarm_description': str(CORPUS_DIR / 'pybullet_data' / 'xarm' / 'xarm_description'),
    'xarm_gripper': str(CORPUS_DIR / 'pybullet_data' / 'xarm' / 'xarm_gripper'),
}

#: The classes of :attr:`CorpusModel.kind`: why a file is in the corpus.
KINDS: tuple[str, ...] = (
    'floating-base',             # a free-moving robot: quadruped, humanoid
    'placeholder-root-inertia',  # 1e-6 everywhere (singular) or mass 0 on a static base
    'mimic-gripper',             # a gripper whose fingers follow one joint through <mimic>
    'welded-small-inertia',      # links on fixed joints that carry their own small inertias
    'fixed-base-arm',            # a serial arm bolted to the world
    'object',                    # a single rigid body, as a simulator scene uses them
)

_ERD = CORPUS_DIR / 'example-robot-data' / 'robots'
_PYBULLET = CORPUS_DIR / 'pybullet_data'


@dataclass(frozen=True)
class CorpusModel:
    """
    One corpus file and the measured verdict of each real consumer on it.

    :ivar path: Absolute path of the URDF file.
    :ivar kind: Why it is in the corpus, one of :data:`KINDS` (notes name further classes).
    :ivar urdfdom_loads: ``check_urdf`` of urdfdom 3.0.1 and of 6.0.0 both exit with 0.
    :ivar pinocchio_loads: ``pinocchio.buildModelFromUrdf`` returns a model.
    :ivar mujoco_loads: ``mujoco.MjModel.from_xml_path`` loads it (``.dae`` elements removed,
        mesh paths absolute; see the module doc).
    :ivar mujoco_refusal: ``None`` when MuJoCo loads it, else the first line of MuJoCo's error
        message without its ``Error: `` prefix and without file paths, a substring of
        ``str(error)``; notes name the element MuJoCo reports.
    :ivar notes: What else was measured: urdf_parser_py, the checker snapshot, the feature.
    """

    path: Path
    kind: str
    urdfdom_loads: bool
    pinocchio_loads: bool
    mujoco_loads: bool
    mujoco_refusal: str | None
    notes: str


_EIGENVALUES = "error 'inertia must have positive eigenvalues' in fullinertia"
_TRIANGLE = "inertia must satisfy A + B >= C; use 'balanceinertia' to fix"

MODELS: list[CorpusModel] = [
    CorpusModel(
        path=_ERD / 'solo_description' / 'robots' / 'solo12.urdf',
        kind='floating-base',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='Solo 12 quadruped, 12 revolute joints, STL meshes; feet welded by fixed joints '
              'with their own 0.0069 kg, ~5e-7 kg m^2 inertias. urdf_parser_py loads. '
              'Checker (ros): info root-link-inertia, unknown-element.'),
    CorpusModel(
        path=_ERD / 'hyq_description' / 'robots' / 'hyq_no_sensors.urdf',
        kind='placeholder-root-inertia',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False,
        mujoco_refusal='no decoder found for mesh file',
        notes="HyQ quadruped (floating base), COLLADA meshes only. Root 'base_link' has mass "
              '1e-6 and ixx..iyz all 1e-6 (a rank-1, singular tensor), welded to the trunk by '
              "fixed joint 'floating_base'; feet carry the same placeholder, trunk_imu has "
              'inertia 0. MuJoCo refuses its .dae collisions; with those 22 elements removed it '
              "names element 'base_link', id 1 (the singular tensor). "
              'urdf_parser_py loads. Checker (ros): warning inertia-implausible, '
              'material-redefined; info link-inertia-invalid (error for target mujoco), '
              'root-link-inertia, unknown-element.'),
    CorpusModel(
        path=_ERD / 'simple_humanoid_description' / 'urdf' / 'simple_humanoid.urdf',
        kind='floating-base',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False,
        mujoco_refusal='stl_decoder: number of faces should be between 1 and 200000 in STL file',
        notes="Humanoid, 29 revolute joints; root 'base_link' has no <inertial>. Its one mesh, "
              "meshes/box.stl, is ASCII STL, which MuJoCo cannot decode (element 'box', id 0; "
              "'perhaps this is an ASCII file?'). Uses pinocchio's <collision_checking> "
              'extension. urdf_parser_py loads. Checker (ros and mujoco): info unknown-element '
              'only, so the MuJoCo refusal is not reported today.'),
    CorpusModel(
        path=_ERD / 'pr2_description' / 'urdf' / 'pr2.urdf',
        kind='welded-small-inertia',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False, mujoco_refusal=_TRIANGLE,
        notes='PR2: 51 fixed joints, sensor and camera frames welded with 0.001-0.1 kg and '
              '1e-6-1e-2 kg m^2 inertias; two parallel grippers with 10 <mimic> joints '
              "(multiplier 1 and -1). MuJoCo names element 'sensor_mount_link', id 21. "
              "urdf_parser_py REFUSES: transmission 'r_wrist_trans' (old-style, type= "
              "attribute, no <type> element): 'Required element not set in XML: type'. "
              'Checker (ros): no error; warning gazebo-reference-missing, inertia-implausible, '
              'mimic-range-exceeds-limits, transmission-no-actuator, transmission-no-joint; '
              'info link-inertia-invalid (error for mujoco), root-link-inertia, '
              'unknown-element.'),
    CorpusModel(
        path=_ERD / 'finger_edu_description' / 'robots' / 'finger_edu.urdf',
        kind='fixed-base-arm',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False,
        mujoco_refusal=_EIGENVALUES,
        notes='FingerEdu: 3-joint finger on a fixed base, STL meshes; tip link welded with '
              "0.01 kg and 1.67e-7 kg m^2. MuJoCo names element 'finger_lower_link', id 5. "
              'urdf_parser_py loads. Checker (ros): info link-inertia-invalid (error for '
              'mujoco), root-link-inertia.'),
    CorpusModel(
        path=_ERD / 'hector_description' / 'robots' / 'quadrotor_base.urdf',
        kind='object',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='Hector quadrotor body: one link, no joint; COLLADA visual and STL collision '
              '(MuJoCo loaded it with and without the .dae <visual>, which it discards). '
              'urdf_parser_py loads. Checker (ros): no finding.'),
    CorpusModel(
        path=_ERD / 'laikago_description' / 'urdf' / 'laikago.urdf',
        kind='floating-base',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='Unitree Laikago quadruped (floating base), 12 revolute joints; OBJ visual meshes '
              'whose .mtl files give their colours; box/cylinder/sphere collision. Gazebo loads '
              '13 links. urdf_parser_py loads. Checker (ros, commit 791d329): info '
              'root-link-inertia only.'),
    CorpusModel(
        path=_PYBULLET / 'cube.urdf',
        kind='object',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes="Unit cube, OBJ visual and <box> collision; cube.obj names 'mtllib cube.mtl', "
              'which pybullet_data does not ship (so it is not here either). urdf_parser_py '
              'loads. Checker (ros): info unknown-element (pybullet <contact>).'),
    CorpusModel(
        path=_PYBULLET / 'duck_vhacd.urdf',
        kind='object',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='Duck: OBJ visual with .mtl and PNG texture, convex-decomposed OBJ collision. '
              'Starts with <?xml version="0.0" ?>: urdf_parser_py REFUSES (lxml: '
              '"Unsupported version \'0.0\'"); urdfdom, pinocchio and MuJoCo read it. '
              'Checker (ros): error xml-declaration-invalid; info unknown-element.'),
    CorpusModel(
        path=_PYBULLET / 'random_urdfs' / '000' / '000.urdf',
        kind='object',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False,
        mujoco_refusal=_EIGENVALUES,
        notes='Random blob, OBJ mesh; its only link has ixx=iyy=1, izz=0 (positive '
              "semi-definite, singular). MuJoCo names element 'random_obj_000', id 1. "
              'urdf_parser_py loads. Checker (ros): info link-inertia-invalid (error for '
              'mujoco), unknown-element.'),
    CorpusModel(
        path=_PYBULLET / 'kuka_iiwa' / 'model.urdf',
        kind='placeholder-root-inertia',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='KUKA LBR iiwa 7-joint arm (also a fixed-base arm); static root '
              "'lbr_iiwa_link_0' has mass 0 with a non-zero inertia. OBJ visual (with .mtl) "
              'and STL collision. urdf_parser_py loads. Gazebo (SDFormat) REFUSES: the '
              "massless root is dropped, then 'A model must have at least one link.' Checker "
              '(ros, gazebo): info root-link-inertia only.'),
    CorpusModel(
        path=_PYBULLET / 'quadruped' / 'minitaur.urdf',
        kind='floating-base',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=True, mujoco_refusal=None,
        notes='Minitaur quadruped: 8 continuous, 8 revolute (knees, <limit> without lower and '
              'upper) and 10 fixed joints; most links have inertia 1 1 1. '
              '<?xml version="0.0" ?>: urdf_parser_py REFUSES (lxml). OBJ with .mtl and JPG '
              'texture. Checker (ros): '
              'error joint-limit-bound-missing (8), xml-declaration-invalid; warning '
              'inertia-implausible, joint-limit-zero-range; info root-link-inertia, '
              'unknown-element.'),
    CorpusModel(
        path=_PYBULLET / 'xarm' / 'xarm6_with_gripper.urdf',
        kind='mimic-gripper',
        urdfdom_loads=True, pinocchio_loads=True, mujoco_loads=False, mujoco_refusal=_TRIANGLE,
        notes="xArm 6 (fixed base, root 'world') with the xArm gripper: 'drive_joint' and 5 "
              '<mimic> joints (multiplier 1) closing a four-bar linkage; package:// meshes, OBJ '
              "and STL. MuJoCo names element 'link2', id 3. urdf_parser_py REFUSES: "
              "<mechanicalReduction>reduction</mechanicalReduction> in transmission 'tran2' "
              "('could not convert'). Gazebo (SDFormat) REFUSES: 'A link named link2 has "
              "invalid inertia.' (and link3). Checker (ros): error number-invalid (5); "
              'warning inertia-triangle-inequality (2, error for mujoco and gazebo).'),
]
