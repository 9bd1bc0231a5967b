"""
What stands in for a visual mesh the 3D view cannot draw: why, and the box drawn instead.

A magenta wireframe box at the visual's ``<origin>``, :data:`PLACEHOLDER_SIDE` times its
``<mesh scale>``, labelled with the link and a short cause (decided here, drawn by :mod:`.scene`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
import math
import os

import numpy as np

from urdf_tools_ros.core.checks.rules.geometry import mesh_file_problem
from urdf_tools_ros.core.meshes.triangles import reads_format
from urdf_tools_ros.core.model.robot import Mesh, Vector3
from ..core.transforms import FloatArray

__all__ = ['Cause', 'PLACEHOLDER_SIDE', 'Placeholder', 'box_edges', 'placeholder_size',
           'unreadable', 'unresolved']

#: Side of the placeholder box at ``<mesh scale="1 1 1">``, m.
PLACEHOLDER_SIDE = 0.1


class Cause(Enum):
    """Why a mesh is not drawn; the value is the label's wording."""

    PACKAGE_NOT_FOUND = 'package not found'
    NOT_RESOLVED = 'path not resolved'
    FILE_MISSING = 'file missing'
    UNSUPPORTED_FORMAT = 'unsupported format'
    UNREADABLE = 'unreadable'
    SCALE_NOT_FINITE = 'scale not finite'


@dataclass(frozen=True)
class Placeholder:
    """
    The box drawn for one visual mesh that cannot be drawn.

    :ivar link: The link the visual belongs to.
    :ivar filename: The mesh's ``filename`` as written.
    :ivar cause: What kind of failure it is.
    :ivar summary: The cause in a few words for the label, e.g. ``package "pkg" not found``.
    :ivar reason: The whole reason for the report and the log.
    :ivar T_link_visual: (4, 4) float64 pose of the box in the link frame.
    :ivar size: Sides of the box along the visual frame's x, y, z, m.
    """

    link: str
    filename: str
    cause: Cause
    summary: str
    reason: str
    T_link_visual: FloatArray = field(compare=False, repr=False)
    size: Vector3 = (PLACEHOLDER_SIDE, PLACEHOLDER_SIDE, PLACEHOLDER_SIDE)

    @property
    def label(self) -> str:
        """The text beside the box: ``<link>: <summary>``."""
        return f'{self.link}: {self.summary}'

    @property
    def message(self) -> str:
        """One line for the log: the link, the mesh, what stands in for it and why."""
        sides = ' x '.join(f'{side:g}' for side in self.size)
        return (f'link "{self.link}": visual mesh "{self.filename}" is drawn as a {sides} m '
                f'wireframe box ({self.cause.value}): {self.reason}')

    @property
    def edges(self) -> FloatArray:
        """The box's 12 edges in the visual frame, (12, 2, 3) float64, m (:func:`box_edges`)."""
        return box_edges(self.size)


def placeholder_size(scale: Vector3) -> Vector3:
    """
    The sides of a placeholder box, m: :data:`PLACEHOLDER_SIDE` times each ``|scale|`` factor.

    A factor that is not finite or is 0 counts as 1.
    """
    def side(factor: float) -> float:
        factor = abs(float(factor))
        return PLACEHOLDER_SIDE * (factor if math.isfinite(factor) and factor > 0.0 else 1.0)
    return (side(scale[0]), side(scale[1]), side(scale[2]))


def box_edges(size: Vector3) -> FloatArray:
    """The 12 edges (12, 2, 3) float64 of a box of sides ``size`` (m) centred on the origin."""
    half = np.abs(np.asarray(size, dtype=np.float64)) / 2.0
    edges = []
    for axis in range(3):
        others = [other for other in range(3) if other != axis]
        for first in (-1.0, 1.0):
            for second in (-1.0, 1.0):
                start, end = np.zeros(3), np.zeros(3)
                start[axis], end[axis] = -half[axis], half[axis]
                for point in (start, end):
                    point[others[0]] = first * half[others[0]]
                    point[others[1]] = second * half[others[1]]
                edges.append((start, end))
    return np.asarray(edges, dtype=np.float64)


def unresolved(link: str, mesh: Mesh, path: str | None,
               T_link_visual: FloatArray) -> Placeholder | None:
    """
    The placeholder for a mesh that cannot be drawn before its file is read, or ``None``.

    :param path: The local file to draw it from, or ``None`` when it cannot be resolved.
    :param T_link_visual: (4, 4) float64 pose of the visual in the link frame.
    :return: ``None`` when the file is there to be read.
    """
    size = placeholder_size(mesh.scale)
    if path is None:
        reason = mesh_file_problem(mesh) or 'the path cannot be resolved'
        package = mesh.filename[len('package://'):].partition('/')[0] \
            if mesh.filename.startswith('package://') else ''
        if package:
            return Placeholder(link, mesh.filename, Cause.PACKAGE_NOT_FOUND,
                               f'package "{package}" not found', reason, T_link_visual, size)
        return Placeholder(link, mesh.filename, Cause.NOT_RESOLVED, Cause.NOT_RESOLVED.value,
                           reason, T_link_visual, size)
    if not os.path.isfile(path):
        return Placeholder(link, mesh.filename, Cause.FILE_MISSING,
                           f'file missing: {os.path.basename(path)}',
                           f'the file {path} does not exist', T_link_visual, size)
    if not all(math.isfinite(factor) for factor in mesh.scale):
        return Placeholder(link, mesh.filename, Cause.SCALE_NOT_FINITE,
                           Cause.SCALE_NOT_FINITE.value, 'its scale is not finite',
                           T_link_visual, size)
    return None


def unreadable(link: str, mesh: Mesh, path: str, error: Exception,
               T_link_visual: FloatArray) -> Placeholder:
    """
    The placeholder for a mesh file that exists but cannot be read.

    :param error: What reading it raised (a ``MeshLoadError`` or ``OSError``).
    :param T_link_visual: (4, 4) float64 pose of the visual in the link frame.
    """
    size = placeholder_size(mesh.scale)
    if not reads_format(path):
        extension = os.path.splitext(path)[1] or '(no extension)'
        return Placeholder(link, mesh.filename, Cause.UNSUPPORTED_FORMAT,
                           f'unsupported format {extension}',
                           f'the viewer (trimesh) has no reader for "{extension}" files: '
                           f'{error}', T_link_visual, size)
    return Placeholder(link, mesh.filename, Cause.UNREADABLE, 'unreadable file',
                       f'it cannot be read: {error}', T_link_visual, size)
