"""
What a mesh's triangles enclose: closed or not, volume, thickness and convex hull.

Measured once per file version with the rest of its facts (:mod:`.facts`), in the file's frame
before ``<mesh scale>``. Vertices are merged where their coordinates are equal (an STL file
repeats each vertex in every triangle). The convex hull is Qhull's, through scipy, when scipy
is installed: the hull is what MuJoCo, PhysX and pybullet collide with.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import NamedTuple, TYPE_CHECKING

import numpy as np

from ..transforms import FloatArray

if TYPE_CHECKING:
    import numpy.typing as npt
    IntArray = npt.NDArray[np.int64]
else:
    IntArray = np.ndarray

__all__ = ['FLAT', 'Solid', 'hulls_measured', 'measure']

#: Thickness, as a fraction of the largest side of the vertices' box, at or below which a mesh
#: is flat (its vertices coplanar up to rounding). MuJoCo's own test is ``1e-15`` of the first
#: edge (``mjCMesh::MakeGraph``); a float32 STL vertex off a plane is ~1e-7 of the size off it.
FLAT = 1e-12
#: Distance, as a fraction of the largest side, within which vertices are merged (a CAD export
#: writes a shared vertex with float32 noise; trimesh merges within 1e-8 m).
MERGE = 1e-8


class Solid(NamedTuple):
    """
    What the triangles of a mesh enclose, m and m³ in the file's frame.

    :ivar watertight: Every edge joins exactly two triangles that run along it in opposite
        directions (closed and consistently oriented), degenerate triangles left out.
    :ivar volume: Signed volume the triangles enclose (divergence theorem; < 0 when they face
        inward); the enclosed volume only when watertight.
    :ivar pyramid_volume: Sum of the absolute volumes of the pyramids from the area-weighted
        centre of the triangles to each triangle: MuJoCo's mesh volume with its default
        ``inertia="legacy"`` (``src/user/user_mesh.cc``, ``mjCMesh::ComputeVolume``), of the
        triangles of an OBJ file's first object (what MuJoCo reads of it).
    :ivar thickness: The least extent of the vertices along the coordinate axes and their
        principal axes; 0 for coplanar, collinear or coincident vertices.
    :ivar hull_volume: Volume of the convex hull of the vertices, for a watertight mesh that
        is not flat; ``None`` otherwise or without scipy (:func:`hulls_measured`).
    """

    watertight: bool
    volume: float
    pyramid_volume: float
    thickness: float
    hull_volume: float | None


def hulls_measured() -> bool:
    """Whether scipy, which measures convex hulls, is installed (it is not imported here)."""
    return importlib.util.find_spec('scipy') is not None


def measure(points: FloatArray, faces: IntArray, first: int | None = None) -> Solid:
    """
    Measure the solid of a mesh.

    :param points: (V, 3) float64 vertices, each used by a triangle, m.
    :param faces: (F, 3) int64 vertex indices of the triangles, F > 0.
    :param first: How many of the first triangles MuJoCo reads (``None``: all), for
        :attr:`Solid.pyramid_volume`.
    """
    centre = points.mean(axis=0)
    corners = points[faces] - centre  # (F, 3, 3), centred: less rounding in the volumes
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    volume = float(np.einsum('ij,ij->', corners[:, 0], cross)) / 6
    read, crossed = corners[:first], cross[:first]
    doubled = np.linalg.norm(crossed, axis=1)  # twice each triangle's area
    apex = (read.mean(axis=1) * doubled[:, None]).sum(axis=0) / (doubled.sum() or 1.0)
    pyramid = float(np.abs(np.einsum('ij,ij->i', read[:, 0] - apex, crossed)).sum()) / 6
    unique, merged = _merge(points)
    watertight = _watertight(merged[faces])
    centred = points - centre  # every vertex, not the merged ones: a thin part stays thin
    axes = np.linalg.eigh(centred.T @ centred)[1]
    along = np.concatenate([centred, centred @ axes], axis=1)  # (U, 6)
    sides = along.max(axis=0) - along.min(axis=0)
    thickness, size = float(np.min(sides)), float(np.max(sides[:3]))
    hull = None
    if watertight and thickness > FLAT * size and hulls_measured():
        spatial = importlib.import_module('scipy.spatial')
        try:
            hull = float(spatial.ConvexHull(unique).volume)
        except spatial.QhullError:
            hull = None
    return Solid(watertight, volume, pyramid, thickness, hull)


def _merge(points: FloatArray) -> tuple[FloatArray, IntArray]:
    """
    The distinct vertices ``(U, 3)`` and the index of each point among them ``(V,)``.

    Points closer than :data:`MERGE` of the box's largest side, on a grid, are one vertex.
    """
    lower = points.min(axis=0)
    quantum = MERGE * (float(np.max(points.max(axis=0) - lower)) or 1.0)
    keys = np.round((points - lower) / quantum)
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    new = np.ones(len(ordered), dtype=bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    merged = np.empty(len(points), dtype=np.int64)
    merged[order] = np.cumsum(new) - 1
    return points[order[new]], merged


def _watertight(faces: IntArray) -> bool:
    """Whether each directed edge of the non-degenerate triangles occurs once, reversed once."""
    faces = faces[(faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2])
                  & (faces[:, 2] != faces[:, 0])]
    if not len(faces):
        return False
    count = int(faces.max()) + 1
    edges = np.stack([faces, np.roll(faces, -1, axis=1)], axis=2).reshape(-1, 2)
    forward = np.sort(edges[:, 0] * count + edges[:, 1])
    backward = np.sort(edges[:, 1] * count + edges[:, 0])
    return bool(np.all(forward[1:] != forward[:-1]) and np.array_equal(forward, backward))
