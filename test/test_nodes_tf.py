"""The TF broadcaster node on a real ROS 2 graph: /tf equals the core's FK, /tf_static, prefix."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
import subprocess
import sys
import threading
import time
from typing import Any

import compat_fastdds
import numpy as np
import pytest

from ros_helpers import (ABSOLUTE_TOPICS, Inbox, MIMIC_URDF, requires_ros,  # noqa: F401
                         ros_context, ros_graph, ROS_MISSING, RosGraph, settle, wait_for)

from conftest import missing, REPO, SAMPLE_ROBOT
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load, load_string
from urdf_tools_ros.core.transforms import FloatArray, transform_from_quaternion

if ROS_MISSING is None:
    from geometry_msgs.msg import TransformStamped
    from rclpy.parameter import Parameter
    import rclpy.time
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String
    from tf2_msgs.msg import TFMessage

    from urdf_tools_ros.nodes.tf_broadcaster import TfBroadcasterNode
    from urdf_tools_ros.ros import qos

pytestmark = requires_ros
NODES = REPO / 'test' / 'urdf' / 'nodes'
#: A planar joint world -> cart, a floating one cart -> body.
PLANAR_URDF = (NODES / 'planar_bot.urdf').read_text()
#: A floating joint odom -> base_link, a revolute one base_link -> arm.
ODOM_URDF = (NODES / 'mobile.urdf').read_text()


def static_listener() -> Any:
    """
    The QoS of tf2_ros's static transform listener (``StaticListenerQoS``: depth 100).

    A depth of 1 drops one of two static messages of two broadcasters that arrive together.
    """
    from rclpy.qos import QoSProfile
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)


def matrix(transform: TransformStamped) -> FloatArray:
    """The (4, 4) ``T_parent_child`` a TransformStamped carries."""
    t, q = transform.transform.translation, transform.transform.rotation
    return transform_from_quaternion([t.x, t.y, t.z], [q.x, q.y, q.z, q.w])


def by_child(message: TFMessage) -> dict[str, TransformStamped]:
    return {transform.child_frame_id: transform for transform in message.transforms}


def joint_state(names: list[str], positions: list[float], sec: int = 100,
                nanosec: int = 0) -> JointState:
    msg = JointState()
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    msg.name, msg.position = names, positions
    return msg


def finite(message: TFMessage) -> bool:
    return all(math.isfinite(getattr(vector, axis, 0.0)) for t in message.transforms
               for vector in (t.transform.translation, t.transform.rotation) for axis in 'xyzw')


def start(ros: RosGraph, xml: str | None = MIMIC_URDF, factory: Any = None,
          **params: Any) -> tuple[TfBroadcasterNode, Any, Any, Any]:
    """A TF node (description published on the topic when ``xml``), inboxes of /tf, /tf_static."""
    params.setdefault('ignore_timestamp', True)
    node = ros.add(factory or TfBroadcasterNode, parameters=params)
    description = ros.publisher(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    if xml is not None:
        description.publish(String(data=xml))
    tf = ros.subscribe(TFMessage, '/tf', qos.TF)
    tf_static = ros.subscribe(TFMessage, '/tf_static', static_listener())
    joints = ros.publisher(JointState, 'joint_states', qos.JOINT_STATES_PUBLISHER)
    return node, description, joints, (tf, tf_static)


def test_tf_equals_core_forward_kinematics(ros: RosGraph) -> None:
    """Through TFMessage publishers with robot_state_publisher's QoS, to a real subscriber."""
    description = load(SAMPLE_ROBOT)
    model = KinematicModel(description.robot)
    node, _, joints, (tf, tf_static) = start(ros, description.xml)
    for topic, durability, depth in (('/tf', DurabilityPolicy.VOLATILE, 100),
                                     ('/tf_static', DurabilityPolicy.TRANSIENT_LOCAL, 1)):
        assert wait_for(lambda: ros.probe.count_publishers(ros.topic(topic)) == 1)
        (info,) = [info for info in ros.probe.get_publishers_info_by_topic(ros.topic(topic))
                   if info.node_name == node.get_name()]
        assert str(info.topic_type) == 'tf2_msgs/msg/TFMessage'
        assert info.qos_profile.reliability == ReliabilityPolicy.RELIABLE
        assert info.qos_profile.durability == durability
        (publisher,) = [p for p in node.publishers if p.topic_name == ros.topic(topic)]
        assert (publisher.qos_profile.history, publisher.qos_profile.depth) == \
            (HistoryPolicy.KEEP_LAST, depth)  # depth is not in discovery data
    rng = np.random.default_rng(7)
    positions = {name: float(rng.uniform(-0.5, 0.5)) for name in model.joint_names}
    assert wait_for(lambda: tf_static.messages)
    msg = joint_state(list(positions), list(positions.values()), sec=1234, nanosec=5678)
    assert wait_for(lambda: (joints.publish(msg), tf.messages)[1], timeout=10.0)
    received = by_child(tf.messages[0])
    expected = model.joint_transforms(positions)
    joints_by_child = {joint.child: joint for joint in description.robot.joints}
    moved = {joint.child for joint in description.robot.joints if joint.name in expected}
    assert set(received) == moved
    for child, transform in received.items():
        joint = joints_by_child[child]
        assert transform.header.frame_id == joint.parent
        assert (transform.header.stamp.sec, transform.header.stamp.nanosec) == (1234, 5678)
        np.testing.assert_allclose(matrix(transform), expected[joint.name], atol=1e-12)
    # mimic joints are published although the message lacks them
    mimics = [joint for joint in description.robot.joints if joint.mimic is not None]
    assert mimics and all(joint.child in received for joint in mimics)
    assert not set(positions) & {joint.name for joint in mimics}


def late_static(ros: RosGraph) -> list[TransformStamped]:
    """Every transform a subscriber joining now gets on /tf_static (as a tf2 buffer keeps them)."""
    late = ros.subscribe(TFMessage, '/tf_static', static_listener())
    assert wait_for(lambda: late.messages)
    settle()
    return [transform for message in late.messages for transform in message.transforms]


TOOL_ORIGIN = '<origin xyz="0.6 0 0" rpy="0 0 0.5"/>'


def test_a_late_joiner_reads_a_moved_fixed_joint_after_a_reload(ros: RosGraph) -> None:
    node, description, _, (_, first) = start(ros)
    assert wait_for(lambda: first.messages)
    np.testing.assert_allclose(matrix(by_child(first.last)['tool'])[:3, 3], [0.6, 0, 0])
    description.publish(String(data=MIMIC_URDF.replace(
        TOOL_ORIGIN, TOOL_ORIGIN.replace('0.6', '0.9'))))
    assert wait_for(lambda: len(first.messages) >= 2)
    late = late_static(ros)
    assert {t.child_frame_id for t in late} == {'base', 'tool'}
    for transform in late:
        if transform.child_frame_id == 'tool':
            np.testing.assert_allclose(matrix(transform)[:3, 3], [0.9, 0, 0], atol=1e-12)


def test_a_fixed_joint_made_revolute_leaves_tf_static_for_tf(ros: RosGraph) -> None:
    node, description, joints, (tf, first) = start(ros)
    assert wait_for(lambda: first.messages)
    assert set(by_child(first.last)) == {'base', 'tool'}
    description.publish(String(data=MIMIC_URDF.replace(
        '<joint name="tool_joint" type="fixed">', '<joint name="tool_joint" type="revolute">')
        .replace(TOOL_ORIGIN, TOOL_ORIGIN + '<axis xyz="0 0 1"/>'
                 '<limit lower="-1" upper="1" effort="1" velocity="1"/>')))
    assert wait_for(lambda: len(first.messages) >= 2)
    assert {t.child_frame_id for t in late_static(ros)} == {'base'}
    msg = joint_state(['tool_joint'], [0.3])
    assert wait_for(lambda: (joints.publish(msg), tf.messages)[1])
    assert set(by_child(tf.last)) == {'tool'}


def test_frame_prefix(ros: RosGraph) -> None:
    _, _, joints, (tf, tf_static) = start(ros, frame_prefix='r1/')
    assert wait_for(lambda: tf_static.messages)
    assert {(t.header.frame_id, t.child_frame_id) for t in tf_static.last.transforms} == {
        ('r1/world', 'r1/base'), ('r1/arm', 'r1/tool')}
    msg = joint_state(['shoulder'], [0.2])
    assert wait_for(lambda: (joints.publish(msg), tf.messages)[1])
    assert [(t.header.frame_id, t.child_frame_id) for t in tf.last.transforms] == [
        ('r1/base', 'r1/arm')]


def test_bad_joint_states_never_publish_nan(ros: RosGraph) -> None:
    node, _, joints, (tf, tf_static) = start(ros)
    assert wait_for(lambda: tf_static.messages)
    # each kind of bad message once (test_tf_frames has every bad value): NaN refuses its joint,
    # mismatched lengths the message, an unknown and a fixed joint are ignored; then a good one
    cycle = itertools.cycle([joint_state(['shoulder', 'wheel_joint'], [math.nan, 0.5]),
                             joint_state(['shoulder', 'slide'], [0.1]),
                             joint_state(['nope', 'base_joint'], [1.0, 2.0]),
                             joint_state(['slide'], [0.2])])

    def publish_all() -> bool:  # one at a time: the subscription keeps only the last 5
        joints.publish(next(cycle))
        children = {child for message in tf.messages for child in by_child(message)}
        return {'wheel', 'slider'} <= children

    assert wait_for(publish_all)
    assert all(finite(message) for message in tf.messages)
    children = {child for message in tf.messages for child in by_child(message)}
    assert children == {'wheel', 'slider'}  # shoulder never moved: all its values were bad
    assert node.context.ok()


def test_garbage_description_keeps_the_last_good(ros: RosGraph) -> None:
    node, description, joints, (tf, tf_static) = start(ros)
    assert wait_for(lambda: tf_static.messages)
    for garbage in ['', 'garbage', '<robot name="x"><link name="a"/><joint name="j" '
                    'type="revolute"><parent link="a"/><child link="missing"/></joint></robot>',
                    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]><robot name="&e;"/>',
                    '<robot name="loop"><link name="a"/><link name="b"/>'
                    '<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>'
                    '<joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>'
                    '</robot>', '\x00\x01binary']:
        description.publish(String(data=garbage))
    settle()
    assert len(tf_static.messages) == 1
    msg = joint_state(['shoulder'], [0.4])
    assert wait_for(lambda: (joints.publish(msg), tf.messages)[1])
    assert set(by_child(tf.last)) == {'arm'}


def test_robot_description_parameter_publishes_topic_and_is_validated(ros: RosGraph) -> None:
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    node = ros.add(TfBroadcasterNode, parameters={'robot_description': MIMIC_URDF})
    tf_static = ros.subscribe(TFMessage, '/tf_static', static_listener())
    assert wait_for(lambda: received.messages and tf_static.messages)
    assert 'mimic_bot' in received.last.data
    result = node.set_parameters([Parameter('robot_description', value='<robot name="x">')])
    assert not result[0].successful
    assert 'malformed XML' in result[0].reason
    result = node.set_parameters([Parameter('robot_description', value=MIMIC_URDF.replace(
        'mimic_bot', 'renamed_bot'))])
    assert result[0].successful
    assert wait_for(lambda: 'renamed_bot' in received.last.data)
    assert node.get_parameter('robot_description').value.count('renamed_bot') == 1


def test_topic_mode_refuses_parameter(ros: RosGraph) -> None:
    node, *_ = start(ros)
    result = node.set_parameters([Parameter('robot_description', value=MIMIC_URDF)])
    assert not result[0].successful
    assert 'topic' in result[0].reason


def test_description_from_topic_ignores_the_parameter(ros: RosGraph) -> None:
    """robot_state_publisher's description_from_topic (Kilted, Rolling)."""
    other = MIMIC_URDF.replace('name="mimic_bot"', 'name="from_parameter"')
    node, _, _, (_, tf_static) = start(ros, MIMIC_URDF, robot_description=other,
                                       description_from_topic=True)
    assert wait_for(lambda: node._frames is not None)
    assert node._frames.description.robot.name == 'mimic_bot'
    assert node._description_publisher is None


def test_publish_frequency_limits_by_stamp(ros: RosGraph) -> None:
    _, _, joints, (tf, tf_static) = start(ros, ignore_timestamp=False, publish_frequency=10.0)
    assert wait_for(lambda: tf_static.messages)
    first = joint_state(['shoulder'], [0.1], sec=10, nanosec=0)
    assert wait_for(lambda: (joints.publish(first), tf.messages)[1])
    for nanosec in (10_000_000, 50_000_000, 99_000_000):  # within 0.1 s of the first
        joints.publish(joint_state(['shoulder'], [0.2], sec=10, nanosec=nanosec))
    later = joint_state(['shoulder'], [0.3], sec=10, nanosec=100_000_000)
    assert wait_for(lambda: (joints.publish(later), len(tf.messages) >= 2)[1])
    stamps = {(m.transforms[0].header.stamp.sec, m.transforms[0].header.stamp.nanosec)
              for m in tf.messages}
    assert stamps == {(10, 0), (10, 100_000_000)}


@pytest.mark.parametrize('post_set', [True, False], ids=['post-set callback', 'humble'])
def test_frame_prefix_set_at_run_time_republishes_static(ros: RosGraph, post_set: bool) -> None:
    class HumbleTfBroadcaster(TfBroadcasterNode):
        add_post_set_parameters_callback = None  # Humble's rclpy has none: applied next spin

    node, _, _, (_, tf_static) = start(ros, factory=None if post_set else HumbleTfBroadcaster)
    assert wait_for(lambda: tf_static.messages)
    sent = len(tf_static.messages)
    assert node.set_parameters([Parameter('frame_prefix', value='r2/')])[0].successful
    assert wait_for(lambda: len(tf_static.messages) > sent)
    assert {(t.header.frame_id, t.child_frame_id) for t in late_static(ros)} == {
        ('r2/world', 'r2/base'), ('r2/arm', 'r2/tool')}
    assert not node.set_parameters([Parameter('publish_frequency', value=5000.0)])[0].successful


def test_planar_and_floating_go_on_tf_only_once_named(ros: RosGraph) -> None:
    """No made-up zero that would fight odometry on the same transform."""
    node, _, joints, (tf, _) = start(ros, PLANAR_URDF, publish_frequency=50.0)
    assert wait_for(lambda: ros.probe.count_publishers(ros.topic('/tf')) == 1)
    settle(1.5)  # the old node published both at zero at publish_frequency from the start
    assert tf.messages == []
    joints.publish(joint_state(['slide_plane/x', 'slide_plane/yaw'], [0.5, 0.3]))
    assert wait_for(lambda: tf.messages)
    first = by_child(tf.messages[0])
    assert set(first) == {'cart'}  # the floating joint is still not named
    expected = KinematicModel(load_string(PLANAR_URDF, 'planar.urdf').robot).joint_transforms(
        {'slide_plane/x': 0.5, 'slide_plane/yaw': 0.3})['slide_plane']
    np.testing.assert_allclose(matrix(first['cart']), expected, atol=1e-12)
    joints.publish(joint_state(['float/x', 'float/z'], [5.0, 0.25], sec=101))
    assert wait_for(lambda: 'body' in by_child(tf.last))
    np.testing.assert_allclose(matrix(by_child(tf.last)['body'])[:3, 3], [5.0, 0.0, 0.25],
                               atol=1e-12)
    settle(0.3)
    assert all(set(by_child(message)) <= {'cart', 'body'} for message in tf.messages)
    assert len(tf.messages) == 2  # nothing between or after the two joint_states


def test_the_measured_mimic_position_reaches_tf(ros: RosGraph) -> None:
    """A driver's joint_states carries mimic joints: robot_state_publisher uses the value."""
    node, _, joints, (tf, _) = start(ros)
    joints.publish(joint_state(['finger_left_joint', 'finger_right_joint'], [0.03, -0.01]))
    assert wait_for(lambda: tf.messages)
    received = by_child(tf.messages[0])
    assert set(received) == {'finger_left', 'finger_right'}
    np.testing.assert_allclose(matrix(received['finger_right'])[:3, 3], [0.5, -0.03, 0.0],
                               atol=1e-12)  # measured -0.01 (derived would be -0.03 - 0.02)
    np.testing.assert_allclose(matrix(received['finger_left'])[:3, 3], [0.5, 0.05, 0.0],
                               atol=1e-12)


def node_process(ros: RosGraph, *arguments: str) -> tuple[subprocess.Popen[str], Inbox]:
    """The ``robot_state_publisher`` executable in this test's namespace; its output lines."""
    remaps = [item for topic in ABSOLUTE_TOPICS
              for item in ('-r', f'{topic}:={ros.namespace}{topic}')]
    code = 'from urdf_tools_ros.nodes.robot_state_publisher import main; main()'
    process = subprocess.Popen(
        [sys.executable, '-c', code, *arguments, '--ros-args', '-r', f'__ns:={ros.namespace}',
         *remaps], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    lines = Inbox()
    threading.Thread(target=lambda: [lines(line) for line in process.stdout or ()],
                     daemon=True).start()
    return process, lines


def stop(process: subprocess.Popen[str]) -> int:
    """SIGINT, then the exit code (0 too for the PyPI wheels' known hang: compat_fastdds)."""
    code = compat_fastdds.end(process)
    return 0 if code is None else code


def test_without_a_description_it_says_once_what_it_waits_for(ros: RosGraph) -> None:
    process, lines = node_process(ros)
    try:
        waiting = 'Waiting for robot_description to be published on the robot_description topic'
        assert wait_for(lambda: any(waiting in line for line in lines.messages), timeout=30.0), \
            ''.join(lines.messages)
        settle(1.5)
        assert sum(waiting in line for line in lines.messages) == 1
    finally:
        assert stop(process) == 0, ''.join(lines.messages)


def test_the_positional_urdf_file_is_read_as_robot_state_publisher_3_3_reads_it(
        ros: RosGraph, tmp_path: Path) -> None:
    """Foxy/Humble-era launch files pass ``arguments=[urdf_file]``."""
    path = tmp_path / 'mimic_bot.urdf'
    path.write_text(MIMIC_URDF)
    descriptions = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    tf_static = ros.subscribe(TFMessage, '/tf_static', static_listener())
    process, lines = node_process(ros, str(path))
    try:
        assert wait_for(lambda: descriptions.messages and tf_static.messages, timeout=30.0), \
            ''.join(lines.messages)
        assert descriptions.last.data == MIMIC_URDF
        assert {t.child_frame_id for t in tf_static.last.transforms} == {'base', 'tool'}
        assert any('Assuming argument is name of URDF file' in line for line in lines.messages)
        assert not any('Waiting for robot_description' in line for line in lines.messages)
    finally:
        assert stop(process) == 0, ''.join(lines.messages)


def test_a_positional_file_that_cannot_be_read_is_said_and_the_node_waits(
        ros: RosGraph, tmp_path: Path) -> None:
    process, lines = node_process(ros, str(tmp_path / 'missing.urdf'))
    try:
        assert wait_for(lambda: any('Waiting for robot_description' in line
                                    for line in lines.messages), timeout=30.0)
        assert any('Failed to open URDF file' in line and 'missing.urdf' in line
                   for line in lines.messages), ''.join(lines.messages)
    finally:
        assert stop(process) == 0, ''.join(lines.messages)


def test_joint_states_qos_can_be_overridden(ros: RosGraph) -> None:
    name = f'qos_overrides.{ros.topic("joint_states")}.subscription.depth'  # resolved name
    node, _, _, _ = start(ros, **{name: 7})
    assert node.get_parameter(name).value == 7
    depths = [subscription.qos_profile.depth for subscription in node.subscriptions
              if subscription.topic_name.endswith('/joint_states')]
    assert depths == [7]


@pytest.mark.ros_install
@pytest.mark.skipif(missing('tf2_ros') is not None, reason=str(missing('tf2_ros')))
def test_odometry_owns_the_floating_transform_in_a_tf2_buffer(ros: RosGraph) -> None:
    """Odometry publishes odom -> base_link; the TF node never sends it at zero."""
    from tf2_ros import Buffer, TransformListener

    buffer = Buffer()
    listener = TransformListener(buffer, ros.probe, spin_thread=False)
    odometry = ros.publisher(TFMessage, '/tf', qos.TF)
    node, _, joints, (tf, _) = start(ros, ODOM_URDF)
    samples: list[float] = []
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        item = TransformStamped()
        item.header.stamp = ros.probe.get_clock().now().to_msg()
        item.header.frame_id, item.child_frame_id = 'odom', 'base_link'
        item.transform.translation.x = 5.0
        item.transform.rotation.w = 1.0
        odometry.publish(TFMessage(transforms=[item]))
        joints.publish(joint_state(['arm_joint'], [0.2]))  # a driver naming the arm only
        time.sleep(0.05)
        try:
            samples.append(buffer.lookup_transform('odom', 'base_link', rclpy.time.Time())
                           .transform.translation.x)
        except Exception:  # noqa: B902 - tf2 raises several lookup errors before data arrives
            continue
    del listener
    assert len(samples) > 10 and all(x == 5.0 for x in samples), samples
    # on /tf itself: every odom -> base_link is odometry's (the TF node sent none at zero)
    assert all(t.transform.translation.x == 5.0 for m in tf.messages for t in m.transforms
               if t.child_frame_id == 'base_link')
