#!/usr/bin/env bash
# Set up everything the test suite uses (cached; each step skips what is already there):
# .venv with the package and the test tools, real ROS 2 Jazzy rclpy and message packages from
# PyPI with the interfaces of scripts/ros/ generated locally (tf2_msgs/TFMessage, the GetResource
# services; CPython 3.11 on Linux only; elsewhere the ROS tests skip), the real consumers the oracle tests ask (check_urdf, SDFormat probe), and
# headless Chromium for the browser tests, Neovim for the language server's editor test. What only a ROS 2 install gives (launch,
# launch_testing, launch_pytest, launch_ros, ros2cli, tf2_ros) is on no registry: those tests
# run where a sourced ROS 2 has them and skip, with the reason, elsewhere.
# Used by scripts/test.sh.
# Usage: scripts/setup-tests.sh   (URDF_TOOLS_VENV overrides the venv path)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup.sh --test
scripts/setup-ros.sh "$venv"
scripts/setup-oracles.sh "$venv"
scripts/setup-browser.sh "$venv"
scripts/setup-editors.sh
mkdir -p test-artifacts
