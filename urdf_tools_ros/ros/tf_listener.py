"""
Feed ``/tf`` and ``/tf_static`` into a :class:`~urdf_tools_ros.core.tf.buffer.TfFrameStore`.

:class:`TfListener` subscribes both topics on a node with the QoS tf2_ros' ``TransformListener``
uses (:data:`~urdf_tools_ros.ros.qos.TF`, :data:`~urdf_tools_ros.ros.qos.TF_STATIC`) and hands
each ``tf2_msgs/TFMessage`` to the store as frame names and translation and quaternion arrays
(:func:`transforms_from_msg`). This module reads the fields of ``TFMessage`` itself, beside
:mod:`~urdf_tools_ros.ros.conversions`, so that the listener is one piece.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from rclpy.node import Node
from tf2_msgs.msg import TFMessage

from . import qos
from ..core.kinematics.transforms import FloatArray
from ..core.tf.buffer import TfFrameStore

__all__ = ['ProblemCallback', 'TfListener', 'transforms_from_msg']

#: Called with the reasons why transforms of one message were dropped (non-empty list).
ProblemCallback = Callable[[list[str]], None]


def transforms_from_msg(msg: TFMessage) -> tuple[list[str], list[str], FloatArray, FloatArray]:
    """
    The transforms of a ``tf2_msgs/TFMessage`` as arrays.

    :param msg: The message; its stamps are not read.
    :return: ``(parent_frames, child_frames, translation, quaternion)``: N ``header.frame_id``,
        N ``child_frame_id``, (N, 3) float64 translations of ``T_parent_child`` in m and
        (N, 4) float64 ``(x, y, z, w)`` rotations as sent (not normalised, not checked).
    """
    items = msg.transforms
    parents = [item.header.frame_id for item in items]
    children = [item.child_frame_id for item in items]
    translation = np.array([(item.transform.translation.x, item.transform.translation.y,
                             item.transform.translation.z) for item in items],
                           dtype=np.float64).reshape(-1, 3)
    quaternion = np.array([(item.transform.rotation.x, item.transform.rotation.y,
                            item.transform.rotation.z, item.transform.rotation.w)
                           for item in items], dtype=np.float64).reshape(-1, 4)
    return parents, children, translation, quaternion


class TfListener:
    """
    Subscribes ``/tf`` and ``/tf_static`` on ``node`` and stores every transform received.

    ``/tf`` is subscribed reliable, volatile, depth 100 and ``/tf_static`` reliable,
    transient local, depth 1 (it gets the latched message of each static broadcaster, also
    those sent before the node started). The subscriptions live as long as the node.

    :param node: The node whose executor runs the callbacks.
    :param store: Where the transforms go (static ones marked so).
    :param on_problems: Called with the reasons when transforms of a message are dropped
        (NaN/inf, zero quaternion); ``None`` ignores them.
    """

    def __init__(self, node: Node, store: TfFrameStore,
                 on_problems: ProblemCallback | None = None) -> None:
        self.store = store
        self.on_problems = on_problems
        node.create_subscription(TFMessage, '/tf', self._on_tf, qos.TF)
        node.create_subscription(TFMessage, '/tf_static', self._on_tf_static, qos.TF_STATIC)

    def _on_tf(self, msg: TFMessage) -> None:
        self._take(msg, static=False)

    def _on_tf_static(self, msg: TFMessage) -> None:
        self._take(msg, static=True)

    def _take(self, msg: TFMessage, static: bool) -> None:
        parents, children, translation, quaternion = transforms_from_msg(msg)
        problems = self.store.add_quaternions(parents, children, translation, quaternion,
                                              static=static)
        if problems and self.on_problems is not None:
            self.on_problems(problems)
