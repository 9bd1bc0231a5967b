"""
``urdf-tools lsp`` over stdio with a real LSP client (pytest-lsp) when a file cannot be loaded.

An entry whose include cannot be loaded shows the error on its include line, the cause as its
related information; while a file is half-typed, each publication holds the parse error beside
the earlier findings. The workspace is a folder written here (``tmp_path``). pytest-lsp needs
pytest >= 8: these run in the pytest-9 stage and skip, with the reason, on older pytest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
import os
from pathlib import Path
import shutil
import sys
from typing import Any

from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO

# Why these cannot run here, or None (a mark on each test, as in test_lsp_protocol.py).
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

pytestmark = [pytest.mark.portability,
              pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]

KUKA = ROS2_DESCRIPTIONS / 'kuka_lbr_iiwa_support'
UNLOADABLE = 'description-unloadable'
#: Findings on three lines: root-body-massless (3), joint-axis-not-unit (6),
#: joint-limit-lower-above-upper (7).
ROBOT = """<?xml version="1.0"?>
<robot name="r">
  <link name="a"/>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <axis xyz="0 0 2"/>
    <limit lower="1" upper="-1" effort="1" velocity="1"/>
  </joint>
</robot>
"""  # noqa: E501

if MISSING is None:
    SERVER = ClientServerConfig(
        server_command=[sys.executable, '-m', 'urdf_tools_ros.cli.main', 'lsp', '--debounce',
                        '50'],
        server_env={**{name: value for name, value in os.environ.items()  # no other packages
                       if name not in ('URDF_TOOLS_PACKAGE_PATH', 'AMENT_PREFIX_PATH')},
                    'PYTHONPATH': os.pathsep.join(
                        [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])])})

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient, tmp_path: Path) -> Any:
        """A client connected to ``urdf-tools lsp``, ``tmp_path`` its workspace."""
        await lsp_client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(tmp_path.as_uri(), 'workspace')]))
        yield
        await lsp_client.shutdown_session()


class _Published(dict):  # type: ignore[type-arg]
    """The client's diagnostics by URI that also keeps every publication, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, Sequence[Any]]] = []

    def __setitem__(self, uri: str, items: Sequence[Any]) -> None:
        self.log.append((uri, items))
        super().__setitem__(uri, items)


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


def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id='xml', version=1, text=path.read_text())))
    return uri


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


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
    uri = _open(client, entry)
    [error] = await _diagnostics(client, uri, lambda items: len(items) > 0)
    assert error.code == UNLOADABLE and error.severity == types.DiagnosticSeverity.Error
    assert error.range.start.line == _line(entry, '/urdf/lbr_iiwa14_r820_macro.xacro"')
    assert 'package "kuka_resources" not found' in error.message
    cause = _line(macro, '$(find kuka_resources)')
    assert [(info.location.uri, info.location.range.start.line)
            for info in error.related_information or ()] == [(macro.as_uri(), cause)]
    [own] = await _diagnostics(client, macro.as_uri(), lambda items: len(items) > 0)
    assert own.code == UNLOADABLE and own.range.start.line == cause  # the cause stays


@pytest.mark.asyncio
async def test_each_publication_while_typing_holds_the_earlier_findings(
        client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    client.diagnostics = published = _Published()
    uri = _open(client, path)
    clean = await _diagnostics(client, uri, lambda items: len(items) >= 3)
    before = {(d.code, d.range.start.line) for d in clean}
    assert {line for _, line in before} == {2, 5, 6}
    start = len(published.log)
    lines = ROBOT.splitlines(keepends=True)
    typed = '  <link name="c'
    for version, size in enumerate(range(3, len(typed) + 1), 2):  # '  <' ... '  <link name="c'
        _change(client, uri, version, ''.join([*lines[:3], typed[:size] + '\n', *lines[3:]]))
        await asyncio.sleep(0.02)
    moved = {(code, line + (line >= 3)) for code, line in before}  # a line came before line 4
    await _diagnostics(client, uri, lambda items: len(items) == len(clean) + 1)
    await asyncio.sleep(0.3)  # the last check's publication too
    held = [{(d.code, d.range.start.line) for d in items}
            for name, items in published.log[start:] if name == uri]
    assert held and all(UNLOADABLE in {code for code, _ in items} for items in held)
    assert all({found for found in items if found[0] != UNLOADABLE} == moved for items in held)
    _change(client, uri, 99, ROBOT)  # well-formed again: the findings as they were
    await _diagnostics(client, uri, lambda items: {(d.code, d.range.start.line)
                                                   for d in items} == before)
