"""
``textDocument/codeAction`` of ``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp).

pytest-lsp needs pytest >= 8: these tests run in the pytest-9 stage and skip, with the reason,
on older pytest (as ``test_lsp_protocol.py``). A macro body line that its expansions would fix
differently gets no fix; a moment each call passes gets a preferred fix at that call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
import os
from pathlib import Path
import sys
from typing import Any

from paths import ROS2_DESCRIPTIONS
import pytest
from test_lsp_actions import BLOCKS

from conftest import REPO

MISSING: str | None = None
if int(pytest.__version__.split('.')[0]) < 8:
    MISSING = (f'pytest-lsp needs pytest >= 8 (this is pytest {pytest.__version__}); the '
               'pytest-9 stage runs these tests')
else:
    try:
        from lsprotocol import types
        import pytest_lsp
        from pytest_lsp import ClientServerConfig, LanguageClient
    except ImportError as exc:
        MISSING = f'{exc.name} is not installed (pip install pytest-lsp and the [lsp] extra)'

#: The pytest-9 stage of CI runs these (scripts/test-python.sh 3.13 9.2.0 -m portability).
pytestmark = [pytest.mark.portability,
              pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]

ROS2 = ROS2_DESCRIPTIONS

if MISSING is None:
    SERVER = ClientServerConfig(
        server_command=[sys.executable, '-m', 'urdf_tools_ros.cli.main', 'lsp', '--debounce',
                        '50'],
        server_env={**os.environ, 'PYTHONPATH': os.pathsep.join(
            [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])])})

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient) -> Any:
        """A client connected to ``urdf-tools lsp``, the descriptions folder its workspace."""
        await lsp_client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(ROS2.as_uri(), 'ros2_descriptions')]))
        yield
        await lsp_client.shutdown_session()


async def _diagnostics(client: LanguageClient, uri: str,
                       ready: Callable[[Sequence[types.Diagnostic]], bool],
                       timeout: float = 60.0) -> Sequence[types.Diagnostic]:
    """The diagnostics of ``uri`` once ``ready`` says so."""
    for _ in range(int(timeout / 0.05)):
        found = client.diagnostics.get(uri)
        if found is not None and ready(found):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f'no such diagnostics for {uri}: {client.diagnostics.get(uri)}')


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id='xml', version=1, text=text)))
    return uri


async def _actions(client: LanguageClient, uri: str,
                   diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
    """The code actions of the lines of ``diagnostics`` (one line), asked for with them."""
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=list(diagnostics))))
    return [action for action in found or () if isinstance(action, types.CodeAction)]


@pytest.mark.skipif(not ROS2.is_dir(), reason=f'{ROS2} is not here')
@pytest.mark.asyncio
async def test_a_shared_macro_body_line_gets_no_fix(client: LanguageClient) -> None:
    """08-macroed line 24: ``default_inertial``'s inertia, expanded for links of other solids."""
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    uri = _open(client, path, path.read_text(encoding='utf-8'))
    found = await _diagnostics(client, uri, lambda items: any(
        d.code == 'inertia-implausible' for d in items))
    here = [d for d in found if d.code == 'inertia-implausible' and d.range.start.line == 23]
    assert len(here) > 1
    actions = await _actions(client, uri, here)
    titles = [action.title for action in actions]
    assert not [title for title in titles if title.startswith('Fix ')], titles
    assert 'Suppress inertia-implausible here' in titles
    assert not [action for action in actions if action.is_preferred]


@pytest.mark.asyncio
async def test_each_call_gets_its_own_preferred_fix(client: LanguageClient,
                                                    tmp_path: Path) -> None:
    path = tmp_path / 'blocks.urdf.xacro'
    path.write_text(BLOCKS, encoding='utf-8')
    uri = _open(client, path, BLOCKS)
    found = await _diagnostics(client, uri, lambda items: any(
        d.code == 'inertia-implausible' for d in items))
    here = [d for d in found if d.code == 'inertia-implausible']
    assert {d.range.start.line for d in here} == {5}  # the <inertial> in the macro body
    actions = await _actions(client, uri, here)
    fixes = sorted((action for action in actions if action.title.startswith('Fix ')),
                   key=lambda action: action.title)
    assert [action.is_preferred for action in fixes] == [True, True]
    lines = BLOCKS.splitlines(keepends=True)
    for name, action in zip('ab', fixes):
        assert action.title.startswith(f'Fix inertia-implausible of link "{name}": ')
        call = next(number for number, line in enumerate(lines)
                    if f'<xacro:block name="{name}"' in line)
        edits = action.edit.changes[uri]
        assert {edit.range.start.line for edit in edits} == {call}
        for edit in sorted(edits, key=lambda edit: edit.range.start.character, reverse=True):
            line = lines[call]
            lines[call] = line[:edit.range.start.character] + edit.new_text + \
                line[edit.range.end.character:]
    fixed = ''.join(lines)
    assert fixed[:fixed.index('<xacro:block name="a"')] == \
        BLOCKS[:BLOCKS.index('<xacro:block name="a"')]  # the macro body is unchanged
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    await _diagnostics(client, uri, lambda items: not any(
        d.code.startswith('inertia') for d in items if isinstance(d.code, str)))
    assert path.read_text(encoding='utf-8') == BLOCKS  # the server never writes
