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


class _Stopped(BaseException):
    """
    Raised by :class:`_Stop` where the first signal lands while rclpy starts or the node is made.

    Not ``KeyboardInterrupt``: when a ``KeyboardInterrupt`` leaves code that Python runs from a
    string (``exec`` or ``eval`` of text; ``dataclasses`` and ``collections.namedtuple`` define
    their methods so while a module that uses them is imported), CPython notes it as unhandled
    even though it is caught later, and unless a later ``exec`` of text clears the note, the
    interpreter kills itself with SIGINT after a normal end: exit -2 with no output
    (bpo-1054041, Python 3.8 and later; ``run_eval_code_obj`` in CPython's
    ``Python/pythonrun.c``). It happened to about one signal in 1,500 under
    ``test/test_node_signals.py``'s load. An exception of our own passes ``except Exception`` as
    ``KeyboardInterrupt`` does, and CPython takes no note of it.
    """


class _Stop:
    """
    The SIGINT and SIGTERM handler from ``rclpy.init`` to the end of the clean-up.

    The first signal asks the node to stop: while rclpy starts or the node is being made (a
    first load can take seconds) it raises :class:`_Stopped` there; once the node is made it
    only sets :attr:`requested`, which the spin loop reads between two callbacks, so that no
    rclpy call is ever cut in half. Later signals (a terminal's Ctrl-C reaches a node under
    ``ros2 launch`` from the terminal and from launch) are ignored.
    """

    def __init__(self) -> None:
        self.requested = False
        self.made = False
        self.previous_hook = sys.unraisablehook

    def __call__(self, _signum: int, _frame: object) -> None:
        if self.requested:
            return
        self.requested = True
        if not self.made:
            raise _Stopped

    def unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        """
        ``sys.unraisablehook`` of :func:`spin_node`: a :class:`_Stopped` Python ignored is quiet.

        Where the signal lands in code whose exceptions Python does not propagate (a weakref
        callback, such as importlib's clean-up of a module lock while a module is imported; a
        ``__del__``), the :class:`_Stopped` raised there cannot stop the making: Python printed
        it ("Exception ignored in ...", a traceback) and went on. The stop stays asked
        (:attr:`requested`), so :func:`spin_node` ends as soon as the node is made, before it
        spins; here it is not printed. Anything else goes to the hook that was there before.
        """
        if isinstance(unraisable.exc_value, _Stopped):
            return
        self.previous_hook(unraisable)


def spin_node(make_node: Callable[[], Node], args: list[str] | None = None) -> None:
    """
    Initialise rclpy, spin the node ``make_node()`` returns until shut down, then clean up.

    SIGINT and SIGTERM end it quietly at any moment: this module's handler replaces rclpy's
    (``rclpy.init`` installs none), which shut the context down from another thread while the
    node was still being made (``RCLError: context is not valid``), and stopping between two
    callbacks leaves the executor nothing half done. An external shutdown
    (``ExternalShutdownException``) ends it too. The node is removed from the executor and
    destroyed, and rclpy shut down, in every case; afterwards SIGINT is ignored and SIGTERM
    has its default action again.

    :param make_node: Builds the node (after ``rclpy.init``).
    :param args: Command-line arguments for rclpy (``--ros-args ...``); ``None``: ``sys.argv``.
    """
    stop = _Stop()
    node: Node | None = None
    executor: Executor | None = None
    sys.unraisablehook = stop.unraisable
    try:
        # inside the try: a signal right after the first handler is set raises here
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, stop)
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
        node = make_node()
        stop.made = True
        executor = make_executor()
        executor.add_node(node)
        while not stop.requested and node.context.ok():
            executor.spin_once(timeout_sec=0.1)
    except (_Stopped, KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        stop.requested = True  # from here on every signal is ignored
        if executor is not None:
            if node is not None:
                executor.remove_node(node)
            executor.shutdown()
            del executor
        if node is not None:
            node.destroy_node()
        _try_shutdown()
        # SIG_IGN outlives the interpreter's finalisation (a Python handler does not)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        sys.unraisablehook = stop.previous_hook
