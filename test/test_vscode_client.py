"""
The VS Code extension's node tests (``editors/vscode/test``) against this Python's server.

They start ``urdf-tools lsp`` with the options the extension gives its client (``client.js``)
and open a robot of ``../shared/ros2_descriptions``. Their node modules come from ``npm ci``
(``scripts/vscode.sh``, a stage of ``.ci/run``); without them this skips with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from paths import ROS2_DESCRIPTIONS, SHARED
import pytest

from conftest import missing, REPO

EXTENSION = REPO / 'editors' / 'vscode'
NODE = shutil.which('node')


def _missing() -> str | None:
    if NODE is None:
        return 'node is not installed (the VS Code extension tests need Node.js >= 20)'
    if not (EXTENSION / 'node_modules').is_dir():
        return 'editors/vscode/node_modules is not here (scripts/vscode.sh runs npm ci)'
    if not (ROS2_DESCRIPTIONS / 'urdf_tutorial').is_dir():
        return f'{ROS2_DESCRIPTIONS} is not here'
    return missing('pygls', 'lsprotocol')


@pytest.mark.skipif(_missing() is not None, reason=str(_missing()))
def test_the_extension_client_options_drive_the_server() -> None:
    env = dict(os.environ, URDF_TOOLS_SHARED=str(SHARED), URDF_TOOLS_LSP_COMMAND=json.dumps(
        [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'lsp']))
    tests = sorted(str(path) for path in (EXTENSION / 'test').glob('*.test.js'))
    done = subprocess.run([str(NODE), '--test', *tests], cwd=EXTENSION, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert '# fail 0' in done.stdout and '# skipped 0' in done.stdout, done.stdout[-2000:]
    assert '# pass 0' not in done.stdout
