"""The one ``main()`` shape of every node executable, on Humble and Jazzy (CONVENTIONS C8)."""

from __future__ import annotations

from collections.abc import Callable
import signal

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node


def spin_node(make_node: Callable[[], Node], args: list[str] | None = None) -> None:
    """
    Initialise rclpy, spin the node ``make_node()`` returns until shut down, then clean up.

    Ctrl-C and an external shutdown end it quietly, also while the node is still being made (a
    Ctrl-C right after ``ros2 launch``, during the first load); the node is destroyed and rclpy
    shut down in every case. A terminal's Ctrl-C reaches a node twice under ``ros2 launch``
    (from the terminal, to the whole process group, and from launch): further SIGINTs are
    ignored once the first one has ended the spin, so the second cannot interrupt the clean-up
    (a traceback, and an abort of a node whose threads were still joined).

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    rclpy.init(args=args)
    node: Node | None = None
    try:
        try:
            node = make_node()
            rclpy.spin(node)
        except (KeyboardInterrupt, ExternalShutdownException):
            pass
    except KeyboardInterrupt:
        pass  # the second Ctrl-C arrived while the first one was being handled
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
