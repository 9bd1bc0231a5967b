"""
The real-robot regression corpus under ``test/corpus/`` and what real tools do with each file.

Thirteen URDF files copied unchanged from example-robot-data 6.0.0 and pybullet 3.2.7's
``pybullet_data`` with exactly the meshes they reference (``test/corpus/SOURCES.md``: origin,
licence, why each is here). The verdicts were measured one tool at a time: ``check_urdf`` of
urdfdom 3.0.1 and 6.0.0 (they agree on every file), pinocchio 4.1.0's
``buildModelFromUrdf`` and MuJoCo 4.0.0 (``oracles.mujoco``: it has no COLLADA decoder and
discards ``<visual>``).
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

_ERD = CORPUS_DIR / 'example-robot-data' / 'robots'
_PYBULLET = CORPUS_DIR / 'pybullet_data'


@dataclass(frozen=True)
class CorpusModel:
    """
    One corpus file and the measured verdict of each consumer on it.

    :ivar kind: Why it is in the corpus (``floating-base``, ``placeholder-root-inertia``,
        ``mimic-gripper``, ``welded-small-inertia``, ``fixed-base-arm``, ``object``).
    :ivar mujoco_refusal: ``None`` when MuJoCo loads it, else a part of its error message.
    :ivar notes: The element a refusal names, and what urdf_parser_py and Gazebo refuse.
    """

    path: Path
    kind: str
    mujoco_refusal: str | None = None
    notes: str = ''
    urdfdom_loads: bool = True
    pinocchio_loads: bool = True

    @property
    def mujoco_loads(self) -> bool:
        """Whether ``mujoco.MjModel.from_xml_path`` loads it (meshes resolved)."""
        return self.mujoco_refusal is None


_EIGENVALUES = "error 'inertia must have positive eigenvalues' in fullinertia"
_TRIANGLE = "inertia must satisfy A + B >= C; use 'balanceinertia' to fix"

MODELS: list[CorpusModel] = [
    CorpusModel(_ERD / 'solo_description' / 'robots' / 'solo12.urdf', 'floating-base'),
    CorpusModel(_ERD / 'hyq_description' / 'robots' / 'hyq_no_sensors.urdf',
                'placeholder-root-inertia', 'no decoder found for mesh file',
                "COLLADA collisions; without them MuJoCo names 'base_link' (singular 1e-6)"),
    CorpusModel(_ERD / 'simple_humanoid_description' / 'urdf' / 'simple_humanoid.urdf',
                'floating-base',
                'stl_decoder: number of faces should be between 1 and 200000 in STL file',
                'meshes/box.stl is ASCII STL'),
    CorpusModel(_ERD / 'pr2_description' / 'urdf' / 'pr2.urdf', 'welded-small-inertia',
                _TRIANGLE, "'sensor_mount_link'; urdf_parser_py refuses its old transmissions"),
    CorpusModel(_ERD / 'finger_edu_description' / 'robots' / 'finger_edu.urdf',
                'fixed-base-arm', _EIGENVALUES, "'finger_lower_link'"),
    CorpusModel(_ERD / 'hector_description' / 'robots' / 'quadrotor_base.urdf', 'object'),
    CorpusModel(_ERD / 'laikago_description' / 'urdf' / 'laikago.urdf', 'floating-base'),
    CorpusModel(_PYBULLET / 'cube.urdf', 'object'),
    CorpusModel(_PYBULLET / 'duck_vhacd.urdf', 'object',
                notes='<?xml version="0.0" ?>: urdf_parser_py (lxml) refuses'),
    CorpusModel(_PYBULLET / 'random_urdfs' / '000' / '000.urdf', 'object', _EIGENVALUES,
                "'random_obj_000' (ixx=iyy=1, izz=0)"),
    CorpusModel(_PYBULLET / 'kuka_iiwa' / 'model.urdf', 'placeholder-root-inertia',
                notes='Gazebo refuses: the massless root is dropped, no link is left'),
    CorpusModel(_PYBULLET / 'quadruped' / 'minitaur.urdf', 'floating-base',
                notes='<?xml version="0.0" ?>: urdf_parser_py (lxml) refuses'),
    CorpusModel(_PYBULLET / 'xarm' / 'xarm6_with_gripper.urdf', 'mimic-gripper', _TRIANGLE,
                "'link2'; urdf_parser_py and Gazebo (invalid inertia of link2) refuse"),
]
