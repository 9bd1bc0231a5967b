"""
URDF 1.1 and 1.2: read as urdfdom 5.1/6.0 read them, reported where older ones do not.

The oracles are the two ``check_urdf`` here: urdfdom 3.0.1 (``/usr/bin``, the 3.x line of
Humble; 4.0 and 5.0, Jazzy and Kilted, read the same versions) and urdfdom 6.0.0 (the ``pin``
wheel's). Each case is a small file written here.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
import re
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st
import numpy as np
import oracles
import pytest

from conftest import run_cli
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.model.robot import Capsule
from urdf_tools_ros.core.source.loader import load, load_string

VERSIONS = [None, '1.0', '1.1', '1.2', '1.3', '2.0', '1', '1.0.0', '1.0~pre6', '1.', 'a.b',
            ' 1.1', '01.1']


def codes(text: str) -> dict[str, list[int | None]]:
    """``{code: [lines]}`` of the findings ``urdf-tools check`` would report."""
    found: dict[str, list[int | None]] = {}
    for finding in check_description(load_string(text, 'robot.urdf')):
        found.setdefault(finding.code, []).append(
            finding.location.line if finding.location else None)
    return found


def robot(body: str, version: str | None) -> str:
    attribute = '' if version is None else f' version="{version}"'
    return f'<robot name="r"{attribute}>\n{body}\n</robot>\n'


def urdfdom_loads(tmp_path: Path, text: str, version: str) -> tuple[bool, str] | None:
    path = tmp_path / f'oracle_{version}.urdf'
    path.write_text(text)
    verdict = oracles.urdfdom(path, version)
    return None if verdict is None else (verdict.loaded, verdict.message)


@pytest.mark.parametrize('version', VERSIONS)
def test_the_version_verdicts_are_urdfdom_s(tmp_path: Path, version: str | None) -> None:
    text = robot('  <link name="a"/>', version)
    found = codes(text)
    old = urdfdom_loads(tmp_path, text, '3')
    new = urdfdom_loads(tmp_path, text, '6')
    if old is None or new is None:
        pytest.skip('both check_urdf (urdfdom 3 and 6) are needed')
    assert ('robot-version-unsupported' in found) == (not new[0]), (found, new)
    assert ('robot-version-new' in found) == (new[0] and not old[0]), (found, old, new)


JOINT = ('  <link name="a"/><link name="b"/>\n'
         '  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>\n'
         '    <origin xyz="0.1 0.2 0.3" {}/></joint>')


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=4, max_size=4).filter(
    lambda q: 0.2 < math.sqrt(sum(v * v for v in q))))
def test_a_quaternion_origin_poses_the_link_by_its_rotation(values: list[float]) -> None:
    x, y, z, w = np.asarray(values) / np.linalg.norm(values)
    # the rotation of a unit quaternion x y z w (a reference formula, not ours)
    expected = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    quat = ' '.join(f'{v:.17g}' for v in (x, y, z, w))
    text = robot(JOINT.format(f'quat_xyzw="{quat}"'), '1.1')
    pose = KinematicModel(load_string(text).robot).link_poses()['b']
    np.testing.assert_allclose(pose[:3, :3], expected, atol=1e-12)
    np.testing.assert_allclose(pose[:3, 3], (0.1, 0.2, 0.3), atol=1e-12)
    assert 'origin-quaternion-not-unit' not in codes(text)


def test_a_quaternion_in_a_1_0_file_is_ignored_as_ros_ignores_it(tmp_path: Path) -> None:
    text = robot(JOINT.format('quat_xyzw="0 0 0.7071068 0.7071068"'), None)
    found = codes(text)
    assert found['origin-quaternion-ignored'] == [4]  # the <origin> line
    pose = KinematicModel(load_string(text).robot).link_poses()['b']
    np.testing.assert_allclose(pose[:3, :3], np.eye(3))  # identity, as robot_state_publisher
    new = urdfdom_loads(tmp_path, text, '6')
    if new is not None:
        assert new[0] and 'Ignoring quat_xyzw' in new[1]
    fix = next(f.fix for f in check_description(load_string(text))
               if f.code == 'origin-quaternion-ignored')
    assert fix is not None and 'version="1.1"' in fix and 'rpy="0 0 1.5707963' in fix


@pytest.mark.parametrize('quat, code', [
    ('0 0 0 0', 'origin-quaternion-invalid'),
    ('0 0 nan 1', 'number-not-finite'),
    ('0 0 1', 'vector-size'),
    ('0 0 2 2', 'origin-quaternion-not-unit'),
])
def test_bad_quaternions_are_findings_never_a_nan_pose(quat: str, code: str) -> None:
    text = robot(JOINT.format(f'quat_xyzw="{quat}"'), '1.1')
    assert code in codes(text)
    description = load_string(text)
    if all(math.isfinite(v) for v in description.robot.joints[0].origin.xyz):
        pose = KinematicModel(description.robot).link_poses()['b']
        assert np.isfinite(pose).all()


def test_rpy_and_quaternion_together_are_refused_as_urdfdom_6_does(tmp_path: Path) -> None:
    text = robot(JOINT.format('rpy="0 0 1" quat_xyzw="0 0 0 1"'), '1.1')
    assert 'origin-rpy-and-quaternion' in codes(text)
    new = urdfdom_loads(tmp_path, text, '6')
    if new is not None:
        assert not new[0] and 'Both rpy and quat_xyzw' in new[1]


CAPSULE = '  <link name="a"><visual><geometry><capsule radius="0.1" length="0.5"/></geometry>' \
          '</visual></link>'


def test_a_capsule_is_read_in_1_1_and_reported_in_1_0(tmp_path: Path) -> None:
    modern = load_string(robot(CAPSULE, '1.1'))
    assert modern.robot.links[0].visuals[0].geometry == Capsule(0.1, 0.5)
    assert 'geometry-unknown' not in codes(robot(CAPSULE, '1.1'))
    old = codes(robot(CAPSULE, '1.0'))
    assert old['geometry-unknown'] == [2]
    new = urdfdom_loads(tmp_path, robot(CAPSULE, '1.0'), '6')
    if new is not None:
        assert 'Ignoring capsule' in new[1]


LIMIT = ('  <link name="a"/><link name="b"/>\n'
         '  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>\n'
         '    <limit lower="-1" upper="1" effort="1" velocity="1" {}/></joint>')


def test_acceleration_limits_are_read_in_1_2_only(tmp_path: Path) -> None:
    text = robot(LIMIT.format('acceleration="2" deceleration="3" jerk="4"'), '1.2')
    limit = load_string(text).robot.joints[0].limit
    assert limit is not None
    assert (limit.acceleration, limit.deceleration, limit.jerk) == (2.0, 3.0, 4.0)
    earlier = robot(LIMIT.format('acceleration="2"'), '1.1')
    assert codes(earlier)['limit-attribute-ignored'] == [4]
    assert load_string(earlier).robot.joints[0].limit.acceleration is None  # type: ignore
    negative = robot(LIMIT.format('acceleration="-2"'), '1.2')
    assert 'limit-attribute-negative' in codes(negative)
    new = urdfdom_loads(tmp_path, negative, '6')
    if new is not None:
        assert not new[0] and 'is negative' in new[1]


STRICT = {
    # case: (link b, joint type, limit), what URDF 1.2 (urdfdom 6.0) does with it
    'box-zero': ('<visual><geometry><box size="0 1 1"/></geometry></visual>', 'continuous', ''),
    'invisible-visual': ('<visual><geometry><box size="0 0 0"/></geometry></visual>',
                         'continuous', ''),
    'sphere-zero': ('<collision><geometry><sphere radius="0"/></geometry></collision>',
                    'continuous', ''),
    'cylinder-negative': ('<collision><geometry><cylinder radius="0.1" length="-1"/></geometry>'
                          '</collision>', 'continuous', ''),
    'capsule-zero': ('<collision><geometry><capsule radius="0.1" length="0"/></geometry>'
                     '</collision>', 'continuous', ''),
    'effort-negative': ('', 'revolute', '<limit lower="-1" upper="1" effort="-1" velocity="1"/>'),
    'velocity-negative': ('', 'revolute',
                          '<limit lower="-1" upper="1" effort="1" velocity="-1"/>'),
    'lower-above-upper': ('', 'revolute', '<limit lower="1" upper="-1" effort="1" velocity="1"/>'),
    'bounds-missing': ('', 'prismatic', '<limit effort="1" velocity="1"/>'),
    'effort-missing': ('', 'revolute', '<limit lower="-1" upper="1" velocity="1"/>'),
    'velocity-missing': ('', 'revolute', '<limit lower="-1" upper="1" effort="1"/>'),
    'mesh-scale-zero': ('<visual><geometry><mesh filename="x.stl" scale="0 1 1"/></geometry>'
                        '</visual>', 'continuous', ''),
    'zero-range': ('', 'revolute', '<limit lower="1" upper="1" effort="1" velocity="1"/>'),
}
#: The cases urdfdom 6.0 refuses or drops an element of, in a file declaring 1.2 (measured).
BROKEN_IN_1_2 = {'box-zero', 'invisible-visual', 'sphere-zero', 'cylinder-negative',
                 'capsule-zero', 'effort-negative', 'velocity-negative', 'lower-above-upper',
                 'bounds-missing'}


def strict_case(case: str, version: str) -> str:
    body, joint_type, limit = STRICT[case]
    return robot(f'<link name="a"/><link name="b">{body}</link><joint name="j" '
                 f'type="{joint_type}"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
                 f'{limit}</joint>', version)


#: The codes of consumers other than urdfdom 6.0 that refuse or misdraw any 1.1/1.2 file:
#: urdf_parser_py (1.0 only) and the RViz of Humble to Lyrical (no capsules); warnings that name
#: them, as neither is a consumer of a ROS target (CONVENTIONS C12).
URDFDOM_6_ONLY = ['urdf-parser-py-version', 'geometry-capsule-not-drawn']


@pytest.mark.parametrize('case', sorted(STRICT))
def test_the_1_2_checks_are_urdfdom_6_s(tmp_path: Path, case: str) -> None:
    """
    URDF 1.2's stricter sizes and limits are errors exactly where urdfdom 6.0 breaks.

    An error for Rolling (and pinocchio) where urdfdom 6.0 refuses the file or drops an element;
    effort and velocity become optional.
    """
    text = strict_case(case, '1.2')
    findings = check_description(load_string(text, 'robot.urdf'), 'ros-rolling')
    errors = {f.code for f in findings if f.severity.value == 'error'}
    assert bool(errors) is (case in BROKEN_IN_1_2), findings
    verdict = urdfdom_loads(tmp_path, text, '6')
    if verdict is not None:
        loaded, message = verdict
        assert (not loaded or 'Could not parse' in message) is (case in BROKEN_IN_1_2), message
    # the same file declaring 1.1: urdfdom 6.0 loads it whole, unless effort/velocity is missing
    earlier = strict_case(case, '1.1')
    required = case in ('effort-missing', 'velocity-missing')
    findings = check_description(load_string(earlier, 'robot.urdf'), 'ros-rolling')
    errors = {f.code for f in findings if f.severity.value == 'error'}
    assert bool(errors) is (required or case == 'bounds-missing'), findings  # jsp refuses it
    verdict = urdfdom_loads(tmp_path, earlier, '6')
    if verdict is not None:
        loaded, message = verdict
        assert (not loaded or 'Could not parse' in message) is required, message


EXAMPLE = Path(__file__).resolve().parents[1] / 'urdf' / 'examples' / 'capsule_arm_1_1.urdf'


def test_the_viewer_draws_capsules() -> None:
    pytest.importorskip('trimesh')
    from urdf_tools_ros.gui.scene import RobotScene

    class Scene:  # what RobotScene adds, each a node as viser's
        def __init__(self) -> None:
            self.nodes: list[SimpleNamespace] = []

        def __getattr__(self, kind: str) -> object:
            def add(*_args: object, **kwargs: object) -> SimpleNamespace:
                self.nodes.append(SimpleNamespace(
                    kind=kind, kwargs=kwargs, wxyz=(1, 0, 0, 0), position=(0, 0, 0),
                    visible=True, show_axes=False, remove=lambda: None))
                return self.nodes[-1]
            return add

    description = load(EXAMPLE)
    scene = Scene()
    drawn = RobotScene(scene, description.robot)
    meshes = [node for node in scene.nodes if node.kind == 'add_mesh_simple'
              and node.kwargs.get('visible', True)]
    assert len(meshes) == 2 and not drawn.placeholders  # the two capsule visuals
    poses = KinematicModel(description.robot).link_poses()
    bounds = drawn.drawn_bounds(poses)
    assert bounds is not None
    # the forearm capsule's far end (0.155 + 0.125 + 0.03 beyond the elbow) is inside the
    # drawn box, which is no more than a radius or two larger
    tip = poses['forearm'] @ np.array([0.0, 0.0, 0.155 + 0.125 + 0.03, 1.0])
    assert tip[2] <= bounds[1][2] <= tip[2] + 2 * 0.03


def run_check(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``urdf-tools check ARGS``: exit code, output; ``ROS_DISTRO`` only from ``env``."""
    inherited = {name: value for name, value in os.environ.items() if name != 'ROS_DISTRO'}
    done = run_cli('check', *args, env={**inherited, **(env or {})})
    return done.returncode, done.stdout


#: A URDF 1.2 file with what 1.1 and 1.2 add (quat_xyzw, a capsule, acceleration/deceleration/
#: jerk limits) and nothing else to report: only the distros that read 1.2 load it.
EXAMPLE_1_2 = Path(__file__).resolve().parent / 'urdf' / 'versions' / 'arm_1_2.urdf'
#: The example of each new URDF version, and the urdfdom that first reads it.
NEW_VERSIONS = [pytest.param(EXAMPLE, '1.1', '5.1', id='1.1'),
                pytest.param(EXAMPLE_1_2, '1.2', '6.0', id='1.2')]


@pytest.mark.parametrize('path, number, since', NEW_VERSIONS)
def test_the_examples_are_read_by_urdfdom_6_and_refused_by_urdfdom_3(path: Path, number: str,
                                                                     since: str) -> None:
    assert set(codes(path.read_text())) <= {'robot-version-new', 'root-link-inertia',
                                            *URDFDOM_6_ONLY}
    if number == '1.2':
        limit = load(path).robot.joints[0].limit
        assert limit is not None and (limit.acceleration, limit.deceleration, limit.jerk) == \
            (4.0, 6.0, 40.0)
    new, old = oracles.urdfdom(path, '6'), oracles.urdfdom(path, '3')
    if new is None or old is None:
        pytest.skip('both check_urdf (urdfdom 3 and 6) are needed')
    assert new.loaded and 'Error' not in new.message and 'Ignoring' not in new.message, new
    assert not old.loaded and 'only version 1.0 is currently supported' in old.message, old


@pytest.mark.parametrize('path, number, since', NEW_VERSIONS)
def test_lyrical_and_rolling_read_the_new_versions(path: Path, number: str, since: str) -> None:
    # urdfdom 6.0 reads them: 0 errors. urdf_parser_py (every distro) and, for the capsules, the
    # RViz of Lyrical are on no ROS graph's path: a warning each, naming the tool
    for distro in ('lyrical', 'rolling'):
        code, out = run_check(str(path), '--target', f'ros-{distro}', '--no-config', '-v')
        assert code == 0 and f'{path}: 0 errors, ' in out, out
        warned = set(re.findall(r'warning\[([\w-]+)\]', out))
        assert 'urdf-parser-py-version' in warned, out
        assert warned <= {'robot-version-new', *URDFDOM_6_ONLY}, out
        assert '    concerns: urdf_parser_py' in out, out


@pytest.mark.parametrize('path, number, since', NEW_VERSIONS)
def test_humble_jazzy_and_kilted_refuse_the_new_versions(path: Path, number: str,
                                                         since: str) -> None:
    """The one error names the version, the urdfdom that reads it and every distro."""
    message = (f'error[robot-version-new]: robot "{load(path).robot.name}": URDF {number} is read '
               f'by ROS 2 Lyrical and Rolling only (urdfdom {since}+): Humble, Jazzy and Kilted '
               'refuse the file (robot_state_publisher, RViz)\n    breaks: urdfdom-before-5.1')
    for distro in ('humble', 'jazzy', 'kilted'):
        code, out = run_check(str(path), '--target', f'ros-{distro}', '--no-config', '-v')
        assert code == 1 and message in out and f'{path}: 1 error, ' in out, out
        assert out.count('error[') == 1, out
    assert ('loads as written in: ros-lyrical, ros-rolling, mujoco, pinocchio; errors for: '
            'ros-humble, ros-jazzy, ros-kilted, gazebo') in out
    code, out = run_check(str(path), '--no-config')
    assert 'loads as written in: ros-lyrical, ros-rolling, mujoco, pinocchio; errors for: ' \
        'ros-humble, ros-jazzy, ros-kilted, gazebo' in out, out


@pytest.mark.parametrize('distro, code', [
    ('lyrical', 0), ('rolling', 0), ('humble', 1), ('jazzy', 1), ('kilted', 1),
    ('iron', 1),  # a distro the checker does not know is taken for Jazzy, as when unset
    (None, 1)])
def test_plain_ros_follows_ros_distro(distro: str | None, code: int) -> None:
    env = {} if distro is None else {'ROS_DISTRO': distro}
    for path in (EXAMPLE, EXAMPLE_1_2):
        for target in (['--target', 'ros'], []):  # given, and the default
            done, out = run_check(str(path), *target, '--no-config', env=env)
            assert done == code, (distro, target, out)


def test_ros_distros_names_the_distros_of_a_version() -> None:
    from urdf_tools_ros.core.model.values import ros_distros
    assert ros_distros((1, 0)) == 'Humble, Jazzy, Kilted, Lyrical and Rolling'
    assert ros_distros((1, 1)) == ros_distros((1, 2)) == 'Lyrical and Rolling'
    assert ros_distros((1, 2), refuse=True) == 'Humble, Jazzy and Kilted'
    assert ros_distros((1, 0), refuse=True) == 'none'
    assert ros_distros((1, 3)) == 'none'


@pytest.mark.parametrize('size, code', [('radius="-0.1" length="0.5"', 'geometry-size-negative'),
                                        ('radius="0" length="0"', 'geometry-size-zero')])
def test_capsule_sizes_are_checked_with_their_line(size: str, code: str) -> None:
    text = robot(f'  <link name="a"><collision><geometry><capsule {size}/></geometry>'
                 '</collision></link>', '1.1')
    found = codes(text)
    assert found.get(code) == [2], found
