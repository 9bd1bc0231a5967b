"""
TF broadcaster: a drop-in for robot_state_publisher.

Takes the ``robot_description`` parameter and publishes that topic, or follows the topic (an
empty parameter, or ``description_from_topic: true``, as on Kilted and Rolling). On ``/tf``: the
transform of every moving joint a ``joint_states`` message names, at its stamp, and of every
mimic joint whose source it names; on ``/tf_static``: the whole set of fixed joints, again after
every new description or ``frame_prefix``, so moved or removed frames are gone for late joiners.

As robot_state_publisher: names that are not moving joints are ignored, a mimic joint named in
the message is published at that value, and a joint is published at most ``publish_frequency``
times per second by the stamps unless ``ignore_timestamp``. Non-finite values and mismatched
lengths are refused with a throttled warning (:mod:`urdf_tools_ros.core.tf.broadcast`).

Floating and planar joints (variables ``<joint>/x``, ``<joint>/yaw``, ...) go on ``/tf`` only
once ``joint_states`` names one: never at a made-up zero that would fight odometry
(robot_state_publisher skips a floating joint and publishes a planar one as fixed).

Command line as robot_state_publisher 3.3's: an optional URDF file, read when the parameter is
empty. The ``joint_states`` subscription honours ``qos_overrides./joint_states.subscription.*``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos_overriding_options import QoSOverridingOptions
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from urdf_tools_ros.core.source.loader import load_string, read_file
from urdf_tools_ros.core.source.packages import ament_package_locator
from ..core.errors import RobotDescriptionError
from ..core.tf.broadcast import TfFrames, TfThrottle
from ..ros import conversions, parameters, qos
from ..ros.spin import description_file_argument, spin_node
from ..ros.tf_writer import TfWriter

__all__ = ['TfBroadcasterNode', 'TfFrames', 'TfThrottle', 'main']

_WARN_PERIOD = 5.0  # s between two warnings about bad joint_states


class TfBroadcasterNode(Node):
    """
    ``/tf`` and ``/tf_static`` from ``robot_description`` and ``joint_states``.

    :param node_name: Node name (``robot_state_publisher`` for the drop-in executable).
    :param description_file: A URDF file to use when the ``robot_description`` parameter is
        empty (robot_state_publisher's deprecated command-line argument).
    :param kwargs: Passed to :class:`rclpy.node.Node` (``parameter_overrides``, ``context``).
    """

    def __init__(self, node_name: str = 'tf_broadcaster', *,
                 description_file: str | None = None, **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        parameters.declare(self, parameters.TF_PARAMETERS)
        settings = parameters.settings(self, parameters.TfSettings)
        self._prefix: str = settings.frame_prefix
        self._rate_limit: tuple[float, bool] = (settings.publish_frequency,
                                                settings.ignore_timestamp)
        self._frames: TfFrames | None = None
        self._moving: tuple[TfFrames, TfThrottle] | None = None
        self._writer = TfWriter(self)
        self._description_publisher = None
        description = settings.robot_description
        if not description and description_file is not None:
            description = self._read_description_file(description_file)
        if description and not settings.description_from_topic:
            self._description_publisher = self.create_publisher(
                String, 'robot_description', qos.LATCHED_DESCRIPTION)
            try:
                self._use(self._load(description))
            except RobotDescriptionError as exc:
                self.get_logger().error(f'robot_description parameter: {exc}')
        else:
            self.create_subscription(String, 'robot_description', self._on_robot_description,
                                     qos.LATCHED_DESCRIPTION)
            self.get_logger().info('Waiting for robot_description to be published on the '
                                   'robot_description topic...')
        self.create_subscription(JointState, 'joint_states', self._on_joint_states,
                                 qos.JOINT_STATES_SUBSCRIPTION,
                                 qos_overriding_options=QoSOverridingOptions
                                 .with_default_policies())
        parameters.on_set(self, self._refusal, self._apply)

    def _read_description_file(self, path: str) -> str:
        """The text of URDF file ``path`` for an empty parameter, as RSP 3.3 reads it."""
        self.get_logger().warning(
            'No robot_description parameter, but command-line argument available.  Assuming '
            'argument is name of URDF file.  This backwards compatibility fallback will be '
            'removed in the future.')
        try:
            text = read_file(path).decode('utf-8')
        except (RobotDescriptionError, UnicodeDecodeError) as exc:
            self.get_logger().error(f'Failed to open URDF file: {path} ({exc})')
            return ''
        # as robot_state_publisher: the file becomes the parameter (ros2 param get shows it)
        self.set_parameters([Parameter('robot_description', Parameter.Type.STRING, text)])
        return text

    @staticmethod
    def _load(xml: str) -> TfFrames:
        """Frames of a description given as XML (never run through xacro: it is code)."""
        return TfFrames(load_string(xml, '<robot_description>', is_xacro=False,
                                    locator=ament_package_locator))

    def _use(self, frames: TfFrames) -> None:
        """Take a new description: publish it (parameter mode) and the full /tf_static set."""
        self._frames = frames
        self._moving = (frames, TfThrottle(*self._rate_limit))
        self._tf = conversions.TfMessageBuilder(frames.edges, self._prefix)
        for name, kind, variables in frames.multi_dof_joints():
            self.get_logger().info(
                f'joint "{name}" ({kind}): on /tf only once joint_states names '
                f'{", ".join(variables)} (never at a made-up zero)')
        if self._description_publisher is not None:
            self._description_publisher.publish(
                conversions.description_to_msg(frames.description.xml))
        self._writer.publish_static(conversions.tf_message(  # the whole set, every time
            frames.static_transforms(), frames.edges, self.get_clock().now().nanoseconds,
            self._prefix))
        self.get_logger().info(
            f'robot "{frames.description.robot.name}": {len(frames.moving)} moving joints on '
            f'/tf, {len(frames.static_transforms())} fixed joints on /tf_static')

    def _on_robot_description(self, msg: String) -> None:
        try:
            frames = self._load(conversions.description_from_msg(msg))
        except RobotDescriptionError as exc:
            self.get_logger().error(f'robot_description refused, keeping the previous one: {exc}')
            return
        self._use(frames)

    def _on_joint_states(self, msg: JointState) -> None:
        """Publish the transforms of the joints a joint_states message moves."""
        moving = self._moving
        if moving is None:
            return
        frames, throttle = moving
        names = tuple(msg.name)
        stamp_ns = conversions.time_from_msg(msg.header.stamp)
        if not throttle.admit(names, stamp_ns, self.get_clock().now().nanoseconds):
            return
        try:
            moved = frames.moving_transforms(names, np.asarray(msg.position, dtype=np.float64))
            if moved.joints:
                self._writer.publish(self._tf.build(moved.joints, moved.translation,
                                                    moved.quaternion, stamp_ns))
            problems = moved.problems
        except RobotDescriptionError as exc:
            problems = (str(exc),)
        if problems:
            self.get_logger().warning('joint_states: ' + '; '.join(problems[:5]),
                                      throttle_duration_sec=_WARN_PERIOD)

    def _refusal(self, given: dict[str, Any]) -> str | None:
        """Why parameter changes are refused (``None``: accepted); validates, changes nothing."""
        for name, new in given.items():
            try:
                reason = parameters.problem(parameters.spec(parameters.TF_PARAMETERS, name), new)
            except KeyError:
                continue
            if reason is not None:
                return f'{name}: {new!r} {reason}'
        if 'robot_description' in given and self._description_publisher is None:
            return ('this node follows the robot_description topic (the parameter was empty at '
                    'start); publish the new description there')
        try:
            if 'robot_description' in given:
                self._load(str(given['robot_description']))
        except RobotDescriptionError as exc:
            return str(exc)
        return None

    def _apply(self, given: dict[str, Any]) -> None:
        """Take parameter changes once they are set (they were validated)."""
        frames = self._frames
        if 'robot_description' in given:
            frames = self._load(str(given['robot_description']))
        self._rate_limit = (float(self.get_parameter('publish_frequency').value),
                            bool(self.get_parameter('ignore_timestamp').value))
        if self._moving is not None:
            self._moving = (self._moving[0], TfThrottle(*self._rate_limit))
        self._prefix = str(self.get_parameter('frame_prefix').value)
        if frames is not None and (frames is not self._frames or 'frame_prefix' in given):
            self._use(frames)


def main(args: list[str] | None = None, node_name: str = 'tf_broadcaster') -> None:
    """
    Run the TF broadcaster until shut down.

    :param args: The command line (``sys.argv`` when ``None``): an optional URDF file, then ROS
        arguments.
    :param node_name: The node's default name.
    """
    path = description_file_argument(
        args, node_name, __doc__.split('\n\n')[0], 'URDF file to use when the '
        'robot_description parameter is empty (deprecated in robot_state_publisher)')
    spin_node(lambda: TfBroadcasterNode(node_name, description_file=path), args)


if __name__ == '__main__':
    main()
