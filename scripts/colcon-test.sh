#!/usr/bin/env bash
# `colcon build && colcon test` of the package in a workspace, as ROS users run it: the
# workspace is .cache/colcon-ws (made anew), its install space is sourced before `colcon test`
# (so the launch tests start the installed nodes), and pytest is the venv's 7.4.4 (Jazzy's)
# with the launch_testing/launch_pytest plugins loaded. Prints pytest's summary with every skip
# reason, then `colcon test-result`; exits non-zero on any failure or error (and when no test
# ran). Set-up as scripts/test.sh (scripts/setup-tests.sh). Extra arguments go to pytest.
# Usage: scripts/colcon-test.sh [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${URDF_TOOLS_VENV:-$root/.venv}"
cd "$root"
scripts/setup-tests.sh
ws="$root/.cache/colcon-ws"
rm -rf "$ws"
mkdir -p "$ws/src/urdf_tools_ros"
# The package as a clone has it (tracked and untracked files, .gitignore respected).
if [ -d .git ] && command -v git >/dev/null 2>&1; then
  git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$ws/src/urdf_tools_ros"
else
  "$venv/bin/python" - "$root" "$ws/src/urdf_tools_ros" <<'PY'
import shutil, sys
shutil.copytree(sys.argv[1], sys.argv[2], dirs_exist_ok=True, ignore=shutil.ignore_patterns(
    '.git', '.venv', '.cache', 'build', 'install', 'log', '.pytest_cache', '.mypy_cache',
    '.hypothesis', 'test-artifacts', '__pycache__', '*.egg-info'))
PY
fi
export PATH="$venv/bin:$PATH"
# The copy's tests find ../shared and the built oracles where the repository has them.
export URDF_TOOLS_SHARED="$root/../shared" URDF_TOOLS_CACHE="$root/.cache"
cd "$ws"
echo "== colcon build (workspace $ws)"
colcon build --event-handlers console_direct-
set +u
# shellcheck disable=SC1091
. install/setup.bash
set -u
echo "== colcon test (pytest $("$venv/bin/python" -m pytest --version 2>&1 | awk '{print $2}'))"
status=0
colcon test --packages-select urdf_tools_ros --return-code-on-test-failure \
  --event-handlers console_direct+ --pytest-args -rs "$@" || status=$?
echo "== colcon test-result"
colcon test-result --verbose || status=$((status ? status : 1))
exit "$status"
