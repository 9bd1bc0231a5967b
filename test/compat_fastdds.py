"""
Test-side work-around (CONVENTIONS C14) for a deadlock of the ROS 2 wheels on PyPI.

The bug: Fast DDS 2.14 as built for the ``ros-jazzy-*`` wheels (ycheng517/ros-python-wheels,
manylinux_2_28: glibc 2.28, so libstdc++ has no ``pthread_cond_clockwait``) can deadlock for
good in ``DomainParticipant::set_listener(nullptr)`` when a node deletes its participant while a
peer leaves at the same moment: the unbounded ``steady_clock`` wait is converted to a negative
``timespec``, fails at once without releasing the participant's mutex, and is retried while a
discovery callback waits for that mutex. Seen about once in 20 launch-file runs under load;
Debian/Ubuntu's ROS packages (glibc >= 2.35) are not affected.

:func:`end` stops a node process with SIGINT and waits; a process still alive after ``timeout``
is killed. Where rclpy comes from those wheels that is reported as a warning naming this bug
(``None`` is returned); anywhere else it is a test failure. Delete this module when the wheels'
``libfastrtps.so`` exports ``pthread_cond_clockwait`` (``nm -D``), i.e. is built for glibc >= 2.30.
"""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import warnings

import pytest

__all__ = ['end', 'on_pypi_wheels']


def on_pypi_wheels() -> bool:
    """Whether ROS comes from the PyPI wheels (their bootstrapper package is importable)."""
    return importlib.util.find_spec('ros_wheels_bootstrapper') is not None


def end(process: subprocess.Popen[str], timeout: float = 20.0,
        signal_number: int = signal.SIGINT) -> int | None:
    """
    Send ``signal_number`` to a node process and wait for it; its exit code.

    :return: The exit code, or ``None`` when the process hung on the PyPI wheels (killed and
        reported as a warning, see the module docstring).
    :raises pytest.fail.Exception: when it hung anywhere else.
    """
    process.send_signal(signal_number)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    message = (f'node process {process.pid} did not end within {timeout} s of signal '
               f'{signal_number}')
    if on_pypi_wheels():
        warnings.warn(f'{message}: killed; the Fast DDS deadlock of the PyPI wheels '
                      '(test/compat_fastdds.py)')
        return None
    pytest.fail(message)
