"""
Time sources of the nodes: the node clock for what is stamped, a steady clock for housekeeping.

Under ``use_sim_time`` a node timer waits for ``/clock``; housekeeping (watching files, the
slider page) runs on :func:`steady_timer`, and :func:`warn_without_sim_clock` says once what
waits when no ``/clock`` arrives.
"""

from __future__ import annotations

from collections.abc import Callable

from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from rclpy.timer import Timer

__all__ = ['SIM_CLOCK_GRACE', 'steady_timer', 'warn_without_sim_clock']

#: Seconds (steady time) a node under ``use_sim_time`` waits for ``/clock`` before it warns.
SIM_CLOCK_GRACE = 5.0


def steady_timer(node: Node, period: float, callback: Callable[[], None]) -> Timer:
    """
    A timer of ``node`` on the steady (monotonic) clock: it fires under ``use_sim_time`` too.

    :param period: Period in s (> 0).
    """
    return node.create_timer(period, callback, clock=Clock(clock_type=ClockType.STEADY_TIME))


def warn_without_sim_clock(node: Node, waiting: str, grace: float = SIM_CLOCK_GRACE) -> None:
    """
    Warn once if ``use_sim_time`` is true and no ``/clock`` has arrived ``grace`` s after now.

    :param waiting: What waits for the clock, e.g. ``'joint_states is not published'``.
    :param grace: Seconds of steady time to wait.
    """
    timer: Timer | None = None

    def check() -> None:
        if timer is not None:
            node.destroy_timer(timer)
        sim_time = node.get_parameter('use_sim_time').value
        if sim_time and node.get_clock().now().nanoseconds == 0:
            node.get_logger().warning(
                f'use_sim_time is true but nothing has arrived on /clock in {grace:g} s '
                f'(is the simulator or `ros2 bag play --clock` running?): {waiting} until it '
                'does')

    timer = steady_timer(node, grace, check)
