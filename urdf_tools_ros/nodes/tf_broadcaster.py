"""
TF broadcaster: a drop-in for robot_state_publisher.

Subscribes ``robot_description`` (or takes the ``robot_description`` parameter and then
publishes that topic itself, as robot_state_publisher does) and ``joint_states`` (sensor-data
QoS, which also matches reliable publishers). Publishes on ``/tf`` the transform of every moving
joint named in a ``joint_states`` message, stamped with the message's stamp, and of every mimic
joint whose source is named (computed even when the message lacks the mimic joint); on
``/tf_static`` (transient local) the full set of fixed joints, again after every new description,
so removed frames are gone for late joiners.

As robot_state_publisher: names that are not moving joints of the model are ignored (one
``joint_states`` topic often carries several robots), values given for mimic joints are ignored
(they follow their source), and a joint's transforms are published at most ``publish_frequency``
times per second by the message stamps unless ``ignore_timestamp``. Floating and planar joints
move by the variables of :class:`~urdf_tools_ros.core.kinematics.KinematicModel`
(``<joint>/x``, ``<joint>/y``, ``<joint>/yaw``, ...; missing ones at 0) and are published when a
message names one of them. A NaN or infinite value is refused for its joint, a message whose
``position`` and ``name`` lengths differ is refused whole, with a throttled warning; nothing
non-finite is ever published.

``joint_states`` is served by a thread of its own
(:class:`~urdf_tools_ros.ros.subscription_thread.SubscriptionThread`): rclpy's executor alone
would cost 40 % of a core at 1 kHz. That thread reads one attribute, ``_moving``, which the
executor's callbacks replace as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from ..core.description import load_string, RobotDescription
from ..core.errors import RobotDescriptionError
from ..core.fk_plan import MAX_MAGNITUDE
from ..core.kinematics import KinematicModel
from ..core.mimic import resolve_mimic
from ..core.transforms import FloatArray
from ..ros import conversions, parameters, qos
from ..ros.ament import ament_package_locator
from ..ros.subscription_thread import SubscriptionThread

__all__ = ['TfBroadcasterNode', 'TfFrames', 'TfThrottle', 'main']

_WARN_PERIOD = 5.0  # s between two warnings about bad joint_states


class TfFrames:
    """
    What TF needs of one description, ROS-free.

    The kinematics, the frames of each joint, and which moving joints a ``joint_states`` message
    moves.

    :param description: A loaded description.
    :raises RobotDescriptionError: if the model has no valid kinematics (not a tree, bad mimic,
        zero axis, NaN in an origin, ...).
    """

    def __init__(self, description: RobotDescription) -> None:
        robot = description.robot
        self.description = description
        self.model = KinematicModel(robot)
        #: ``{joint: (parent link, child link)}`` of every joint.
        self.edges = {joint.name: (joint.parent, joint.child) for joint in robot.joints}
        followers: dict[str, list[str]] = {}
        for mimic in resolve_mimic(robot).values():
            followers.setdefault(mimic.source, []).append(mimic.joint)
        owners: dict[str, tuple[str, ...]] = {}
        for joint in self.model.joint_names:
            moved = (joint, *followers.get(joint, ()))
            for variable in self.model.variable_names:
                if variable == joint or variable.startswith(joint + '/'):
                    owners[variable] = moved
        self._owners = owners
        self._variable_index = {name: index for index, name in
                                enumerate(self.model.variable_names)}
        self._neutral = self.model.neutral()
        #: Moving joints in the order of :meth:`KinematicModel.joint_transforms`.
        self.moving = tuple(self.model.joint_transforms())
        self._plans: dict[tuple[str, ...], _MessagePlan] = {}

    def static_transforms(self) -> dict[str, FloatArray]:
        """``{joint: T_parent_child}`` of every fixed joint."""
        return self.model.fixed_joint_transforms()

    def _plan(self, names: tuple[str, ...]) -> _MessagePlan:
        """Which entries of a message with ``names`` set which variables and move which joints."""
        plan = self._plans.get(names)
        if plan is None:
            entries = [index for index, name in enumerate(names) if name in self._owners]
            plan = _MessagePlan(
                np.array(entries, dtype=np.intp),
                np.array([self._variable_index[names[index]] for index in entries],
                         dtype=np.intp),
                tuple(self._owners[names[index]] for index in entries))
            if len(self._plans) >= 16:  # a topic carries few distinct name lists
                self._plans.clear()
            self._plans[names] = plan
        return plan

    def moving_transforms(self, names: Sequence[str], positions: Sequence[float]
                          ) -> tuple[dict[str, FloatArray], list[str]]:
        """
        Transforms of the joints moved by a ``joint_states`` message.

        :param names: Joint (or variable) names of the message.
        :param positions: Their positions, rad or m; as long as ``names``.
        :return: ``{joint: T_parent_child}`` of the moved joints in :attr:`moving` order, and the
            problems (NaN/inf values, mismatched lengths); names the model does not move are
            ignored.
        """
        if len(positions) != len(names):
            return {}, [f'{len(positions)} positions for {len(names)} names; message ignored']
        plan = self._plan(tuple(names))
        values = np.asarray(positions, dtype=np.float64)[plan.entries]
        good = np.abs(values) <= MAX_MAGNITUDE  # False for NaN too
        problems = [f'joint "{names[plan.entries[index]]}": position {values[index]} is not '
                    'finite or out of range; joint ignored' for index in np.flatnonzero(~good)]
        owners = plan.owners if not problems else \
            [owner for owner, ok in zip(plan.owners, good) if ok]
        moved = {joint for owner in owners for joint in owner}
        if not moved:
            return {}, problems
        configuration = self._neutral.copy()
        configuration[plan.variables[good]] = values[good]
        transforms = self.model.joint_transforms(configuration)
        return {joint: transforms[joint] for joint in self.moving if joint in moved}, problems


@dataclass(frozen=True)
class _MessagePlan:
    """For one list of names: the entries the model moves, their variables, their joints."""

    entries: npt.NDArray[np.intp]
    variables: npt.NDArray[np.intp]
    owners: tuple[tuple[str, ...], ...]


class TfThrottle:
    """
    robot_state_publisher's rate limit by message stamps, ROS-free.

    A message's transforms are published when its stamp is at least ``1 / publish_frequency``
    after the last publication of the least recently published joint it names (a joint never
    published counts as published at time 0). Time running backwards (a bag played again)
    starts over.

    :param publish_frequency: Hz; 0 for no limit.
    :param ignore_timestamp: Publish every message.
    """

    def __init__(self, publish_frequency: float, ignore_timestamp: bool) -> None:
        self.interval_ns = 0 if publish_frequency <= 0.0 else int(1e9 / publish_frequency)
        self.ignore_timestamp = ignore_timestamp
        self._published: dict[str, int] = {}
        self._last_now = 0

    def reset(self) -> None:
        """Forget every publication (a new description)."""
        self._published.clear()
        self._last_now = 0

    def admit(self, names: Sequence[str], stamp_ns: int, now_ns: int) -> bool:
        """Whether to publish a message with ``names`` and ``stamp_ns`` received at ``now_ns``."""
        if now_ns < self._last_now:
            self._published.clear()
        self._last_now = now_ns
        if not (self.ignore_timestamp or self.interval_ns == 0):
            oldest = min((self._published.get(name, 0) for name in names), default=0)
            if stamp_ns < min(oldest, now_ns) + self.interval_ns:
                return False
        published = self._published
        for name in names:
            published[name] = stamp_ns
        return True


class TfBroadcasterNode(Node):
    """
    ``/tf`` and ``/tf_static`` from ``robot_description`` and ``joint_states``.

    :param node_name: Node name (``robot_state_publisher`` for the drop-in executable).
    :param kwargs: Passed to :class:`rclpy.node.Node` (``parameter_overrides``, ``context``).
    """

    def __init__(self, node_name: str = 'tf_broadcaster', **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        parameters.declare(self, parameters.TF_PARAMETERS)
        settings = parameters.values(self, parameters.TF_PARAMETERS)
        self._prefix: str = settings['frame_prefix']
        self._rate_limit: tuple[float, bool] = (settings['publish_frequency'],
                                                settings['ignore_timestamp'])
        self._frames: TfFrames | None = None
        # What the joint_states thread uses, replaced as a whole by the executor's callbacks.
        self._moving: tuple[TfFrames, conversions.TfEncoder, TfThrottle] | None = None
        self._tf = self.create_publisher(TFMessage, '/tf', qos.TF)
        self._tf_static = self.create_publisher(TFMessage, '/tf_static', qos.TF_STATIC)
        self._description_publisher = None
        if settings['robot_description']:
            self._description_publisher = self.create_publisher(
                String, 'robot_description', qos.LATCHED_DESCRIPTION)
            try:
                self._use(self._load(settings['robot_description']))
            except RobotDescriptionError as exc:
                self.get_logger().error(f'robot_description parameter: {exc}')
        else:
            self.create_subscription(String, 'robot_description', self._on_robot_description,
                                     qos.LATCHED_DESCRIPTION)
        self._joint_states = SubscriptionThread(self, JointState, 'joint_states',
                                                self._on_joint_states,
                                                qos.JOINT_STATES_SUBSCRIPTION)
        self.add_on_set_parameters_callback(self._on_set_parameters)

    @staticmethod
    def _load(xml: str) -> TfFrames:
        """Frames of a description given as XML (never run through xacro: it is code)."""
        return TfFrames(load_string(xml, '<robot_description>', is_xacro=False,
                                    locator=ament_package_locator))

    def _use(self, frames: TfFrames) -> None:
        """Take a new description: publish it (parameter mode) and the full /tf_static set."""
        self._frames = frames
        self._moving = (frames, conversions.TfEncoder(frames.edges, self._prefix),
                        TfThrottle(*self._rate_limit))
        if self._description_publisher is not None:
            self._description_publisher.publish(
                conversions.description_to_msg(frames.description.xml))
        self._publish_static()
        self.get_logger().info(
            f'robot "{frames.description.robot.name}": {len(frames.moving)} moving joints on '
            f'/tf, {len(frames.static_transforms())} fixed joints on /tf_static')

    def _publish_static(self) -> None:
        if self._frames is None:
            return
        self._tf_static.publish(conversions.tf_message(
            self._frames.static_transforms(), self._frames.edges,
            self.get_clock().now().nanoseconds, self._prefix))

    def _on_robot_description(self, msg: String) -> None:
        try:
            frames = self._load(conversions.description_from_msg(msg))
        except RobotDescriptionError as exc:
            self.get_logger().error(f'robot_description refused, keeping the previous one: {exc}')
            return
        self._use(frames)

    def _on_joint_states(self, msg: JointState) -> None:
        """Called in the joint_states thread (:class:`SubscriptionThread`)."""
        moving = self._moving
        if moving is None:
            return
        frames, encoder, throttle = moving
        stamp_ns, sample = conversions.joint_state_from_msg(msg)
        if not throttle.admit(sample.name, stamp_ns, self.get_clock().now().nanoseconds):
            return
        try:
            transforms, problems = frames.moving_transforms(sample.name, sample.position)
            if transforms:
                self._tf.publish(encoder.encode(transforms, stamp_ns))
        except RobotDescriptionError as exc:
            problems = [str(exc)]
        if problems:
            self.get_logger().warning('joint_states: ' + '; '.join(problems[:5]),
                                      throttle_duration_sec=_WARN_PERIOD)

    def _on_set_parameters(self, changes: list[Parameter]) -> SetParametersResult:
        given = {change.name: change.value for change in changes}
        frames = self._frames
        if 'robot_description' in given:
            if self._description_publisher is None:
                return SetParametersResult(
                    successful=False, reason='this node follows the robot_description topic '
                    '(the parameter was empty at start); publish the new description there')
            try:
                frames = self._load(str(given['robot_description']))
            except RobotDescriptionError as exc:
                return SetParametersResult(successful=False, reason=str(exc))
        if 'publish_frequency' in given or 'ignore_timestamp' in given:
            frequency = given.get('publish_frequency', self.get_parameter('publish_frequency')
                                  .value)
            ignore = given.get('ignore_timestamp', self.get_parameter('ignore_timestamp').value)
            self._rate_limit = (float(frequency), bool(ignore))
            if self._moving is not None:
                self._moving = (*self._moving[:2], TfThrottle(*self._rate_limit))
        if 'frame_prefix' in given:
            self._prefix = str(given['frame_prefix'])
        if frames is not None and (frames is not self._frames or 'frame_prefix' in given):
            self._use(frames)
        return SetParametersResult(successful=True)

    def destroy_node(self) -> None:
        """Stop the joint_states thread, then destroy the node."""
        thread = getattr(self, '_joint_states', None)
        if thread is not None:
            thread.stop()
        super().destroy_node()


def main(args: list[str] | None = None, node_name: str = 'tf_broadcaster') -> None:
    """Run the TF broadcaster until shut down."""
    rclpy.init(args=args)
    node = TfBroadcasterNode(node_name)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
