"""
The editor's settings and a live workspace.

Settings: :mod:`.settings`, asked again on ``didChangeConfiguration`` (a wrong value shown).
A watched file changed on disk is checked again (:meth:`~.server.Server.mark`); a package, a
configuration or new workspace folders read the workspace again (``Server.refresh``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types

from .documents import uri_to_path
from .settings import SECTION
from ..core.checks.config import ConfigError
from ..core.checks.selection import UnknownCodeError
from ..core.source.entries import is_description

if TYPE_CHECKING:
    from .server import Server

#: The files whose changes on disk the server asks to hear of.
WATCHED = ['**/*.urdf', '**/*.xacro', '**/package.xml', '**/.urdf-tools.toml',
           '**/pyproject.toml']


def register(server: Server) -> None:
    """Register the settings' and the workspace's notifications on ``server``."""

    def say(kind: types.MessageType, text: str) -> None:
        server.window_show_message(types.ShowMessageParams(kind, f'urdf-tools: {text}'))

    def configure(options: object) -> None:
        try:
            server.configure(options)
        except (ConfigError, UnknownCodeError) as exc:  # the settings in use stay
            say(types.MessageType.Error, f'{exc} (the settings in use stay)')

    async def pull_configuration() -> None:
        """Ask the client for the ``urdf-tools`` section, where it can answer."""
        workspace = server.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        answer = await server.workspace_configuration_async(types.ConfigurationParams(
            [types.ConfigurationItem(section=SECTION)]))
        if answer and answer[0] is not None:
            configure(answer[0])

    initial: list[object] = [None]  # the client's initializationOptions

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: Server, params: types.InitializeParams) -> None:
        initial[0] = params.initialization_options

    @server.feature(types.INITIALIZED)
    async def on_initialized(ls: Server, params: types.InitializedParams) -> None:
        configure(initial[0])
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace else None
        try:
            if watched is not None and watched.dynamic_registration:
                await ls.client_register_capability_async(types.RegistrationParams([
                    types.Registration(
                        'urdf-tools-files', types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        types.DidChangeWatchedFilesRegistrationOptions(
                            [types.FileSystemWatcher(pattern) for pattern in WATCHED]))]))
            await pull_configuration()
        except Exception as exc:  # a client's refusal must not stop the server: said once
            say(types.MessageType.Warning, f'the editor refused a request: {exc!r}')

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def on_configuration(ls: Server, params: types.DidChangeConfigurationParams) -> None:
        given = params.settings.get(SECTION) if isinstance(params.settings, dict) else None
        if given is not None:
            configure(given)
        else:
            await pull_configuration()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def on_folders(ls: Server, params: types.DidChangeWorkspaceFoldersParams) -> None:
        ls.refresh()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def on_files(ls: Server, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = uri_to_path(change.uri)
            if path is None:
                continue
            if os.path.basename(path) in ('package.xml', '.urdf-tools.toml', 'pyproject.toml'):
                ls.refresh()
            elif is_description(path) and ls.buffers.get(path) is None:  # open: its text wins
                ls.mark(path, 0.0)
