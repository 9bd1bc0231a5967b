"""
``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp) when a file cannot be loaded.

An entry whose include cannot be loaded shows the error on its include line, the cause as its
related information; while a file is half-typed, each publication holds the parse error beside
the earlier findings. The workspace is a folder written here (``tmp_path``). pytest-lsp needs
pytest >= 8: these run in the pytest-9 stage and skip, with the reason, on older pytest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
import shutil
from typing import Any

from lsp_client import (change, client_fixture, diagnostics, MISSING, open_file, PYTEST_MARKS,
                        ROBOT as SHARED_ROBOT, server)
from paths import ROS2_DESCRIPTIONS
import pytest

pytestmark = PYTEST_MARKS
if MISSING is None:
    from lsprotocol import types
    from pytest_lsp import LanguageClient

    #: A client connected to ``urdf-tools lsp``, ``tmp_path`` its workspace; no other packages.
    client = client_fixture(None, config=server(URDF_TOOLS_PACKAGE_PATH=None,
                                                AMENT_PREFIX_PATH=None))

KUKA = ROS2_DESCRIPTIONS / 'kuka_lbr_iiwa_support'
UNLOADABLE = 'description-unloadable'
#: Findings on three lines: root-body-massless (3), joint-axis-not-unit (6),
#: joint-limit-lower-above-upper (7).
ROBOT = SHARED_ROBOT.replace('lower="-1" upper="1"', 'lower="1" upper="-1"')


class _Published(dict):  # type: ignore[type-arg]
    """The client's diagnostics by URI that also keeps every publication, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, Sequence[Any]]] = []

    def __setitem__(self, uri: str, items: Sequence[Any]) -> None:
        self.log.append((uri, items))
        super().__setitem__(uri, items)


def _line(path: Path, needle: str) -> int:
    """The 0-based line of the first line of ``path`` holding ``needle``."""
    return next(number for number, text in enumerate(path.read_text().splitlines())
                if needle in text)


@pytest.mark.skipif(not KUKA.is_dir(), reason=f'{KUKA} is not here')
@pytest.mark.asyncio
async def test_an_entry_whose_include_lacks_a_package_shows_it_on_the_include_line(
        client: LanguageClient, tmp_path: Path) -> None:
    package = tmp_path / KUKA.name  # the workspace: without kuka_resources
    shutil.copytree(KUKA, package, ignore=shutil.ignore_patterns('meshes'))
    entry = package / 'urdf' / 'lbr_iiwa14_r820.urdf.xacro'
    macro = package / 'urdf' / 'lbr_iiwa14_r820_macro.xacro'
    uri = open_file(client, entry)
    [error] = await diagnostics(client, uri, lambda items: len(items) > 0)
    assert error.code == UNLOADABLE and error.severity == types.DiagnosticSeverity.Error
    assert error.range.start.line == _line(entry, '/urdf/lbr_iiwa14_r820_macro.xacro"')
    assert 'package "kuka_resources" not found' in error.message
    cause = _line(macro, '$(find kuka_resources)')
    assert [(info.location.uri, info.location.range.start.line)
            for info in error.related_information or ()] == [(macro.as_uri(), cause)]
    [own] = await diagnostics(client, macro.as_uri(), lambda items: len(items) > 0)
    assert own.code == UNLOADABLE and own.range.start.line == cause  # the cause stays


@pytest.mark.asyncio
async def test_each_publication_while_typing_holds_the_earlier_findings(
        client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    client.diagnostics = published = _Published()
    uri = open_file(client, path)
    clean = await diagnostics(client, uri, lambda items: len(items) >= 3)
    before = {(d.code, d.range.start.line) for d in clean}
    assert {line for _, line in before} == {2, 5, 6}
    start = len(published.log)
    lines = ROBOT.splitlines(keepends=True)
    typed = '  <link name="c'
    for version, size in enumerate(range(3, len(typed) + 1), 2):  # '  <' ... '  <link name="c'
        change(client, uri, version, ''.join([*lines[:3], typed[:size] + '\n', *lines[3:]]))
        await asyncio.sleep(0.02)
    moved = {(code, line + (line >= 3)) for code, line in before}  # a line came before line 4
    await diagnostics(client, uri, lambda items: len(items) == len(clean) + 1)
    await asyncio.sleep(0.3)  # the last check's publication too
    held = [{(d.code, d.range.start.line) for d in items}
            for name, items in published.log[start:] if name == uri]
    assert held and all(UNLOADABLE in {code for code, _ in items} for items in held)
    assert all({found for found in items if found[0] != UNLOADABLE} == moved for items in held)
    change(client, uri, 99, ROBOT)  # well-formed again: the findings as they were
    await diagnostics(client, uri, lambda items: {(d.code, d.range.start.line)
                                                  for d in items} == before)
