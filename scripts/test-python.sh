#!/usr/bin/env bash
# Run the suite under one Python and one pytest, with only the package's own dependencies
# (what a distro's colcon test has before its ROS and oracle packages): the core tests run, the
# parts needing ROS, pinocchio, MuJoCo or a browser skip per test. First the whole suite is
# collected (every module imports, every parametrization builds, on this Python and pytest),
# then pytest runs with the extra arguments (CI: -m portability, the tests whose behaviour
# depends on the interpreter or pytest; setup.cfg). A missing interpreter is skipped with a
# message.
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
collected="$root/.cache/collect-py$version.log"
if ! "$venv/bin/python" -m pytest -q -p no:cacheprovider --collect-only -m "" >"$collected" 2>&1
then
  tail -n 40 "$collected" >&2
  echo "test-python: collecting the suite failed under Python $version (log: $collected)" >&2
  exit 1
fi
echo "test-python: the whole suite: $(tail -n 1 "$collected")"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
