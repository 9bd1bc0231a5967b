#!/usr/bin/env bash
# Run the whole test suite: set up (scripts/setup-tests.sh: .venv, ROS 2 Jazzy rclpy from PyPI,
# the oracles, headless Chromium), then pytest. Where the set-up installed rclpy, a skipped ROS
# test fails the run (URDF_TOOLS_REQUIRE_ROS=1, test/conftest.py). Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup-tests.sh
if [ -f "$venv/.urdf_tools_ros_ros_ready" ]; then
  export URDF_TOOLS_REQUIRE_ROS="${URDF_TOOLS_REQUIRE_ROS:-1}"
fi
exec "$venv/bin/python" -m pytest "$@"
