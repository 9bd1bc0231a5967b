"""
Symbols, references, rename and the xacro hovers of ``urdf-tools lsp`` over stdio (pytest-lsp).

As in test_lsp_protocol.py, these need pytest >= 8 (the pytest-9 stage) and skip elsewhere.
Real files of ``../shared/ros2_descriptions`` and small files written here.
"""

from __future__ import annotations

from pathlib import Path
import re
from typing import Any

from lsp_client import (client_fixture, diagnostics, MISSING, needs_ros2, open_file, position,
                        PYTEST_MARKS)
from paths import ROS2_DESCRIPTIONS
import pytest

pytestmark = PYTEST_MARKS
ROS2 = ROS2_DESCRIPTIONS
MACROED = ROS2 / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro'
LIBRARY = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="cm2m" value="${1/100.0}"/>
  <xacro:property name="side" value="${6.42*cm2m}"/>
  <xacro:macro name="cube" params="name">
    <link name="${name}"><visual><geometry><box size="${side} ${side} 1"/></geometry></visual>
    </link>
  </xacro:macro>
</robot>
"""
MAIN = """<?xml version="1.0"?>
<robot name="m" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="lib.xacro"/>
  <link name="a"><visual><geometry><box size="${side} 1 1"/></geometry></visual></link>
  <xacro:cube name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>
"""

if MISSING is None:
    from lsprotocol import types
    from pytest_lsp import LanguageClient

    #: A client that can prepare renames, the descriptions folder its workspace.
    client = client_fixture(ROS2, types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            rename=types.RenameClientCapabilities(prepare_support=True))))


def _document(uri: str) -> Any:
    return types.TextDocumentIdentifier(uri)


@needs_ros2
@pytest.mark.asyncio
async def test_document_and_workspace_symbols(client: LanguageClient) -> None:
    text = MACROED.read_text()
    uri = open_file(client, MACROED)
    await diagnostics(client, uri, lambda items: True)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(_document(uri)))
    assert symbols is not None
    top = [(symbol.name, symbol.kind) for symbol in symbols]
    assert ('base_link', types.SymbolKind.Class) in top
    assert ('leg', types.SymbolKind.Function) in top and ('width', types.SymbolKind.Constant) \
        in top
    leg = next(symbol for symbol in symbols if symbol.name == 'leg')
    assert isinstance(leg, types.DocumentSymbol) and leg.children
    body = text[text.index('<xacro:macro name="leg"'):]
    assert [child.name for child in leg.children if child.kind == types.SymbolKind.Class] == \
        re.findall(r'<link name="([^"]+)"', body[:body.index('</xacro:macro>')])
    assert leg.selection_range.start == position(text, '<xacro:macro name="leg"', 19)
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query='WHEEL'))
    assert found and all('wheel' in item.name.lower() for item in found)
    assert ('wheel', uri) in [(item.name, item.location.uri) for item in found]


@pytest.mark.asyncio
async def test_references_and_one_rename_across_files(client: LanguageClient,
                                                      tmp_path: Path) -> None:
    (tmp_path / 'lib.xacro').write_text(LIBRARY)
    main = tmp_path / 'm.urdf.xacro'
    main.write_text(MAIN)
    uri, library = open_file(client, main), (tmp_path / 'lib.xacro').as_uri()
    await diagnostics(client, uri, lambda items: True)
    at = position(MAIN, '${side}', 3)
    found = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=False), text_document=_document(uri),
        position=at))
    assert sorted((item.uri, item.range.start.line) for item in found or ()) == sorted(
        [(uri, 3), (library, 5), (library, 5)])
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(_document(uri), at))
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == 'side'
    edit = await client.text_document_rename_async(types.RenameParams(
        _document(uri), at, 'length'))
    assert edit is not None and edit.changes is not None and set(edit.changes) == {uri, library}
    for name, text in ((uri, MAIN), (library, LIBRARY)):
        lines = text.splitlines(keepends=True)
        for change in sorted(edit.changes[name], key=lambda change: (
                change.range.start.line, -change.range.start.character)):
            line = lines[change.range.start.line]
            lines[change.range.start.line] = line[:change.range.start.character] + \
                change.new_text + line[change.range.end.character:]
        assert ''.join(lines) == re.sub(r'\bside\b', 'length', text)
    with pytest.raises(Exception, match='already exists'):
        await client.text_document_rename_async(types.RenameParams(_document(uri), at, 'cm2m'))


@needs_ros2
@pytest.mark.asyncio
async def test_a_name_an_expression_makes_is_not_renamed(client: LanguageClient) -> None:
    gripper = ROS2 / 'robotiq_description' / 'urdf' / 'robotiq_2f_85_gripper.urdf.xacro'
    macro = (gripper.parent / 'robotiq_2f_85_macro.urdf.xacro').read_text()
    text = gripper.read_text()
    uri = open_file(client, gripper)
    await diagnostics(client, uri, lambda items: True)
    at = position(text, '<link name="world"', 13)
    line = macro[:macro.index('<parent link="${parent}"')].count('\n') + 1
    expected = re.escape(f'`${{parent}}` at robotiq_2f_85_macro.urdf.xacro:{line}')
    with pytest.raises(Exception, match=expected):
        await client.text_document_rename_async(types.RenameParams(_document(uri), at, 'w'))
    assert await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(_document(uri), at)) is None
    assert any(re.search(expected, message.message) for message in client.messages)


@needs_ros2
@pytest.mark.asyncio
async def test_hovers_on_a_macro_call_and_a_property_value(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    text = MACROED.read_text()
    uri = open_file(client, MACROED)
    await diagnostics(client, uri, lambda items: True)
    found = await client.text_document_hover_async(types.HoverParams(
        _document(uri), position(text, '<xacro:leg prefix="right"', 3)))
    line = text[:text.index('<xacro:macro name="leg"')].count('\n') + 1
    assert found is not None and found.contents.value.split('  \n') == [
        f'**macro** `leg` (08-macroed.urdf.xacro:{line})', 'parameters: `prefix`, `reflect`',
        f"{text.count('<xacro:leg ')} calls in the run's files"]
    (tmp_path / 'lib.xacro').write_text(LIBRARY)
    (tmp_path / 'm.urdf.xacro').write_text(MAIN)
    uri = open_file(client, tmp_path / 'm.urdf.xacro')
    await diagnostics(client, uri, lambda items: True)
    found = await client.text_document_hover_async(types.HoverParams(
        _document(uri), position(MAIN, '${side}', 3)))
    assert found is not None
    assert found.contents.value == ('**property** `side` = `0.0642` (lib.xacro:4)  \n'
                                    'written `${6.42*cm2m}`')
