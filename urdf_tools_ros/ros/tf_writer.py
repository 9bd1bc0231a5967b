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
tell the two apart. A :class:`TfSender` sends a broadcaster's stream of moving transforms through
the /tf writer's publisher (``pub_tf``, public in tf2_ros' broadcaster of every distro, and in
:class:`TfPublisher`) as serialized bytes (:class:`~urdf_tools_ros.ros.conversions.TfSerializer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from geometry_msgs.msg import TransformStamped
from rclpy.node import Node
from rclpy.publisher import Publisher
from rclpy.qos import QoSProfile
from tf2_msgs.msg import TFMessage

from . import conversions, qos
from ..core.transforms import FloatArray

__all__ = ['TfPublisher', 'TfSender', 'TfWriter', 'tf_writers']


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
        self.pub_tf = node.create_publisher(TFMessage, topic, profile)  # tf2_ros' name

    def sendTransform(  # noqa: N802 - tf2_ros' name
            self, transform: TransformStamped | Sequence[TransformStamped]) -> None:
        """Publish ``transform`` (one ``TransformStamped`` or a list) as one message."""
        transforms = [transform] if isinstance(transform, TransformStamped) else list(transform)
        self.pub_tf.publish(TFMessage(transforms=transforms))


class TfSender:
    """
    The moving transforms of one description on ``/tf``, message after message.

    Serialized (:class:`~urdf_tools_ros.ros.conversions.TfSerializer`) and published through
    the writer's ``pub_tf`` publisher: the same ``tf2_msgs/TFMessage`` on the same publisher
    (talos at 1 kHz: the TF node at 35 % of a core instead of 69 %, ``bench/bench_tf_node.py``;
    9 µs per message instead of 209 µs for building and converting the objects). Where the
    writer has no such publisher or the serialization cannot be written in place, the writer's
    ``sendTransform`` with message objects
    (:class:`~urdf_tools_ros.ros.conversions.TransformsBuilder`).

    :param writer: The ``/tf`` writer of :func:`tf_writers`.
    :param edges: ``{joint: (parent link, child link)}``.
    :param frame_prefix: Put before every frame id.
    """

    def __init__(self, writer: TfWriter, edges: Mapping[str, conversions.Edge],
                 frame_prefix: str = '') -> None:
        self._writer = writer
        publisher = getattr(writer, 'pub_tf', None)
        self._publisher = publisher if isinstance(publisher, Publisher) else None
        self._serializer = conversions.TfSerializer(edges, frame_prefix)

    def send(self, joints: tuple[str, ...], translation: FloatArray, quaternion: FloatArray,
             stamp_ns: int) -> None:
        """Publish ``joints``' (J, 3) translations (m) and (J, 4) ``(x, y, z, w)``, stamped."""
        if self._publisher is not None:
            data = self._serializer.serialize(joints, translation, quaternion, stamp_ns)
            if data is not None:
                self._publisher.publish(data)
                return
        self._writer.sendTransform(self._serializer.builder.build(joints, translation,
                                                                  quaternion, stamp_ns))


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
