"""
What the checker needs of a mesh file: its format, bounding box, triangles and solid.

STL and OBJ are read with numpy, COLLADA through pycollada, as trimesh reads them
(``process=False``) and rviz draws them:

* binary STL: exactly ``84 + 50 n`` bytes for the header's ``n``; anything else is ASCII STL;
* OBJ: ``v`` and ``f`` lines; a polygon is a fan of ``n - 2`` triangles; a negative index counts
  back; only vertices a face uses count toward the box;
* COLLADA: every ``<instance_geometry>`` placed by its ``<node>`` transforms, triangles with an
  infinite vertex dropped, then the file's length unit (:func:`collada_unit`) as rviz applies
  it; near vertices are not merged (boxes within ~1e-7 m of trimesh's).

What the triangles enclose (closed, volume, thickness, convex hull) is :mod:`.solids`'.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import os
import re
from typing import Any

import numpy as np

from .solids import FLAT, IntArray, measure, Solid
from ..errors import MeshLoadError
from ..model.robot import Vector3
from ..transforms import FloatArray

__all__ = ['MAX_BYTES', 'MEASURED', 'MeshFacts', 'NOT_FINITE', 'NO_TRIANGLES', 'collada_unit',
           'mesh_bounds', 'read_mesh_facts']

#: Largest mesh file that is read, bytes (a bigger one is not measured).
MAX_BYTES = 200 * 1024 * 1024
#: The formats the checker measures, lower-case extensions (URDF consumers read these three).
MEASURED = ('.stl', '.obj', '.dae')
#: The :attr:`MeshFacts.problem` of a file without a triangle (a binary STL of 0).
NO_TRIANGLES = 'no triangles in the mesh file'
#: The :attr:`MeshFacts.problem` of a file with a NaN or infinite vertex its triangles use.
NOT_FINITE = 'a vertex coordinate is not finite'

_STL_HEADER = 84
_STL_TRIANGLE = np.dtype([('normal', '<f4', (3,)), ('vertices', '<f4', (3, 3)),
                          ('attribute', '<u2')])
_STL_VERTEX = re.compile(rb'^[ \t]*vertex[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)', re.M | re.I)
_STL_VERTEX_WORD = re.compile(rb'^[ \t]*vertex\b', re.M | re.I)
_OBJ_VERTEX = re.compile(r'^v[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)', re.M)
_OBJ_VERTEX_WORD = re.compile(r'^v[ \t]', re.M)
_OBJ_FACE = re.compile(r'^f[ \t]+([^\n]*)', re.M)
_OBJ_CORNER = re.compile(r'/[^\s]*')
_OBJ_OBJECT = re.compile(r'^[og][ \t]', re.M)


@dataclass(frozen=True)
class MeshFacts:
    """
    What a mesh file gives the checker, in the file's frame, before ``<mesh scale>``.

    :ivar format: The file's lower-case extension without the dot (``stl``, ``obj``, ``dae``).
    :ivar lower: Smallest x, y, z of the triangles' vertices, m (COLLADA ``<unit>`` and node
        transforms applied); ``None`` when the file is not measured.
    :ivar upper: Largest x, y, z, m; ``None`` when the file is not measured.
    :ivar triangles: Number of triangles (0 when the file is not measured).
    :ivar problem: Why the file is not measured; ``None`` when it is.
    :ivar ascii: An STL file that is not binary (its size is not ``84 + 50 n``), measured or not.
    :ivar solid: What the triangles enclose; ``None`` until asked for (a collision mesh's: a
        visual mesh's is not measured) and when the file is not measured.
    """

    format: str
    lower: Vector3 | None = None
    upper: Vector3 | None = None
    triangles: int = 0
    problem: str | None = None
    ascii: bool = False
    solid: Solid | None = None

    @property
    def readable(self) -> bool:
        """Whether the file was measured (its box and triangle count are known)."""
        return self.problem is None

    @property
    def flat(self) -> bool:
        """Whether the vertices of a mesh with a solid are coplanar, collinear or one point."""
        if self.solid is None or self.lower is None or self.upper is None:
            return False
        size = max(high - low for low, high in zip(self.lower, self.upper))
        return self.solid.thickness <= FLAT * size


def read_mesh_facts(path: str, solid: bool = False) -> MeshFacts:
    """
    Measure a mesh file: STL and OBJ here, COLLADA through pycollada, other formats not at all.

    :param path: Local path of the mesh file (its extension, any case, gives the format).
    :param solid: Whether to measure what its triangles enclose too (:attr:`MeshFacts.solid`).
    :return: The facts; a file that is not measured has a :attr:`MeshFacts.problem`.
    :raises OSError: if the file does not exist or cannot be read.
    """
    extension = os.path.splitext(path)[1].lower()
    kind = extension.lstrip('.')
    if extension not in MEASURED:
        return MeshFacts(kind, problem=f'the checker does not measure "{extension}" files')
    if os.path.getsize(path) > MAX_BYTES:
        return MeshFacts(kind, problem=f'larger than {MAX_BYTES} bytes')
    ascii = False
    first = None
    try:
        if extension == '.dae':
            points, faces = _collada(path)
        else:
            with open(path, 'rb') as stream:
                data = stream.read(MAX_BYTES + 1)
            ascii = extension == '.stl' and _binary_count(data) is None
            if extension == '.stl':
                points, faces = _stl(data)
            else:
                points, faces, first = _obj(data)
        if not len(faces):
            raise MeshLoadError(NO_TRIANGLES)
        if not np.all(np.isfinite(points)):
            raise MeshLoadError(NOT_FINITE)
    except MeshLoadError as exc:
        return MeshFacts(kind, ascii=ascii, problem=str(exc).replace(f'{path}: ', ''))
    along_xyz = np.ascontiguousarray(points.T)  # numpy reduces (3, N) far faster than (N, 3)
    lower, upper = along_xyz.min(axis=1), along_xyz.max(axis=1)
    return MeshFacts(kind, (float(lower[0]), float(lower[1]), float(lower[2])),
                     (float(upper[0]), float(upper[1]), float(upper[2])), len(faces), None,
                     ascii, measure(points, faces, first) if solid else None)


def mesh_bounds(path: str) -> tuple[FloatArray, FloatArray] | None:
    """
    Return the box ``(lower, upper)`` (3,) of a mesh file's triangles, m, before ``<mesh scale>``.

    :return: The box, or ``None`` when the file is not measured or does not exist.
    """
    try:
        facts = read_mesh_facts(path)
    except OSError:
        return None
    if facts.lower is None or facts.upper is None:
        return None
    return np.array(facts.lower), np.array(facts.upper)


def _binary_count(data: bytes) -> int | None:
    """The triangle count of a binary STL's header, ``None`` when the size does not match it."""
    if len(data) < _STL_HEADER:
        return None
    count = int(np.frombuffer(data, '<u4', 1, 80)[0])
    return count if len(data) == _STL_HEADER + count * _STL_TRIANGLE.itemsize else None


def _stl(data: bytes) -> tuple[FloatArray, IntArray]:
    """The vertices ``(3 T, 3) float64`` and triangles ``(T, 3)`` of an STL file's bytes."""
    count = _binary_count(data)
    if count is not None:
        triangles = np.frombuffer(data, _STL_TRIANGLE, count, _STL_HEADER)
        points = triangles['vertices'].reshape(-1, 3).astype(np.float64)
    else:
        lowered = data.lower()
        start, end = lowered.find(b'solid'), lowered.rfind(b'endsolid')
        if start < 0 or end < start:
            raise MeshLoadError(f'neither a binary STL ({len(data)} bytes is not 84 + 50 x the '
                                'triangle count of its header) nor an ASCII STL (solid ... '
                                'endsolid)')
        text = data[start:end]
        rows = _STL_VERTEX.findall(text)
        if len(rows) != len(_STL_VERTEX_WORD.findall(text)) or len(rows) % 3:
            raise MeshLoadError('ASCII STL: a vertex line has not 3 numbers, or the vertices '
                                'are not 3 a facet')
        points = _numbers(rows, 'ASCII STL vertex')
    return points, np.arange(len(points), dtype=np.int64).reshape(-1, 3)


def _obj(data: bytes) -> tuple[FloatArray, IntArray, int]:
    """
    The vertices its faces use ``(V, 3) float64`` and triangles ``(T, 3)`` of an OBJ file.

    Also the number of triangles of its first object, those before the first ``o`` or ``g`` line
    that follows a face (tinyobjloader's first shape, the only one MuJoCo's OBJ decoder reads).
    """
    text = data.decode('utf-8', errors='replace').replace('\r\n', '\n').replace('\\\n', '')
    rows = _OBJ_VERTEX.findall(text)
    if len(rows) != len(_OBJ_VERTEX_WORD.findall(text)):
        raise MeshLoadError('OBJ: a "v" line has fewer than 3 numbers')
    vertices = _numbers(rows, 'OBJ vertex')
    faces = [(match.start(), _OBJ_CORNER.sub('', match.group(1)).split())
             for match in _OBJ_FACE.finditer(text)]
    faces = [(start, corners) for start, corners in faces if len(corners) >= 3]
    if not faces:
        return vertices[:0], np.zeros((0, 3), dtype=np.int64), 0
    try:
        indices = np.array([int(corner) for _, corners in faces for corner in corners],
                           dtype=np.int64)
    except ValueError as exc:
        raise MeshLoadError(f'OBJ: a face corner is not a vertex index ({exc})') from exc
    sizes = np.array([len(corners) for _, corners in faces], dtype=np.int64)
    # the vertices defined before each face (negative indices count back from there)
    defined = np.searchsorted([match.start() for match in _OBJ_VERTEX_WORD.finditer(text)],
                              [start for start, _ in faces])
    defined = np.repeat(defined, sizes)
    zero_based = np.where(indices > 0, indices - 1, defined + indices)
    if np.any(indices == 0) or np.any(zero_based < 0) or np.any(zero_based >= len(vertices)):
        raise MeshLoadError('OBJ: a face refers to a vertex that is not defined')
    used, compact = np.unique(zero_based, return_inverse=True)
    fans = sizes - 2  # a polygon: its first corner with each pair of consecutive others
    base = np.repeat(np.cumsum(sizes) - sizes, fans)
    step = np.arange(len(base)) - np.repeat(np.cumsum(fans) - fans, fans) + 1
    ends = [match.start() for match in _OBJ_OBJECT.finditer(text, faces[0][0])]
    first = len(base) if not ends else int(
        np.sum(fans[:np.searchsorted([start for start, _ in faces], ends[0])]))
    return vertices[used], compact[np.stack([base, base + step, base + step + 1], axis=1)], first


def _collada(path: str) -> tuple[FloatArray, IntArray]:
    """
    The vertices its triangles use ``(V, 3) float64`` (file frame, m) and the triangles ``(T, 3)``.

    Placed as trimesh 5's ``load_collada`` places them (float64 node matrices from the root).
    """
    try:
        import collada
    except ImportError as exc:
        raise MeshLoadError(f'cannot read COLLADA without pycollada ({exc}); '
                            'pip install pycollada') from exc
    common = collada.common
    ignore = [common.DaeError, common.DaeIncompleteError, common.DaeMalformedError,
              common.DaeBrokenRefError, common.DaeUnsupportedError]  # trimesh's list
    with open(path, 'rb') as stream:
        try:
            document = collada.Collada(stream, ignore=ignore)
            placed: list[FloatArray] = []
            triangles: list[IntArray] = []
            for node in document.scene.nodes:
                _collada_node(collada, node, _EYE, placed, triangles)
        except Exception as exc:  # pycollada raises its errors, lxml's, ValueError...
            raise MeshLoadError(f'cannot read COLLADA: {type(exc).__name__}: {exc}') from exc
    if not placed:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    starts = np.cumsum([0] + [len(points) for points in placed[:-1]])
    faces = np.concatenate([part + start for part, start in zip(triangles, starts)])
    return np.concatenate(placed) * collada_unit(path), faces


_EYE = np.eye(4)


def _collada_node(collada: Any, node: Any, T_file_parent: FloatArray,
                  placed: list[FloatArray], triangles: list[IntArray]) -> None:
    """Add the vertices a node's finite triangles use (file frame) and the triangles."""
    if isinstance(node, collada.scene.GeometryNode):
        symbols = {material.symbol for material in node.materials}
        for primitive in node.geometry.primitives:
            if isinstance(primitive, collada.polylist.Polylist):
                primitive = primitive.triangleset()
            if not isinstance(primitive, collada.triangleset.TriangleSet):
                continue
            if primitive.vertex is None:
                continue
            index = primitive.vertex_index
            if (primitive.material in symbols and len(primitive.texcoordset) and len(index)
                    and math.prod(np.shape(primitive.texcoordset[0])[1:]) != 2):
                # trimesh reshapes the texture coordinates of a bound material to (3 T, 2)
                raise MeshLoadError('texture coordinates are not (s, t) pairs')
            vertex = np.asarray(primitive.vertex, dtype=np.float64).reshape(-1, 3)
            corners = np.asarray(index).reshape(-1, 3)  # (T, 3) vertex indices
            finite = np.asarray(np.isfinite(vertex).all(axis=1))  # (V,) bool
            if not finite.all():  # a triangle with an infinite corner is dropped
                corners = corners[finite[corners].all(axis=1)]
            if not len(corners):
                continue
            used = np.zeros(len(vertex), dtype=bool)
            used[corners] = True  # IndexError past the last vertex, as vertex[index] raised
            placed.append(vertex[used] @ T_file_parent[:3, :3].T + T_file_parent[:3, 3])
            triangles.append((np.cumsum(used) - 1)[corners].astype(np.int64))
    elif isinstance(node, collada.scene.Node) and node.children is not None:
        for child in node.children:
            _collada_node(collada, child, np.dot(T_file_parent, node.matrix), placed,
                          triangles)


def collada_unit(path: str) -> float:
    """
    A COLLADA file's ``<asset><unit meter>``, by which rviz rescales it (``getMeshUnitRescale``).

    :return: The unit, m; 1.0 when absent, not positive and finite, or unreadable.
    """
    from lxml import etree
    try:
        with open(path, 'rb') as stream:
            for _, element in etree.iterparse(stream, events=('end',), tag='{*}unit',
                                              resolve_entities=False, no_network=True,
                                              load_dtd=False, huge_tree=True):
                meter = float(element.get('meter') or 1.0)
                return meter if math.isfinite(meter) and meter > 0 else 1.0
    except (OSError, ValueError, etree.XMLSyntaxError):
        return 1.0
    return 1.0


def _numbers(rows: list[tuple[bytes, bytes, bytes]] | list[tuple[str, str, str]],
             what: str) -> FloatArray:
    """``(N, 3) float64`` from rows of three number texts; :exc:`MeshLoadError` if one is not."""
    try:
        return np.array(rows, dtype=np.float64).reshape(-1, 3)
    except ValueError as exc:
        raise MeshLoadError(f'{what}: not a number ({exc})') from exc
