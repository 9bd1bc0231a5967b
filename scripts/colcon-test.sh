#!/usr/bin/env bash
# `colcon build && colcon test` of the package as a ROS user runs them on a sourced underlay:
# ROS 2 (rclpy, the message packages, the interfaces of scripts/ros/) from the PyPI wheels in a
# prefix of its own, .cache/ros-<distro> (scripts/setup-ros.sh --prefix), reached only through
# what sourcing its setup.sh prepends (PYTHONPATH, AMENT_PREFIX_PATH, LD_LIBRARY_PATH, as
# /opt/ros/<distro>/setup.bash does); colcon, pytest 7.4.4 and the test tools in a venv of their
# own (.cache/venv-colcon, not the test venv; the package itself only in the workspace's install
# space). The workspace is .cache/colcon-ws (made anew), its install space is sourced before
# `colcon test`. A skipped ROS test fails the run (URDF_TOOLS_REQUIRE_ROS=1). Prints every skip
# reason, then `colcon test-result`; exits non-zero on any failure or error (and when no test
# ran). Extra arguments go to pytest (CI: -m "ros or ros_install or installed", what depends on
# the installed layout and on ROS; without them, the whole suite). Among them
# test/test_ament_linter.py builds and tests two description packages, ament_cmake and
# ament_python, in a workspace of their own on this sourced install: the linter as users run it.
# Usage: scripts/colcon-test.sh [--distro jazzy|kilted] [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
distro=jazzy
if [ "${1:-}" = --distro ]; then
  distro="$2"
  shift 2
fi
python="${URDF_TOOLS_PYTHON311:-$(scripts/find-python 3.11 || true)}"
if [ -z "$python" ]; then
  echo "colcon-test: no python3.11 (the ROS 2 wheels on PyPI are cp311): skipped" >&2
  exit 0
fi
venv="$root/.cache/venv-colcon"
underlay="$root/.cache/ros-$distro"
log="$root/.cache/setup.log"
mkdir -p "$root/.cache"
# The test tools without the package: it must come from the workspace's install space.
stamp="$venv/.urdf_tools_ros_colcon_setup"
digest="$(cat setup.py scripts/colcon-test.sh | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$digest" ]; then
  echo "colcon-test: setting up $venv (colcon, pytest 7.4.4, the test tools)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  { "$venv/bin/python" -m pip install -q --upgrade pip \
    && "$venv/bin/python" -m pip install -q "$root[test,view]" \
    && "$venv/bin/python" -m pip uninstall -q -y urdf_tools_ros; } >>"$log" 2>&1 \
    || { tail -n 30 "$log" >&2; echo "colcon-test: pip install failed (log: $log)" >&2; exit 1; }
  echo "$digest" > "$stamp"
fi
scripts/setup-ros.sh --distro "$distro" --prefix "$underlay" "$venv"
[ -f "$underlay/setup.sh" ] || { echo "colcon-test: no ROS 2 underlay at $underlay" >&2; exit 1; }
scripts/setup-oracles.sh "$venv"
ws="$root/.cache/colcon-ws"
rm -rf "$ws"
mkdir -p "$ws/src/urdf_tools_ros"
# The package as a clone has it (tracked and untracked files, .gitignore respected).
git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$ws/src/urdf_tools_ros"
export PATH="$venv/bin:$PATH"
# The copy's tests find ../shared and the built oracles where the repository has them (the
# paths normalised: a test compares them with the paths the loader resolves).
export URDF_TOOLS_SHARED="$(cd "$root/.." && pwd)/shared" URDF_TOOLS_CACHE="$root/.cache"
export URDF_TOOLS_REQUIRE_ROS=1
set +u
# shellcheck disable=SC1091
. "$underlay/setup.sh"
set -u
cd "$ws"
echo "== colcon build (workspace $ws, ROS_DISTRO=$ROS_DISTRO from $underlay/setup.sh)"
colcon build --event-handlers console_direct-
set +u
# shellcheck disable=SC1091
. install/setup.bash
set -u
echo "== colcon test (pytest $("$venv/bin/python" -m pytest --version 2>&1 | awk '{print $2}'))"
# Each pytest argument after a space: colcon strips it, and reads none of them as its own option.
pytest_args=(" -rs")
for arg in "$@"; do
  pytest_args+=(" $arg")
done
status=0
colcon test --packages-select urdf_tools_ros --return-code-on-test-failure \
  --event-handlers console_direct+ --pytest-args "${pytest_args[@]}" || status=$?
echo "== colcon test-result"
colcon test-result --verbose || status=$((status ? status : 1))
exit "$status"
