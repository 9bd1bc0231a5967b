"""
The one writer of ``/tf`` and ``/tf_static``: tf2_ros where it is, else plain publishers.

A ROS 2 install (``/opt/ros/<distro>``) has tf2_ros, and :func:`tf_writers` returns its
``TransformBroadcaster`` (reliable, volatile, depth 100: :data:`~urdf_tools_ros.ros.qos.TF`, as
robot_state_publisher) and ``StaticTransformBroadcaster`` (transient local, depth 1:
:data:`~urdf_tools_ros.ros.qos.TF_STATIC`; rclpy's sends each call's list as the whole message,
it does not add to what it sent before, so the full set a node sends replaces the last one for
late joiners). Where tf2_ros cannot be imported (ROS 2 from PyPI: rclpy and the message packages
only) it returns a :class:`TfPublisher` for each, one ``tf2_msgs/TFMessage`` publisher with the
same QoS and the same ``sendTransform`` call, so that subscribers (tf2 buffers, RViz) cannot
tell the two apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from geometry_msgs.msg import TransformStamped
from rclpy.node import Node
from rclpy.qos import QoSProfile
from tf2_msgs.msg import TFMessage

from . import qos

__all__ = ['TfPublisher', 'TfWriter', 'tf_writers']


class TfWriter(Protocol):
    """What writes ``/tf``: ``tf2_ros.TransformBroadcaster`` or :class:`TfPublisher`."""

    def sendTransform(  # noqa: N802 - tf2_ros' name
            self, transform: TransformStamped | Sequence[TransformStamped]) -> None:
        """Publish one transform or a list of them in one ``tf2_msgs/TFMessage``."""


class TfPublisher:
    """
    ``/tf`` or ``/tf_static`` through one ``tf2_msgs/TFMessage`` publisher.

    The call is tf2_ros' broadcasters' ``sendTransform``: one transform or a list, sent as one
    message.

    :param node: The node that owns the publisher.
    :param topic: ``/tf`` or ``/tf_static``.
    :param profile: :data:`~urdf_tools_ros.ros.qos.TF` or
        :data:`~urdf_tools_ros.ros.qos.TF_STATIC`.
    """

    def __init__(self, node: Node, topic: str = '/tf', profile: QoSProfile = qos.TF) -> None:
        self._publisher = node.create_publisher(TFMessage, topic, profile)

    def sendTransform(  # noqa: N802 - tf2_ros' name
            self, transform: TransformStamped | Sequence[TransformStamped]) -> None:
        """Publish ``transform`` (one ``TransformStamped`` or a list) as one message."""
        transforms = [transform] if isinstance(transform, TransformStamped) else list(transform)
        self._publisher.publish(TFMessage(transforms=transforms))


def tf_writers(node: Node) -> tuple[TfWriter, TfWriter, str]:
    """
    The ``/tf`` and ``/tf_static`` writers of ``node``: tf2_ros' broadcasters, else publishers.

    :param node: The node that publishes ``/tf`` and ``/tf_static``.
    :return: The two writers and what they are, for the node's log (``'tf2_ros' broadcasters'``
        or ``'tf2_msgs/TFMessage publishers (tf2_ros is not importable: ...)'``).
    """
    try:
        from tf2_ros import StaticTransformBroadcaster, TransformBroadcaster
    except ImportError as exc:
        return (TfPublisher(node), TfPublisher(node, '/tf_static', qos.TF_STATIC),
                f'tf2_msgs/TFMessage publishers (tf2_ros is not importable: {exc})')
    tf: Any = TransformBroadcaster(node, qos=qos.TF)
    static: Any = StaticTransformBroadcaster(node, qos=qos.TF_STATIC)
    return tf, static, "tf2_ros' broadcasters"
