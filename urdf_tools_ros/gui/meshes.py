"""
Mesh and texture files for the 3D view, each read once per file version (:class:`MeshCache`).

Read by :func:`~urdf_tools_ros.core.meshes.triangles.load_mesh` and :func:`.textures.load_texture`.
"""

from __future__ import annotations

from collections.abc import Callable
import os
import threading
from typing import Any, TypeVar

from urdf_tools_ros.core.meshes.triangles import load_mesh, MeshPart
from urdf_tools_ros.core.model.robot import Vector3
from .textures import load_texture, Texture
from ..core.errors import MeshLoadError

__all__ = ['MeshCache', 'MeshLoadError', 'MeshPart', 'load_mesh']

_T = TypeVar('_T')


class MeshCache:
    """Loaded meshes by ``(path, scale)`` and textures by path, each read once per file version."""

    def __init__(self) -> None:
        self._items: dict[tuple[Any, ...], Any] = {}
        self._lock = threading.Lock()

    def _get(self, key: tuple[Any, ...], path: str, read: Callable[[], _T]) -> _T:
        """``read()``, cached by ``key`` until the file's modification time changes."""
        key = key + (os.path.abspath(path), os.path.getmtime(path))
        with self._lock:
            cached = self._items.get(key)
        if cached is not None:
            return cached
        value = read()
        with self._lock:
            self._items[key] = value
        return value

    def load(self, path: str, scale: Vector3 = (1.0, 1.0, 1.0)) -> tuple[MeshPart, ...]:
        """
        Return :func:`load_mesh` of ``path``, cached until the file's modification time changes.

        :raises MeshLoadError: as :func:`load_mesh`.
        :raises FileNotFoundError: as :func:`load_mesh`.
        """
        factors = (float(scale[0]), float(scale[1]), float(scale[2]))
        return self._get(('mesh', factors), path, lambda: load_mesh(path, factors))

    def texture(self, path: str) -> Texture:
        """
        Return :func:`load_texture` of ``path``, cached until the file's modification time changes.

        :raises FileNotFoundError: if the file does not exist.
        :raises OSError: as :func:`load_texture`.
        :raises ImportError: as :func:`load_texture`.
        """
        return self._get(('texture',), path, lambda: load_texture(path))
