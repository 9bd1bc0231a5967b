"""
Limits that command a joint: an actuated joint's effort or velocity of 0, its safety controller.

The facts, from ros2_control's source per branch (controller_manager_parameters.yaml,
joint_limits_urdf.hpp, component_parser.cpp update_interface_limits, joint_limits_helpers.cpp)
and PyBullet's importer, restated as small robots; PyBullet itself is asked with ``-m oracle``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from urdf_tools_ros.core.checks import check_description, TARGETS
from urdf_tools_ros.core.checks.examples import EXAMPLES
from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load_string

CODE = 'joint-limit-zero-actuated'
#: ``enforce_command_limits``' default per ROS 2 distro's ros2_control branch (``None``: the
#: parameter does not exist): humble 2.x, jazzy 4.x, kilted 5.x, master 6.x (Lyrical, Rolling).
ENFORCED_BY_DEFAULT = {'humble': None, 'jazzy': False, 'kilted': True, 'lyrical': True,
                       'rolling': True}

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" '
            'izz="0.01"/></inertial>')


def robot(limit: str, *blocks: str, joint_type: str = 'continuous') -> str:
    return (f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
            f'<joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>'
            f'<axis xyz="0 0 1"/>{limit}</joint>{"".join(blocks)}</robot>')


def control(interfaces: str, joint_limits: str = '') -> str:
    return ('<ros2_control name="c" type="system"><hardware><plugin>mock_components/'
            f'GenericSystem</plugin></hardware><joint name="j">{joint_limits}{interfaces}'
            '<state_interface name="position"/></joint></ros2_control>')


def command(name: str, limits: str = '') -> str:
    return f'<command_interface name="{name}">{limits}</command_interface>'


TRANSMISSION = ('<transmission name="t"><type>transmission_interface/SimpleTransmission</type>'
                '<joint name="j"><hardwareInterface>hardware_interface/VelocityJointInterface'
                '</hardwareInterface></joint><actuator name="m"><mechanicalReduction>1'
                '</mechanicalReduction></actuator></transmission>')
VELOCITY_0 = '<limit effort="10" velocity="0"/>'
EFFORT_0 = '<limit effort="0" velocity="2"/>'
OFF = '<limits enable="false"/>'

#: name -> (URDF, whether ros2_control's limiter stops every command of the joint; ``None``: no
#: finding).
CASES: dict[str, tuple[str, bool | None]] = {
    'velocity-interface': (robot(VELOCITY_0, control(command('velocity'))), True),
    'position-interface': (robot(VELOCITY_0, control(command('position'))), True),
    'effort-interface-velocity-0': (robot(VELOCITY_0, control(command('effort'))), True),
    'effort-interface-effort-0': (robot(EFFORT_0, control(command('effort'))), True),
    # a position command is bounded by the velocity, not by the effort: Gazebo's motor only
    'position-interface-effort-0': (robot(EFFORT_0, control(command('position'))), False),
    # KUKA's ros2_control joints: effort="0" stops the effort commands, not the position ones
    'effort-0-beside-position': (robot(EFFORT_0, control(command('position')
                                                         + command('effort'))), False),
    'joint-limits-off': (robot(VELOCITY_0, control(command('velocity'), OFF)), False),
    'velocity-limits-off': (robot(VELOCITY_0, control(command('velocity', OFF))), False),
    'ros1-transmission': (robot(VELOCITY_0, TRANSMISSION), False),
    'state-interface-only': (robot(VELOCITY_0, control('')), None),
    'not-actuated': (robot(VELOCITY_0), None),
    'block-never-read': (robot(VELOCITY_0, f'<gazebo>{control(command("velocity"))}</gazebo>'),
                         None),
    'no-limit': (robot('', control(command('velocity'))), None),
    'slow-but-moving': (robot('<limit effort="10" velocity="0.001"/>',
                              control(command('velocity'))), None),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_a_zero_limit_is_an_error_where_ros2_control_clamps_the_command(name: str) -> None:
    text, clamped = CASES[name]
    for target in TARGETS:
        found = [f for f in check_description(load_string(text), target) if f.code == CODE]
        if clamped is None:
            assert found == [], found
            continue
        (finding,) = found
        error = clamped and ENFORCED_BY_DEFAULT.get(target.removeprefix('ros-')) is True
        assert finding.severity is (Severity.ERROR if error else Severity.WARNING), target
        assert ('the joint never moves' in finding.message) is clamped, finding.message
        assert "Gazebo takes it as the motor's" in finding.message
        assert finding.location is not None and finding.location.line == 1


def test_the_targets_enforcing_limits_are_the_distros_that_default_to_it() -> None:
    for distro, enforced in ENFORCED_BY_DEFAULT.items():
        assert ('ros2_control-limits' in TARGETS[f'ros-{distro}']) is bool(enforced), distro
    for target in ('gazebo', 'mujoco', 'pinocchio'):
        assert 'ros2_control-limits' not in TARGETS[target]


def test_an_effort_of_0_beside_a_position_interface_says_which_commands_it_stops() -> None:
    (finding,) = [f for f in check_description(load_string(CASES['effort-0-beside-position'][0]),
                                               'ros-kilted') if f.code == CODE]
    assert "limits its effort commands by it by default (enforce_command_limits; Jazzy's only " \
        'when that is set), not its position commands; Gazebo' in finding.message
    assert finding.severity is Severity.WARNING


def test_the_finding_names_the_interfaces_and_the_real_value_to_write() -> None:
    text = robot('<limit lower="0" upper="0.1" effort="5" velocity="0"/>', TRANSMISSION,
                 control(command('position') + command('velocity')), joint_type='prismatic')
    (finding,) = [f for f in check_description(load_string(text), 'ros-rolling')
                  if f.code == CODE]
    assert finding.message.startswith(
        'joint "j" (prismatic): limit velocity="0" on a joint driven by the position, velocity '
        'command interfaces of ros2_control "c" and transmission "t": ros2_control from Kilted '
        'limits its position/velocity commands by it by default')
    assert finding.fix == 'velocity="..." with the actuator\'s rated velocity (m/s)'


@pytest.mark.parametrize('safety, shown', [
    ('soft_lower_limit="-0.5" soft_upper_limit="0.5"', 'position commands kept in [-0.5, 0.5],'),
    # urdfdom reads an absent soft limit as 0: the range is [0, 0.9] for ros2_control
    ('soft_upper_limit="0.9"', 'position commands kept in [0, 0.9] (soft_lower_limit absent: '
                               'urdfdom reads 0)'),
    ('', 'no soft range, so positions unbounded by it (soft_lower_limit and soft_upper_limit '
         'absent: urdfdom reads 0)'),
])
def test_a_safety_controller_that_ros2_control_applies_is_an_info(safety: str,
                                                                  shown: str) -> None:
    limit = f'<limit lower="-1" upper="1" effort="5" velocity="2"/><safety_controller ' \
            f'k_velocity="10" k_position="15" {safety}/>'
    for text, applied in ((robot(limit, control(command('position')), joint_type='revolute'),
                           True),
                          (robot(limit, control(command('position'), OFF), joint_type='revolute'),
                           False),
                          (robot(limit, control(''), joint_type='revolute'), False)):
        found = [f for f in check_description(load_string(text), 'ros-kilted')
                 if f.code == 'safety-controller-applied']
        assert len(found) == applied
        for finding in found:
            assert finding.severity is Severity.INFO and shown in finding.message, finding
            assert (finding.fix is not None) is ('absent' in shown)


def _good_examples() -> list[tuple[str, str]]:
    return sorted((code, example.good) for code, example in EXAMPLES.items())


@pytest.mark.parametrize('code, good', _good_examples())
def test_no_good_example_writes_a_limit_that_stops_its_joint(code: str, good: str) -> None:
    """A fixed example a user copies moves when commanded: no effort or velocity of 0."""
    assert CODE not in {f.code for f in check_description(load_string(good), 'ros-rolling')}
    try:
        joints = load_string(good).robot.joints
    except RobotDescriptionError:
        return
    for joint in joints:
        if joint.limit is not None:
            assert 0 not in (joint.limit.effort, joint.limit.velocity), (code, joint.name)


@pytest.mark.oracle
def test_pybullet_keeps_the_limits_but_its_motors_do_not_apply_them(tmp_path: Path) -> None:
    """The joint reports effort and velocity 0 (getJointInfo); a commanded motor turns anyway."""
    pybullet = pytest.importorskip('pybullet')
    path = tmp_path / 'robot.urdf'
    path.write_text(robot('<limit effort="0" velocity="0"/>', TRANSMISSION))
    client = pybullet.connect(pybullet.DIRECT)
    try:
        body = pybullet.loadURDF(str(path), useFixedBase=True, physicsClientId=client)
        info = pybullet.getJointInfo(body, 0, physicsClientId=client)
        assert (info[10], info[11]) == (0.0, 0.0)  # jointMaxForce, jointMaxVelocity
        pybullet.setJointMotorControl2(body, 0, pybullet.VELOCITY_CONTROL, targetVelocity=1.0,
                                       force=10.0, physicsClientId=client)
        for _ in range(240):
            pybullet.stepSimulation(physicsClientId=client)
        position, velocity = pybullet.getJointState(body, 0, physicsClientId=client)[:2]
        assert velocity == pytest.approx(1.0, abs=1e-3) and position > 0.5
    finally:
        pybullet.disconnect(client)
