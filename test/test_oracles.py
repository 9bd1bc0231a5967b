"""
``test/oracles.py`` tells the truth: each consumer loads good files, refuses what it refuses.

Measured with urdfdom 3.0.1 and 6.0.0, pinocchio 4.1, MuJoCo 4.0 and SDFormat 12.3.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
import sysconfig

import oracle_fk
import oracles
import pytest

from conftest import REPO, SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.source.loader import load

AVAILABLE = oracles.available()
#: The example-robot-data wheel's share folder (its meshes), where it is installed.
ERD_SHARE = Path(sysconfig.get_paths()['purelib']) / 'cmeel.prefix' / 'share' / \
    'example-robot-data'
#: Package share directories of this repository's own ``package://`` URIs.
PACKAGES = {'urdf_tools_ros': str(REPO)}
FK_TOLERANCE = 1e-9

INERTIA = '<inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/>'
LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def arm(b_inertia: str = INERTIA, limit: str = LIMIT, name: str = ' name="r"',
        visual: str = '') -> str:
    """A massive root ``a`` and link ``b`` on revolute joint ``j``: valid for every consumer."""
    return (f'<robot{name}><link name="a"><inertial><mass value="1"/>{INERTIA}</inertial>'
            f'{visual}</link><link name="b"><inertial><mass value="1"/>{b_inertia}</inertial>'
            '</link><joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            f'<axis xyz="0 0 1"/>{limit}</joint></robot>')


#: name -> URDF text of the refusal cases.
CASES = {
    'valid': arm(),
    'robot-without-name': arm(name=''),
    'revolute-without-limit': arm(limit=''),
    'material-without-name': arm(visual='<visual><geometry><box size="1 1 1"/></geometry>'
                                        '<material><color rgba="1 0 0 1"/></material></visual>'),
    # Principal moments 1e-3 + 1e-3 < 3e-3: no rigid body has them.
    'moving-triangle-inertia': arm(b_inertia=INERTIA.replace('izz="1e-3"', 'izz="3e-3"')),
    'negative-inertia': arm(b_inertia=INERTIA.replace('ixx="1e-3"', 'ixx="-1"')),
}

#: (consumer, case, a phrase of its message) for each refusal the consumer is known for.
REFUSALS = [
    ('urdfdom-3', 'robot-without-name', 'No name given for the robot'),
    ('urdfdom-3', 'revolute-without-limit', 'does not specify limits'),
    ('urdfdom-6', 'robot-without-name', 'No name given for the robot'),
    ('urdfdom-6', 'revolute-without-limit', 'does not specify limits'),
    ('urdf_parser_py', 'material-without-name', 'Required attribute not set in XML: name'),
    ('urdf_parser_py', 'robot-without-name', 'Required attribute not set in XML: name'),
    ('pinocchio', 'robot-without-name', 'No name given for the robot'),
    ('pinocchio', 'revolute-without-limit', 'does not specify limits'),
    ('mujoco', 'moving-triangle-inertia', 'A + B >= C'),
    ('mujoco', 'negative-inertia', 'positive eigenvalues'),
    ('gazebo', 'negative-inertia', 'A link named b has invalid inertia.'),
    ('gazebo', 'moving-triangle-inertia', 'A link named b has invalid inertia.'),
]


def needs(consumer: str) -> pytest.MarkDecorator:
    """Skip unless ``consumer`` can run here."""
    reason = f'{consumer} is not available here (see scripts/setup-oracles.sh)'
    return pytest.mark.skipif(not AVAILABLE[consumer], reason=reason)


def each_consumer() -> list[object]:
    """Every consumer as a parameter, skipped where it is absent."""
    return [pytest.param(name, marks=needs(name)) for name in oracles.CONSUMER_NAMES]


def ask(consumer: str, path: Path,
        package_paths: Mapping[str, str] | None = None) -> oracles.Verdict:
    """One consumer's verdict on ``path`` (the consumer must be available)."""
    verdict = oracles.ask(consumer, path, package_paths)
    assert verdict is not None, f'{consumer} is available but gave no verdict'
    assert verdict.consumer == consumer
    return verdict


def write(tmp_path: Path, text: str, name: str = 'robot.urdf') -> Path:
    path = tmp_path / name
    path.write_text(text, encoding='utf-8')
    return path


@pytest.fixture
def sample_urdf(tmp_path: Path) -> Path:
    """The sample robot's xacro output, beside a link to its meshes (its OBJ path is relative)."""
    (tmp_path / 'meshes').symlink_to(REPO / 'urdf' / 'meshes', target_is_directory=True)
    return write(tmp_path, load(SAMPLE_ROBOT).xml, 'sample_robot.urdf')


def test_available_and_verdicts_name_every_consumer(tmp_path: Path) -> None:
    assert tuple(AVAILABLE) == oracles.CONSUMER_NAMES
    assert all(isinstance(value, bool) for value in AVAILABLE.values())
    found = oracles.verdicts(write(tmp_path, CASES['valid']))
    assert tuple(found) == tuple(name for name, ok in AVAILABLE.items() if ok)
    assert all(verdict.loaded for verdict in found.values()), found


@pytest.mark.parametrize('consumer', each_consumer())
def test_each_consumer_loads_the_sample_robot(consumer: str, sample_urdf: Path) -> None:
    verdict = ask(consumer, sample_urdf, PACKAGES)
    assert verdict.loaded, verdict.message


@pytest.mark.parametrize('model', ['ur5_robot', 'panda', 'cookie', 'robotiq_2f_85_nsfix'])
@pytest.mark.parametrize('consumer', each_consumer())
def test_each_consumer_loads_the_shared_models(consumer: str, model: str) -> None:
    # MuJoCo opens collision meshes: ur5 and panda's come from the example-robot-data wheel
    # (where installed); robotiq's '../meshes/collision/...' are not in ../shared.
    verdict = ask(consumer, shared_model(model), {'example-robot-data': str(ERD_SHARE)})
    missing = consumer == 'mujoco' and (model == 'robotiq_2f_85_nsfix' or (
        model in ('ur5_robot', 'panda') and not ERD_SHARE.is_dir()))
    if missing:
        assert not verdict.loaded and 'Error opening file' in verdict.message, verdict.message
    else:
        assert verdict.loaded, verdict.message


@pytest.mark.parametrize('consumer, model, phrase', [
    pytest.param('gazebo', 'talos_full_v2', 'Pose values must be finite', marks=needs('gazebo')),
    pytest.param('mujoco', 'tiago_dual', 'collision meshes', marks=needs('mujoco')),
    pytest.param('urdf_parser_py', 'robotiq_2f_85.urdf', 'Namespace prefix drake',
                 marks=needs('urdf_parser_py')),
])
def test_measured_refusals_of_shared_models(consumer: str, model: str, phrase: str) -> None:
    # talos: a fixed-joint chain of two mass-0 inertials lumps to 0/0; tiago: its collision
    # meshes; robotiq_2f_85: the undeclared drake: prefix.
    verdict = ask(consumer, shared_model(model), {'example-robot-data': str(ERD_SHARE)})
    assert not verdict.loaded
    if consumer == 'mujoco':  # its collision meshes stop MuJoCo before the antenna's tensor:
        # COLLADA ones with the wheel's meshes, missing ones without
        phrase = 'no decoder found for mesh file' if ERD_SHARE.is_dir() else 'Error opening file'
    assert phrase in verdict.message


@pytest.mark.parametrize('consumer, case, phrase', [
    pytest.param(consumer, case, phrase, marks=needs(consumer))
    for consumer, case, phrase in REFUSALS])
def test_each_consumer_refuses_what_it_is_known_to_refuse(
        consumer: str, case: str, phrase: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where MuJoCo would leave MUJOCO_LOG.TXT
    path = write(tmp_path, CASES[case])
    verdict = ask(consumer, path)
    assert not verdict.loaded
    assert phrase in verdict.message
    assert ask(consumer, write(tmp_path, CASES['valid'], 'valid.urdf')).loaded
    assert sorted(item.name for item in tmp_path.iterdir()) == ['robot.urdf', 'valid.urdf']


@pytest.mark.parametrize('consumer', each_consumer())
def test_a_missing_file_is_a_refusal_not_an_exception(consumer: str, tmp_path: Path) -> None:
    assert not ask(consumer, tmp_path / 'missing.urdf').loaded


@needs('urdfdom-3')
def test_urdfdom_drops_a_nameless_material_and_still_loads_the_robot(tmp_path: Path) -> None:
    verdict = ask('urdfdom-3', write(tmp_path, CASES['material-without-name']))
    assert verdict.loaded
    assert verdict.message.startswith('Error:   Visual material must contain a name attribute')


@needs('gazebo')
def test_gazebo_lumps_the_sample_robots_fixed_joints(sample_urdf: Path) -> None:
    lines, robot = ask('gazebo', sample_urdf).message.splitlines(), load(sample_urdf).robot
    assert len(robot.links) == 13 and 'model sample_robot links 9 joints 9' in lines
    (base,) = [line for line in lines if line.startswith('link base_link ')]
    assert base.split()[3] == '4.7'  # 4.0 + caster 0.1 + mast 0.6
    # Visuals and collisions of the lumped links are merged into base_link, not lost.
    welded = {'base_link'} | {joint.child for joint in robot.joints
                              if joint.joint_type == 'fixed' and joint.parent == 'base_link'}
    assert int(base.split()[5]) == sum(len(robot.link(name).visuals) for name in welded)
    assert oracles.gazebo_dropped_links(sample_urdf) == []


ALL_JOINT_TYPES = (REPO / 'test' / 'urdf' / 'kinematics' / 'all_joint_types.urdf').read_text()
#: The planar joint's origin and axis in ALL_JOINT_TYPES.
PLANAR = '<origin xyz="0 0 0.1" rpy="0.3 0 0"/>\n    <axis xyz="1 0 0"/>'


@needs('pinocchio')
@pytest.mark.parametrize('axis, agree', [('0 0 1', True), ('1 0 0', False)])
def test_fk_difference_agrees_on_every_joint_type_and_sees_a_real_disagreement(
        tmp_path: Path, axis: str, agree: bool) -> None:
    # Measured: pinocchio's planar joint moves in its frame's x-y plane whatever the <axis>;
    # the URDF spec's plane is perpendicular to the axis, as ours.
    path = write(tmp_path, ALL_JOINT_TYPES.replace(PLANAR, PLANAR.replace('1 0 0', axis)))
    difference = oracle_fk.pinocchio_fk_difference(path, configurations=20, seed=3)
    assert difference is not None and (difference < FK_TOLERANCE if agree else difference > 1e-3)
