"""The one ``main()`` shape of every node executable (CONVENTIONS C8), Humble to Rolling."""

from __future__ import annotations

import argparse
from collections.abc import Callable
import inspect
import signal
import sys

import rclpy
from rclpy.executors import Executor, ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from rclpy.utilities import remove_ros_args

__all__ = ['description_file_argument', 'make_executor', 'spin_node']


def description_file_argument(args: list[str] | None, prog: str, description: str,
                              help_text: str) -> str | None:
    """
    The optional description file of a node's command line (as joint_state_publisher's).

    :param args: The command line (``sys.argv`` when ``None``), program name first.
    :param prog: The program name, ``description`` and ``help_text`` (the file's) for ``--help``.
    :return: The file's path, or ``None`` when none is given.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument('description_file', nargs='?', default=None, help=help_text)
    argv = sys.argv if args is None else args
    path: str | None = parser.parse_args(remove_ros_args(args=argv)[1:]).description_file
    return path


def make_executor() -> Executor:
    """
    ``rclpy.experimental.EventsExecutor`` where rclpy has it (Jazzy on), else single-threaded.

    Both run every callback in the spinning thread; the events executor at less CPU
    (``bench/bench_tf_node.py``).
    """
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return SingleThreadedExecutor()
    executor: Executor = EventsExecutor()
    return executor


def _try_shutdown() -> None:
    """
    ``rclpy.try_shutdown()``, leaving the signal dispositions alone.

    rclpy 7.4 on (Kilted, Rolling) uninstalls its signal handlers by default, setting SIGINT and
    SIGTERM to their default action for a moment (``signal_handler.cpp``); none are installed
    here (``SignalHandlerOptions.NO``), so ``uninstall_handlers=False`` where it is taken.
    """
    try_shutdown: Callable[..., None] = rclpy.try_shutdown  # its signature depends on the distro
    if 'uninstall_handlers' in inspect.signature(try_shutdown).parameters:
        try_shutdown(uninstall_handlers=False)
    else:
        try_shutdown()


def _forget_interrupt_in_code_from_a_string() -> None:
    """
    Workaround of a CPython bug: a caught ``KeyboardInterrupt`` makes the process die of SIGINT.

    A ``KeyboardInterrupt`` that leaves code run from a string (``exec``; ``dataclasses`` and
    ``namedtuple`` make methods so at import) is noted as unhandled even when caught later, and
    CPython kills itself with SIGINT after a normal end (bpo-1054041's exit code;
    ``run_eval_code_obj`` in ``Python/pythonrun.c``). Running an empty string clears the note.
    Delete when the oldest supported CPython notes only an interrupt that ends the program
    (3.10 to 3.13 all note this one).
    """
    exec('')  # noqa: S102


class _Stop:
    """
    The SIGINT and SIGTERM handler of :func:`spin_node`: the first signal stops the node.

    Before the node spins it raises ``KeyboardInterrupt``; then it only sets :attr:`asked`, read
    between two callbacks, so that no interrupt surfaces inside an rclpy call as another error.
    Later signals (``ros2 launch`` passes a terminal's Ctrl-C on a second time) are ignored.
    """

    def __init__(self) -> None:
        self.asked = False
        self.spinning = False

    def __call__(self, _signum: int, _frame: object) -> None:
        if not self.asked:
            self.asked = True
            if not self.spinning:
                raise KeyboardInterrupt


def spin_node(make_node: Callable[[], Node], args: list[str] | None = None) -> None:
    """
    Initialise rclpy, spin the node ``make_node()`` returns until shut down, then clean up.

    The ``main()`` of CONVENTIONS C8, with SIGINT and SIGTERM handled by :class:`_Stop` instead
    of rclpy's handlers (which shut the context down while the node is being made): either
    signal ends it with exit 0 and no traceback. The node leaves the executor before either is
    destroyed (the events executor aborts otherwise).

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    stop = _Stop()
    node: Node | None = None
    executor: Executor | None = None
    try:
        # inside the try: a signal right after the first handler is set raises here
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, stop)
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
        node = make_node()
        stop.spinning = True
        executor = make_executor()
        executor.add_node(node)
        while not stop.asked and node.context.ok():
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        stop.asked = True  # from here on every signal is ignored
        if executor is not None:
            if node is not None:
                executor.remove_node(node)
            executor.shutdown()
            del executor  # the events executor's callbacks go before the node's entities
        if node is not None:
            node.destroy_node()
        _try_shutdown()
        # SIG_IGN outlives the interpreter's finalisation (a Python handler does not)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _forget_interrupt_in_code_from_a_string()
