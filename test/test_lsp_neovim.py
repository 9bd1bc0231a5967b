"""
``urdf-tools lsp`` in Neovim's built-in client, headless (``test/lsp_neovim.lua``).

The diagnostic ``urdf-tools check`` reports appears and its code action clears it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import shutil
import subprocess
import sys

from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO

NVIM = shutil.which('nvim')
FILE = ROS2_DESCRIPTIONS / 'urdf_tutorial' / 'urdf' / '06-flexible.urdf'


def _missing() -> str | None:
    if NVIM is None:
        return 'nvim is not installed (scripts/setup-editors.sh: apt-get install neovim)'
    if not FILE.is_file():
        return f'{FILE} is not here'
    for module in ('pygls', 'lsprotocol'):
        try:
            __import__(module)
        except ImportError:
            return f'{module} is not installed (the [lsp] extra)'
    return None


#: Every Python/pytest stage of CI runs it (Neovim's client on every pytest).
pytestmark = pytest.mark.portability


@pytest.mark.skipif(_missing() is not None, reason=str(_missing()))
def test_neovim_shows_the_diagnostic_and_its_code_action_clears_it(tmp_path: Path) -> None:
    before_disk = FILE.read_bytes()
    # the server finds the workspace's packages in its package.xml folders; check is told
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', str(FILE),
                           '--package-path', str(ROS2_DESCRIPTIONS), '--format', 'json',
                           '--no-config'], capture_output=True, text=True, cwd=REPO,
                          timeout=120)
    expected = [f for f in json.loads(done.stdout)['findings']
                if f['severity'] in ('error', 'warning')]
    assert expected, 'the file has no finding to act on'
    code = expected[0]['code']
    out = tmp_path / 'out.json'
    env = dict(os.environ, URDF_LSP_FILE=str(FILE), URDF_LSP_CODE=code,
               URDF_LSP_ROOT=str(ROS2_DESCRIPTIONS), URDF_LSP_PYTHON=sys.executable,
               URDF_LSP_OUT=str(out), PYTHONPATH=os.pathsep.join(
                   [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])]),
               XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path))
    subprocess.run([NVIM, '--headless', '-u', 'NONE', '-i', 'NONE', '-n',
                    '-c', f'luafile {REPO / "test" / "lsp_neovim.lua"}'],
                   env=env, cwd=tmp_path, timeout=180, capture_output=True, check=False)
    result = json.loads(out.read_text())
    assert 'error' not in result, result.get('error')
    assert result['attached'], result
    seen = {(item['code'], item['line']) for item in result['before']}
    for finding in expected:
        assert (finding['code'], finding['line'] - 1) in seen, finding
    assert result['applied'] in result['titles']
    assert result['cleared'] and result['modified'], result
    assert len([i for i in result['after'] if i['code'] == code]) == \
        len([i for i in result['before'] if i['code'] == code]) - 1
    assert FILE.read_bytes() == before_disk
