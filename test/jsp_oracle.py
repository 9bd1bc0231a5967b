"""
Upstream joint_state_publisher 2.4.0 as an oracle: whether the real program takes a URDF.

The program is the unmodified ``joint_state_publisher.py`` of the 2.4.0 release
(``../shared/ros-src/joint_state_publisher-2.4.0.tar.gz``, extracted into ``.cache`` at test
time, never copied into the project), run with real rclpy as ``joint_state_publisher.py FILE``
(its positional description file). It *refuses* a description when it exits within a few
seconds (an exception while configuring the robot, a KeyError in its publish loop, "Found an
infinite recursive mimic chain"); it *loads* it when it is still publishing then.
Skipped (``None``) where the archive or rclpy is absent. :func:`joint_states` also reads what it
publishes first on ``/joint_states`` (how it reads the file: mimic, limits, zeros).
"""

from __future__ import annotations

from dataclasses import dataclass
import json
import os
from pathlib import Path
import random
import subprocess
import sys
import tarfile

from paths import CACHE, SHARED

ARCHIVE = SHARED / 'ros-src' / 'joint_state_publisher-2.4.0.tar.gz'
MEMBER = 'joint_state_publisher/joint_state_publisher/joint_state_publisher/' \
         'joint_state_publisher.py'
ORACLE = CACHE / 'oracles' / 'joint_state_publisher-2.4.0'


@dataclass(frozen=True)
class JspVerdict:
    """What upstream joint_state_publisher did with a file: ``loaded`` and its last output."""

    loaded: bool
    message: str


def program() -> Path | None:
    """The extracted upstream program, or ``None`` when the archive or rclpy is missing."""
    target = ORACLE / 'joint_state_publisher.py'
    if not target.exists():
        if not ARCHIVE.exists():
            return None
        ORACLE.mkdir(parents=True, exist_ok=True)
        with tarfile.open(ARCHIVE) as archive:
            member = archive.extractfile(MEMBER)
            if member is None:
                return None
            target.write_bytes(member.read())
    probe = subprocess.run([sys.executable, '-c', 'import rclpy, sensor_msgs.msg'],
                           capture_output=True, timeout=60, check=False)
    return target if probe.returncode == 0 else None


#: A listener in its own process: prints the first /joint_states as JSON {name: position}.
_LISTENER = """
import json, sys
import rclpy
from sensor_msgs.msg import JointState
rclpy.init()
node = rclpy.create_node('jsp_oracle_listener')
got = []
node.create_subscription(JointState, '/joint_states', got.append, 10)
while not got:
    rclpy.spin_once(node, timeout_sec=0.1)
print(json.dumps(dict(zip(got[0].name, got[0].position))))
"""


def _environment() -> dict[str, str]:
    """An isolated ROS graph: a random domain, localhost only, unbuffered output."""
    return dict(os.environ, ROS_DOMAIN_ID=str(random.randint(100, 200)),
                ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_LOCALHOST_ONLY='1',
                PYTHONUNBUFFERED='1')


def _stop(process: subprocess.Popen[str]) -> str:
    """Terminate ``process`` (kill it if it lingers) and return its output."""
    process.terminate()
    try:
        output, _ = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return output


def joint_states(path: Path, seconds: float = 20.0) -> dict[str, float] | None:
    """
    The first ``/joint_states`` upstream joint_state_publisher publishes for ``path``.

    :return: ``{joint name: position}`` (rad or m); ``{}`` when it exits or publishes nothing
        within ``seconds``; ``None`` when the oracle is not available here.
    """
    executable = program()
    if executable is None:
        return None
    env = _environment()
    process = subprocess.Popen([sys.executable, str(executable), str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               text=True)
    try:
        listened = subprocess.run([sys.executable, '-c', _LISTENER], env=env,
                                  capture_output=True, text=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        return {}
    finally:
        _stop(process)
    if listened.returncode != 0 or not listened.stdout.strip():
        return {}
    positions: dict[str, float] = json.loads(listened.stdout.strip().splitlines()[-1])
    return positions


def joint_state_publisher(path: Path, seconds: float = 4.0) -> JspVerdict | None:
    """
    Run upstream joint_state_publisher on ``path`` for ``seconds``.

    :return: ``loaded=False`` when it exited before (with its output), ``True`` when it was
        still running; ``None`` when the oracle is not available here.
    """
    executable = program()
    if executable is None:
        return None
    process = subprocess.Popen([sys.executable, str(executable), str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=_environment(), text=True)
    try:
        output, _ = process.communicate(timeout=seconds)
        return JspVerdict(False, output[-2000:])
    except subprocess.TimeoutExpired:
        return JspVerdict(True, _stop(process)[-2000:])
