"""
``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp), end to end.

pytest-lsp needs pytest >= 8: these tests run in the pytest-9 stage (``scripts/test-python.sh
3.13 9.2.0`` installs it) and skip, with the reason, on pytest 6.2.5 and 7.4.4. The client opens
real files of ``../shared/ros2_descriptions`` and small files written here, whatever its
``languageId``; what ``urdf-tools check`` reports is asked from the command line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
import json
import os
from pathlib import Path
import re
import subprocess
import sys
from typing import Any

from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO

# Why these cannot run here, or None. Each test skips with it (a mark, not a module-level
# skip: under pytest 7.4.4 with launch_testing's plugin a module-level skip skips the run).
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
ROBOT = """<?xml version="1.0"?>
<robot name="r">
  <link name="a"/>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <axis xyz="0 0 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""  # noqa: E501

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


def _open(client: LanguageClient, path: Path, text: str | None = None,
          language: str = 'xml') -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language, version=1,
        text=path.read_text() if text is None else text)))
    return uri


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def _check(path: Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', str(path),
                           '--package-path', str(ROS2), '--format', 'json', '--no-config'],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    return json.loads(done.stdout)['findings']


needs_ros2 = pytest.mark.skipif(not ROS2.is_dir(), reason=f'{ROS2} is not here')


@needs_ros2
@pytest.mark.asyncio
async def test_a_real_file_has_the_findings_of_check_at_their_lines(
        client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '06-flexible.urdf'
    uri = _open(client, path, language='plaintext')  # chosen by name, not languageId
    found = await _diagnostics(client, uri, lambda items: len(items) > 0)
    expected = _check(path)
    assert sorted((d.code, d.range.start.line + 1) for d in found) == \
        sorted((f['code'], f['line']) for f in expected)
    for diagnostic in found:
        assert diagnostic.source == 'urdf-tools'
        assert diagnostic.range.end.character > diagnostic.range.start.character
        match = next(f for f in expected if f['code'] == diagnostic.code
                     and f['line'] == diagnostic.range.start.line + 1)
        assert match['message'] in diagnostic.message
        assert diagnostic.severity == {'error': 1, 'warning': 2, 'info': 3}[match['severity']]


@needs_ros2
@pytest.mark.asyncio
async def test_an_included_file_opened_alone_is_checked_through_its_entries(
        client: LanguageClient) -> None:
    path = ROS2 / 'irobot_create_description' / 'urdf' / 'bumper.urdf.xacro'
    uri = _open(client, path)
    found = await _diagnostics(client, uri, lambda items: len(items) > 0)
    entry = ROS2 / 'turtlebot4_description' / 'urdf' / 'standard' / 'turtlebot4.urdf.xacro'
    expected = {(f['code'], f['line']) for f in _check(entry)
                if os.path.abspath(f['file']) == str(path)}
    assert {(d.code, d.range.start.line + 1) for d in found} == expected
    assert len(found) == len(expected)  # once, though two entries include it
    chains = [info for d in found for info in d.related_information or ()]
    assert any('included from here' in info.message for info in chains)


@pytest.mark.asyncio
async def test_a_half_typed_file_is_reported_and_the_server_recovers(
        client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    uri = _open(client, path)
    await _diagnostics(client, uri, lambda items: any(
        d.code == 'joint-axis-not-unit' for d in items))
    broken = ROBOT.replace('<axis xyz="0 0 2"/>', '<axis xyz="0 0 2"', 1)
    _change(client, uri, 2, broken)
    found = await _diagnostics(client, uri, lambda items: any(
        d.code == 'description-unloadable' for d in items))
    [error] = [d for d in found if d.code == 'description-unloadable']
    assert 'cannot be loaded' in error.message and 5 <= error.range.start.line <= 8
    # the earlier findings stay, but for the one on the line being typed
    assert {d.code for d in found} == {'description-unloadable', 'root-body-massless'}
    _change(client, uri, 3, ROBOT)
    await _diagnostics(client, uri, lambda items: any(
        d.code == 'joint-axis-not-unit' for d in items))


@pytest.mark.asyncio
async def test_a_code_action_fixes_the_finding(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    uri = _open(client, path)
    found = await _diagnostics(client, uri, lambda items: any(
        d.code == 'joint-axis-not-unit' for d in items))
    axis = next(d for d in found if d.code == 'joint-axis-not-unit')
    assert ROBOT.splitlines()[axis.range.start.line][
        axis.range.start.character:axis.range.end.character] == '0 0 2'
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=axis.range,
        context=types.CodeActionContext(diagnostics=[axis])))
    titles = [action.title for action in actions or ()]
    assert any(title.startswith('Fix joint-axis-not-unit') for title in titles), titles
    assert 'Suppress joint-axis-not-unit here' in titles
    fix = next(a for a in actions if a.title.startswith('Fix'))
    edit = fix.edit.changes[uri][0]
    lines = ROBOT.splitlines(keepends=True)
    line = lines[edit.range.start.line]
    lines[edit.range.start.line] = line[:edit.range.start.character] + edit.new_text + \
        line[edit.range.end.character:]
    _change(client, uri, 2, ''.join(lines))
    await _diagnostics(client, uri, lambda items: not any(
        d.code == 'joint-axis-not-unit' for d in items))
    assert path.read_text() == ROBOT  # the server never writes


def _position(text: str, needle: str, shift: int) -> types.Position:
    """The LSP position of ``needle`` in ``text`` moved by ``shift`` characters (one line)."""
    offset = text.index(needle) + shift
    line = text.count('\n', 0, offset)
    return types.Position(line, offset - (text.rfind('\n', 0, offset) + 1))


@pytest.mark.asyncio
async def test_hover_shows_a_joints_limits_in_rad_and_degrees(
        client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    uri = _open(client, path)
    await _diagnostics(client, uri, lambda items: len(items) > 0)  # checked: the model is there
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), _position(ROBOT, 'name="j"', 7)))
    assert found is not None and found.contents.kind == types.MarkupKind.Markdown
    assert '`j` (revolute)' in found.contents.value and '`a` → `b`' in found.contents.value
    assert '-57.3°' in found.contents.value  # lower="-1" rad
    assert found.range.start.line == 4


@needs_ros2
@pytest.mark.asyncio
async def test_definition_goes_from_a_macro_call_to_its_macro(client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    text = path.read_text()
    uri = _open(client, path)
    await _diagnostics(client, uri, lambda items: True)
    found = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), _position(text, '<xacro:leg prefix="right"', 3)))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri
    assert found[0].range.start == _position(text, '<xacro:macro name="leg"', 19)


@needs_ros2
@pytest.mark.asyncio
async def test_completion_offers_the_links_in_a_parent(client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    text = path.read_text()
    uri = _open(client, path)
    await _diagnostics(client, uri, lambda items: True)
    end = text.index('  <joint name="gripper_extension"')
    typed = '<joint name="x" type="fixed"><parent link="ba'
    half = text[:end] + typed + text[end:]
    _change(client, uri, 2, half)
    await _diagnostics(client, uri, lambda items: any(  # checked: no model in this text
        d.code == 'description-unloadable' for d in items))
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), _position(half, typed, len(typed)),
        context=types.CompletionContext(types.CompletionTriggerKind.Invoked)))
    assert found is not None
    items = found.items if isinstance(found, types.CompletionList) else found
    labels = {item.label for item in items}
    expected = {name for name in re.findall(r'<link name="([^"$]+)"', text)}
    assert expected and expected <= labels  # the written names, and those macros make
    assert 'right_leg' in labels and 'left_base' in labels
    edit = next(item.text_edit for item in items if item.label == 'base_link')
    assert isinstance(edit, types.TextEdit)
    assert edit.range.end.character - edit.range.start.character == 2  # replaces 'ba'
