#!/usr/bin/env bash
# Set up everything the test suite uses (cached; each step skips what is already there):
# .venv with the package and the test tools, real ROS 2 Jazzy rclpy from PyPI with locally
# generated tf2_msgs (CPython 3.11 only; elsewhere the ROS tests skip), the rest of a ROS 2
# Jazzy install (launch, launch_testing, launch_pytest, launch_ros, ros2cli, tf2/tf2_ros, the
# full tf2_msgs) built from ../shared/ros-src (without it the launch and tf2 tests skip), the
# real consumers the oracle tests ask (check_urdf, SDFormat probe), and headless Chromium for
# the browser tests. Used by scripts/test.sh and scripts/colcon-test.sh.
# Usage: scripts/setup-tests.sh   (URDF_TOOLS_VENV overrides the venv path)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup.sh --test
scripts/setup-ros.sh "$venv"
scripts/setup-ros-src.sh "$venv"
scripts/setup-oracles.sh "$venv"
if [ -x scripts/setup-browser.sh ]; then
  scripts/setup-browser.sh "$venv"
fi
mkdir -p test-artifacts
