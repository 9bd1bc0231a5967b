"""
Upstream joint_state_publisher 2.4.0 as an oracle: whether the real program takes a URDF.

The program is the unmodified ``joint_state_publisher.py`` of the 2.4.0 release
(``../shared/ros-src/joint_state_publisher-2.4.0.tar.gz``, extracted into ``.cache`` at test
time, never copied into the project), run with real rclpy as ``joint_state_publisher.py FILE``
(its positional description file). It *refuses* a description when it exits within a few
seconds (an exception while configuring the robot, a KeyError in its publish loop, "Found an
infinite recursive mimic chain"); it *loads* it when it is still publishing then.
Skipped (``None``) where the archive or rclpy is absent.
"""

from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path
import random
import subprocess
import sys
import tarfile

REPO = Path(__file__).resolve().parents[1]
ARCHIVE = REPO.parent / 'shared' / 'ros-src' / 'joint_state_publisher-2.4.0.tar.gz'
MEMBER = 'joint_state_publisher/joint_state_publisher/joint_state_publisher/' \
         'joint_state_publisher.py'
CACHE = REPO / '.cache' / 'oracles' / 'joint_state_publisher-2.4.0'


@dataclass(frozen=True)
class JspVerdict:
    """What upstream joint_state_publisher did with a file: ``loaded`` and its last output."""

    loaded: bool
    message: str


def program() -> Path | None:
    """The extracted upstream program, or ``None`` when the archive or rclpy is missing."""
    target = CACHE / 'joint_state_publisher.py'
    if not target.exists():
        if not ARCHIVE.exists():
            return None
        CACHE.mkdir(parents=True, exist_ok=True)
        with tarfile.open(ARCHIVE) as archive:
            member = archive.extractfile(MEMBER)
            if member is None:
                return None
            target.write_bytes(member.read())
    probe = subprocess.run([sys.executable, '-c', 'import rclpy, sensor_msgs.msg'],
                           capture_output=True, timeout=60, check=False)
    return target if probe.returncode == 0 else None


def joint_state_publisher(path: Path, seconds: float = 4.0) -> JspVerdict | None:
    """
    Run upstream joint_state_publisher on ``path`` for ``seconds``.

    :return: ``loaded=False`` when it exited before (with its output), ``True`` when it was
        still running; ``None`` when the oracle is not available here.
    """
    executable = program()
    if executable is None:
        return None
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(100, 200)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_LOCALHOST_ONLY='1',
               PYTHONUNBUFFERED='1')
    process = subprocess.Popen([sys.executable, str(executable), str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               text=True)
    try:
        output, _ = process.communicate(timeout=seconds)
        return JspVerdict(False, output[-2000:])
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            output, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        return JspVerdict(True, output[-2000:])
