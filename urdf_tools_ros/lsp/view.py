"""The robot from the editor: a command that starts ``urdf-tools view`` for an entry."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import Server


def register(server: Server) -> None:
    """Register this module's requests on ``server``."""
