"""
How big a mesh file is: the axis-aligned bounding box of its vertices, in metres as the file says.

Only what the checker needs to tell millimetres from metres (``mesh-scale-suspect``), without the
viewer's stack (trimesh, pycollada): the vertices of STL (binary and ASCII), Wavefront OBJ and
COLLADA files, numpy for the arithmetic and lxml (hardened: no entities, no network) for COLLADA.

* STL: binary (80-byte header, uint32 count, 50-byte triangles) when the size matches the count,
  else ASCII ``vertex x y z`` lines. STL has no units.
* OBJ: the ``v x y z`` lines the ``f`` lines use (all without faces). OBJ has no units.
* COLLADA 1.4/1.5: every ``<instance_geometry>`` in the nodes of the scene's
  ``<instance_visual_scene>`` (else the first ``<visual_scene>``), its mesh's
  vertices its primitives index (``<p>``, at the VERTEX input's offset) moved by the node
  transforms (``<matrix>``, ``<translate>``,
  ``<rotate>``, ``<scale>``, outermost first, COLLADA 1.4.1 spec chapter 5, "Transform
  elements"), times ``<asset><unit meter>`` (the file's length unit in metres; 1 when absent).
  A file without a visual scene falls back to every mesh's positions, untransformed.

Files larger than :data:`MAX_BYTES` are not read.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

import numpy as np

__all__ = ['MAX_BYTES', 'collada_unit', 'mesh_bounds']

#: Largest mesh file read, bytes (a bigger one gives ``None``).
MAX_BYTES = 200 * 1024 * 1024

_ASCII_VERTEX = re.compile(rb'^\s*vertex\s+(\S+)\s+(\S+)\s+(\S+)', re.MULTILINE)
_OBJ_VERTEX = re.compile(rb'^\s*v\s+(\S+)\s+(\S+)\s+(\S+)', re.MULTILINE)
_OBJ_FACE = re.compile(rb'^\s*f\s+([^\r\n]*)', re.MULTILINE)


def mesh_bounds(path: str) -> tuple[np.ndarray, np.ndarray] | None:
    """
    Return the bounding box ``(lower, upper)`` of a mesh file's vertices, each shape (3,), m.

    Lengths are as the file states them: STL and OBJ have no unit (their numbers are returned
    as metres, which is how URDF consumers read them); COLLADA's ``<unit meter>`` is applied.

    :param path: A ``.stl``, ``.obj`` or ``.dae`` file (by extension, any case).
    :return: The box, or ``None`` when the file is of another type, cannot be read, is larger
        than :data:`MAX_BYTES`, has no vertex, or has a non-finite coordinate.
    """
    extension = os.path.splitext(path)[1].lower()
    reader = {'.stl': _stl_points, '.obj': _obj_points, '.dae': _collada_points}.get(extension)
    if reader is None:
        return None
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, 'rb') as stream:
            data = stream.read()
        points = reader(data)
    except (OSError, ValueError):
        return None
    if points is None or points.size == 0 or not np.all(np.isfinite(points)):
        return None
    return points.min(axis=0), points.max(axis=0)


def collada_unit(path: str) -> float:
    """
    Return a COLLADA file's length unit in metres (``<asset><unit meter>``; 1 when absent).

    rviz's mesh loader rescales a COLLADA mesh by it, so the viewer does too (trimesh does not).
    Reads up to the first ``<unit>`` only (hardened lxml, no entities, no network).

    :return: The unit, m; 1.0 when the file has none, it is not a positive finite number, or the
        file cannot be read.
    """
    from lxml import etree
    try:
        for _, element in etree.iterparse(path, events=('end',), tag='{*}unit',
                                          resolve_entities=False, no_network=True,
                                          load_dtd=False, huge_tree=True):
            return _meter(element)
    except (OSError, ValueError, etree.XMLSyntaxError):
        return 1.0
    return 1.0


def _meter(unit: Any) -> float:
    """The ``meter`` of a COLLADA ``<unit>`` element, m; 1.0 unless a positive finite number."""
    try:
        meter = float(unit.get('meter') or 1.0)
    except ValueError:
        return 1.0
    return meter if math.isfinite(meter) and meter > 0 else 1.0


def _floats(triples: list[tuple[bytes, bytes, bytes]]) -> np.ndarray:
    return np.array(triples, dtype=float).reshape(-1, 3)


def _stl_points(data: bytes) -> np.ndarray | None:
    if len(data) >= 84:
        count = int.from_bytes(data[80:84], 'little')
        if len(data) == 84 + 50 * count:
            records = np.frombuffer(data, dtype=np.uint8, offset=84).reshape(count, 50)
            return records[:, 12:48].copy().view('<f4').reshape(-1, 3).astype(float)
    return _floats(_ASCII_VERTEX.findall(data))


def _obj_points(data: bytes) -> np.ndarray | None:
    """The vertices the faces use (all of them when the file has no face)."""
    vertices = _floats(_OBJ_VERTEX.findall(data))
    used: list[int] = []
    for line in _OBJ_FACE.findall(data):
        for token in line.split():
            index = int(token.split(b'/')[0])
            used.append(index - 1 if index > 0 else len(vertices) + index)
    if not used:
        return vertices
    indices = np.array(used)
    if indices.min() < 0 or indices.max() >= len(vertices):
        raise ValueError('an OBJ face index is out of range')
    return vertices[indices]


def _local(tag: object) -> str:
    return tag.rpartition('}')[2] if isinstance(tag, str) else ''


def _numbers(text: str | None) -> np.ndarray:
    return np.array((text or '').split(), dtype=float)


def _transform(element: object) -> np.ndarray:
    """The 4×4 transform of one COLLADA transform element (identity for other elements)."""
    tag = _local(getattr(element, 'tag', None))
    values = _numbers(getattr(element, 'text', None))
    matrix = np.eye(4)
    if tag == 'matrix' and values.size == 16:
        return values.reshape(4, 4)
    if tag == 'translate' and values.size == 3:
        matrix[:3, 3] = values
    elif tag == 'scale' and values.size == 3:
        matrix[:3, :3] = np.diag(values)
    elif tag == 'rotate' and values.size == 4 and np.any(values[:3]):
        from ..transforms import axis_rotation
        matrix = axis_rotation(values[:3], math.radians(values[3]))
    return matrix


def _collada_points(data: bytes) -> np.ndarray | None:
    from lxml import etree
    # huge_tree: a real mesh's float array exceeds libxml2's 10 MB text limit; the file's size
    # is bounded by MAX_BYTES and no entity is expanded.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ValueError(str(exc)) from exc
    ids = {element.get('id'): element for element in root.iter() if element.get('id')}

    def source_points(url: str | None) -> np.ndarray:
        """The xyz of a ``<vertices>`` element (its POSITION input) or ``<source>``."""
        element = ids.get((url or '').lstrip('#'))
        if element is not None and _local(element.tag) == 'vertices':
            inputs = [child for child in element if _local(child.tag) == 'input'
                      and child.get('semantic') == 'POSITION']
            element = ids.get((inputs[0].get('source') or '').lstrip('#')) if inputs else None
        for array in element.iter() if element is not None else ():
            if _local(array.tag) == 'float_array':
                values = _numbers(array.text)
                return values[:values.size // 3 * 3].reshape(-1, 3)
        return np.empty((0, 3))

    def positions(geometry: object) -> np.ndarray:
        """The vertices a geometry's primitives use (``<p>`` indices of their VERTEX input)."""
        found = []
        for primitive in getattr(geometry, 'iter', lambda: [])():
            inputs = [child for child in primitive if _local(child.tag) == 'input']
            vertex = [child for child in inputs if child.get('semantic') == 'VERTEX']
            if not vertex:
                continue
            xyz = source_points(vertex[0].get('source'))
            stride = 1 + max(int(child.get('offset') or 0) for child in inputs)
            offset = int(vertex[0].get('offset') or 0)
            for p in primitive:
                if _local(p.tag) == 'p' and xyz.size:
                    indices = _numbers(p.text).astype(int)[offset::stride]
                    if indices.size and (indices.min() < 0 or indices.max() >= len(xyz)):
                        raise ValueError('a COLLADA index is out of range')
                    found.append(xyz[indices])
        return np.concatenate(found) if found else np.empty((0, 3))

    unit = next((_meter(element) for element in root.iter() if _local(element.tag) == 'unit'),
                1.0)
    points: list[np.ndarray] = []

    def visit(node: object, transform: np.ndarray, depth: int) -> None:
        if depth > 64:
            return
        for child in node:  # type: ignore[attr-defined]
            transform = transform @ _transform(child)
        for child in node:  # type: ignore[attr-defined]
            tag = _local(child.tag)
            if tag == 'instance_geometry':
                local = positions(ids.get((child.get('url') or '').lstrip('#')))
                if local.size:
                    homogeneous = np.hstack([local, np.ones((len(local), 1))])
                    points.append((homogeneous @ transform.T)[:, :3])
            elif tag == 'node':
                visit(child, transform, depth + 1)
            elif tag == 'instance_node':
                target = ids.get((child.get('url') or '').lstrip('#'))
                if target is not None:
                    visit(target, transform, depth + 1)

    scenes = [element for element in root.iter() if _local(element.tag) == 'visual_scene']
    chosen = [ids.get((element.get('url') or '').lstrip('#')) for element in root.iter()
              if _local(element.tag) == 'instance_visual_scene']
    scene = next((element for element in chosen if element is not None),
                 scenes[0] if scenes else None)
    if scene is not None:
        visit(scene, np.eye(4), 0)
    else:
        points.append(positions(root))
    return np.concatenate(points) * unit if points else None
