"""
Verdicts that hold per consumer and per version: absent against empty, MuJoCo's meshes and mimic.

:data:`CASES` holds the consumers that refuse each robot, as measured (``ros2_control``'s from
its parser's source); the default run asserts the error targets follow it, ``-m oracle`` asks
the consumers again.
"""

from __future__ import annotations

from pathlib import Path

import oracles
import pytest

from urdf_tools_ros.core.checks import check_description, portability
from urdf_tools_ros.core.checks.rules.mimic import MUJOCO_MIMIC_SINCE
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load

INERTIAL = ('<inertial><mass value="1"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')
BASE = f'<link name="base">{INERTIAL}</link>'
L2 = f'<link name="l2">{INERTIAL}</link>'
LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
J = (f'<joint name="j" type="revolute"><parent link="base"/><child link="l2"/>'
     f'<axis xyz="0 0 1"/>{LIMIT}</joint>')
HARDWARE = '<hardware><plugin>mock_components/GenericSystem</plugin></hardware>'


def robot(body: str, attributes: str = 'name="r"') -> str:
    return f'<?xml version="1.0"?>\n<robot {attributes}>\n{body}\n</robot>\n'


def mesh_link(kind: str, filename: str) -> str:
    return (f'<link name="base">{INERTIAL}<{kind}><geometry><mesh filename="{filename}"/>'
            f'</geometry></{kind}></link>')


#: name -> (URDF, the consumers (oracle names) that refuse it). Measured (see the module doc).
CASES: dict[str, tuple[str, frozenset[str]]] = {
    'ros2_control-name-empty': (
        robot(BASE + L2 + J + f'<ros2_control name="" type="system">{HARDWARE}'
              '<joint name="j"><command_interface name="position"/></joint></ros2_control>'),
        frozenset()),
    'ros2_control-name-absent': (
        robot(BASE + L2 + J + f'<ros2_control type="system">{HARDWARE}</ros2_control>'),
        frozenset()),  # no oracle here reads <ros2_control>; ros2_control itself refuses it
    'joint-name-empty': (
        robot(BASE + L2 + '<joint name="" type="fixed"><parent link="base"/><child link="l2"/>'
              '</joint>'), frozenset()),
    'robot-name-empty': (robot(BASE, 'name=""'), frozenset({'gazebo'})),
    'robot-name-absent': (robot(BASE, ''), frozenset({'urdfdom-3', 'urdfdom-6',
                                                      'urdf_parser_py', 'pinocchio',
                                                      'gazebo'})),
    'mesh-filename-empty': (robot(mesh_link('visual', '')), frozenset({'gazebo'})),
    'transmission-name-empty': (
        robot(BASE + L2 + J + '<transmission name=""><type>transmission_interface/'
              'SimpleTransmission</type><joint name="j"><hardwareInterface>x</hardwareInterface>'
              '</joint><actuator name="m"><mechanicalReduction>1</mechanicalReduction>'
              '</actuator></transmission>'), frozenset()),
    'transmission-name-absent': (
        robot(BASE + L2 + J + '<transmission><type>transmission_interface/SimpleTransmission'
              '</type><joint name="j"><hardwareInterface>x</hardwareInterface></joint>'
              '<actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>'
              '</transmission>'), frozenset({'urdf_parser_py'})),
    'collision-mesh-missing': (robot(mesh_link('collision', 'nope.stl')),
                               frozenset({'mujoco'})),
    'visual-mesh-missing': (robot(mesh_link('visual', 'nope.stl')), frozenset()),
}

#: The checker's targets whose consumers are exactly one oracle's program.
TARGET_ORACLE = {'gazebo': 'gazebo', 'mujoco': 'mujoco', 'pinocchio': 'pinocchio'}


def write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f'{name}.urdf'
    path.write_text(CASES[name][0])
    return path


@pytest.mark.parametrize('name', sorted(CASES))
def test_error_targets_follow_the_measured_refusals(name: str, tmp_path: Path) -> None:
    refusing = CASES[name][1]
    loads = portability(check_description(load(write(tmp_path, name)), 'ros'))
    for target, oracle in TARGET_ORACLE.items():
        assert loads[target] is (oracle not in refusing), (target, refusing)
    if 'urdfdom-3' in refusing:
        assert not loads['ros-jazzy'] and not loads['ros-humble']
    if 'urdfdom-6' in refusing:
        assert not loads['ros-lyrical'] and not loads['ros-rolling']


@pytest.mark.parametrize('name, code, consumers, error', [
    ('ros2_control-name-empty', 'attribute-empty', (), False),
    ('ros2_control-name-absent', 'attribute-missing', ('ros2_control-humble', 'ros2_control'),
     True),
    ('joint-name-empty', 'attribute-empty', (), False),
    # urdf_parser_py is on no ROS graph's path (C12): named, a warning
    ('transmission-name-absent', 'attribute-missing', ('urdf_parser_py',), False),
])
def test_absent_and_empty_names_are_told_apart(name: str, code: str, consumers: tuple[str, ...],
                                               error: bool, tmp_path: Path) -> None:
    findings = check_description(load(write(tmp_path, name)), 'ros-jazzy')
    (finding,) = [f for f in findings if f.code in ('attribute-missing', 'attribute-empty')]
    assert finding.code == code
    assert finding.consumers == consumers
    assert (finding.severity is Severity.ERROR) is error
    if code == 'attribute-empty':
        assert 'empty' in finding.message and 'has no name' not in finding.message


def test_a_missing_collision_mesh_names_mujoco_a_visual_one_does_not(tmp_path: Path) -> None:
    (collision,) = [f for f in check_description(load(write(tmp_path, 'collision-mesh-missing')),
                                                 'mujoco') if f.code == 'mesh-file-missing']
    assert collision.severity is Severity.ERROR and 'MuJoCo refuses' in collision.message
    (visual,) = [f for f in check_description(load(write(tmp_path, 'visual-mesh-missing')),
                                              'mujoco') if f.code == 'mesh-file-missing']
    assert visual.severity is Severity.WARNING and 'MuJoCo' not in visual.message


@pytest.mark.oracle
@pytest.mark.parametrize('name', sorted(CASES))
def test_the_table_is_what_the_consumers_do(name: str, tmp_path: Path) -> None:
    path = write(tmp_path, name)
    verdicts = oracles.verdicts(path)
    if not verdicts:
        pytest.skip('no consumer is installed here (scripts/setup-oracles.sh)')
    refused = {consumer for consumer, verdict in verdicts.items() if not verdict.loaded}
    assert refused == CASES[name][1] & set(verdicts), {k: v.message for k, v in verdicts.items()}


# -- MuJoCo and <mimic>, by version ---------------------------------------------------------
MIMIC = robot(BASE + L2 + f'<link name="l3">{INERTIAL}</link>' + J
              + '<joint name="m" type="revolute"><parent link="l2"/><child link="l3"/>'
              f'<axis xyz="0 0 1"/>{LIMIT}<mimic joint="j" multiplier="-2" offset="0.25"/>'
              '</joint>')


def test_a_mimic_robot_says_mujoco_reads_mimic_by_version(tmp_path: Path) -> None:
    path = tmp_path / 'mimic.urdf'
    path.write_text(MIMIC)
    findings = check_description(load(path), 'mujoco')
    (finding,) = [f for f in findings if f.code == 'mimic-mujoco-version']
    assert finding.severity is Severity.INFO  # the mujoco target is MuJoCo 3.13 and later
    assert finding.consumers == ('mujoco-before-3.13',)
    assert '3.13' in finding.message and '"m"' in finding.message


@pytest.mark.oracle
def test_the_installed_mujoco_keeps_mimic_as_a_joint_equality(tmp_path: Path) -> None:
    mujoco = pytest.importorskip('mujoco')
    version = tuple(int(part) for part in mujoco.__version__.split('.')[:2])
    path = tmp_path / 'mimic.urdf'
    path.write_text(MIMIC)
    model = mujoco.MjModel.from_xml_path(str(path))
    if version < MUJOCO_MIMIC_SINCE:
        assert model.neq == 0
        return
    assert model.neq == 1
    follower = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, model.eq_obj1id[0])
    source = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, model.eq_obj2id[0])
    assert (follower, source) == ('m', 'j')
    assert list(model.eq_data[0, :2]) == [0.25, -2.0]  # polycoef: offset, multiplier


# -- a .urdf holding xacro syntax ------------------------------------------------------------
def test_pybullets_husky_is_refused_as_written_and_checked_as_expanded() -> None:
    pybullet_data = pytest.importorskip('pybullet_data')
    husky = Path(pybullet_data.getDataPath(), 'husky', 'husky.urdf')
    text = husky.read_text()
    line = next(number for number, content in enumerate(text.splitlines(), 1)
                if '$(optenv' in content)
    description = load(husky)
    assert description.is_xacro
    for target, severity in (('ros', Severity.WARNING), ('pinocchio', Severity.ERROR),
                             ('mujoco', Severity.ERROR), ('gazebo', Severity.ERROR)):
        (finding,) = [f for f in check_description(description, target)
                      if f.code == 'xacro-in-urdf']
        assert finding.severity is severity
        assert finding.location is not None and finding.location.line == line
        assert '$(optenv HUSKY_IMU_RPY' in finding.message
    assert set(finding.consumers or ()) == {'gazebo', 'mujoco', 'pinocchio'}


ARG_ORIGIN = ('<?xml version="1.0"?>\n'
              '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
              '  <xacro:arg name="x" default="0.1"/>\n' + BASE + L2
              + '\n  <joint name="j" type="fixed"><parent link="base"/><child link="l2"/>\n'
              '    <origin xyz="$(arg x) 0 0"/></joint>\n</robot>\n')
GAZEBO_ONLY = robot(BASE + '\n<gazebo><plugin name="p" filename="libp.so">'
                    '<rate>${100}</rate></plugin></gazebo>')


@pytest.mark.parametrize('text, refusing, line', [
    pytest.param(ARG_ORIGIN, {'gazebo', 'mujoco', 'pinocchio'}, 3, id='arg-in-origin'),
    pytest.param(GAZEBO_ONLY, set(), 4, id='only-in-a-gazebo-block'),
])
def test_xacro_in_a_urdf_names_who_refuses_the_text(text: str, refusing: set[str], line: int,
                                                    tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(text)
    (finding,) = [f for f in check_description(load(path), 'pinocchio')
                  if f.code == 'xacro-in-urdf']
    assert set(finding.consumers or ()) == refusing
    assert finding.location is not None and finding.location.line == line
    assert (finding.severity is Severity.ERROR) is ('pinocchio' in refusing)
    # named .urdf.xacro, the same text is plain xacro: no finding
    renamed = tmp_path / 'robot.urdf.xacro'
    renamed.write_text(text)
    assert 'xacro-in-urdf' not in {f.code for f in check_description(load(renamed))}


def test_a_refusal_xacro_does_not_cause_is_named_for_what_causes_it(tmp_path: Path) -> None:
    """A moving link of zero inertia: MuJoCo refuses the file as written and expanded alike."""
    zero = ('<link name="l2"><inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" '
            'iyy="0" iyz="0" izz="0"/></inertial></link>')
    path = tmp_path / 'robot.urdf'
    path.write_text(GAZEBO_ONLY.replace(BASE, BASE + zero + J))
    findings = check_description(load(path), 'mujoco')
    (finding,) = [f for f in findings if f.code == 'xacro-in-urdf']
    assert finding.consumers == () and finding.severity is Severity.WARNING
    assert 'MuJoCo refuses either reading, not for the xacro syntax (line ' in finding.message
    assert 'link "l2" moves with mass=1 kg, largest principal moment 0' in finding.message
    assert [f.code for f in findings if f.severity is Severity.ERROR] == ['inertia-near-zero']


@pytest.mark.oracle
def test_what_refuses_a_urdf_with_xacro_syntax_is_what_the_consumers_do(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    cases = ((ARG_ORIGIN, {'gazebo', 'mujoco', 'pinocchio'}), (GAZEBO_ONLY, set()))
    for text, refusing in cases:
        path.write_text(text)
        verdicts = oracles.verdicts(path)
        for target in ('gazebo', 'mujoco', 'pinocchio'):
            if target in verdicts:
                assert verdicts[target].loaded is (target not in refusing), (
                    target, verdicts[target].message)
