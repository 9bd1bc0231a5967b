#!/usr/bin/env bash
# Run the whole test suite: set up (scripts/setup-tests.sh: .venv, ROS 2 Jazzy rclpy from PyPI,
# the oracles, headless Chromium), then pytest. Where the set-up installed rclpy, a skipped ROS
# test fails the run (URDF_TOOLS_REQUIRE_ROS=1, test/conftest.py). The tests run in two
# pytest-xdist workers, each test file in one of them (URDF_TOOLS_TEST_WORKERS=N for another
# count, 0 for one process). Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup-tests.sh
if [ -f "$venv/.urdf_tools_ros_ros_ready" ]; then
  export URDF_TOOLS_REQUIRE_ROS="${URDF_TOOLS_REQUIRE_ROS:-1}"
fi
workers="${URDF_TOOLS_TEST_WORKERS:-2}"
parallel=()
if [ "$workers" != 0 ]; then
  parallel=(-n "$workers" --dist loadfile)
fi
exec "$venv/bin/python" -m pytest "${parallel[@]}" "$@"
