"""
What the pytest-lsp tests (``test_lsp_protocol*.py``) share: their skip, server, client, steps.

pytest-lsp needs pytest >= 8: these tests run in the pytest-9 stage (``scripts/test-python.sh
3.13 9.2.0`` installs it) and skip, with :data:`MISSING`, on pytest 6.2.5 and 7.4.4. Plain
module that imports there too: a test module sets ``pytestmark = PYTEST_MARKS`` and imports
``lsprotocol`` and ``pytest_lsp`` itself only where ``MISSING is None``.
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

#: Each module's ``pytestmark``: the pytest-9 stage of CI runs these
#: (scripts/test-python.sh 3.13 9.2.0 -m portability).
PYTEST_MARKS = [pytest.mark.portability,
                pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]
needs_ros2 = pytest.mark.skipif(not ROS2_DESCRIPTIONS.is_dir(),
                                reason=f'{ROS2_DESCRIPTIONS} is not here')
#: A revolute joint whose axis is not a unit vector (joint-axis-not-unit, line 6) and a
#: root link without mass (root-body-massless, line 3).
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


def server(python: str = sys.executable, **env: str | None) -> ClientServerConfig:
    """
    ``urdf-tools lsp --debounce 50`` of this repository (on ``PYTHONPATH``), run by ``python``.

    :param env: Variables that replace this process's in the server's environment; a None
        removes the variable.
    """
    merged = {**os.environ, 'PYTHONPATH': os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])]), **env}
    return ClientServerConfig(
        server_command=[python, '-m', 'urdf_tools_ros.cli.main', 'lsp', '--debounce', '50'],
        server_env={name: value for name, value in merged.items() if value is not None})


async def initialize(client: LanguageClient, folders: Sequence[Path], capabilities: Any = None,
                     options: Any = None) -> None:
    """
    Initialize ``client``'s session: ``folders`` its workspace folders.

    :param capabilities: The client's ``ClientCapabilities``; none when None.
    :param options: The ``initializationOptions``, or None.
    """
    await client.initialize_session(types.InitializeParams(
        capabilities=capabilities or types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(folder.as_uri(), folder.name)
                           for folder in folders],
        initialization_options=options))


def client_fixture(folder: Path | None, capabilities: Any = None,
                   config: ClientServerConfig | None = None) -> Any:
    """
    A pytest-lsp fixture: a client of ``config`` (:func:`server` when None), shut down after.

    A test module assigns it to ``client`` where ``MISSING is None``.

    :param folder: The workspace folder; the test's ``tmp_path`` when None.
    :param capabilities: The client's ``ClientCapabilities``; none when None.
    """
    @pytest_lsp.fixture(config=config or server())
    async def client(lsp_client: LanguageClient, tmp_path: Path) -> Any:
        await initialize(lsp_client, [folder or tmp_path], capabilities)
        yield
        await lsp_client.shutdown_session()
    return client


async def diagnostics(client: LanguageClient, uri: str,
                      ready: Callable[[Sequence[types.Diagnostic]], bool],
                      timeout: float = 60.0) -> Sequence[types.Diagnostic]:
    """The diagnostics of ``uri`` once ``ready`` says so (fails after ``timeout`` s)."""
    for _ in range(int(timeout / 0.05)):
        found = client.diagnostics.get(uri)
        if found is not None and ready(found):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f'no such diagnostics for {uri}: {client.diagnostics.get(uri)}')


def open_file(client: LanguageClient, path: Path, text: str | None = None,
              language: str = 'xml') -> str:
    """Open ``path`` (version 1) with ``text``, else what it holds; return its URI."""
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language, version=1,
        text=path.read_text(encoding='utf-8') if text is None else text)))
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    """Replace the text of the open ``uri`` by ``text`` as its ``version``."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def position(text: str, needle: str, shift: int) -> types.Position:
    """The LSP position of ``needle`` in ``text`` moved by ``shift`` characters (one line)."""
    offset = text.index(needle) + shift
    line = text.count('\n', 0, offset)
    return types.Position(line, offset - (text.rfind('\n', 0, offset) + 1))
