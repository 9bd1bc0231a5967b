#!/usr/bin/env bash
# Run the ROS tests (`-m ros`: real rclpy in-process and in node processes) against the ROS 2
# wheels of one distro on PyPI, in a venv of their own (.cache/venv-<distro>, CPython 3.11:
# the wheels are cp311): the package and its test tools, then scripts/setup-ros.sh --distro.
# A skipped ROS test fails the run (URDF_TOOLS_REQUIRE_ROS=1). Extra arguments go to pytest.
# Usage: scripts/test-ros-distro.sh jazzy|kilted [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
distro="${1:?usage: test-ros-distro.sh jazzy|kilted [pytest args...]}"
shift
python="$(scripts/find-python 3.11 || true)"
if [ -z "$python" ]; then
  echo "test-ros-distro: no python3.11 (the ROS 2 wheels on PyPI are cp311): skipped" >&2
  exit 0
fi
venv="$root/.cache/venv-$distro"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
URDF_TOOLS_VENV="$venv" scripts/setup.sh --test
scripts/setup-ros.sh --distro "$distro" "$venv"
[ -f "$venv/.urdf_tools_ros_ros_ready" ] || { echo "test-ros-distro: ROS 2 $distro is not set up in $venv" >&2; exit 1; }
export URDF_TOOLS_REQUIRE_ROS=1
exec "$venv/bin/python" -m pytest -p no:cacheprovider -m ros -rs "$@"
