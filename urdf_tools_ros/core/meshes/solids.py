"""
What a mesh's triangles enclose: closed or not, volume, thickness and convex hull.

Measured once per file version with the rest of its facts (:mod:`.facts`), in the file's frame
before ``<mesh scale>``. Vertices are merged where their coordinates are equal (an STL file
repeats each vertex in every triangle). The convex hull, what MuJoCo, PhysX and pybullet collide
with, is manifold3d's when it is installed (its volume within 1e-7 of Qhull's, scipy's and
MuJoCo's, on every mesh of ../shared, example-robot-data and pybullet_data; imported in ~3 ms
where scipy.spatial takes ~150 ms, as much as a warm check).
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

__all__ = ['FLAT', 'HOLLOW', 'Solid', 'hulls_measured', 'measure']

#: Thickness, as a fraction of the largest side of the vertices' box, at or below which a mesh
#: is flat (its vertices coplanar up to rounding). MuJoCo's own test is ``1e-15`` of the first
#: edge (``mjCMesh::MakeGraph``); a float32 STL vertex off a plane is ~1e-7 of the size off it.
FLAT = 1e-12
#: Cells of the grid across the largest side of the box within each of which vertices are one
#: (2^21 - 1: a cell ~5e-7 of the size, its 3 indices one int64; a CAD export writes a shared
#: vertex with float32 noise, ~6e-8 of the size; trimesh merges within 1e-8 m).
MERGE = 2 ** 21 - 1
#: Thickness, as a fraction of the largest side, below which no hull is measured: manifold3d's
#: hull of a part thinner than ~1e-7 of its size is too small or empty (a fraction of Qhull's).
HULL_THIN = 1e-6
#: A closed mesh is hollow when its convex hull holds over this many times its volume. The hull
#: is measured only where the smaller box around the mesh (along its own or its principal axes)
#: does, which holds the hull: a mesh that fills a third of its box needs no hull.
HOLLOW = 3.0


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
    :ivar hull_volume: Volume of the convex hull of the vertices of a watertight mesh thicker
        than :data:`HULL_THIN` whose box holds over :data:`HOLLOW` times its volume; ``None``
        otherwise or without manifold3d (:func:`hulls_measured`).
    """

    watertight: bool
    volume: float
    pyramid_volume: float
    thickness: float
    hull_volume: float | None


def hulls_measured() -> bool:
    """Whether manifold3d, which measures convex hulls, is installed (not imported here)."""
    return importlib.util.find_spec('manifold3d') is not None


def measure(points: FloatArray, faces: IntArray, first: int | None = None) -> Solid:
    """
    Measure the solid of a mesh.

    Arrays are laid out per coordinate, (3, N), where numpy reduces them fastest.

    :param points: (V, 3) float64 vertices, each used by a triangle, m.
    :param faces: (F, 3) int64 vertex indices of the triangles, F > 0.
    :param first: How many of the first triangles MuJoCo reads (``None``: all), for
        :attr:`Solid.pyramid_volume`.
    """
    along_xyz = np.ascontiguousarray(points.T)
    lower = along_xyz.min(axis=1)
    box_sides = along_xyz.max(axis=1) - lower
    size = float(box_sides.max())
    centred = along_xyz - along_xyz.mean(axis=1)[:, None]  # less rounding in the volumes
    a, b, c = (centred[:, faces[:, corner]] for corner in range(3))  # (3, F) each
    ab, ac = b - a, c - a
    cross = np.stack([ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                      ab[0] * ac[1] - ab[1] * ac[0]])
    volume = float(np.sum(a * cross)) / 6
    read = slice(None, first)
    doubled = np.sqrt(np.sum(cross[:, read] ** 2, axis=0))  # twice each triangle's area
    apex = ((a + b + c)[:, read] / 3) @ doubled / (doubled.sum() or 1.0)
    pyramid = float(np.abs(np.sum((a[:, read] - apex[:, None]) * cross[:, read], axis=0)).sum())
    distinct, merged = _merge(along_xyz, lower, size)
    watertight = _watertight(merged[faces])
    axes = np.linalg.eigh(centred @ centred.T)[1]
    principal = axes.T @ centred  # (3, V): every vertex, not the merged ones: thin stays thin
    principal_sides = principal.max(axis=1) - principal.min(axis=1)
    thickness = float(min(box_sides.min(), principal_sides.min()))
    box = min(float(np.prod(box_sides)), float(np.prod(principal_sides)))
    hull = None
    if (watertight and thickness > HULL_THIN * size and box > HOLLOW * abs(volume)
            and hulls_measured()):
        manifold = importlib.import_module('manifold3d').Manifold
        hull = float(manifold.hull_points(points[distinct]).volume())
    return Solid(watertight, volume, pyramid / 6, thickness, hull)


def _merge(along_xyz: FloatArray, lower: FloatArray,
           size: float) -> tuple[IntArray, IntArray]:
    """
    One index of each distinct vertex ``(U,)`` and the distinct vertex of each vertex ``(V,)``.

    Vertices in one cell of a grid of :data:`MERGE` cells a side across the box are one.

    :param along_xyz: (3, V) vertices; ``lower`` (3,) their least coordinates, ``size`` the
        largest side of their box.
    """
    cells = np.rint((along_xyz - lower[:, None]) * (MERGE / (size or 1.0))).astype(np.int64)
    keys = cells[0] << 42 | cells[1] << 21 | cells[2]
    _, distinct, merged = np.unique(keys, return_index=True, return_inverse=True)
    return distinct, merged.reshape(-1)


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
