"""
``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp), end to end.

pytest-lsp needs pytest >= 8: these tests run in the pytest-9 stage (``scripts/test-python.sh
3.13 9.2.0`` installs it) and skip, with the reason, on pytest 6.2.5 and 7.4.4. The client opens
real files of ``../shared/ros2_descriptions`` and small files written here, whatever its
``languageId``; what ``urdf-tools check`` reports is asked from the command line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import re
import subprocess
import sys
from typing import Any

from lsp_client import (change, client_fixture, diagnostics, MISSING, needs_ros2, open_file,
                        position, PYTEST_MARKS, ROBOT)
from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO

pytestmark = PYTEST_MARKS
ROS2 = ROS2_DESCRIPTIONS
if MISSING is None:
    from lsprotocol import types
    from pytest_lsp import LanguageClient

    #: A client connected to ``urdf-tools lsp``, the descriptions folder its workspace.
    client = client_fixture(ROS2)


def _check(path: Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', str(path),
                           '--package-path', str(ROS2), '--format', 'json', '--no-config'],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    return json.loads(done.stdout)['findings']


@needs_ros2
@pytest.mark.asyncio
async def test_a_real_file_has_the_findings_of_check_at_their_lines(
        client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '06-flexible.urdf'
    uri = open_file(client, path, language='plaintext')  # chosen by name, not languageId
    found = await diagnostics(client, uri, lambda items: len(items) > 0)
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
    uri = open_file(client, path)
    found = await diagnostics(client, uri, lambda items: len(items) > 0)
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
    uri = open_file(client, path)
    await diagnostics(client, uri, lambda items: any(
        d.code == 'joint-axis-not-unit' for d in items))
    broken = ROBOT.replace('<axis xyz="0 0 2"/>', '<axis xyz="0 0 2"', 1)
    change(client, uri, 2, broken)
    found = await diagnostics(client, uri, lambda items: any(
        d.code == 'description-unloadable' for d in items))
    [error] = [d for d in found if d.code == 'description-unloadable']
    assert 'cannot be loaded' in error.message and 5 <= error.range.start.line <= 8
    # the earlier findings stay, but for the one on the line being typed
    assert {d.code for d in found} == {'description-unloadable', 'root-body-massless'}
    change(client, uri, 3, ROBOT)
    await diagnostics(client, uri, lambda items: any(
        d.code == 'joint-axis-not-unit' for d in items))


@pytest.mark.asyncio
async def test_a_code_action_fixes_the_finding(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    uri = open_file(client, path)
    found = await diagnostics(client, uri, lambda items: any(
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
    change(client, uri, 2, ''.join(lines))
    await diagnostics(client, uri, lambda items: not any(
        d.code == 'joint-axis-not-unit' for d in items))
    assert path.read_text() == ROBOT  # the server never writes


@pytest.mark.asyncio
async def test_hover_shows_a_joints_limits_in_rad_and_degrees(
        client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    uri = open_file(client, path)
    await diagnostics(client, uri, lambda items: len(items) > 0)  # checked: the model is there
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), position(ROBOT, 'name="j"', 7)))
    assert found is not None and found.contents.kind == types.MarkupKind.Markdown
    assert '`j` (revolute)' in found.contents.value and '`a` → `b`' in found.contents.value
    assert '-57.3°' in found.contents.value  # lower="-1" rad
    assert found.range.start.line == 4


@needs_ros2
@pytest.mark.asyncio
async def test_definition_goes_from_a_macro_call_to_its_macro(client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    text = path.read_text()
    uri = open_file(client, path)
    await diagnostics(client, uri, lambda items: True)
    found = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), position(text, '<xacro:leg prefix="right"', 3)))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri
    assert found[0].range.start == position(text, '<xacro:macro name="leg"', 19)


@needs_ros2
@pytest.mark.asyncio
async def test_completion_offers_the_links_in_a_parent(client: LanguageClient) -> None:
    path = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
    text = path.read_text()
    uri = open_file(client, path)
    await diagnostics(client, uri, lambda items: True)
    end = text.index('  <joint name="gripper_extension"')
    typed = '<joint name="x" type="fixed"><parent link="ba'
    half = text[:end] + typed + text[end:]
    change(client, uri, 2, half)
    await diagnostics(client, uri, lambda items: any(  # checked: no model in this text
        d.code == 'description-unloadable' for d in items))
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), position(half, typed, len(typed)),
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
