#!/usr/bin/env bash
# Build and test the VS Code extension (editors/vscode): its node modules from the npm registry
# (`npm ci`: the lock file's versions, @vscode/vsce among the devDependencies), the extension
# packaged into .cache/urdf-tools.vsix, then its node tests (test/*.test.js: client.js's options,
# and `urdf-tools lsp` of the repository's .venv driven over stdio with them). Without Node.js
# >= 20 and npm it says so and exits 0, as the other stages do without their interpreter. With
# URDF_TOOLS_STAGE_REPORT (.ci/run) the tests' counts and skip reasons go to the stage's line.
# Usage: scripts/vscode.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${URDF_TOOLS_VENV:-$root/.venv}/bin/python"
[ -x "$python" ] || python=python3
cd "$root/editors/vscode"
if ! command -v npm >/dev/null 2>&1 \
    || ! node -e 'process.exit(process.versions.node.split(".")[0] < 20 ? 1 : 0)' 2>/dev/null; then
  echo "vscode: SKIPPED: no Node.js >= 20 with npm on this machine"
  exit 0
fi
mkdir -p "$root/.cache"
npm ci --no-audit --no-fund --ignore-scripts
npx --yes @vscode/vsce package --allow-missing-repository --out "$root/.cache/urdf-tools.vsix"
tap="$root/.cache/vscode-tests.tap"
status=0
URDF_TOOLS_LSP_COMMAND="[\"$python\", \"-m\", \"urdf_tools_ros.cli.main\", \"lsp\"]" \
  node --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" test/*.test.js || status=$?
if [ -n "${URDF_TOOLS_STAGE_REPORT:-}" ]; then
  python3 - "$tap" >>"$URDF_TOOLS_STAGE_REPORT" <<'PY'
import collections, json, re, sys
tap = open(sys.argv[1], encoding='utf-8').read()
count = {key: int(re.search(rf'^# {key} (\d+)$', tap, re.M)[1]) for key in ('pass', 'fail',
                                                                           'cancelled', 'skipped')}
reasons = collections.Counter(re.findall(r'^ok \d+ - .* # SKIP (.*)$', tap, re.M))
print(json.dumps({'passed': count['pass'], 'failed': count['fail'] + count['cancelled'],
                  'skipped': count['skipped'], 'skip_reasons': dict(reasons)}))
PY
fi
exit "$status"
