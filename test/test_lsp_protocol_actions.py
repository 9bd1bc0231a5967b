"""
``textDocument/codeAction`` of ``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp).

pytest-lsp needs pytest >= 8: these tests run in the pytest-9 stage and skip, with the reason,
on older pytest (as ``test_lsp_protocol.py``). A macro body line that its expansions would fix
differently gets no fix; a moment each call passes gets a preferred fix at that call.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lsp_client import (change, client_fixture, diagnostics, MISSING, needs_ros2, open_file,
                        PYTEST_MARKS)
from paths import ROS2_DESCRIPTIONS
import pytest
from test_lsp_actions import BLOCKS

pytestmark = PYTEST_MARKS
ROS2 = ROS2_DESCRIPTIONS
if MISSING is None:
    from lsprotocol import types
    from pytest_lsp import LanguageClient

    #: A client connected to ``urdf-tools lsp``, the descriptions folder its workspace.
    client = client_fixture(ROS2)


async def _actions(client: LanguageClient, uri: str,
                   diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
    """The code actions of the lines of ``diagnostics`` (one line), asked for with them."""
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=list(diagnostics))))
    return [action for action in found or () if isinstance(action, types.CodeAction)]


@needs_ros2
@pytest.mark.asyncio
async def test_a_shared_macro_body_line_gets_no_fix(client: LanguageClient) -> None:
    """08-macroed line 24: ``default_inertial``'s inertia, expanded for links of other solids."""
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    uri = open_file(client, path)
    found = await diagnostics(client, uri, lambda items: any(
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
    uri = open_file(client, path, BLOCKS)
    found = await diagnostics(client, uri, lambda items: any(
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
    change(client, uri, 2, fixed)
    await diagnostics(client, uri, lambda items: not any(
        d.code.startswith('inertia') for d in items if isinstance(d.code, str)))
    assert path.read_text(encoding='utf-8') == BLOCKS  # the server never writes
