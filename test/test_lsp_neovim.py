"""
``urdf-tools lsp`` in Neovim's built-in client, headless, set up as docs/editors.md says.

The Neovim 0.7 snippet of the manual is the editor's ``init.lua`` (``urdf-tools`` on ``PATH`` is
this Python's CLI); ``test/lsp_neovim.lua`` drives it: two files of one package share one server
and show each finding of ``urdf-tools check`` once, a code action clears a finding, a file of
another package gets a server of its own.
"""

from __future__ import annotations

from collections import Counter
import json
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
from typing import Any

from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO

NVIM = shutil.which('nvim')
PACKAGE = ROS2_DESCRIPTIONS / 'urdf_tutorial'
FILES = [PACKAGE / 'urdf' / '06-flexible.urdf', PACKAGE / 'urdf' / '07-physics.urdf']
OTHER = """<?xml version="1.0"?>
<robot name="other">
  <link name="a"/>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""  # noqa: E501


def _missing() -> str | None:
    if NVIM is None:
        return 'nvim is not installed (scripts/setup-editors.sh: apt-get install neovim)'
    if not all(path.is_file() for path in FILES):
        return f'{PACKAGE} is not here'
    for module in ('pygls', 'lsprotocol'):
        try:
            __import__(module)
        except ImportError:
            return f'{module} is not installed (the [lsp] extra)'
    return None


#: Every Python/pytest stage of CI runs it (Neovim's client on every pytest).
pytestmark = pytest.mark.portability


def manual_snippet() -> str:
    """The Lua of the manual's Neovim 0.7 section."""
    text = (REPO / 'docs' / 'editors.md').read_text(encoding='utf-8')
    section = text[text.index('### Neovim 0.7'):]
    match = re.search(r'```lua\n(.*?)```', section, re.DOTALL)
    assert match, 'docs/editors.md: no lua block in the Neovim 0.7 section'
    return match.group(1)


def check(path: Path) -> list[dict[str, Any]]:
    """The findings ``urdf-tools check`` reports in ``path``."""
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', str(path),
                           '--package-path', str(ROS2_DESCRIPTIONS), '--format', 'json',
                           '--no-config'], capture_output=True, text=True, cwd=REPO,
                          timeout=120)
    return [finding for finding in json.loads(done.stdout)['findings']
            if finding['file'] == str(path)]


@pytest.mark.skipif(_missing() is not None, reason=str(_missing()))
def test_neovim_has_one_server_per_root_and_a_code_action_clears_a_diagnostic(
        tmp_path: Path) -> None:
    before_disk = [path.read_bytes() for path in FILES]
    expected = [check(path) for path in FILES]
    acted = [f for f in expected[0] if f['severity'] in ('error', 'warning')]
    assert acted, 'the file has no finding to act on'
    code = acted[0]['code']
    other = tmp_path / 'other_description'
    (other / 'urdf').mkdir(parents=True)
    (other / 'package.xml').write_text('<package format="3"><name>other_description</name>'
                                       '</package>\n')
    (other / 'urdf' / 'other.urdf').write_text(OTHER)
    (tmp_path / 'init.lua').write_text(manual_snippet())
    shim = tmp_path / 'bin' / 'urdf-tools'
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m urdf_tools_ros.cli.main "$@"\n')
    shim.chmod(0o755)
    out = tmp_path / 'out.json'
    files = [*map(str, FILES), str(other / 'urdf' / 'other.urdf')]
    env = dict(os.environ, URDF_LSP_FILES=json.dumps(files),
               URDF_LSP_COUNTS=json.dumps([len(found) for found in expected]),
               URDF_LSP_CODE=code, URDF_LSP_OUT=str(out),
               PATH=os.pathsep.join([str(shim.parent), os.environ.get('PATH', '')]),
               PYTHONPATH=os.pathsep.join(
                   [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])]),
               XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path))
    subprocess.run([NVIM, '--headless', '-u', str(tmp_path / 'init.lua'), '-i', 'NONE', '-n',
                    '-c', f'luafile {REPO / "test" / "lsp_neovim.lua"}'],
                   env=env, cwd=tmp_path, timeout=180, capture_output=True, check=False)
    result = json.loads(out.read_text())
    assert 'error' not in result, result.get('error')
    assert result['attached'], result
    # one server for the package, both files attached to it
    assert result['clients'] == [{'root': str(PACKAGE), 'buffers': [1, 2]}]
    for found, diagnostics in zip(expected, result['diagnostics']):
        assert Counter((item['code'], item['line']) for item in diagnostics) == \
            Counter((finding['code'], finding['line'] - 1) for finding in found)
    assert result['applied'] in result['titles']
    assert result['cleared'] and result['modified'], result
    assert len([i for i in result['after'] if i['code'] == code]) == \
        len([i for i in result['before'] if i['code'] == code]) - 1
    assert [path.read_bytes() for path in FILES] == before_disk
    # a file of another package: a server of its own
    assert result['other'], result
    assert sorted(result['clients_after'], key=lambda client: client['root']) == sorted(
        [{'root': str(PACKAGE), 'buffers': [1, 2]}, {'root': str(other), 'buffers': [3]}],
        key=lambda client: client['root'])
