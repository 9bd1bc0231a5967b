#!/usr/bin/env bash
# Create (or update) the project's virtualenv .venv with urdf_tools_ros and its test tools.
# Works on a fresh Debian/Ubuntu machine with Python >= 3.10; installs python3-venv if needed.
# Usage: scripts/setup.sh [--quiet]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
python="${PYTHON:-python3}"
log="$root/.cache/setup.log"
mkdir -p "$root/.cache"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "error: $python is missing or older than 3.10; install Python >= 3.10" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" >>"$log" 2>&1; then
    # Debian/Ubuntu ship venv separately.
    if command -v apt-get >/dev/null 2>&1; then
      echo "setup: installing python3-venv with apt-get" >&2
      apt-get update -qq >>"$log" 2>&1 || true
      ver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "python${ver}-venv" >>"$log" 2>&1 \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >>"$log" 2>&1
      rm -rf "$venv"
      "$python" -m venv "$venv"
    else
      echo "error: cannot create a virtualenv with $python (see $log)" >&2
      exit 1
    fi
  fi
fi

# Re-install only when the package metadata changed.
stamp="$venv/.urdf_tools_ros_setup"
want="$(cat "$root/setup.py" "$root/setup.cfg" "$root/scripts/setup.sh" | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing urdf_tools_ros and test tools into $venv" >&2
  if ! { "$venv/bin/python" -m pip install -q --upgrade pip \
         && "$venv/bin/python" -m pip install -q -e "$root[test]"; } >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: pip install failed (full log: $log)" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
