"""
Mesh files for the 3D view, each read once per path and scale (:class:`MeshCache`).

The reading itself (trimesh, COLLADA's unit as rviz applies it, one :class:`MeshPart` per part
with the colour its own material gives) is the core's
:func:`~urdf_tools_ros.core.description.meshes.load_mesh`; the 3D view follows RViz: a mesh's
own material wins over the URDF ``<material>``, which colours meshes that have none
(rviz ``RobotLink::createEntityForGeometryElement``).
"""

from __future__ import annotations

import os
import threading

from ..core.description.meshes import load_mesh, MeshPart
from ..core.description.model import Vector3
from ..core.errors import MeshLoadError

__all__ = ['MeshCache', 'MeshLoadError', 'MeshPart', 'load_mesh']


class MeshCache:
    """Loaded meshes by ``(path, scale)``, so a description reload reads each file once."""

    def __init__(self) -> None:
        self._parts: dict[tuple[str, Vector3, float], tuple[MeshPart, ...]] = {}
        self._lock = threading.Lock()

    def load(self, path: str, scale: Vector3 = (1.0, 1.0, 1.0)) -> tuple[MeshPart, ...]:
        """
        Return :func:`load_mesh` of ``path``, cached until the file's modification time changes.

        :raises MeshLoadError: as :func:`load_mesh`.
        :raises FileNotFoundError: as :func:`load_mesh`.
        """
        mtime = os.path.getmtime(path)
        key = (os.path.abspath(path), (float(scale[0]), float(scale[1]), float(scale[2])), mtime)
        with self._lock:
            cached = self._parts.get(key)
        if cached is not None:
            return cached
        parts = load_mesh(path, scale)
        with self._lock:
            self._parts[key] = parts
        return parts
