#!/usr/bin/env bash
# Run the whole test suite: set up .venv (package + test tools), real ROS 2 Jazzy rclpy from
# PyPI with locally generated tf2_msgs (CPython 3.11 only; elsewhere the ROS tests skip), and
# headless Chromium for the browser tests; then pytest. Extra arguments go to pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup.sh
scripts/setup-ros.sh "$venv"
# urdfdom's check_urdf, for the differential tests (they skip without it).
if ! command -v check_urdf >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liburdfdom-tools; } \
    >>.cache/setup.log 2>&1 || echo "test: could not install liburdfdom-tools; urdfdom tests skip" >&2
fi
if [ -x scripts/setup-browser.sh ]; then
  scripts/setup-browser.sh "$venv"
fi
mkdir -p test-artifacts
exec "$venv/bin/python" -m pytest "$@"
