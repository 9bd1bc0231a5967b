"""
The robot from the editor: ``urdf-tools.view`` and its code lens, over stdio with pytest-lsp.

As in test_lsp_protocol.py, the client tests need pytest >= 8 (the pytest-9 stage). The server
runs under the first Python that can start the viewer (viser, trimesh) and the server (pygls
2): this one, else the repository's ``.venv``; they skip without one. The viewers are found by
their command lines in ``/proc``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
import re
import signal
import subprocess
import sys
import time
from typing import Any
import urllib.error
import urllib.request

from lsp_client import MISSING as LSP_MISSING
import pytest

from conftest import missing, REPO

MISSING = LSP_MISSING  # pytest-lsp's reason, else this test's own (below)
if MISSING is None:
    from lsprotocol import types
    import pytest_lsp
    from pytest_lsp import ClientServerConfig, LanguageClient
NEEDS = 'import viser, trimesh, pygls.lsp.server, lsprotocol'
PYTHON = next((python for python in (sys.executable, str(REPO / '.venv' / 'bin' / 'python'))
               if os.path.isfile(python) and subprocess.run(
                   [python, '-c', NEEDS], capture_output=True).returncode == 0), None)
if MISSING is None and PYTHON is None:
    MISSING = "no Python here has viser, trimesh and pygls 2 (pip install '.[lsp,view]')"
if MISSING is None and not os.path.isdir('/proc'):
    MISSING = 'the viewers are found in /proc'
lsp_test = pytest.mark.skipif(MISSING is not None, reason=str(MISSING))
pytestmark = pytest.mark.portability
ENTRY = """<?xml version="1.0"?>
<robot name="viewed" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="suffix" default=""/>
  <xacro:include filename="$(find viewpkg)/urdf/part.xacro"/>
  <link name="base$(arg suffix)"/>
  <xacro:part parent="base$(arg suffix)"/>
</robot>
"""
PART = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="part" params="parent">
    <link name="part"><visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>
    <joint name="fixed" type="fixed"><parent link="${parent}"/><child link="part"/></joint>
  </xacro:macro>
</robot>
"""

if MISSING is None:
    SERVER = ClientServerConfig(
        server_command=[str(PYTHON), '-m', 'urdf_tools_ros.cli.main', 'lsp'],
        server_env={**os.environ, 'PYTHONPATH': os.pathsep.join(
            [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])])})

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient) -> Any:
        """A client that can show documents and counts the server's code lens refreshes."""
        lsp_client.lens_refreshes = 0  # type: ignore[attr-defined]

        @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
        def refreshed(params: None) -> None:
            lsp_client.lens_refreshes += 1  # type: ignore[attr-defined]

        await lsp_client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(
                window=types.WindowClientCapabilities(
                    show_document=types.ShowDocumentClientCapabilities(support=True)),
                workspace=types.WorkspaceClientCapabilities(
                    code_lens=types.CodeLensWorkspaceClientCapabilities(
                        refresh_support=True)))))
        yield
        if lsp_client.capabilities is not None:  # not shut down by the test
            await lsp_client.shutdown_session()


def _package(workspace: Path) -> tuple[str, str]:
    """Package ``viewpkg`` in ``workspace``: the URIs of its entry and of the file it includes."""
    root = workspace / 'src' / 'viewpkg'  # in src: its siblings are no other test's packages
    (root / 'urdf').mkdir(parents=True)
    (root / 'package.xml').write_text('<package format="3"><name>viewpkg</name></package>')
    (root / 'urdf' / 'part.xacro').write_text(PART)
    (root / 'urdf' / 'robot.urdf.xacro').write_text(ENTRY)
    return (root / 'urdf' / 'robot.urdf.xacro').as_uri(), (root / 'urdf' / 'part.xacro').as_uri()


async def _checked(client: LanguageClient, uri: str) -> None:
    """Open ``uri`` and wait for its diagnostics (the check of its run is done)."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id='xml', version=1, text=Path(uri[len('file://'):]).read_text())))
    for _ in range(1200):
        if uri in client.diagnostics:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f'no diagnostics for {uri}')


def _viewers(root: Path) -> list[int]:
    """The processes of ``urdf-tools view`` started for a file under ``root``."""
    found = []
    for entry in Path('/proc').iterdir():
        try:
            words = (entry / 'cmdline').read_bytes().split(b'\0') if entry.name.isdigit() else []
        except OSError:
            continue
        if b'view' in words and any(word.startswith(bytes(root)) for word in words):
            found.append(int(entry.name))
    return found


def test_the_viewer_finds_each_package_where_the_server_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workspace packages go to the viewer unless a source asked before them has the name."""
    if missing('lsprotocol'):
        pytest.skip(str(missing('lsprotocol')))
    from urdf_tools_ros.cli.main import build_parser
    from urdf_tools_ros.lsp.view import view_command
    from urdf_tools_ros.lsp.workspace import Run
    monkeypatch.delenv('URDF_TOOLS_PACKAGE_PATH', raising=False)
    (tmp_path / 'share' / 'b').mkdir(parents=True)
    entry = str(tmp_path / 'robot.urdf.xacro')
    command = view_command(
        Run(entry, (('prefix', 'r1_'), ('empty', ''))), {'c': '/explicit/c'},
        [str(tmp_path / 'share')], {name: f'/workspace/{name}' for name in 'abc'}, 4321)
    assert command[:4] == [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'view']
    args = build_parser('view').parse_args(command[3:])
    assert (args.file, args.xacro_args, args.host, args.port, args.watch) == \
        (entry, ['prefix:=r1_', 'empty:='], '127.0.0.1', 4321, True)
    assert sorted(args.package_path) == sorted(
        ['a=/workspace/a', 'c=/explicit/c', str(tmp_path / 'share')])


def test_a_viewer_gives_its_address_or_why_it_ended() -> None:
    if missing('lsprotocol'):
        pytest.skip(str(missing('lsprotocol')))
    from urdf_tools_ros.lsp.view import Viewers
    from urdf_tools_ros.lsp.workspace import Run
    viewers = Viewers()
    serving = [sys.executable, '-c', 'import time; print("urdf-tools view: serving \'r\' at '
               'http://127.0.0.1:1 (Ctrl-C to stop)", flush=True); time.sleep(60)']
    address = viewers.start(Run('a'), serving)
    assert address.result(timeout=30) == 'http://127.0.0.1:1'
    assert viewers.start(Run('a'), ['not run']) is address  # running: the same viewer
    failed = viewers.start(Run('b'), [sys.executable, '-c', 'print("cannot load"); exit(2)'])
    with pytest.raises(RuntimeError, match='^cannot load$'):
        failed.result(timeout=30)
    started = time.monotonic()
    viewers.stop()
    assert time.monotonic() - started < 5  # terminated, not waited for


@lsp_test
@pytest.mark.asyncio
async def test_a_code_lens_on_the_robot_of_an_entry_only(
        client: LanguageClient, tmp_path: Path) -> None:
    entry, part = _package(tmp_path)
    await _checked(client, entry)
    for _ in range(100):  # the entry loaded: the client is asked for its lenses again
        if client.lens_refreshes:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.05)
    assert client.lens_refreshes == 1  # type: ignore[attr-defined]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        types.TextDocumentIdentifier(entry)))
    assert [(lens.range.start.line, lens.range.end.line) for lens in lenses] == [(1, 1)]
    assert lenses[0].command is not None
    assert (lenses[0].command.title, lenses[0].command.command,
            list(lenses[0].command.arguments or ())) == ('View robot', 'urdf-tools.view', [entry])
    assert await client.text_document_code_lens_async(types.CodeLensParams(
        types.TextDocumentIdentifier(part))) in ([], ())  # included by the entry: no lens


@lsp_test
@pytest.mark.asyncio
async def test_the_command_shows_one_page_per_entry_until_shutdown(
        client: LanguageClient, tmp_path: Path) -> None:
    entry, part = _package(tmp_path)
    await _checked(client, entry)
    try:
        url = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            'urdf-tools.view', [entry]))
        assert re.fullmatch(r'http://127\.0\.0\.1:\d+', url), url
        assert [(shown.uri, shown.external) for shown in client.shown_documents] == \
            [(url, True)]
        assert urllib.request.urlopen(url, timeout=10).status == 200
        viewers = _viewers(tmp_path)
        assert len(viewers) == 1
        # the included file is viewed through its entry: the same page, no second viewer
        assert await client.workspace_execute_command_async(types.ExecuteCommandParams(
            'urdf-tools.view', [part])) == url
        assert [shown.uri for shown in client.shown_documents] == [url, url]
        assert _viewers(tmp_path) == viewers
        await client.shutdown_async(None)
        client.capabilities = None  # shut down here: the fixture does not ask again
        try:
            assert not Path(f'/proc/{viewers[0]}').exists()  # ended and reaped: no zombie
            with pytest.raises(urllib.error.URLError):
                urllib.request.urlopen(url, timeout=5)
        finally:
            client.exit(None)
    finally:
        for pid in _viewers(tmp_path):
            os.kill(pid, signal.SIGKILL)
