#!/usr/bin/env bash
# Build the manual (docs/) with Sphinx, warnings as errors, into docs/_build/html.
# Sets up its own virtualenv .cache/venv-docs (the package and its `docs` extra: Sphinx,
# myst-parser) on a fresh Debian/Ubuntu machine with Python >= 3.10, as scripts/setup.sh does;
# it is reused and updated only when setup.py or this script change. The CLI reference, the
# rule catalog and the node parameters are generated from the code at build time (docs/conf.py).
# Extra arguments go to sphinx-build (e.g. -E: read every page again).
# Usage: scripts/docs.sh [sphinx-build args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/venv-docs"
python="${PYTHON:-python3}"
log="$root/.cache/setup.log"
mkdir -p "$root/.cache"
cd "$root"

# shellcheck source=scripts/make-venv.sh
. "$root/scripts/make-venv.sh"
make_venv "$python" "$venv" "$log" docs

stamp="$venv/.urdf_tools_ros_docs"
digest="$(cat setup.py setup.cfg scripts/docs.sh | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$digest" ]; then
  echo "docs: installing urdf_tools_ros and Sphinx into $venv (log: $log)" >&2
  if ! "$venv/bin/python" -m pip install -q --upgrade pip >>"$log" 2>&1 \
      || ! "$venv/bin/python" -m pip install -q -e ".[docs]" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: pip install failed (full log: $log)" >&2
    exit 1
  fi
  echo "$digest" > "$stamp"
fi

echo "docs: $("$venv/bin/sphinx-build" --version)" >&2
exec "$venv/bin/sphinx-build" -W --keep-going -q -b html "$@" docs docs/_build/html
