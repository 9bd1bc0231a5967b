#!/usr/bin/env bash
# Install real ROS 2 (rclpy + message packages) from PyPI, Jazzy or Kilted, and build +
# install every tiny interface package kept in scripts/ros/ (one folder each): tf2_msgs
# (msg/TFMessage), resource_retriever_interfaces and rviz_resource_interfaces (srv/GetResource).
# None of them is published on PyPI; each is this project's own definition with the same
# type name and type hash as the real one.
#
# Usage: scripts/setup-ros.sh [--force] [--distro jazzy|kilted] [--prefix DIR] [VENV_DIR]
#   VENV_DIR  an existing CPython 3.11 virtualenv (default: <repo>/.venv); its pip installs
#   --distro  which ROS 2 wheels: jazzy (rclpy 7.1.6, default) or kilted (rclpy 9.1.2)
#   --prefix  install ROS into DIR instead of the venv, laid out as /opt/ros/<distro> is
#             (DIR/lib, DIR/share, DIR/lib/python3.11/site-packages), and write DIR/setup.sh,
#             which a shell sources as it would /opt/ros/<distro>/setup.bash: it prepends DIR
#             to AMENT_PREFIX_PATH, CMAKE_PREFIX_PATH, PYTHONPATH, LD_LIBRARY_PATH and PATH and
#             sets ROS_DISTRO. Nothing of ROS is then importable without sourcing it.
#   --force   ignore the "already done" stamp and redo every step
#             (also: SETUP_ROS_FORCE=1; use it after pip-installing more ROS wheels,
#             so that their CMake files get the repair below)
#   URDF_TOOLS_ROS_SKIP_ROS=1  skip everything (ROS node tests will be skipped)
#
# Exit status: 0 when ROS is ready, or when ROS cannot apply here (not CPython 3.11
# on Linux with the wheels available): then one line says the ROS node tests will be
# skipped. Non-zero on a real failure (the tail of the log is shown).
#
# Runtime notes: in a venv, the wheel `ros-wheels-bootstrapper` puts a .pth that
# re-executes every Python process of the venv once, with LD_LIBRARY_PATH pointing at
# <venv>/lib and the wheels' *.libs folders (guard variable _ROS_WHEELS_BOOTSTRAP_COMPLETE).
# So `<venv>/bin/python -c 'import rclpy'` works without any variable set. Only
# ament_index look-ups (get_package_share_directory) need AMENT_PREFIX_PATH=<venv>. Under
# --prefix that .pth is not read (PYTHONPATH entries are not site folders): setup.sh sets
# LD_LIBRARY_PATH as a ROS install's setup.bash does.
set -Eeuo pipefail

# --- What to install ---------------------------------------------------------------
# The ros-<distro>-* wheels are thin meta-wheels that pin the real ros-* wheels (built
# with ycheng517/ros-python-wheels, cp311 manylinux_2_28). Pinned for repeatability.
# Runtime: rclpy and the message packages the nodes import. Build-time only: what
# `rosidl_generate_interfaces()` needs; the wheels declare almost none of their build
# dependencies, hence the explicit lists (the linters' cmake wheels come in anyway as
# dependencies of rosidl-generator-py).
ros_packages() {
  local d="ros-$1"
  case "$1" in
    jazzy)
      ROS_RUNTIME_PKGS=("$d-rclpy[fastrtps]==7.1.6" "$d-std-msgs==5.3.6" "$d-sensor-msgs==5.3.6"
        "$d-geometry-msgs==5.3.6" "$d-diagnostic-msgs==5.3.6" "$d-ament-index-python==1.8.1")
      local cmake=2.5.4 rosidl=4.6.6 ts=3.2.2 fastrtps=3.6.2
      ROS_BUILD_PKGS=("$d-ament-package==0.16.4" "$d-ament-cmake-ros==0.12.0"
        "$d-rosidl-default-generators==1.6.0" "$d-rosidl-default-runtime==1.6.0"
        "$d-rosidl-core-generators==0.2.0" "$d-rosidl-core-runtime==0.2.0"
        "$d-rosidl-generator-py==0.22.2" "$d-rosidl-dynamic-typesupport==0.1.2"
        "$d-python-cmake-module==0.11.1" "$d-fastrtps-cmake-module==$fastrtps"
        "$d-rmw-implementation-cmake==7.3.2") ;;
    kilted)
      ROS_RUNTIME_PKGS=("$d-rclpy[fastrtps]==9.1.2" "$d-std-msgs==5.5.1" "$d-sensor-msgs==5.5.1"
        "$d-geometry-msgs==5.5.1" "$d-diagnostic-msgs==5.5.1" "$d-ament-index-python==1.11.0")
      local cmake=2.7.3 rosidl=4.9.5 ts=3.3.3 fastrtps=3.8.1
      ROS_BUILD_PKGS=("$d-ament-package==0.17.2" "$d-ament-cmake-ros==0.14.5"
        "$d-ament-cmake-ros-core==0.14.5"
        "$d-rosidl-default-generators==1.7.1" "$d-rosidl-default-runtime==1.7.1"
        "$d-rosidl-core-generators==0.3.1" "$d-rosidl-core-runtime==0.3.1"
        "$d-rosidl-generator-py==0.24.2" "$d-rosidl-dynamic-typesupport==0.3.1"
        "$d-rmw-implementation-cmake==7.8.2") ;;
    *) return 1 ;;
  esac
  local name
  for name in core export-definitions export-dependencies export-include-directories \
      export-interfaces export-libraries export-link-flags export-targets gen-version-h \
      include-directories libraries python target-dependencies test version \
      gmock gtest pytest; do  # the last three: find_package()d by ament_cmake_ros, unused
    ROS_BUILD_PKGS+=("$d-ament-cmake-$name==$cmake")
  done
  ROS_BUILD_PKGS+=("$d-ament-cmake==$cmake")
  for name in adapter cli cmake parser pycommon generator-c generator-cpp \
      generator-type-description runtime-c runtime-cpp typesupport-interface \
      typesupport-introspection-c typesupport-introspection-cpp; do
    ROS_BUILD_PKGS+=("$d-rosidl-$name==$rosidl")
  done
  ROS_BUILD_PKGS+=("$d-rosidl-typesupport-c==$ts" "$d-rosidl-typesupport-cpp==$ts"
    "$d-rosidl-typesupport-fastrtps-c==$fastrtps" "$d-rosidl-typesupport-fastrtps-cpp==$fastrtps"
    catkin-pkg)
}

# --- Arguments and paths -----------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
SCRIPT_PATH="$SCRIPT_DIR/$(basename "${BASH_SOURCE[0]}")"
ROS_SRC="$SCRIPT_DIR/ros"
# The interface packages to build: every folder of scripts/ros/ with a package.xml.
ROS_SRC_PKGS=()
for f in "$ROS_SRC"/*/package.xml; do ROS_SRC_PKGS+=("$(basename "$(dirname "$f")")"); done

FORCE="${SETUP_ROS_FORCE:-0}"
DISTRO=jazzy
PREFIX_ARG=""
VENV_ARG=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,31p' "$SCRIPT_PATH" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -f|--force) FORCE=1 ;;
    --distro) shift; DISTRO="${1:-}" ;;
    --distro=*) DISTRO="${1#*=}" ;;
    --prefix) shift; PREFIX_ARG="${1:-}" ;;
    --prefix=*) PREFIX_ARG="${1#*=}" ;;
    -*) echo "setup-ros: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -z "$VENV_ARG" ] || { echo "setup-ros: one VENV_DIR only" >&2; exit 2; }
       VENV_ARG="$1" ;;
  esac
  shift
done
VENV_ARG="${VENV_ARG:-$REPO_ROOT/.venv}"
if ! ros_packages "$DISTRO"; then
  echo "setup-ros: --distro $DISTRO: PyPI has ROS 2 wheels for jazzy and kilted only" >&2
  exit 2
fi
DISTRO_NAME="${DISTRO^}"

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
# Where ROS goes: the venv itself, or a prefix of its own (--prefix).
if [ -n "$PREFIX_ARG" ]; then
  mkdir -p "$PREFIX_ARG"
  TARGET="$(cd "$PREFIX_ARG" && pwd)"
else
  TARGET="$VENV"
fi
STAMP="$TARGET/.urdf_tools_ros_ros_ready"

# --- Fast path: nothing changed since the last successful run ----------------------
# The stamp holds a hash of this script (so of the package lists) and of everything under
# scripts/ros/. Plain file checks only: no Python start-up.
wanted_hash() {
  {
    cat "$SCRIPT_PATH"
    echo "$DISTRO $VENV $TARGET"
    (cd "$ROS_SRC" && find . -type f | LC_ALL=C sort | while read -r f; do echo "== $f"; cat "$f"; done)
  } | sha256sum | cut -d' ' -f1
}
HASH="$(wanted_hash)"
is_ready() {
  [ "$FORCE" != 1 ] && [ -f "$STAMP" ] && [ "$(head -n1 "$STAMP")" = "$HASH" ] || return 1
  local pkg
  for pkg in "${ROS_SRC_PKGS[@]}"; do
    [ -f "$TARGET/lib/lib${pkg}__rosidl_typesupport_c.so" ] && [ -d "$TARGET/share/$pkg" ] \
      || return 1
  done
}
if is_ready; then
  say "ROS 2 $DISTRO_NAME already set up in $TARGET (stamp matches), nothing to do ($(elapsed))"
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
  skip "ROS 2 $DISTRO_NAME wheels on PyPI are for CPython 3.11 only, this venv is $PY_DESC"
fi
if [ "$PY_OS" != Linux ] || { [ "$PY_ARCH" != x86_64 ] && [ "$PY_ARCH" != aarch64 ]; }; then
  skip "ROS 2 $DISTRO_NAME wheels on PyPI are for Linux x86_64/aarch64 only, this venv is $PY_DESC"
fi
case "$PY_LIBC" in
  glibc-*) if [ "$(printf '%s\n' 2.28 "${PY_LIBC#glibc-}" | sort -V | head -n1)" != 2.28 ]; then
             skip "ROS 2 $DISTRO_NAME wheels need glibc >= 2.28, this venv is $PY_DESC"; fi ;;
  *) skip "ROS 2 $DISTRO_NAME wheels need glibc (manylinux_2_28), this venv is $PY_DESC" ;;
esac

# --- Working folders, log, lock ------------------------------------------------------
# One build folder per venv (keyed by its path), so two venvs can be set up at once.
VENV_KEY="$(printf '%s' "$TARGET" | sha256sum | cut -c1-12)"
WORK="$REPO_ROOT/.cache/ros-build/$VENV_KEY"
mkdir -p "$WORK"
LOG="$WORK/setup-ros.log"
: > "$LOG"
echo "venv: $VENV ($PY_DESC), ROS 2 $DISTRO_NAME into $TARGET" >> "$LOG"

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
  exec 9> "$TARGET/.urdf_tools_ros_ros.lock"
  flock 9
  if is_ready; then
    say "ROS 2 $DISTRO_NAME set up in $TARGET by a concurrent run, nothing to do ($(elapsed))"
    exit 0
  fi
fi

# --- Wheels available for this platform? ---------------------------------------------
# Known for x86_64. Elsewhere ask pip for the one platform wheel (no install).
if [ "$PY_ARCH" != x86_64 ]; then
  STEP="looking for a ros-rclpy wheel for $PY_ARCH"
  if ! "$PY" -m pip download --disable-pip-version-check --no-input --no-deps \
        --only-binary=:all: -d "$WORK/probe" "${ROS_RUNTIME_PKGS[0]/\[fastrtps\]/}" >> "$LOG" 2>&1; then
    # pip also says "No matching distribution" when it could not reach the index:
    # only a clean answer means "no wheel"; anything else is a real failure.
    if grep -q "No matching distribution" "$LOG" \
       && ! grep -qE "Could not fetch URL|Retrying \(|NewConnectionError|SSLError" "$LOG"; then
      skip "PyPI has no ROS 2 $DISTRO_NAME rclpy wheel for $PY_DESC"
    fi
    false
  fi
fi

rm -f "$STAMP"
say "setting up ROS 2 $DISTRO_NAME in $TARGET ($PY_DESC, pip of $VENV); log: ${LOG#"$REPO_ROOT"/}"

# --- System tools for the interface builds: cmake, C/C++ compilers, make, Python.h ------
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
STEP="pip install of the ROS 2 $DISTRO_NAME wheels"
say "pip install: ROS 2 $DISTRO_NAME rclpy, message and rosidl wheels"
PIP_TARGET=()
if [ "$TARGET" != "$VENV" ]; then
  # pip counts what the venv has as installed: the ROS wheels must not be there
  if "$PY" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("rclpy") is None)'; then
    echo "setup-ros: $VENV has rclpy already; --prefix needs a venv without ROS" >&2
    exit 2
  fi
  PIP_TARGET=(--prefix "$TARGET" --no-warn-script-location)
fi
"$PY" -m pip install --disable-pip-version-check --no-input --progress-bar off \
  "${PIP_TARGET[@]}" "${ROS_RUNTIME_PKGS[@]}" "${ROS_BUILD_PKGS[@]}" >> "$LOG" 2>&1 < /dev/null

# --- Repair the wheels' exported CMake files ---------------------------------------------
# They hard-code the wheel builder's Python and numpy include folders; point them at
# this interpreter's headers and the venv's numpy. Idempotent (nothing left to match).
STEP="repairing the wheels' CMake files"
NUMPY_INC="$("$PY" -c 'import numpy; print(numpy.get_include())')"
mapfile -t BAD_CMAKE < <(grep -rlF --include='*.cmake' '/opt/python/cp311-cp311' \
  "$TARGET/share" "$TARGET/lib/cmake" 2>/dev/null || true)
if [ "${#BAD_CMAKE[@]}" -gt 0 ]; then
  sed -i -E \
    -e "s|/opt/python/cp311-cp311/lib/python3\.11/site-packages/numpy/(_core/)?include|$NUMPY_INC|g" \
    -e "s|/opt/python/cp311-cp311/include/python3\.11|$PY_INC|g" \
    "${BAD_CMAKE[@]}"
fi
echo "repaired ${#BAD_CMAKE[@]} CMake files (python: $PY_INC, numpy: $NUMPY_INC)" >> "$LOG"
if grep -rlF --include='*.cmake' '/opt/python/' "$TARGET/share" >> "$LOG" 2>&1; then
  echo "setup-ros: warning: some CMake files still name /opt/python (listed in the log)" >&2
fi

# --- The environment of a sourced ROS install (--prefix), written as TARGET/setup.sh ------
SITE_REL="lib/python$PY_VER/site-packages"
if [ "$TARGET" != "$VENV" ]; then
  STEP="writing $TARGET/setup.sh"
  cat > "$TARGET/setup.sh" <<SETUP
# ROS 2 $DISTRO_NAME from PyPI wheels in $TARGET (scripts/setup-ros.sh --prefix): source it
# as /opt/ros/$DISTRO/setup.bash. It prepends; it never replaces what the shell has.
_urdf_tools_prepend() { eval "export \$1=\"\$2\\\${\$1:+:\\\$\$1}\""; }
_urdf_tools_libs=""
for _urdf_tools_dir in "$TARGET/$SITE_REL"/ros_*.libs; do
  [ -d "\$_urdf_tools_dir" ] && _urdf_tools_libs="\$_urdf_tools_libs:\$_urdf_tools_dir"
done
_urdf_tools_prepend LD_LIBRARY_PATH "$TARGET/lib\$_urdf_tools_libs"
_urdf_tools_prepend PYTHONPATH "$TARGET/$SITE_REL"
_urdf_tools_prepend AMENT_PREFIX_PATH "$TARGET"
_urdf_tools_prepend CMAKE_PREFIX_PATH "$TARGET"
_urdf_tools_prepend PATH "$TARGET/bin"
export ROS_DISTRO=$DISTRO ROS_VERSION=2 ROS_PYTHON_VERSION=3
unset _urdf_tools_dir _urdf_tools_libs
unset -f _urdf_tools_prepend
SETUP
fi
# Run a command in the environment ROS is reachable from: the venv's own (its bootstrapper
# sets LD_LIBRARY_PATH), or TARGET/setup.sh sourced.
in_ros() {
  if [ "$TARGET" = "$VENV" ]; then
    env AMENT_PREFIX_PATH="$VENV" CMAKE_PREFIX_PATH="$VENV" \
        LD_LIBRARY_PATH="$VENV/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        PATH="$VENV/bin:$PATH" "$@"
  else
    # shellcheck disable=SC1091
    (set +u; . "$TARGET/setup.sh"; set -u; "$@")
  fi
}

# --- Build and install each package of scripts/ros/ into the ROS prefix ------------------------
BUILT=()
for pkg in "${ROS_SRC_PKGS[@]}"; do
  types=()   # its interfaces, e.g. tf2_msgs/msg/TFMessage
  for f in "$ROS_SRC/$pkg"/msg/*.msg "$ROS_SRC/$pkg"/srv/*.srv; do
    if [ -f "$f" ]; then types+=("$pkg/$(basename "$(dirname "$f")")/$(basename "${f%.*}")"); fi
  done
  STEP="building $pkg"
  say "building $pkg (${types[*]#"$pkg/"}) into $TARGET"
  BUILD="$WORK/$pkg"
  rm -rf "$BUILD"   # only reached when something changed: always a clean configure
  {
    in_ros cmake -S "$ROS_SRC/$pkg" -B "$BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$TARGET" \
      -DPython3_EXECUTABLE="$PY" \
      -DBUILD_TESTING=OFF
    in_ros cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)"
    in_ros cmake --install "$BUILD"
  } >> "$LOG" 2>&1 < /dev/null
  BUILT+=("${types[@]}")
done

# --- Smoke check through the venv's python (bootstrapper re-exec, or setup.sh sourced) ------
STEP="import check"
CHECK="$(in_ros "$PY" -c '
import rclpy, rclpy.utilities
import std_msgs.msg, sensor_msgs.msg, geometry_msgs.msg, diagnostic_msgs.msg
import tf2_msgs.msg
tf2_msgs.msg.TFMessage(transforms=[geometry_msgs.msg.TransformStamped()])
import resource_retriever_interfaces.srv, rviz_resource_interfaces.srv
for srv in resource_retriever_interfaces.srv.GetResource, rviz_resource_interfaces.srv.GetResource:
    srv.Request(path="package://p/m.stl", etag="")
    srv.Response(status_code=srv.Response.OK, body=[1, 2, 3])
from importlib.metadata import version
print("rclpy", version("ros-rclpy"), "with", rclpy.utilities.get_rmw_implementation_identifier())
' 2>> "$LOG")"

printf '%s\n%s\n' "$HASH" "$CHECK, ${ROS_SRC_PKGS[*]} built $(date -u +%FT%TZ)" > "$STAMP"
say "ready: ROS 2 $DISTRO_NAME, $CHECK, ${BUILT[*]} built into $TARGET; took $(elapsed)"
