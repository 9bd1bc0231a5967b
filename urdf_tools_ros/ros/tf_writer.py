"""
The one place that chooses how ``/tf`` is written: tf2_ros where it is, else a plain publisher.

A ROS 2 install (``/opt/ros/<distro>``) has tf2_ros, and :func:`tf_writer` returns its
``TransformBroadcaster`` (reliable, volatile, depth 100: :data:`~urdf_tools_ros.ros.qos.TF`, as
robot_state_publisher). Where tf2_ros cannot be imported (ROS 2 from PyPI: rclpy and the message
packages only) it returns :class:`TfPublisher`, one ``tf2_msgs/TFMessage`` publisher on ``/tf``
with the same QoS and the same ``sendTransform`` call, so that subscribers (tf2 buffers, RViz)
cannot tell the two apart. ``/tf_static`` is not chosen here: the TF node keeps its own
whole-set publisher (:mod:`urdf_tools_ros.nodes.tf_broadcaster`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from geometry_msgs.msg import TransformStamped
from rclpy.node import Node
from tf2_msgs.msg import TFMessage

from . import qos

__all__ = ['TfPublisher', 'TfWriter', 'tf_writer']


class TfWriter(Protocol):
    """What writes ``/tf``: ``tf2_ros.TransformBroadcaster`` or :class:`TfPublisher`."""

    def sendTransform(  # noqa: N802 - tf2_ros' name
            self, transform: TransformStamped | Sequence[TransformStamped]) -> None:
        """Publish one transform or a list of them in one ``tf2_msgs/TFMessage``."""


class TfPublisher:
    """
    ``/tf`` through one ``tf2_msgs/TFMessage`` publisher (QoS :data:`~urdf_tools_ros.ros.qos.TF`).

    The call is tf2_ros' ``TransformBroadcaster.sendTransform``: one transform or a list, sent
    as one message.

    :param node: The node that owns the publisher.
    """

    def __init__(self, node: Node) -> None:
        self._publisher = node.create_publisher(TFMessage, '/tf', qos.TF)

    def sendTransform(  # noqa: N802 - tf2_ros' name
            self, transform: TransformStamped | Sequence[TransformStamped]) -> None:
        """Publish ``transform`` (one ``TransformStamped`` or a list) as one message."""
        transforms = [transform] if isinstance(transform, TransformStamped) else list(transform)
        self._publisher.publish(TFMessage(transforms=transforms))


def tf_writer(node: Node) -> tuple[TfWriter, str]:
    """
    The ``/tf`` writer of ``node``: tf2_ros' broadcaster where tf2_ros imports, else a publisher.

    :param node: The node that publishes ``/tf``.
    :return: The writer and what it is, for the node's log (``'tf2_ros.TransformBroadcaster'``
        or ``'a tf2_msgs/TFMessage publisher (tf2_ros is not importable: ...)'``).
    """
    try:
        from tf2_ros import TransformBroadcaster
    except ImportError as exc:
        return TfPublisher(node), ('a tf2_msgs/TFMessage publisher (tf2_ros is not importable: '
                                   f'{exc})')
    writer: Any = TransformBroadcaster(node, qos=qos.TF)
    return writer, 'tf2_ros.TransformBroadcaster'
