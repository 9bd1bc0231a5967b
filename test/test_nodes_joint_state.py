"""The joint-state publisher node on a real ROS 2 graph: mimic joints, sources, bad input."""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any

import numpy as np
import pytest

from ros_helpers import (MIMIC_URDF, requires_ros, ros_context, ros_graph,  # noqa: F401
                         ROS_MISSING, RosGraph, settle, wait_for)

from conftest import free_port
from urdf_tools_ros.core.transforms import origin, transform_to_quaternion

if ROS_MISSING is None:
    from geometry_msgs.msg import TransformStamped
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String
    from tf2_msgs.msg import TFMessage

    from urdf_tools_ros.nodes.joint_state_publisher import JointStatePublisherNode
    from urdf_tools_ros.ros import parameters, qos

pytestmark = requires_ros

ACTUATED = ['shoulder', 'finger_left_joint', 'wheel_joint', 'slide']
ALL_JOINTS = ['shoulder', 'finger_left_joint', 'finger_right_joint', 'wheel_joint', 'slide']


def start(ros: RosGraph, xml: str | None = MIMIC_URDF, **params: object) -> tuple[
        JointStatePublisherNode, object, object]:
    params.setdefault('rate', 50)
    node = ros.add(JointStatePublisherNode, parameters=dict(params))
    description = ros.publisher(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    if xml is not None:
        description.publish(String(data=xml))
    states = ros.subscribe(JointState, 'joint_states', qos.JOINT_STATES_SUBSCRIPTION)
    return node, description, states


def positions(msg: JointState) -> dict[str, float]:
    return dict(zip(msg.name, msg.position))


def source_state(names: list[str], position: list[float], velocity: list[float] | None = None
                 ) -> JointState:
    msg = JointState()
    msg.name, msg.position, msg.velocity = names, position, velocity or []
    return msg


#: MIMIC_URDF with a joint of a type joint_state_publisher does not know, with a <limit>.
BALL = MIMIC_URDF.replace('</robot>', """<link name="ball_link"/>
  <joint name="ball" type="spherical"><parent link="tool"/><child link="ball_link"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
</robot>""")


@pytest.mark.parametrize('xml, params, expected, velocity', [
    pytest.param(MIMIC_URDF, {'zeros.finger_left_joint': 0.03, 'zeros.shoulder': 0.5},
                 {'finger_left_joint': 0.03, 'finger_right_joint': -0.03,  # multiplier -1
                  'shoulder': 0.5, 'slide': 0.2,  # 0 is outside [0.1, 0.3]: the middle
                  'wheel_joint': 0.0}, [], id='mimic-and-zeros'),
    pytest.param(MIMIC_URDF, {'use_mimic_tags': False, 'publish_default_velocities': True,
                              'zeros.finger_left_joint': 0.03},
                 {'finger_left_joint': 0.03, 'finger_right_joint': 0.0},  # its own default
                 [0.0] * 5, id='without-mimic-tags'),
    # robot_state_publisher drops a message without positions: zeros
    pytest.param(MIMIC_URDF, {'publish_default_positions': False},
                 dict.fromkeys(ALL_JOINTS, 0.0), [], id='without-default-positions'),
    pytest.param(BALL, {}, {'ball': 0.0}, [], id='unknown-joint-type'),
])
def test_the_first_message(ros: RosGraph, xml: str, params: dict[str, object],
                           expected: dict[str, float], velocity: list[float]) -> None:
    node, _, states = start(ros, xml, **params)
    assert wait_for(lambda: states.messages)
    msg = states.last
    assert list(msg.name) == ALL_JOINTS + (['ball'] if xml == BALL else [])
    assert {name: positions(msg)[name] for name in expected} == pytest.approx(expected)
    assert list(msg.velocity) == velocity and list(msg.effort) == []
    now = node.get_clock().now().nanoseconds
    stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
    assert 0 <= now - stamp < 10_000_000_000


def test_sources_merged_by_name_and_bad_values_refused(ros: RosGraph) -> None:
    node, _, states = start(ros, source_list=['source_a', 'source_b'],
                            clamp='position')
    a = ros.publisher(JointState, 'source_a', qos.JOINT_STATES_PUBLISHER)
    b = ros.publisher(JointState, 'source_b', qos.JOINT_STATES_SUBSCRIPTION)  # best effort
    assert wait_for(lambda: states.messages)
    bad = [
        source_state(['shoulder', 'wheel_joint'], [math.nan, 1.0]),       # NaN: shoulder refused
        source_state(['slide', 'shoulder'], [0.15]),                      # mismatched lengths
        source_state(['nope', 'base_joint', 'finger_right_joint'], [1.0, 2.0, 3.0]),
        source_state(['shoulder'], [math.inf], [math.nan]),
    ]
    cycle = itertools.cycle(bad)

    def merged() -> bool:
        a.publish(next(cycle))
        b.publish(source_state(['finger_left_joint', 'slide'], [0.01, 5.0]))  # 5.0 clamped
        values = positions(states.last)
        return values['wheel_joint'] == 1.0 and values['finger_left_joint'] == 0.01

    assert wait_for(merged)
    settle(0.1)
    values = positions(states.last)
    assert values['finger_right_joint'] == pytest.approx(-0.01)
    assert values['slide'] == pytest.approx(0.3)
    assert values['shoulder'] == 0.0
    assert all(math.isfinite(v) for m in states.messages for v in
               [*m.position, *m.velocity, *m.effort])


def test_with_a_live_source_the_first_message_already_holds_its_values(ros: RosGraph) -> None:
    # a driver at 10 Hz before the node starts; the node publishes at 100 Hz: without the hold
    # its first messages would go out before the driver's first sample reached it
    driver = ros.publisher(JointState, 'driver', qos.JOINT_STATES_PUBLISHER)
    ros.probe.create_timer(0.1, lambda: driver.publish(
        source_state(['shoulder', 'slide'], [0.7, 0.25])))
    states = ros.subscribe(JointState, 'joint_states', qos.JOINT_STATES_SUBSCRIPTION)
    description = ros.publisher(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    description.publish(String(data=MIMIC_URDF))
    settle(0.3)  # the driver runs
    ros.add(JointStatePublisherNode, parameters={'rate': 100, 'source_list': ['driver']})
    assert wait_for(lambda: len(states.messages) >= 5)
    for msg in states.messages:
        assert positions(msg)['shoulder'] == pytest.approx(0.7)
        assert positions(msg)['slide'] == pytest.approx(0.25)


def test_new_description_resets_and_garbage_keeps_the_table(ros: RosGraph) -> None:
    node, description, states = start(ros, source_list=['source'])
    source = ros.publisher(JointState, 'source', qos.JOINT_STATES_PUBLISHER)
    assert wait_for(lambda: states.messages)
    assert wait_for(lambda: (source.publish(source_state(['shoulder'], [0.7])),
                             positions(states.last)['shoulder'] == pytest.approx(0.7))[1])
    for garbage in ['', 'not xml', '<robot name="r"><joint name="j" type="revolute">'
                    '<parent link="a"/><child link="b"/></joint></robot>']:
        description.publish(String(data=garbage))
    settle()
    assert positions(states.last)['shoulder'] == pytest.approx(0.7)
    renamed = MIMIC_URDF.replace('"shoulder"', '"shoulder2"')
    description.publish(String(data=renamed))
    assert wait_for(lambda: 'shoulder2' in states.last.name)
    assert positions(states.last)['shoulder2'] == 0.0
    assert node.table is not None and 'shoulder2' in node.table.joint_names


def test_the_delta_sweep_jumps_a_continuous_joint_from_pi_to_minus_pi(ros: RosGraph) -> None:
    """As joint_state_publisher 2.4: no wrap by 2 pi."""
    _, _, states = start(ros, delta=0.9, rate=50, **{'zeros.wheel_joint': 3.0})

    def wheel() -> list[float]:
        return [positions(m)['wheel_joint'] for m in list(states.messages)]

    assert wait_for(lambda: -math.pi in wheel() and wheel().count(-math.pi) >= 2)
    # forward only, every value in [-pi, pi]: 3.0 -> -pi -> ... -> 2.26 -> -pi
    assert all(-math.pi <= value <= math.pi for value in wheel())
    assert any(value > 2.0 for value in wheel())


def test_parameters_typed_as_joint_state_publisher_takes_them(ros: RosGraph) -> None:
    """A double rate, an integer delta, zeros and dependent_joints of unknown joints."""
    node, _, states = start(ros, rate=40.0, delta=1,
                            **{'zeros.not_a_joint': 0.3, 'dependent_joints.ghost.parent': 'x',
                               'dependent_joints.ghost.factor': 2.0})
    assert wait_for(lambda: len(states.messages) > 5)
    assert node.get_parameter('rate').value == 40.0
    assert node.get_parameter('delta').value == 1
    # delta 1 rad per publication: the shoulder sweeps to its ends and back
    assert wait_for(lambda: len({positions(m)['shoulder'] for m in states.messages}) > 2)
    for name in ('zeros.not_a_joint', 'dependent_joints.ghost.parent',
                 'dependent_joints.ghost.factor'):
        assert node.has_parameter(name), name
    # source_list is set (to []), so ros2 param get / dump show it
    assert list(node.get_parameter('source_list').value) == []


@pytest.mark.parametrize('name, bad', [('rate', 0), ('rate', -5.0), ('rate', 'fast'),
                                       ('use_mimic_tags', 'notabool'), ('delta', 'x'),
                                       ('source_list', 3), ('gui_port', 1.5)])
def test_a_bad_value_is_warned_and_the_default_used(ros: RosGraph, name: str,
                                                    bad: object) -> None:
    node, _, states = start(ros, **{name: bad, 'rate': 50} if name != 'rate' else {name: bad})
    default = parameters.spec(parameters.JOINT_STATE_PARAMETERS, name).default
    value = node.get_parameter(name).value
    assert (list(value) if name == 'source_list' else value) == default
    assert wait_for(lambda: states.messages)  # the node runs and publishes


def test_description_file_argument_is_used_before_the_topic(ros: RosGraph, tmp_path: Any,
                                                            capfd: Any) -> None:
    """``joint_state_publisher robot.urdf``: the file's joints, then the topic's (as upstream)."""
    path = tmp_path / 'robot.urdf'
    path.write_text(MIMIC_URDF)
    node = ros.add(lambda **kwargs: JointStatePublisherNode(description_file=str(path),
                                                            **kwargs), parameters={'rate': 50})
    states = ros.subscribe(JointState, 'joint_states', qos.JOINT_STATES_SUBSCRIPTION)
    assert wait_for(lambda: states.messages)
    assert list(states.last.name) == ALL_JOINTS
    assert 'Waiting for robot_description' not in capfd.readouterr().err
    ros.publisher(String, 'robot_description', qos.LATCHED_DESCRIPTION).publish(
        String(data=MIMIC_URDF.replace('"shoulder"', '"shoulder2"')))
    assert wait_for(lambda: 'shoulder2' in states.last.name)
    assert node.table is not None


def test_without_a_description_it_says_it_waits(ros: RosGraph, capfd: Any) -> None:
    _, _, states = start(ros, xml=None)
    assert wait_for(lambda: 'Waiting for robot_description to be published on the '
                    'robot_description topic' in capfd.readouterr().err, timeout=5.0)
    assert states.messages == []


def test_a_robot_without_moving_joints_publishes_nothing(ros: RosGraph) -> None:
    fixed = MIMIC_URDF.split('<joint')[0] + '</robot>'
    node, _, states = start(ros, xml=fixed)
    assert wait_for(lambda: node.table is not None)
    settle(0.5)
    assert states.messages == []


@pytest.mark.parametrize('limits, middle', [
    ('<limit lower="0.3" upper="0.1" effort="5" velocity="0.1"/>', 0.2),  # inverted
    ('<limit lower="0.1" upper="0.3" effort="5" velocity="0.1"/><safety_controller '
     'soft_lower_limit="0.5" soft_upper_limit="0.6" k_position="1" k_velocity="1"/>', 0.4)])
def test_an_empty_range_joint_is_logged_and_published_at_its_middle(
        ros: RosGraph, capfd: Any, limits: str, middle: float) -> None:
    """As joint_state_publisher: (lower + upper) / 2 of the narrowed range; the rest works."""
    xml = MIMIC_URDF.replace('<limit lower="0.1" upper="0.3" effort="5" velocity="0.1"/>',
                             limits)
    assert xml != MIMIC_URDF
    _, _, states = start(ros, xml=xml, **{'zeros.shoulder': 0.5})
    assert wait_for(lambda: states.messages)
    assert list(states.last.name) == ALL_JOINTS
    assert positions(states.last)['slide'] == pytest.approx(middle)
    assert positions(states.last)['shoulder'] == pytest.approx(0.5)
    log = capfd.readouterr().err
    assert '[ERROR]' in log and 'joint "slide": its range is empty' in log


def test_a_large_rate_is_taken(ros: RosGraph) -> None:
    node, _, states = start(ros, rate=2000)
    assert node.get_parameter('rate').value == 2000
    assert wait_for(lambda: len(states.messages) > 50)


def test_bad_clamp_is_refused_at_start(ros: RosGraph) -> None:
    with pytest.raises(ValueError, match='clamp'):
        ros.add(JointStatePublisherNode, parameters={'clamp': 'sometimes'})


def test_gui_shares_the_table(ros: RosGraph) -> None:
    pytest.importorskip('viser')
    node, _, states = start(ros, gui=True, gui_port=18321)
    assert wait_for(lambda: states.messages and node.viewer is not None)
    viewer = node.viewer
    viewer.move_joint('shoulder', 0.4)
    assert wait_for(lambda: positions(states.last)['shoulder'] == pytest.approx(0.4))


def test_gui_without_viser_keeps_publishing(ros: RosGraph,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # viser has no rosdep key: a ROS user may not have it. One error line, no crash.
    monkeypatch.setitem(sys.modules, 'viser', None)
    monkeypatch.delitem(sys.modules, 'urdf_tools_ros.gui.viewer', raising=False)
    node, _, states = start(ros, gui=True, gui_port=free_port())
    count = len(states.messages)
    assert wait_for(lambda: len(states.messages) > count + 2)
    assert node.viewer is None


def tf_message(parent: str, child: str, T_parent_child: np.ndarray) -> TFMessage:
    msg = TFMessage()
    item = TransformStamped()
    item.header.frame_id, item.child_frame_id = parent, child
    xyz, quat = transform_to_quaternion(T_parent_child)
    t, r = item.transform.translation, item.transform.rotation
    t.x, t.y, t.z = (float(v) for v in xyz)
    r.x, r.y, r.z, r.w = (float(v) for v in quat)
    msg.transforms = [item]
    return msg


def close_to(viewer: Any, link: str, expected: np.ndarray) -> bool:
    return bool(np.allclose(viewer.link_pose(link), expected, atol=1e-6))


def test_gui_view_is_the_forward_kinematics_of_what_it_publishes(ros: RosGraph) -> None:
    """The page poses the robot from the table (as urdf-tools view), not from /tf."""
    pytest.importorskip('viser')
    node, _, states = start(ros, gui=True, gui_port=free_port(), source_list=['source'],
                            **{'zeros.shoulder': 0.5})
    assert wait_for(lambda: node.viewer is not None)
    viewer = node.viewer
    model = viewer.kinematics
    table_fk = model.link_poses({'shoulder': 0.5})
    assert wait_for(lambda: close_to(viewer, 'arm', table_fk['arm']))
    assert close_to(viewer, 'tool', table_fk['tool'])
    # a transform on /tf that disagrees with the table does not move the page
    tf = ros.publisher(TFMessage, '/tf', qos.TF)
    for _ in range(5):
        tf.publish(tf_message('base', 'arm', origin((0.0, 0.0, 0.2), (0.0, -1.0, 0.0))))
        settle(0.05)
    assert close_to(viewer, 'arm', table_fk['arm'])
    # a source_list value moves the published state and the page together
    source = ros.publisher(JointState, 'source', qos.JOINT_STATES_PUBLISHER)
    moved = model.link_poses({'shoulder': -0.7, 'finger_left_joint': 0.02})
    assert wait_for(lambda: (source.publish(source_state(['shoulder', 'finger_left_joint'],
                                                         [-0.7, 0.02])),
                             close_to(viewer, 'finger_right', moved['finger_right']))[1])
    assert close_to(viewer, 'arm', moved['arm'])
    assert wait_for(lambda: states.messages and
                    positions(states.last)['shoulder'] == pytest.approx(-0.7))


def test_gui_view_follows_the_delta_sweep(ros: RosGraph) -> None:
    pytest.importorskip('viser')
    node, _, states = start(ros, gui=True, gui_port=free_port(), delta=0.05)
    assert wait_for(lambda: node.viewer is not None and len(states.messages) > 3)
    viewer = node.viewer
    model = viewer.kinematics

    def drawn_as_published() -> bool:
        shoulder = positions(states.last)['shoulder']
        return shoulder != 0.0 and close_to(viewer, 'arm',
                                            model.link_poses({'shoulder': shoulder})['arm'])

    assert wait_for(drawn_as_published)
