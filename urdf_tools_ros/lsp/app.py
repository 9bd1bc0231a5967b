"""The language server with every feature: :func:`build_server` (``urdf-tools lsp``)."""

from __future__ import annotations

from . import live, navigation, view
from .server import core_server, Server


def build_server(**options: object) -> Server:
    """
    A :class:`~.server.Server` with the handlers of every feature module.

    :param options: As :class:`~.server.Server` takes them.
    """
    server = core_server(**options)
    for feature in (live, navigation, view):  # each registers its own requests
        feature.register(server)
    return server
