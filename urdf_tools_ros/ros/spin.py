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
    (from the terminal, to the whole process group, and from launch): only the first SIGINT
    raises KeyboardInterrupt (our Python handler, which rclpy's own handler calls after it shut
    the context down), later ones do nothing, so a second cannot interrupt the clean-up (a
    traceback, and an abort of a node whose threads were still joined); after the clean-up
    SIGINT is ignored, so a late Ctrl-C cannot kill the process on its way out.

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    interrupted = False

    def on_sigint(_signum: int, _frame: object) -> None:
        # rclpy's own handler (installed by rclpy.init) shuts the context down and then calls
        # this one, the previous Python handler: one KeyboardInterrupt, the first time only
        nonlocal interrupted
        if not interrupted:
            interrupted = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    node: Node | None = None
    try:
        rclpy.init(args=args)
        node = make_node()
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except Exception:
        # the KeyboardInterrupt of a Ctrl-C can surface as another error when it is raised
        # inside a C++ call (pybind11: "Unable to convert call argument" in take_message)
        if not interrupted:
            raise
    finally:
        interrupted = True  # a Ctrl-C from here on is ignored: the node is already stopping
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
        # ignored from here on, also at the interpreter's exit (which would reset a Python
        # handler to SIG_DFL, so that a late Ctrl-C killed the process: exit -2)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
