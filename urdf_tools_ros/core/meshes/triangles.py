"""
Mesh files as rviz draws them, read by trimesh: triangles and colours, for the viewer.

The one module that imports trimesh (when the first mesh is drawn); a COLLADA mesh is rescaled
by its length unit (:func:`~.facts.collada_unit`) as rviz does.
"""

from __future__ import annotations

from dataclasses import dataclass
import logging
import os
from typing import Any

import numpy as np
import numpy.typing as npt

from .facts import collada_unit
from ..errors import MeshLoadError
from ..model.robot import RGBA, Vector3
from ..transforms import FloatArray

__all__ = ['MeshPart', 'capsule_mesh', 'collada_unit', 'load_mesh', 'reads_format',
           'textured_mesh']


@dataclass(frozen=True)
class MeshPart:
    """
    One part of a mesh file, in the mesh file's frame, scaled.

    :ivar vertices: (V, 3) float32 vertex positions, m (COLLADA unit, ``<mesh scale>`` applied).
    :ivar faces: (F, 3) uint32 vertex indices of triangles, counter-clockwise outward.
    :ivar rgba: The part's own material colour in [0, 1], or ``None`` (the URDF's colours it).
    :ivar uv: (V, 2) float32 texture coordinates of a part without its own material, or ``None``.
    """

    vertices: npt.NDArray[np.float32]
    faces: npt.NDArray[np.uint32]
    rgba: RGBA | None = None
    uv: npt.NDArray[np.float32] | None = None


_NULL_HANDLER = logging.NullHandler()


def _trimesh() -> Any:
    """The trimesh module; its log records reach the application's handlers, never stderr."""
    import trimesh
    logging.getLogger('trimesh').addHandler(_NULL_HANDLER)
    return trimesh


def _triangle_meshes(path: str) -> list[tuple[FloatArray, Any]]:
    """The triangle meshes of a file: ``(vertices (V, 3) float64, file frame, m, mesh)``."""
    try:
        trimesh = _trimesh()
    except ImportError as exc:
        raise MeshLoadError(f'{path}: cannot read meshes without trimesh ({exc}); '
                            'pip install trimesh pycollada') from exc
    if not os.path.isfile(path):
        raise FileNotFoundError(path)
    try:
        scene = trimesh.load(path, process=False, force='scene')
        placed = []  # each instance's vertices in the file's frame (not Scene.dump(), which
        for node in scene.graph.nodes_geometry:  # also copies textures and needs Pillow)
            T_file_node, name = scene.graph[node]
            mesh = scene.geometry[name]
            if isinstance(mesh, trimesh.Trimesh) and len(mesh.faces):
                vertices = np.asarray(mesh.vertices, dtype=np.float64)
                placed.append((vertices @ T_file_node[:3, :3].T + T_file_node[:3, 3], mesh))
    except Exception as exc:  # trimesh raises ValueError, KeyError, IndexError, lxml errors...
        raise MeshLoadError(f'{path}: cannot read mesh: {type(exc).__name__}: {exc}') from exc
    unit = collada_unit(path) if path.lower().endswith('.dae') else 1.0
    return [(vertices * unit, mesh) for vertices, mesh in placed]


def load_mesh(path: str, scale: Vector3 = (1.0, 1.0, 1.0)) -> tuple[MeshPart, ...]:
    """
    Read a mesh file and scale it per axis (URDF ``<mesh scale>``; a mirror flips the faces).

    :param path: Local path of a file trimesh reads (``.stl``, ``.dae``, ``.obj``, ...).
    :return: The parts, each with at least one triangle and its own colour if any.
    :raises MeshLoadError: if the file cannot be read or holds no triangles, or trimesh is not
        installed.
    :raises FileNotFoundError: if the file does not exist.
    """
    factors = np.array([float(scale[0]), float(scale[1]), float(scale[2])])
    mirror = float(np.prod(factors)) < 0.0
    parts = []
    for vertices, mesh in _triangle_meshes(path):
        faces = np.asarray(mesh.faces, dtype=np.uint32)
        color = _own_color(mesh)
        uv = getattr(getattr(mesh, 'visual', None), 'uv', None)
        if color is not None or uv is None or len(uv) != len(vertices):
            uv = None
        parts.append(MeshPart((vertices * factors).astype(np.float32),
                              np.ascontiguousarray(faces[:, ::-1] if mirror else faces),
                              color, None if uv is None else np.asarray(uv, dtype=np.float32)))
    if not parts:
        raise MeshLoadError(f'{path}: no triangles in the mesh file')
    return tuple(parts)


def reads_format(path: str) -> bool:
    """Whether trimesh reads files with this extension (``True`` when trimesh is missing)."""
    try:
        formats = _trimesh().available_formats()
    except ImportError:
        return True
    name = os.path.basename(path).lower()
    return any(name.endswith('.' + extension) for extension in formats)


def textured_mesh(part: MeshPart, image: npt.NDArray[np.uint8]) -> Any:
    """
    A ``trimesh.Trimesh`` of a part with ``image`` mapped on it by the part's texture coordinates.

    :param part: A part with :attr:`MeshPart.uv`.
    :param image: (H, W, 4) uint8 RGBA image, its first row at the top.
    :raises ValueError: if the part has no texture coordinates.
    :raises ImportError: if Pillow is not installed (trimesh keeps images as Pillow images).
    """
    if part.uv is None:
        raise ValueError('the mesh part has no texture coordinates')
    from PIL import Image
    trimesh = _trimesh()
    visual = trimesh.visual.TextureVisuals(uv=np.asarray(part.uv, dtype=np.float64),
                                           image=Image.fromarray(np.ascontiguousarray(image)))
    return trimesh.Trimesh(vertices=part.vertices, faces=part.faces, visual=visual,
                           process=False)


def capsule_mesh(radius: float,
                 length: float) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.uint32]]:
    """
    Triangles of a URDF 1.1 capsule (cylinder of ``length`` along z, hemispheres of ``radius``).

    :return: ``(vertices (V, 3) float32, faces (F, 3) uint32)`` from trimesh's capsule, whose
        ``height`` is the distance between the hemispheres' centres (the URDF ``length``).
    """
    mesh = _trimesh().creation.capsule(height=length, radius=radius, count=[24, 24])
    return (np.asarray(mesh.vertices, dtype=np.float32),
            np.asarray(mesh.faces, dtype=np.uint32))


def _own_color(mesh: Any) -> RGBA | None:
    """The colour of a trimesh mesh's own material or vertex/face colours (not a stand-in)."""
    visual = getattr(mesh, 'visual', None)
    kind = getattr(visual, 'kind', None)
    if visual is None or kind is None:
        return None
    color = None
    material = getattr(visual, 'material', None)
    if material is not None and _stand_in(material):
        return None
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


def _stand_in(material: Any) -> bool:
    """Whether ``material`` is the one trimesh makes for texture coordinates without one."""
    from trimesh.visual.material import empty_material
    image = getattr(material, 'image', None)
    if image is None or getattr(material, 'name', None) != empty_material().name:
        return False
    return bool(np.array_equal(np.asarray(image), np.asarray(empty_material().image)))
