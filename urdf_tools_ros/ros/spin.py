"""The one ``main()`` shape of every node executable, on Humble and Jazzy (CONVENTIONS C8)."""

from __future__ import annotations

from collections.abc import Callable

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node


def spin_node(make_node: Callable[[], Node], args: list[str] | None = None) -> None:
    """
    Initialise rclpy, spin the node ``make_node()`` returns until shut down, then clean up.

    Ctrl-C and an external shutdown end it quietly; the node is destroyed and rclpy shut down
    in every case.

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    rclpy.init(args=args)
    node = make_node()
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
