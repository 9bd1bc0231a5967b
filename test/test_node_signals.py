"""
SIGINT and SIGTERM at any moment of a node executable's life end it with exit 0, quietly.

Each node executable (the script in ``executables/`` that a colcon build installs under
``lib/urdf_tools_ros``, run with this Python) is started many times while two busy-loop
processes load both cores, five at a time, and gets SIGINT or SIGTERM at one moment each: from
0 to 2 s after the script's first statement set its handlers (seen in ``/proc/<pid>/status``:
the interpreter's own start-up before it, ``site`` and ``.pth`` files, is outside what a script
can handle), while the package, rclpy and the message types load, ``rclpy.init`` runs and the
node is made, and after the node logged its first line (making the node, loading a
description, waiting for one, spinning). Every run must end with 0 within
20 s, with nothing on its output that says a traceback, an abort or a fatal error (rclpy's
events executor aborts with "Destroying callback manager with callbacks remaining", exit -6,
when it is torn down in the wrong order).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import os
from pathlib import Path
import random
import signal
import subprocess
import sys
import threading
import time
import warnings

import compat_fastdds
from paths import REPO, SHARED_MODELS
import pytest
from ros_helpers import requires_ros

pytestmark = [*requires_ros, pytest.mark.slow]

TALOS = SHARED_MODELS / 'talos_full_v2.urdf'
#: (executable, arguments): waiting for a description, loading and checking a large one,
#: publishing joint states and TF from a file.
NODES = [
    ('robot_state_publisher', []),
    ('robot_description', ['--ros-args', '-p', f'model:={TALOS}']),
    ('joint_state_publisher', [str(TALOS)]),
    ('tf_broadcaster', [str(TALOS)]),
]
#: Moments of the signal: seconds after the handlers are set, or ``('logged', s)``: s after the
#: node's first line.
MOMENTS: list[float | tuple[str, float]] = [
    0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0, 1.2, 1.4, 1.7, 2.0,
    ('logged', 0.0), ('logged', 0.05), ('logged', 0.15), ('logged', 0.3), ('logged', 0.6),
    ('logged', 1.0), ('logged', 2.0)]
#: Node processes started together (on top of the two busy loops).
CONCURRENT = 5
#: What must not be in a node's output.
BAD = ('Traceback', 'Fatal Python error', 'Aborted', 'terminate called', 'RCLError',
       'callbacks remaining', 'Exception ignored')


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that each keep a core busy until killed."""
    return [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(count)]


def status(pid: int) -> dict[str, str] | str:
    """The fields of ``/proc/<pid>/status`` (``{'SigCgt': '...', ...}``), or why there are none."""
    try:
        text = Path(f'/proc/{pid}/status').read_text()
    except OSError as exc:
        return f'no status ({exc.strerror})'
    return {name: value.strip() for name, value in
            (line.split(':', 1) for line in text.splitlines() if ':' in line)}


def handles_sigterm(pid: int) -> bool:
    """Whether process ``pid`` has a handler for SIGTERM (Python sets none of its own)."""
    fields = status(pid)
    return not isinstance(fields, str) and bool(
        int(fields['SigCgt'], 16) >> (signal.SIGTERM - 1) & 1)


def signal_state(pid: int) -> str:
    """What process ``pid`` does with SIGINT and SIGTERM now (from ``/proc/<pid>/status``)."""
    fields = status(pid)
    if isinstance(fields, str):
        return fields
    words = []
    for number in (signal.SIGINT, signal.SIGTERM):
        bit = 1 << (number - 1)
        done = ('caught' if int(fields['SigCgt'], 16) & bit else
                'ignored' if int(fields['SigIgn'], 16) & bit else 'default')
        blocked = ', blocked' if int(fields['SigBlk'], 16) & bit else ''
        words.append(f'{number.name} {done}{blocked}')
    return f'{"; ".join(words)}; {fields["Threads"]} threads'


def run_one(executable: str, arguments: list[str], moment: float | tuple[str, float],
            number: signal.Signals, env: dict[str, str]) -> tuple[int | None, str]:
    """
    Start the node, send ``number`` at ``moment``; its exit code (``None``: hung) and output.

    The output ends with what the process did with SIGINT and SIGTERM just before the signal.
    """
    process = subprocess.Popen([sys.executable, str(REPO / 'executables' / executable),
                                *arguments], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    while not handles_sigterm(process.pid) and process.poll() is None:
        time.sleep(0.002)
    started = time.monotonic()
    lines: list[str] = []
    logged = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            logged.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if isinstance(moment, tuple):
        logged.wait(timeout=30.0)
        time.sleep(moment[1])
    else:
        time.sleep(max(0.0, started + moment - time.monotonic()))
    state = signal_state(process.pid)
    process.send_signal(number)
    try:
        code: int | None = process.wait(timeout=20.0)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        code = None
    reader.join(timeout=5.0)
    return code, ''.join(lines) + f'[before the signal: {state}]\n'


@pytest.mark.parametrize('executable,arguments', NODES, ids=[name for name, _ in NODES])
def test_a_signal_at_any_moment_ends_the_node_with_0(executable: str, arguments: list[str],
                                                     tmp_path: object) -> None:
    assert TALOS.is_file(), TALOS
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.SystemRandom().randint(120, 200)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_LOG_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get('PYTHONPATH', '')]))
    moments = MOMENTS[::2] if executable != 'robot_state_publisher' else MOMENTS
    cases = [(moment, (signal.SIGINT, signal.SIGTERM)[index % 2])
             for index, moment in enumerate(moments)]
    loads = busy_loops(2)
    failures, hung = [], []
    try:
        with ThreadPoolExecutor(max_workers=CONCURRENT) as pool:
            results = list(pool.map(lambda case: run_one(executable, arguments, *case, env),
                                    cases))
        for (moment, number), (code, output) in zip(cases, results):
            if code is None:
                hung.append(f'{number.name} at {moment}:\n{output}')
            elif code != 0 or any(word in output for word in BAD):
                failures.append(f'{number.name} at {moment}: exit {code}\n{output}')
    finally:
        for load in loads:
            load.kill()
            load.wait()
    if hung and not compat_fastdds.on_pypi_wheels():
        failures += [f'hung: {text}' for text in hung]
    elif hung:
        warnings.warn(f'{len(hung)} runs hung and were killed: the Fast DDS deadlock of the '
                      'PyPI wheels (test/compat_fastdds.py)')
    assert not failures, '\n\n'.join(failures)
