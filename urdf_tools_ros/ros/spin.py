"""The one ``main()`` shape of every node executable (CONVENTIONS C8), Humble to Rolling."""

from __future__ import annotations

import argparse
from collections.abc import Callable
import signal
import sys

import rclpy
from rclpy.executors import Executor, ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import uninstall_signal_handlers
from rclpy.utilities import remove_ros_args

__all__ = ['description_file_argument', 'make_executor', 'spin_node']


def description_file_argument(args: list[str] | None, prog: str, description: str,
                              help_text: str) -> str | None:
    """
    The optional description file of a node's command line, before its ROS arguments.

    joint_state_publisher and robot_state_publisher (3.3, deprecated there) take one.

    :param args: The command line (``sys.argv`` when ``None``), program name first.
    :param prog: The program name for ``--help``.
    :param description: What the program does, for ``--help``.
    :param help_text: What the file is for, for ``--help``.
    :return: The file's path, or ``None`` when none is given.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument('description_file', nargs='?', default=None, help=help_text)
    argv = sys.argv if args is None else args
    path: str | None = parser.parse_args(remove_ros_args(args=argv)[1:]).description_file
    return path


def make_executor() -> Executor:
    """
    ``rclpy.experimental.EventsExecutor`` where the installed rclpy has it, else single-threaded.

    The events executor (rclpy 7.1 on Jazzy, 9.1 on Kilted; not Humble's) serves a
    ``joint_states`` stream at less CPU than the single-threaded executor
    (``bench/bench_tf_node.py``); both run every callback in the spinning thread. Its ``spin()``
    does not return when a signal shuts the context down (rclpy 7.1.6): :func:`spin_node`
    spins it with ``spin_once`` while the context is ok, which works with either.
    """
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return SingleThreadedExecutor()
    executor: Executor = EventsExecutor()
    return executor


def spin_node(make_node: Callable[[], Node], args: list[str] | None = None) -> None:
    """
    Initialise rclpy, spin the node ``make_node()`` returns until shut down, then clean up.

    Ctrl-C (``KeyboardInterrupt``), SIGTERM and an external shutdown
    (``ExternalShutdownException``) end it quietly, also while the node is still being made; the
    node is destroyed and rclpy shut down in every case. A terminal's Ctrl-C reaches a node
    twice under ``ros2 launch`` (from the terminal, to the whole process group, and from
    launch): SIGINT is ignored once the clean-up starts, so a second one cannot interrupt it
    with a traceback. rclpy's signal handlers are uninstalled after the clean-up, as
    ``rclpy.shutdown()`` does, so that a SIGTERM then ends the process.

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    node: Node | None = None
    try:
        rclpy.init(args=args)
        node = make_node()
        executor = make_executor()
        executor.add_node(node)
        while node.context.ok():
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the second Ctrl-C under ros2 launch
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
        uninstall_signal_handlers()
