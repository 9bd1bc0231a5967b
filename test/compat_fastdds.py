"""
Test-side work-around (CONVENTIONS C14) for a deadlock of the ROS 2 wheels on PyPI.

Fast DDS 2.14 of the ``ros-jazzy-*`` wheels (manylinux_2_28: no ``pthread_cond_clockwait``)
can hang for good in ``DomainParticipant::set_listener(nullptr)`` when a peer leaves at the
same moment (about 1 in 20 launch runs). :func:`end` stops a node with SIGINT; one still alive
after ``timeout`` is killed, a warning naming this bug with those wheels, a failure elsewhere.
Delete this module when the wheels' ``libfastrtps.so`` exports ``pthread_cond_clockwait``.
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
    """Signal a node process and wait: its exit code; ``None``: hung on the PyPI wheels."""
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
