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
    (``bench/bench_tf_node.py``); both run every callback in the spinning thread.
    :func:`spin_node` spins either with ``spin_once`` until a signal asks it to stop.
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

    From rclpy 7.4 (Kilted, Rolling) it also uninstalls rclpy's signal handlers by default,
    installed or not, and rclpy's uninstall sets SIGINT and SIGTERM to their default action
    for a moment before it puts the current handler back (``unregister_sigint_signal_handler``
    in rclpy's ``signal_handler.cpp``): a second Ctrl-C then killed the node with -2, silently.
    :func:`spin_node` installs none of rclpy's (``SignalHandlerOptions.NO``), so nothing needs
    uninstalling. rclpy before 7.4 (Humble, Jazzy) takes no such argument and uninstalls
    nothing there.
    """
    try_shutdown: Callable[..., None] = rclpy.try_shutdown  # its signature depends on the distro
    if 'uninstall_handlers' in inspect.signature(try_shutdown).parameters:
        try_shutdown(uninstall_handlers=False)
    else:
        try_shutdown()


def _forget_interrupt_in_code_from_a_string() -> None:
    """
    Workaround of a CPython bug: a caught ``KeyboardInterrupt`` makes the process die of SIGINT.

    When a ``KeyboardInterrupt`` leaves code that CPython runs from a string (``exec``/``eval``
    of text; ``dataclasses`` and ``collections.namedtuple`` define their methods so while a
    module that uses them is imported), CPython notes it as unhandled even when it is caught
    later, and kills itself with SIGINT after a normal end: exit -2, no output (the exit code of
    bpo-1054041, Python 3.8 on; ``run_eval_code_obj`` in ``Python/pythonrun.c`` sets the note).
    Each run of a string clears it first, so an empty one does. Seen once in 1,500 signals under
    ``test/test_node_signals.py``. Delete when the oldest supported CPython notes only an
    interrupt that ends the program (3.10 to 3.13 all note this one).
    """
    exec('')  # noqa: S102


class _Stop:
    """
    The SIGINT and SIGTERM handler of :func:`spin_node`: the first signal stops the node.

    While rclpy starts or the node is made (a first load can take seconds) it raises
    ``KeyboardInterrupt`` there; once the node spins it only sets :attr:`asked`, which the spin
    loop reads between two callbacks, so that the interrupt never surfaces inside an rclpy call
    as another error (pybind11's "Unable to convert call argument" in the single-threaded
    executor's ``take_message``, seen in CI). Later signals (a terminal's Ctrl-C reaches a node
    under ``ros2 launch`` from the terminal and from launch) are ignored.
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

    The ``main()`` of CONVENTIONS C8 (``rclpy.init``, make, spin, catch ``KeyboardInterrupt``
    and ``ExternalShutdownException``, destroy, ``try_shutdown``), with SIGINT and SIGTERM
    handled alike by a plain Python handler (:class:`_Stop`) instead of rclpy's, which shut the
    context down from another thread while the node was still being made (``RCLError``): either
    signal ends it with exit 0 and no traceback. The node is removed from the executor before
    the executor shuts down and the node is destroyed (the events executor aborts otherwise).
    Afterwards SIGINT is ignored and SIGTERM has its default action.

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
