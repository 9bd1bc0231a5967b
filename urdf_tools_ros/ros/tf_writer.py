"""
The one writer of ``/tf`` and ``/tf_static``: two ``tf2_msgs/TFMessage`` publishers.

QoS as robot_state_publisher's. Each ``/tf_static`` message is the whole current set of fixed
transforms and replaces the last one for late joiners, so no stale frame stays behind (tf2_ros'
Python ``StaticTransformBroadcaster`` on Jazzy and Rolling keeps frames it sent before).
"""

from __future__ import annotations

from rclpy.node import Node
from tf2_msgs.msg import TFMessage

from . import qos

__all__ = ['TfWriter']


class TfWriter:
    """
    ``/tf`` and ``/tf_static`` of one node.

    :param node: The node that owns the two publishers.
    """

    def __init__(self, node: Node) -> None:
        self.tf = node.create_publisher(TFMessage, '/tf', qos.TF)
        self.tf_static = node.create_publisher(TFMessage, '/tf_static', qos.TF_STATIC)

    def publish(self, msg: TFMessage) -> None:
        """Publish moving transforms on ``/tf``."""
        self.tf.publish(msg)

    def publish_static(self, msg: TFMessage) -> None:
        """Publish the whole current set of fixed transforms on ``/tf_static`` (may be empty)."""
        self.tf_static.publish(msg)
