#!/usr/bin/env bash
# Create (or update) the project's virtualenv .venv with urdf_tools_ros and the browser viewer
# (what `urdf-tools view` needs); with --test also the test tools (scripts/setup-tests.sh).
# Works on a fresh Debian/Ubuntu machine with Python >= 3.10; installs python3-venv if needed.
# Usage: scripts/setup.sh [--test]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
python="${PYTHON:-python3}"
log="$root/.cache/setup.log"
mkdir -p "$root/.cache"
extras=view,lsp
if [ "${1:-}" = "--test" ]; then
  extras=view,lsp,test
fi

# shellcheck source=scripts/make-venv.sh
. "$root/scripts/make-venv.sh"
make_venv "$python" "$venv" "$log" setup

# Re-install only when the package metadata changed, or more extras are wanted. A venv set up
# with the test tools also serves the main command (its stamp covers both).
stamp="$venv/.urdf_tools_ros_setup"
digest="$(cat "$root/setup.py" "$root/setup.cfg" "$root/scripts/setup.sh" | sha256sum | cut -c1-16)"
have="$(cat "$stamp" 2>/dev/null || true)"
if [ "$have" != "$digest $extras" ] && [ "$have" != "$digest view,lsp,test" ]; then
  what="urdf_tools_ros, the viewer and the language server"
  [ "$extras" = "view,lsp,test" ] && what="urdf_tools_ros, the viewer, the language server and the test tools"
  echo "setup: [1/2] updating pip in $venv" >&2
  if ! "$venv/bin/python" -m pip install -q --upgrade pip >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: pip upgrade failed (full log: $log)" >&2
    exit 1
  fi
  echo "setup: [2/2] installing $what (log: $log)" >&2
  if ! "$venv/bin/python" -m pip install -q -e "$root[$extras]" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: pip install failed (full log: $log)" >&2
    exit 1
  fi
  echo "$digest $extras" > "$stamp"
  echo "setup: done" >&2
fi

# Byte-compile the package's sources. An editable install leaves that to the first import, which
# cannot write the .pyc files where PYTHONDONTWRITEBYTECODE is set (CI images, containers): then
# every urdf-tools run compiles them again, a large part of `check`'s start-up.
# Again whenever a source is newer than the last compilation (an edit, a pull).
compiled="$venv/.urdf_tools_ros_compiled"
if [ ! -e "$compiled" ] \
    || [ -n "$(find "$root/urdf_tools_ros" -name '*.py' -newer "$compiled" -print -quit)" ]; then
  touch "$compiled"
  "$venv/bin/python" -m compileall -q "$root/urdf_tools_ros" >>"$log" 2>&1 || true
fi
