"""
Mesh files to triangle soups for the 3D view: ``.stl``, ``.dae`` and ``.obj`` through trimesh.

trimesh is the one library this module wraps (C7). A file is loaded once per path and scale
(:class:`MeshCache`); a COLLADA or OBJ scene with several parts keeps one :class:`MeshPart` per
part, each with the colour its own material gives, so the 3D view can follow RViz: a mesh's
own material wins over the URDF ``<material>``, which colours meshes that have none
(rviz ``RobotLink::createEntityForGeometryElement``).
"""

from __future__ import annotations

from dataclasses import dataclass
import os
import threading

import numpy as np
import numpy.typing as npt

from ..core.description.model import RGBA, Vector3

__all__ = ['MeshCache', 'MeshLoadError', 'MeshPart', 'load_mesh']


class MeshLoadError(ValueError):
    """A mesh file exists but cannot be read as a triangle mesh (corrupt, empty, unknown)."""


@dataclass(frozen=True)
class MeshPart:
    """
    One part of a mesh file, already scaled, in the mesh file's frame.

    :ivar vertices: (V, 3) float32 vertex positions, m (after ``<mesh scale>``).
    :ivar faces: (F, 3) uint32 vertex indices of triangles, counter-clockwise outward.
    :ivar rgba: The part's own material colour, each in [0, 1], or ``None`` when the file
        gives none (then the URDF material colours it).
    """

    vertices: npt.NDArray[np.float32]
    faces: npt.NDArray[np.uint32]
    rgba: RGBA | None = None


def _own_color(mesh: object) -> RGBA | None:
    """The colour a trimesh mesh's own material or vertex/face colours give, if any."""
    visual = getattr(mesh, 'visual', None)
    kind = getattr(visual, 'kind', None)
    if visual is None or kind is None:
        return None
    color = None
    material = getattr(visual, 'material', None)
    if material is not None and hasattr(material, 'main_color'):
        color = material.main_color
    elif kind in ('vertex', 'face'):
        colors = visual.vertex_colors if kind == 'vertex' else visual.face_colors
        color = np.asarray(colors, dtype=np.float64).mean(axis=0)
    if color is None:
        return None
    values = np.asarray(color, dtype=np.float64).ravel()[:4] / 255.0
    if values.size == 3:
        values = np.append(values, 1.0)
    r, g, b, a = (float(v) for v in np.clip(values, 0.0, 1.0))
    return (r, g, b, a)


def load_mesh(path: str, scale: Vector3 = (1.0, 1.0, 1.0)) -> tuple[MeshPart, ...]:
    """
    Load a mesh file and scale it per axis (URDF ``<mesh scale>``).

    A negative scale factor mirrors the mesh; the faces are then flipped so that they still face
    outward. Scene files (COLLADA node transforms) are flattened into the file's frame; a
    COLLADA file's ``<unit meter>`` scales it to metres, as rviz does.

    :param path: Local path of a ``.stl``, ``.dae`` or ``.obj`` file (or another format trimesh
        reads).
    :param scale: Scale along x, y, z of the file's frame.
    :return: The parts, each with at least one triangle.
    :raises MeshLoadError: if the file cannot be read or holds no triangles, or trimesh is not
        installed.
    :raises FileNotFoundError: if the file does not exist.
    """
    try:
        import trimesh
    except ImportError as exc:
        raise MeshLoadError(f'{path}: cannot read meshes without trimesh ({exc}); '
                            'pip install trimesh pycollada') from exc
    if not os.path.isfile(path):
        raise FileNotFoundError(path)
    try:
        loaded = trimesh.load(path, process=False)
    except Exception as exc:  # trimesh raises ValueError, KeyError, IndexError, lxml errors...
        raise MeshLoadError(f'{path}: cannot read mesh: {type(exc).__name__}: {exc}') from exc
    if isinstance(loaded, trimesh.Scene):
        meshes = [m for m in loaded.dump() if isinstance(m, trimesh.Trimesh)]
    elif isinstance(loaded, trimesh.Trimesh):
        meshes = [loaded]
    else:
        meshes = []
    unit = 1.0
    if path.lower().endswith('.dae'):  # rviz applies COLLADA's <unit meter>; trimesh does not
        from ..core.description.mesh_extent import collada_unit
        unit = collada_unit(path)
    matrix = np.diag([float(scale[0]) * unit, float(scale[1]) * unit, float(scale[2]) * unit,
                      1.0])
    mirror = float(np.prod(scale)) < 0.0
    parts = []
    for mesh in meshes:
        if len(mesh.faces) == 0:
            continue
        vertices = np.asarray(mesh.vertices, dtype=np.float64) @ matrix[:3, :3].T
        faces = np.asarray(mesh.faces, dtype=np.uint32)
        if mirror:
            faces = faces[:, ::-1]
        parts.append(MeshPart(vertices.astype(np.float32), np.ascontiguousarray(faces),
                              _own_color(mesh)))
    if not parts:
        raise MeshLoadError(f'{path}: no triangles in the mesh file')
    return tuple(parts)


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
