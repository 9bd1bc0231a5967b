#!/usr/bin/env bash
# Set up what the browser tests of the 3D viewer need: Debian's Chromium (apt-get, only when
# /usr/bin/chromium, or $URDF_TOOLS_CHROMIUM, is missing) and the Python packages viser,
# trimesh, pycollada and playwright in the virtualenv given as $1 (default .venv). Playwright
# drives the Debian Chromium (executable_path=/usr/bin/chromium); no browser is downloaded.
# Idempotent. When something cannot be installed it says so and exits 0: the browser tests
# then skip with the reason.
# Usage: scripts/setup-browser.sh [VENV]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-${URDF_TOOLS_VENV:-$root/.venv}}"
python="$venv/bin/python"
chromium="${URDF_TOOLS_CHROMIUM:-/usr/bin/chromium}"

say() { echo "setup-browser: $*"; }

if [ ! -x "$python" ]; then
  say "no virtualenv at $venv (run scripts/setup.sh first); browser tests will skip"
  exit 0
fi

# -- Chromium from Debian ---------------------------------------------------------------------
if [ -x "$chromium" ]; then
  :
elif ! command -v apt-get >/dev/null 2>&1; then
  say "no $chromium and no apt-get; browser tests will skip"
elif [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
  say "no $chromium and not root; install it with: apt-get install chromium"
else
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo -n"
  say "installing Debian chromium (apt-get)"
  if ! { $sudo apt-get update -qq >/dev/null \
         && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
              chromium fonts-liberation >/dev/null; }; then
    say "apt-get install chromium failed; browser tests will skip"
  fi
fi

# -- Python packages --------------------------------------------------------------------------
missing=()
for spec in viser:viser trimesh:trimesh collada:pycollada playwright:playwright; do
  module="${spec%%:*}"
  package="${spec#*:}"
  if ! "$python" -c "import $module" >/dev/null 2>&1; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]} into $venv"
  if ! "$python" -m pip install -q "${missing[@]}"; then
    say "pip install ${missing[*]} failed; browser tests will skip"
  fi
fi

if [ -x "$chromium" ] && "$python" -c "import playwright, viser" >/dev/null 2>&1; then
  say "ready: $("$chromium" --version 2>/dev/null | head -n1), playwright" \
      "$("$python" -c 'from importlib.metadata import version; print(version("playwright"))')"
fi
exit 0
