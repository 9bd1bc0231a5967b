"""
The robot from the editor: the command ``urdf-tools.view`` and its code lens.

The command (arguments ``[uri]``) starts ``urdf-tools view --watch`` with the server's Python for
the run of the file's last check (:meth:`~.server.Server.result_for`: the run whose entry it
is, else one that covers it): its entry, its xacro arguments, the packages as the server finds
them, a free port of 127.0.0.1. Once it serves, the client is asked to open its page
(``window/showDocument``, external; a client without that is told the address). One viewer a
run: the command again shows the same page. The viewer shows each saved change; the viewers
stop when the server shuts down or its process exits. A code lens on the ``<robot>`` element of
each file a run starts from, once the server has loaded it, offers the command.
"""

from __future__ import annotations

import asyncio
import atexit
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
import os
import re
import socket
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .diagnostics import to_range
from .documents import uri_to_path
from .workspace import Run
from ..core.source.discovery import workspace_locator
from ..core.source.entries import is_description
from ..core.source.packages import make_package_locator
from ..core.source.scanner import tags_holding

if TYPE_CHECKING:
    from .server import Server

COMMAND = 'urdf-tools.view'
#: Seconds a viewer may take to load its robot and serve.
START_SECONDS = 120.0
#: The line ``urdf-tools view`` prints once it serves, with the page's address.
SERVING = re.compile(r'urdf-tools view: serving .* at (http://\S+) \(Ctrl-C to stop\)')


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return int(probe.getsockname()[1])


def view_command(run: Run, package_paths: Mapping[str, str], package_folders: Sequence[str],
                 packages: Mapping[str, str], port: int) -> list[str]:
    """
    The command line of ``urdf-tools view --watch`` for ``run``, finding packages as the server.

    :param package_paths: The server's ``NAME=DIR`` pairs (the editor's and ``--package-path``).
    :param package_folders: Its folders of packages.
    :param packages: The workspace's packages ``{name: folder}``, which the server asks after
        those, ``URDF_TOOLS_PACKAGE_PATH`` and the colcon workspace around the file: given for
        the names those do not find.
    :param port: The port to serve on (the viewer takes the next free one when it is taken).
    """
    asked_first = make_package_locator(package_paths, workspace_locator(run.file),
                                       package_folders=package_folders)
    pairs = {**{name: folder for name, folder in packages.items()
                if asked_first(name) is None}, **package_paths}
    return [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'view', run.file,
            *(f'{name}:={value}' for name, value in run.args),
            *(f'--package-path={name}={folder}' for name, folder in sorted(pairs.items())),
            *(f'--package-path={folder}' for folder in package_folders),
            '--host', '127.0.0.1', '--port', str(port), '--watch']


def _read(process: subprocess.Popen[str], address: Future[str]) -> None:
    """Take the page's address from the viewer's output (all read); reap it when it ends."""
    last: deque[str] = deque(maxlen=3)
    for line in process.stdout or ():
        found = SERVING.fullmatch(line.rstrip())
        if found is not None and not address.done():
            address.set_result(found.group(1))
        last.append(line.strip())
    code = process.wait()
    if not address.done():
        address.set_exception(RuntimeError(' '.join(last) or f'exit code {code}'))


class Viewers:
    """The viewers started, one a run, until :meth:`stop` (at the latest at exit)."""

    def __init__(self) -> None:
        self._started: dict[Run, tuple[subprocess.Popen[str], Future[str]]] = {}
        self._lock = threading.Lock()
        atexit.register(self.stop)

    def start(self, run: Run, command: list[str]) -> Future[str]:
        """The page's address of the viewer of ``run``; started with ``command`` unless running."""
        with self._lock:
            started = self._started.get(run)
            if started is None or started[0].poll() is not None:
                started = self._started[run] = (subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True, errors='replace'), Future())
                threading.Thread(target=_read, args=started, daemon=True).start()
            return started[1]

    def stop(self) -> None:
        """Stop every viewer and wait for it to end."""
        with self._lock:
            started, self._started = list(self._started.values()), {}
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(5.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def register(server: Server) -> None:
    """Register the command, its code lens and the viewers' stop on ``server``."""
    viewers = Viewers()

    def tell(kind: types.MessageType, text: str) -> None:
        server.window_show_message(types.ShowMessageParams(kind, f'urdf-tools: {text}'))

    @server.command(COMMAND)
    async def view(ls: LanguageServer, *arguments: object) -> str | None:
        """Show the robot of the file ``arguments[0]`` (a URI); the page's address."""
        path = uri_to_path(str(arguments[0])) if arguments else None
        result = server.result_for(path) if path is not None else None
        if result is None:
            tell(types.MessageType.Error, f'view: {path or arguments[:1]}: not checked yet')
            return None
        run, name = result.run, os.path.basename(result.run.file)
        pairs, folders, packages = server.package_sources()
        address = viewers.start(run, view_command(run, pairs, folders, packages,
                                                  free_port()))
        try:
            url = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(address)),
                                         START_SECONDS)
        except asyncio.TimeoutError:
            tell(types.MessageType.Error, f'view {name}: not serving after {START_SECONDS} s')
            return None
        except RuntimeError as exc:
            tell(types.MessageType.Error, f'view {name}: {exc}')
            return None
        window = server.client_capabilities.window
        if window is not None and window.show_document is not None \
                and window.show_document.support:
            await server.window_show_document_async(types.ShowDocumentParams(url,
                                                                             external=True))
        else:
            tell(types.MessageType.Info, f'the robot of {name} is at {url}')
        return url

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: Server, params: types.CodeLensParams) -> list[types.CodeLens]:
        path = uri_to_path(params.text_document.uri)
        result = ls.result_for(path) if path is not None and is_description(path) else None
        index = ls.index_of(path) if result is not None and result.robot is not None \
            and os.path.abspath(result.run.file) == path else None
        robot = next((element for element in tags_holding(index.text, '<robot')
                      if element.tag == 'robot'), None) if index is not None else None
        if index is None or robot is None:
            return []
        return [types.CodeLens(to_range(index.span(robot.start, robot.tag_end)), types.Command(
            'View robot', COMMAND, arguments=[params.text_document.uri]))]

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: Server, params: None) -> None:
        viewers.stop()
