#!/usr/bin/env bash
# Run the whole test suite: set up .venv (package + test tools), real ROS 2 Jazzy rclpy from
# PyPI with locally generated tf2_msgs (CPython 3.11 only; elsewhere the ROS tests skip), the
# rest of a ROS 2 Jazzy install (launch, launch_testing, launch_ros, ros2cli, tf2/tf2_ros, the
# full tf2_msgs) built from ../shared/ros-src, and
# headless Chromium for the browser tests; then pytest. Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup.sh
scripts/setup-ros.sh "$venv"
# The real launch, launch_testing, launch_ros, ros2cli and tf2_ros, built from ../shared/ros-src
# (cached; without the sources the launch and tf2 tests skip).
scripts/setup-ros-src.sh "$venv"
# The real consumers the oracle tests ask: check_urdf, SDFormat probe (they skip without).
scripts/setup-oracles.sh "$venv"
if [ -x scripts/setup-browser.sh ]; then
  scripts/setup-browser.sh "$venv"
fi
mkdir -p test-artifacts
exec "$venv/bin/python" -m pytest "$@"
