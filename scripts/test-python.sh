#!/usr/bin/env bash
# Run the suite under one Python and one pytest, with only the package's own dependencies
# (what a distro's colcon test has before its ROS and oracle packages): the core tests run, the
# parts needing ROS, pinocchio, MuJoCo or a browser skip per test. A missing interpreter is
# skipped with a message. Extra arguments go to pytest.
# Usage: scripts/test-python.sh 3.10 6.2.5 [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="${1:?usage: test-python.sh X.Y PYTEST_VERSION [pytest args...]}"
pytest_version="${2:?usage: test-python.sh X.Y PYTEST_VERSION [pytest args...]}"
shift 2
python="$(scripts/find-python "$version" || true)"
if [ -z "$python" ]; then
  echo "test-python: SKIPPED: no Python $version on this machine"
  exit 0
fi
venv="$root/.cache/venv-py$version-pytest$pytest_version"
log="$root/.cache/setup.log"
mkdir -p "$root/.cache"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
# The language server's extra everywhere (its Neovim test runs on every pytest); pytest-lsp,
# which needs pytest >= 8, only where the pytest is that new (elsewhere its tests skip).
lsp_tools=()
case "$pytest_version" in 6.*|7.*) ;; *) lsp_tools=(pytest-lsp) ;; esac
if ! "$venv/bin/python" -m pip install -q "pytest==$pytest_version" hypothesis pyyaml wheel \
      ${lsp_tools[@]+"${lsp_tools[@]}"} -e ".[lsp]" >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "test-python: pip install failed for Python $version (log: $log)" >&2
  exit 1
fi
echo "test-python: $("$venv/bin/python" --version), pytest $("$venv/bin/python" -m pytest --version 2>&1 | awk '{print $2}')"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
