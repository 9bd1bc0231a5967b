"""
A high-rate subscription served by a thread of its own instead of the node's executor.

rclpy's Python executors rebuild a wait set of every entity of the node (parameter services,
timers, subscriptions) for each message and wrap each callback in a task, a large share of a
core at 1 kHz before the callback does anything; one subscription taken in a loop over a wait
set of its own costs a fraction of that (``bench/bench_tf_node.py`` measures the node).

The subscription belongs to the node as usual (remapping, QoS, ``ros2 node info``), in a callback
group that no executor runs, so the thread is the only one that takes its messages. The callback
therefore runs concurrently with the node's other callbacks: it must only read state that the
executor's callbacks replace as a whole (one attribute assignment).

Uses the same calls as rclpy's own ``wait_for_message`` (``WaitSet``, ``take_message``), which
are the same in Humble and Jazzy but not public API: they are detected at import
(:func:`available`), and the TF broadcaster uses this only when asked (``fast_path``) and
available, else its executor callback.
"""

from __future__ import annotations

from collections.abc import Callable
import threading
from typing import Any

from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
from rclpy.qos import QoSProfile
from rclpy.qos_overriding_options import QoSOverridingOptions

__all__ = ['SubscriptionThread', 'available']


def _wait_set_type() -> Any:
    """The ``WaitSet`` of rclpy (not public API; rclpy's ``wait_for_message`` uses it), or None."""
    try:
        from rclpy.impl.implementation_singleton import rclpy_implementation
    except ImportError:
        return None
    wait_set = getattr(rclpy_implementation, 'WaitSet', None)
    needed = ('clear_entities', 'add_subscription', 'wait')
    if wait_set is None or not all(hasattr(wait_set, name) for name in needed):
        return None
    return wait_set


_WAIT_SET = _wait_set_type()


def available() -> bool:
    """Whether this rclpy has what :class:`SubscriptionThread` uses (detected at import)."""
    return _WAIT_SET is not None


#: How often the thread looks whether it should stop, ns.
_POLL_NS = 100_000_000
_ERROR_PERIOD = 5.0  # s between two logged callback errors


class _NoExecutor(CallbackGroup):
    """A callback group that no executor runs: its entities are served elsewhere."""

    def can_execute(self, entity: Any) -> bool:
        return False

    def beginning_execution(self, entity: Any) -> bool:
        return False

    def ending_execution(self, entity: Any) -> None:
        return None


class SubscriptionThread:
    """
    A subscription of ``node`` whose messages ``callback`` gets in a dedicated thread.

    :param node: The node the subscription belongs to.
    :param msg_type: The message type.
    :param topic: The topic name (relative names resolve in the node's namespace).
    :param callback: Called with each message (the serialized bytes when ``raw``).
    :param qos: The QoS profile.
    :param raw: Take serialized messages (bytes) instead of Python messages.
    :param qos_overriding_options: As :meth:`rclpy.node.Node.create_subscription`.
    :raises RuntimeError: if this rclpy lacks what it needs (:func:`available` is false).
    """

    def __init__(self, node: Node, msg_type: Any, topic: str, callback: Callable[[Any], None],
                 qos: QoSProfile, raw: bool = False,
                 qos_overriding_options: QoSOverridingOptions | None = None) -> None:
        if _WAIT_SET is None:
            raise RuntimeError('this rclpy has no WaitSet with the calls SubscriptionThread uses')
        self._node = node
        self._callback = callback
        self.subscription = node.create_subscription(
            msg_type, topic, callback, qos, callback_group=_NoExecutor(), raw=raw,
            qos_overriding_options=qos_overriding_options)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f'{node.get_name()}: {topic}')
        self._thread.start()

    def _run(self) -> None:
        subscription = self.subscription
        context = self._node.context
        wait_set = _WAIT_SET(1, 0, 0, 0, 0, 0, context.handle)
        while not self._stop.is_set() and context.ok():
            try:
                with subscription.handle:
                    wait_set.clear_entities()
                    wait_set.add_subscription(subscription.handle)
                    wait_set.wait(_POLL_NS)
                    taken = subscription.handle.take_message(subscription.msg_type,
                                                             subscription.raw)
                while taken is not None and not self._stop.is_set():
                    self._call(taken[0])
                    with subscription.handle:
                        taken = subscription.handle.take_message(subscription.msg_type,
                                                                 subscription.raw)
            except Exception as exc:  # the context went down, or the handle is gone
                if self._stop.is_set() or not context.ok():
                    return
                self._node.get_logger().error(f'{subscription.topic_name}: {exc!r}',
                                              throttle_duration_sec=_ERROR_PERIOD)
                self._stop.wait(0.1)

    def _call(self, msg: Any) -> None:
        try:
            self._callback(msg)
        except Exception as exc:  # a thread's boundary: log, keep serving
            self._node.get_logger().error(
                f'{self.subscription.topic_name}: callback failed: {exc!r}',
                throttle_duration_sec=_ERROR_PERIOD)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread (before the node is destroyed); safe to call twice."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
