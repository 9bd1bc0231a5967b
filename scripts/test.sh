#!/usr/bin/env bash
# Run the whole test suite: set up (scripts/setup-tests.sh: .venv, ROS 2 Jazzy rclpy from PyPI,
# launch/launch_testing/tf2_ros from ../shared/ros-src, the oracles, headless Chromium), then
# pytest. Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup-tests.sh
exec "$venv/bin/python" -m pytest "$@"
