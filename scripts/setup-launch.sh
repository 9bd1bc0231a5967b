#!/usr/bin/env bash
# Install the real ROS 2 Jazzy launch system into the venv, from the unmodified upstream
# snapshots in ../shared/ros-src (see its SOURCES.md; nothing is copied into the project):
# launch, launch_xml, launch_yaml (ros2/launch) and launch_ros (ros2/launch_ros) with
# pip install --no-deps, and composition_interfaces (ros2/rcl_interfaces), which
# launch_ros.actions imports, built with cmake into the venv. Run after scripts/setup-ros.sh.
# Cached (a stamp of this script and the archives); quiet (log: .cache/setup.log). Without
# ../shared/ros-src or a working rclpy it prints one line and exits 0: the tests that launch
# the launch files then skip. Non-zero only on a real failure (the log tail is shown).
# Usage: scripts/setup-launch.sh [VENV]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$(cd "${1:-${URDF_TOOLS_VENV:-$root/.venv}}" && pwd)"
sources="$root/../shared/ros-src"
log="$root/.cache/setup.log"
work="$root/.cache/ros-src"
archives=(launch-jazzy.tar.gz launch_ros-jazzy.tar.gz rcl_interfaces-jazzy.tar.gz)
mkdir -p "$root/.cache"

if [ ! -d "$sources" ]; then
  echo "setup-launch: no $sources; the tests that launch the launch files skip" >&2
  exit 0
fi
unset _ROS_WHEELS_BOOTSTRAP_COMPLETE
if ! "$venv/bin/python" -c 'import rclpy' >/dev/null 2>&1; then
  echo "setup-launch: rclpy is not importable in $venv; the launch tests skip" >&2
  exit 0
fi
stamp="$venv/.urdf_tools_ros_launch_ready"
want="$( { cat "${BASH_SOURCE[0]}"; for a in "${archives[@]}"; do sha256sum "$sources/$a"; done; } \
        | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

echo "setup-launch: installing launch, launch_ros and composition_interfaces into $venv" >&2
fail() {
  tail -n 30 "$log" >&2
  echo "setup-launch: failed: $1 (log: $log)" >&2
  exit 1
}
rm -rf "$work" && mkdir -p "$work"
for a in "${archives[@]}"; do
  name="${a%-jazzy.tar.gz}"
  mkdir -p "$work/$name" && tar -xzf "$sources/$a" -C "$work/$name" || fail "extract $a"
done
(
  export AMENT_PREFIX_PATH="$venv" CMAKE_PREFIX_PATH="$venv" PATH="$venv/bin:$PATH"
  export LD_LIBRARY_PATH="$venv/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  cmake -S "$work/rcl_interfaces/rcl_interfaces/composition_interfaces" \
    -B "$work/build/composition_interfaces" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$venv" -DPython3_EXECUTABLE="$venv/bin/python" -DBUILD_TESTING=OFF
  cmake --build "$work/build/composition_interfaces" -j "$(nproc 2>/dev/null || echo 2)"
  cmake --install "$work/build/composition_interfaces"
) >>"$log" 2>&1 </dev/null || fail "cmake build of composition_interfaces"
{
  "$venv/bin/python" -m pip install -q lark osrf-pycommon pyyaml \
  && for package in launch/launch/launch launch/launch/launch_xml launch/launch/launch_yaml \
                    launch_ros/launch_ros/launch_ros; do
       "$venv/bin/python" -m pip install -q --no-deps "$work/$package" || exit 1
     done
} >>"$log" 2>&1 || fail "pip install of launch and launch_ros"
AMENT_PREFIX_PATH="$venv" "$venv/bin/python" -c \
  'import launch, launch_ros.actions, composition_interfaces.srv' >>"$log" 2>&1 \
  || fail "import check"
echo "$want" > "$stamp"
