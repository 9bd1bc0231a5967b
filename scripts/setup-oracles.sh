#!/usr/bin/env bash
# Install the consumers the oracle tests ask (test/oracles.py) and build the Gazebo probe.
# With root and apt-get: liburdfdom-tools (urdfdom 3's check_urdf), libsdformat-dev (SDFormat,
# Gazebo's URDF -> SDF conversion), g++ and pkg-config, when any is missing (one apt-get update
# first). Then it builds test/oracle_tools/sdformat_probe.cc into .cache/oracles/sdformat_probe
# when the source is newer than the binary. Idempotent and quiet (log: .cache/setup.log). It
# never fails the test run: on a problem it prints one line and exits 0, and the tests of the
# missing consumer skip. MuJoCo, pinocchio and urdfdom 6 come from pip (setup.py's `test` extra,
# installed by scripts/setup.sh); VENV is checked for them. pybullet is installed into VENV here
# when a binary wheel exists for its Python.
# Usage: scripts/setup-oracles.sh [VENV]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-${URDF_TOOLS_VENV:-$root/.venv}}"
log="$root/.cache/setup.log"
source="$root/test/oracle_tools/sdformat_probe.cc"
probe="$root/.cache/oracles/sdformat_probe"
mkdir -p "$root/.cache/oracles"

# SDFormat's pkg-config name carries its major version (Debian 12: sdformat12).
sdformat_module() {
  local name
  for name in sdformat12 sdformat13 sdformat14 sdformat15; do
    if pkg-config --exists "$name" 2>/dev/null; then
      echo "$name"
      return 0
    fi
  done
  return 1
}

missing=()
[ -x /usr/bin/check_urdf ] || missing+=(liburdfdom-tools)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! command -v pkg-config >/dev/null 2>&1 || ! sdformat_module >/dev/null; then
  missing+=(libsdformat-dev)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup-oracles: installing ${missing[*]} with apt-get" >&2
    if ! { apt-get update -qq \
           && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
         >>"$log" 2>&1; then
      echo "setup-oracles: could not install ${missing[*]} (log: $log);" \
           "the urdfdom-3 and gazebo oracle tests skip" >&2
      exit 0
    fi
  else
    echo "setup-oracles: ${missing[*]} missing, and installing needs root and apt-get;" \
         "the urdfdom-3 and gazebo oracle tests skip" >&2
    exit 0
  fi
fi

if [ ! -x "$probe" ] || [ "$source" -nt "$probe" ]; then
  module="$(sdformat_module)"
  # Word splitting of the pkg-config flags is intended.
  # shellcheck disable=SC2046
  if ! { g++ -std=c++17 -O1 "$source" -o "$probe.tmp" $(pkg-config --cflags --libs "$module") \
         && mv -f "$probe.tmp" "$probe"; } >>"$log" 2>&1; then
    rm -f "$probe.tmp"
    echo "setup-oracles: could not build $probe (log: $log); the gazebo oracle tests skip" >&2
    exit 0
  fi
fi

if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import mujoco' >/dev/null 2>&1; then
  echo "setup-oracles: mujoco is not importable in $venv (pip install -e '.[test]');" \
       "the mujoco oracle tests skip" >&2
fi
# pybullet (test/test_simulator_claims.py): a 100 MB wheel, cp310/cp311 only; never built from
# source. Tried once per Python: a marker remembers that no wheel exists for it.
if [ -x "$venv/bin/python" ] \
   && ! "$venv/bin/python" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("pybullet") is None)' \
        >/dev/null 2>&1; then
  marker="$root/.cache/oracles/no-pybullet-$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  if [ ! -e "$marker" ]; then
    echo "setup-oracles: installing pybullet 3.2.7 (a binary wheel) into $venv" >&2
    if ! "$venv/bin/python" -m pip install -q --only-binary :all: 'pybullet==3.2.7' >>"$log" 2>&1; then
      touch "$marker"
      echo "setup-oracles: no pybullet wheel for this Python (log: $log); its tests skip" >&2
    fi
  fi
fi
exit 0
