#!/usr/bin/env bash
# Run the whole test suite: set up .venv (package + test tools), real ROS 2 Jazzy rclpy from
# PyPI with locally generated tf2_msgs (CPython 3.11 only; elsewhere the ROS tests skip), the
# real launch/launch_ros from ../shared/ros-src, and
# headless Chromium for the browser tests; then pytest. Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup.sh
scripts/setup-ros.sh "$venv"
# The real launch and launch_ros (from ../shared/ros-src), for the tests that launch the files.
scripts/setup-launch.sh "$venv"
# The real consumers the oracle tests ask: check_urdf, SDFormat probe (they skip without).
scripts/setup-oracles.sh "$venv"
if [ -x scripts/setup-browser.sh ]; then
  scripts/setup-browser.sh "$venv"
fi
mkdir -p test-artifacts
exec "$venv/bin/python" -m pytest "$@"
