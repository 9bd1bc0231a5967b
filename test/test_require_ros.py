"""``URDF_TOOLS_REQUIRE_ROS=1``: a stage that installed rclpy fails when a ROS test skips."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.portability

TESTS = """
import pytest

@pytest.mark.ros
def test_needs_rclpy():
    pytest.skip('rclpy cannot be imported (stand-in)')

@pytest.mark.ros
@pytest.mark.ros_install
def test_needs_launch():
    pytest.skip('launch cannot be imported (stand-in)')

def test_core():
    pass
"""


def run(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / 'test_stand_in.py').write_text(TESTS)
    env = {name: value for name, value in os.environ.items()
           if name != 'URDF_TOOLS_REQUIRE_ROS'}
    if require is not None:
        env['URDF_TOOLS_REQUIRE_ROS'] = require
    env['PYTHONPATH'] = os.pathsep.join(
        [str(REPO / 'test'), *filter(None, os.environ.get('PYTHONPATH', '').split(os.pathsep))])
    # this suite's conftest as a plugin, on a file of its own
    return subprocess.run([sys.executable, '-m', 'pytest', '-p', 'conftest', '-p',
                           'no:cacheprovider', '-q', '-rs', str(tmp_path / 'test_stand_in.py')],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize('require', [None, '0'])
def test_a_skipped_ros_test_passes_where_ros_is_not_required(
        tmp_path: Path, require: str | None) -> None:
    done = run(tmp_path, require)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '1 passed, 2 skipped' in done.stdout


def test_a_skipped_ros_test_fails_the_run_where_ros_is_required(tmp_path: Path) -> None:
    done = run(tmp_path, '1')
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'ROS tests skipped with URDF_TOOLS_REQUIRE_ROS=1' in done.stdout
    assert 'test_needs_rclpy: ' in done.stdout and 'stand-in' in done.stdout
    assert 'test_needs_launch: ' not in done.stdout  # ros_install tests may skip
