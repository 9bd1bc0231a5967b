#!/usr/bin/env bash
# Install into the venv, from the unmodified upstream ROS 2 Jazzy snapshots in
# ../shared/ros-src (see its SOURCES.md; nothing is copied into the project), the parts of
# a ROS 2 Jazzy install that PyPI lacks:
#   cmake builds, installed into the venv prefix:
#     tf2_msgs (the full package: msg, srv, action; from geometry2, it replaces the
#     TFMessage-only one scripts/setup-ros.sh builds), composition_interfaces
#     (rcl_interfaces), tf2 (C++) and tf2_py (C extension; geometry2);
#   pure-Python packages, each with `pip install --no-deps` of its package folder (so that
#   entry points, ament index markers and share/ files are installed as colcon would):
#     launch, launch_xml, launch_yaml, launch_testing, launch_pytest (ros2/launch),
#     launch_ros, launch_testing_ros, ros2launch (ros2/launch_ros), ros2cli with the verbs
#     ros2pkg ros2run ros2node ros2topic ros2param ros2service (ros2/ros2cli),
#     rosidl_runtime_py, tf2_ros (geometry2/tf2_ros_py);
#   their Python dependencies from PyPI, and pytest 7.4.4 when the venv has pytest >= 8
#   (launch_testing 3.4.3's pytest plugin breaks every pytest run under pytest 8).
# Run after scripts/setup-ros.sh (scripts/test.sh does). Sources are extracted and built in
# .cache/ros-src-build/<venv key>/ (log: setup-ros-src.log there).
#
# Usage: scripts/setup-ros-src.sh [--force] [VENV_DIR]
#   VENV_DIR  the virtualenv scripts/setup-ros.sh set up (default: <repo>/.venv)
#   --force   ignore the "already done" stamp and rebuild everything (also SETUP_ROS_FORCE=1)
#   URDF_TOOLS_ROS_SKIP_ROS=1  skip everything
#
# Cached: the stamp <venv>/.urdf_tools_ros_ros_src_ready holds a hash of this script, of the
# archives and of setup-ros.sh's stamp (a rebuild there reinstalls the small tf2_msgs, so it
# triggers a rebuild here). Exit status 0 when done, or when it cannot apply (no
# ../shared/ros-src, or ROS not set up in the venv because setup-ros.sh skipped it): then one
# line says the launch/tf2 tests will skip. Non-zero on a real failure (the log tail is shown).
#
# Using it: AMENT_PREFIX_PATH must name the venv (plus any colcon install space) for
# get_package_share_directory() and `ros2 launch <package> <file>`; <venv>/bin/ros2 and
# <venv>/bin/python need nothing else (the wheels' bootstrapper sets LD_LIBRARY_PATH).
set -Eeuo pipefail

# --- What to install ---------------------------------------------------------------
ARCHIVES=(launch-jazzy.tar.gz launch_ros-jazzy.tar.gz ros2cli-jazzy.tar.gz
          rosidl_runtime_py-jazzy.tar.gz geometry2-jazzy.tar.gz rcl_interfaces-jazzy.tar.gz)
# cmake packages, in build order (folders inside the extracted archives).
CMAKE_PKGS=(
  geometry2/tf2_msgs
  rcl_interfaces/composition_interfaces
  geometry2/tf2
  geometry2/tf2_py
)
# Pure-Python package folders, installed with pip --no-deps.
PY_PKGS=(
  rosidl_runtime_py
  launch/launch launch/launch_xml launch/launch_yaml launch/launch_testing launch/launch_pytest
  launch_ros/launch_ros launch_ros/launch_testing_ros launch_ros/ros2launch
  ros2cli/ros2cli ros2cli/ros2pkg ros2cli/ros2run ros2cli/ros2node ros2cli/ros2topic
  ros2cli/ros2param ros2cli/ros2service
  geometry2/tf2_ros_py
)
# Their Python dependencies (package.xml exec_depends; what Ubuntu Noble's python3-* give).
# lark comes with the rosidl-parser wheel (as lark-parser). setuptools + wheel: the builds
# above run without build isolation.
PY_DEPS=(osrf-pycommon pyyaml numpy psutil packaging argcomplete catkin-pkg empy
         setuptools wheel)
# Ubuntu Noble's pytest, the one launch_testing 3.4.3 works with (pytest 8 fails with
# "PluginValidationError ... Argument(s) {'path'}"); setup.py's `test` extra pins the same.
PYTEST_PINS=("pytest==7.4.4" "pytest-rerunfailures<15")

# --- Arguments and paths -----------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
SCRIPT_PATH="$SCRIPT_DIR/$(basename "${BASH_SOURCE[0]}")"
SOURCES="$REPO_ROOT/../shared/ros-src"

FORCE="${SETUP_ROS_FORCE:-0}"
VENV_ARG=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,33p' "$SCRIPT_PATH" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -f|--force) FORCE=1 ;;
    -*) echo "setup-ros-src: unknown option $arg (see --help)" >&2; exit 2 ;;
    *) [ -z "$VENV_ARG" ] || { echo "setup-ros-src: one VENV_DIR only" >&2; exit 2; }
       VENV_ARG="$arg" ;;
  esac
done
VENV_ARG="${VENV_ARG:-${URDF_TOOLS_VENV:-$REPO_ROOT/.venv}}"

START_NS=$(date +%s%N)
elapsed() { echo "$(( ($(date +%s%N) - START_NS) / 1000000 ))" | awk '{printf "%.1f s", $1/1000}'; }
say() { echo "setup-ros-src: $*"; }
skip() { say "SKIP: $* -> the launch/tf2 tests will skip ($(elapsed))"; exit 0; }

if [ "${URDF_TOOLS_ROS_SKIP_ROS:-0}" = 1 ]; then
  skip "URDF_TOOLS_ROS_SKIP_ROS=1"
fi
if [ ! -d "$SOURCES" ]; then
  skip "no ROS 2 sources at $SOURCES"
fi
SOURCES="$(cd "$SOURCES" && pwd)"
for a in "${ARCHIVES[@]}"; do
  [ -f "$SOURCES/$a" ] || skip "$SOURCES has no $a"
done
if [ ! -x "$VENV_ARG/bin/python" ]; then
  echo "setup-ros-src: no virtualenv at $VENV_ARG; run scripts/setup.sh and scripts/setup-ros.sh first" >&2
  exit 2
fi
VENV="$(cd "$VENV_ARG" && pwd)"
PY="$VENV/bin/python"
ROS_STAMP="$VENV/.urdf_tools_ros_ros_ready"   # written by setup-ros.sh on success only
STAMP="$VENV/.urdf_tools_ros_ros_src_ready"
SITE="$VENV/lib/python3.11/site-packages"     # the wheels are CPython 3.11 only
if [ ! -f "$ROS_STAMP" ]; then
  skip "ROS 2 is not set up in $VENV (scripts/setup-ros.sh skipped it or has not run)"
fi

# --- Fast path: nothing changed since the last successful run ----------------------
# Plain file checks only: no Python start-up.
wanted_hash() {
  {
    cat "$SCRIPT_PATH"
    (cd "$SOURCES" && sha256sum "${ARCHIVES[@]}")
    cat "$ROS_STAMP"
  } | sha256sum | cut -d' ' -f1
}
HASH="$(wanted_hash)"
is_ready() {
  [ "$FORCE" != 1 ] && [ -f "$STAMP" ] && [ "$(head -n1 "$STAMP")" = "$HASH" ] \
    && [ -f "$VENV/share/tf2_msgs/srv/FrameGraph.srv" ] && [ -f "$VENV/lib/libtf2.so" ] \
    && compgen -G "$SITE/tf2_py/_tf2_py*.so" >/dev/null \
    && [ -x "$VENV/bin/ros2" ] && [ -d "$SITE/tf2_ros" ] && [ -d "$SITE/launch_testing" ] \
    && [ -f "$VENV/share/ament_index/resource_index/packages/composition_interfaces" ]
}
if is_ready; then
  say "launch, ros2cli and tf2 already installed in $VENV (stamp matches), nothing to do ($(elapsed))"
  exit 0
fi

# Every Python process of the venv re-executes itself once (the wheels' bootstrapper); an
# inherited guard would stop that and leave LD_LIBRARY_PATH pointing elsewhere.
unset _ROS_WHEELS_BOOTSTRAP_COMPLETE

# --- Working folders, log, lock ------------------------------------------------------
VENV_KEY="$(printf '%s' "$VENV" | sha256sum | cut -c1-12)"
WORK="$REPO_ROOT/.cache/ros-src-build/$VENV_KEY"
mkdir -p "$WORK"
LOG="$WORK/setup-ros-src.log"
: > "$LOG"
echo "venv: $VENV; sources: $SOURCES" >> "$LOG"

STEP="start"
on_error() {
  local rc=$?
  # set -E passes this trap into ( ... ) subshells: report once, from the main shell.
  [ "$BASH_SUBSHELL" -eq 0 ] || exit "$rc"
  echo "setup-ros-src: FAILED during: $STEP (exit $rc, after $(elapsed)); last lines of $LOG:" >&2
  tail -n 40 "$LOG" | sed 's/^/  | /' >&2
  exit "$rc"
}
trap on_error ERR

# Serialise concurrent runs on the same venv (shares setup-ros.sh's lock: both install
# tf2_msgs); re-check the stamp once we hold the lock.
if command -v flock >/dev/null 2>&1; then
  exec 9> "$VENV/.urdf_tools_ros_ros.lock"
  flock 9
  HASH="$(wanted_hash)"
  if is_ready; then
    say "launch, ros2cli and tf2 installed in $VENV by a concurrent run, nothing to do ($(elapsed))"
    exit 0
  fi
fi

STEP="checking that rclpy imports"
if ! "$PY" -c 'import rclpy' >> "$LOG" 2>&1; then
  skip "rclpy does not import in $VENV (see $LOG)"
fi

rm -f "$STAMP"
say "installing launch, launch_ros, ros2cli, tf2 (+ full tf2_msgs, composition_interfaces) into $VENV from ${SOURCES}; log: ${LOG#"$REPO_ROOT"/}"

# --- Extract the archives ------------------------------------------------------------
# Each archive holds one folder (the repository); its packages are sub-folders.
STEP="extracting the archives"
SRC="$WORK/src"
rm -rf "$SRC" "$WORK/build"
mkdir -p "$SRC"
for a in "${ARCHIVES[@]}"; do
  tar -xzf "$SOURCES/$a" -C "$SRC" >> "$LOG" 2>&1
done
for p in "${CMAKE_PKGS[@]}" "${PY_PKGS[@]}"; do
  [ -f "$SRC/$p/package.xml" ] || { echo "no package.xml in $SRC/$p" >> "$LOG"; false; }
done

# --- Python dependencies -------------------------------------------------------------
STEP="pip install of the Python dependencies"
PIP=("$PY" -m pip install --disable-pip-version-check --no-input --progress-bar off)
PYTEST_VER="$("$PY" -c 'import pytest; print(pytest.__version__)' 2>/dev/null || echo none)"
echo "pytest in the venv: $PYTEST_VER" >> "$LOG"
NEED_PYTEST=()
case "$PYTEST_VER" in
  [0-7].*) ;;
  none) NEED_PYTEST=("${PYTEST_PINS[@]}")
     say "no pytest in the venv: installing ${PYTEST_PINS[*]} (what launch_testing works with)" ;;
  *) NEED_PYTEST=("${PYTEST_PINS[@]}")
     say "pytest $PYTEST_VER -> ${PYTEST_PINS[*]} (launch_testing's plugin needs pytest < 8)" ;;
esac
"${PIP[@]}" "${PY_DEPS[@]}" "${NEED_PYTEST[@]}" >> "$LOG" 2>&1 < /dev/null

# --- cmake builds, installed into the venv prefix ----------------------------------------
# As setup-ros.sh builds tf2_msgs: the venv is the ament/CMake prefix, its python runs the
# rosidl generators (the wheels' CMake files were repaired by setup-ros.sh).
JOBS="$(nproc 2>/dev/null || echo 2)"
for p in "${CMAKE_PKGS[@]}"; do
  name="$(basename "$p")"
  STEP="cmake build of $name"
  say "building $name"
  echo "=== cmake: $p" >> "$LOG"
  (
    export AMENT_PREFIX_PATH="$VENV" CMAKE_PREFIX_PATH="$VENV"
    export LD_LIBRARY_PATH="$VENV/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PATH="$VENV/bin:$PATH"
    cmake -S "$SRC/$p" -B "$WORK/build/$name" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$VENV" \
      -DPython3_EXECUTABLE="$PY" \
      -DBUILD_TESTING=OFF
    cmake --build "$WORK/build/$name" -j "$JOBS"
    cmake --install "$WORK/build/$name"
  ) >> "$LOG" 2>&1 < /dev/null
done

# --- Pure-Python packages ----------------------------------------------------------------
# A wheel of each package folder: console scripts (ros2, launch_test), the entry points
# (ros2cli verbs, launch front ends, pytest11 plugins) and data_files (ament index markers,
# share/<package>/package.xml, launch's grammar) all land in the venv.
STEP="pip install of the pure-Python packages"
say "pip install --no-deps: ${#PY_PKGS[@]} pure-Python packages"
PY_DIRS=()
for p in "${PY_PKGS[@]}"; do PY_DIRS+=("$SRC/$p"); done
"${PIP[@]}" --no-deps --no-build-isolation --force-reinstall "${PY_DIRS[@]}" >> "$LOG" 2>&1 < /dev/null

# --- Checks ------------------------------------------------------------------------------
STEP="import check"
export AMENT_PREFIX_PATH="$VENV"
"$PY" - >> "$LOG" 2>&1 <<'EOF'
import launch, launch_xml, launch_yaml, launch_testing, launch_pytest
import launch_ros, launch_ros.actions, launch_testing_ros, ros2launch
import ros2cli, ros2pkg, ros2run, ros2node, ros2topic, ros2param, ros2service
import rosidl_runtime_py, composition_interfaces.srv, tf2_py, tf2_ros
from tf2_msgs.msg import TFMessage, TF2Error
from tf2_msgs.srv import FrameGraph
from tf2_msgs.action import LookupTransform
from ament_index_python.packages import get_package_share_directory
import os
for pkg in ('launch', 'launch_ros', 'launch_testing', 'ros2cli', 'tf2_msgs', 'tf2_ros_py'):
    get_package_share_directory(pkg)
assert os.path.isfile(os.path.join(get_package_share_directory('launch'),
                                   'frontend', 'grammar.lark'))
from importlib.metadata import entry_points
eps = entry_points()
assert {'xml', 'yaml'} <= {e.name for e in eps.select(group='launch.frontend.parser')}, 'front ends'
assert {'launch', 'topic', 'node', 'param', 'service', 'pkg', 'run'} <= {
    e.name for e in eps.select(group='ros2cli.command')}, 'ros2 verbs'
assert 'launch_testing' in {e.name for e in eps.select(group='pytest11')}, 'pytest plugin'
# tf2 itself: a transform through the C++ core.
import rclpy.time, tf2_ros
from geometry_msgs.msg import TransformStamped
buf = tf2_ros.Buffer()
t = TransformStamped()
t.header.frame_id, t.child_frame_id = 'a', 'b'
t.transform.translation.x = 1.0
t.transform.rotation.w = 1.0
buf.set_transform_static(t, 'check')
assert buf.lookup_transform('a', 'b', rclpy.time.Time()).transform.translation.x == 1.0
print('import check ok')
EOF

STEP="ros2 CLI check"
"$VENV/bin/ros2" launch --help >> "$LOG" 2>&1 < /dev/null
"$VENV/bin/ros2" pkg prefix launch_ros >> "$LOG" 2>&1 < /dev/null

STEP="launch front-end check (XML, YAML)"
cat > "$WORK/check.launch.xml" <<'EOF'
<launch><arg name="a" default="1"/><log message="xml $(var a)"/></launch>
EOF
cat > "$WORK/check.launch.yaml" <<'EOF'
launch:
- arg: {name: a, default: "1"}
- log: {message: "yaml $(var a)"}
EOF
"$PY" - "$WORK/check.launch.xml" "$WORK/check.launch.yaml" >> "$LOG" 2>&1 <<'EOF'
import sys
import launch
from launch.launch_description_sources import AnyLaunchDescriptionSource
for path in sys.argv[1:]:
    ls = launch.LaunchService(noninteractive=True)
    ls.include_launch_description(
        launch.actions.IncludeLaunchDescription(AnyLaunchDescriptionSource(path)))
    assert ls.run() == 0, path
print('front ends ok')
EOF

STEP="launch_testing pytest plugin check"
mkdir -p "$WORK/pytest-check"
printf '[pytest]\n' > "$WORK/pytest-check/pytest.ini"
cat > "$WORK/pytest-check/test_check_launch.py" <<'EOF'
import unittest

import launch
import launch_testing.actions
import pytest


@pytest.mark.launch_test
def generate_test_description():
    return launch.LaunchDescription([launch_testing.actions.ReadyToTest()])


class TestNothing(unittest.TestCase):

    def test_nothing(self):
        pass
EOF
(cd "$WORK/pytest-check" && "$PY" -m pytest -p no:cacheprovider --co -q \
   -c pytest.ini test_check_launch.py) >> "$LOG" 2>&1 < /dev/null
# Collected as one launch test (the module itself), not as a plain unittest class.
grep -qx 'test_check_launch.py::test_check_launch' "$LOG"

VERSIONS="$("$PY" -c '
from importlib.metadata import version
print(", ".join("%s %s" % (p, version(p)) for p in
                ("launch", "launch_ros", "ros2cli", "tf2_ros_py", "pytest")))' 2>> "$LOG")"
printf '%s\n%s\n' "$HASH" "$VERSIONS; built $(date -u +%FT%TZ)" > "$STAMP"
say "ready: $VERSIONS, tf2 + tf2_py + full tf2_msgs + composition_interfaces built; took $(elapsed)"
