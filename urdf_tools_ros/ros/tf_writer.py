"""
The one writer of ``/tf`` and ``/tf_static``: two ``tf2_msgs/TFMessage`` publishers.

QoS as robot_state_publisher's: ``/tf`` as tf2_ros' ``TransformBroadcaster`` (reliable,
volatile, depth 100: :data:`~urdf_tools_ros.ros.qos.TF`), ``/tf_static`` reliable, transient
local, keep last 1 (:data:`~urdf_tools_ros.ros.qos.TF_STATIC`). Each ``/tf_static`` message is
the whole current set of fixed transforms and replaces the last one for late joiners, so a
fixed joint that moved, a joint that is no longer fixed or a changed ``frame_prefix`` leaves no
stale frame behind. tf2_ros is not used: ROS 2 from PyPI has none, and the Python
``StaticTransformBroadcaster`` of Jazzy and Rolling adds only child frames it has not sent
before (a reload that moves a fixed joint leaves late joiners at the old transform).
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
