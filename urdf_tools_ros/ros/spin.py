"""The one ``main()`` shape of every node executable, on Humble and Jazzy (CONVENTIONS C8)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
import contextlib
import ctypes
import ctypes.util
import faulthandler
import signal
import sys

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.signals import uninstall_signal_handlers

#: Seconds the clean-up (destroying the node, shutting rclpy down) may take before the process
#: ends anyway, with 0; under ``ros2 launch``'s 5 s between SIGINT and SIGTERM.
CLEANUP_TIMEOUT = 3.0


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
    SIGINT is ignored, so a late Ctrl-C cannot kill the process on its way out, and rclpy's
    signal handlers are uninstalled, so SIGTERM ends it. The clean-up may take
    :data:`CLEANUP_TIMEOUT` seconds, after which the process ends with 0 anyway
    (:func:`exit_after`: a DDS participant deletion that never returns).

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
        with exit_after(CLEANUP_TIMEOUT):
            if node is not None:
                node.destroy_node()
            rclpy.try_shutdown()
            # as rclpy.shutdown() does (try_shutdown does not): rclpy's SIGTERM handler only
            # shuts contexts down, so while it stays installed SIGTERM cannot end the process
            uninstall_signal_handlers()
        # ignored from here on, also at the interpreter's exit (which would reset a Python
        # handler to SIG_DFL, so that a late Ctrl-C killed the process: exit -2)
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def exit_after(seconds: float) -> Iterator[None]:
    """
    End the process with 0 if the ``with`` body has not finished within ``seconds``.

    For the clean-up of a node that was asked to stop: destroying the last node of a context
    deletes its DDS participant, and Fast DDS as built for the ROS wheels on PyPI (for glibc
    < 2.30, without ``pthread_cond_clockwait``) can deadlock there for good. Its
    ``DomainParticipant::set_listener(nullptr)``, which rmw_fastrtps calls first, waits with an
    unbounded ``steady_clock`` deadline that libstdc++ then converts to a negative
    ``timespec``: the wait fails at once without releasing the participant's mutex and is
    retried, so a discovery callback that is running at that moment (another node leaving at the
    same time, as every node of a launch does on Ctrl-C) can never finish. The stuck call holds
    the GIL, so no Python code can act; two C threads do instead: ``faulthandler`` writes every
    thread's Python stack to stderr after ``seconds``, and a POSIX timer (``SIGEV_THREAD``,
    Linux/glibc) calls ``_exit(0)`` half a second later. Peers then drop the participant when its
    lease expires instead of at once. Where the timer is not available only the stacks are
    written. Python's buffered output is flushed before the body runs.

    :param seconds: Time the body may take, s.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    timer = _ExitTimer.start(seconds + 0.5)
    dumping = False
    if sys.__stderr__ is not None:
        with contextlib.suppress(OSError, ValueError, RuntimeError, AttributeError):
            faulthandler.dump_traceback_later(seconds, exit=False, file=sys.__stderr__)
            dumping = True
    try:
        yield
    finally:
        if dumping:
            faulthandler.cancel_dump_traceback_later()
        if timer is not None:
            timer.cancel()


class _Sigevent(ctypes.Structure):
    """``struct sigevent`` for ``SIGEV_THREAD`` (glibc layout; padded past its 64 bytes)."""

    _fields_ = [('sigev_value', ctypes.c_void_p),  # union sigval: the function's argument
                ('sigev_signo', ctypes.c_int),
                ('sigev_notify', ctypes.c_int),
                ('sigev_notify_function', ctypes.c_void_p),
                ('sigev_notify_attributes', ctypes.c_void_p),
                ('_pad', ctypes.c_int * 16)]


class _Timespec(ctypes.Structure):
    _fields_ = [('tv_sec', ctypes.c_long), ('tv_nsec', ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [('it_interval', _Timespec), ('it_value', _Timespec)]


_CLOCK_MONOTONIC = 1
_SIGEV_THREAD = 2


class _ExitTimer:
    """A one-shot POSIX timer whose expiry calls libc's ``_exit(0)`` in a thread of libc's own."""

    def __init__(self, libc: ctypes.CDLL, timer: ctypes.c_void_p) -> None:
        self._libc = libc
        self._timer = timer

    @classmethod
    def start(cls, seconds: float) -> _ExitTimer | None:
        """Arm the timer to fire ``seconds`` from now; None where timers are not available."""
        if not sys.platform.startswith('linux'):
            return None
        try:
            process = ctypes.CDLL(None)  # libc and everything else loaded
            libc = process if hasattr(process, 'timer_create') else \
                ctypes.CDLL(ctypes.util.find_library('rt') or 'librt.so.1')  # glibc < 2.34
            exit_function = ctypes.cast(process._exit, ctypes.c_void_p).value
            event = _Sigevent(sigev_value=None, sigev_signo=0, sigev_notify=_SIGEV_THREAD,
                              sigev_notify_function=exit_function)
            timer = ctypes.c_void_p()
            if libc.timer_create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(timer)):
                return None
            whole = int(seconds)
            value = _Itimerspec(it_value=_Timespec(whole, int((seconds - whole) * 1e9)))
            if libc.timer_settime(timer, 0, ctypes.byref(value), None):
                libc.timer_delete(timer)
                return None
        except (OSError, AttributeError):
            return None
        return cls(libc, timer)

    def cancel(self) -> None:
        """Disarm and delete the timer."""
        self._libc.timer_delete(self._timer)
