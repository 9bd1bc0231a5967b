"""
Down-conversion of a URDF 1.1/1.2 description to URDF 1.0, for Humble, Jazzy and Kilted.

* ``<origin quat_xyzw>`` becomes the same rotation as ``rpy``;
* a ``<capsule>`` visual or collision becomes a cylinder and a sphere at each end
  (``±length/2`` along the element's z), names suffixed;
* ``<limit acceleration deceleration jerk>`` are dropped, with a comment that keeps them;
* ``<robot version>`` becomes ``1.0``.

A version no urdfdom reads, ``rpy`` with ``quat_xyzw`` or a quaternion that is no rotation is
refused (:class:`ConversionError`).
"""

from __future__ import annotations

import copy
import math

from lxml import etree

from .values import Element, parse_numbers, urdf_version, URDF_VERSIONS
from ..errors import DescriptionLoadError

__all__ = ['ConversionError', 'to_urdf_1_0']


class ConversionError(DescriptionLoadError):
    """The description cannot be written as URDF 1.0 with the same meaning; says why and where."""


def _number(value: float) -> str:
    """The shortest text that reads back as ``value`` (``-0`` written ``0``)."""
    return repr(float(value) + 0.0)


def _line(node: Element) -> int | None:
    line = getattr(node, 'sourceline', None)
    return line if isinstance(line, int) else None


def _rpy_of(quaternion_text: str, filename: str, line: int | None) -> tuple[float, ...]:
    from ..transforms import quaternion_to_rotation, rotation_to_rpy
    try:
        values = parse_numbers(quaternion_text)
    except ValueError:
        values = ()
    if len(values) != 4 or not all(math.isfinite(v) for v in values) or \
            math.sqrt(sum(v * v for v in values)) <= 1e-12:
        raise ConversionError(f'quat_xyzw="{quaternion_text}" is not a rotation (four finite '
                              'numbers, not all zero)', filename, line)
    return tuple(float(v) for v in rotation_to_rpy(quaternion_to_rotation(values)))


def _capsule_parts(element: Element, capsule: Element, filename: str
                   ) -> list[Element]:
    """A ``<visual>``/``<collision>`` holding a capsule as a cylinder and two spheres."""
    from ..transforms import origin as origin_transform
    try:
        radius = float(capsule.get('radius', 'nan'))
        length = float(capsule.get('length', 'nan'))
    except ValueError:
        radius = length = math.nan
    if not (math.isfinite(radius) and math.isfinite(length)):
        raise ConversionError('<capsule> needs finite radius and length', filename,
                              _line(capsule))
    origin = element.find('origin')
    xyz = parse_numbers(origin.get('xyz', '0 0 0')) if origin is not None else (0.0, 0.0, 0.0)
    rpy = parse_numbers(origin.get('rpy', '0 0 0')) if origin is not None else (0.0, 0.0, 0.0)
    T = origin_transform(xyz, rpy)
    parts = []
    cylinder = copy.deepcopy(element)
    shape = cylinder.find('geometry')[0]
    shape.tag = 'cylinder'
    parts.append(cylinder)
    for sign, suffix in ((1.0, 'cap_top'), (-1.0, 'cap_bottom')):
        sphere = copy.deepcopy(element)
        if sphere.get('name'):
            sphere.set('name', f'{sphere.get("name")}_{suffix}')
        ball = sphere.find('geometry')[0]
        ball.tag = 'sphere'
        for attribute in list(ball.keys()):
            del ball.attrib[attribute]
        ball.set('radius', capsule.get('radius', _number(radius)))
        centre = T[:3, :3] @ (0.0, 0.0, sign * length / 2.0) + T[:3, 3]
        place = sphere.find('origin')
        if place is None:
            place = etree.Element('origin')
            sphere.insert(0, place)
        place.set('xyz', ' '.join(_number(float(v)) for v in centre))
        place.set('rpy', ' '.join(_number(float(v)) for v in rpy))
        parts.append(sphere)
    return parts


def to_urdf_1_0(xml: str, filename: str = '<string>') -> str:
    """
    Rewrite a URDF 1.0/1.1/1.2 description as URDF 1.0 with the same kinematics and geometry.

    :param xml: The URDF (xacro already expanded: ``RobotDescription.xml``).
    :param filename: For error messages.
    :return: The URDF 1.0 text (with an XML declaration).
    :raises ConversionError: for what URDF 1.0 cannot express, with the element's line.
    :raises DescriptionLoadError: if ``xml`` is not well-formed.
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_blank_text=False)
    try:
        root = etree.fromstring(xml.encode(), parser)
    except etree.XMLSyntaxError as exc:
        raise DescriptionLoadError(f'malformed XML: {exc}', filename) from None
    try:
        version = urdf_version(root.get('version'))
    except ValueError as exc:
        raise ConversionError(f'version="{root.get("version")}": {exc}', filename,
                              _line(root)) from None
    if version not in URDF_VERSIONS:
        raise ConversionError(f'version="{root.get("version")}" is no URDF version urdfdom '
                              'reads', filename, _line(root))
    if version >= (1, 1):
        for origin in root.iter('origin'):
            text = origin.get('quat_xyzw')
            if text is None:
                continue
            if origin.get('rpy') is not None:
                raise ConversionError('<origin> has both rpy and quat_xyzw', filename,
                                      _line(origin))
            rpy = _rpy_of(text, filename, _line(origin))
            del origin.attrib['quat_xyzw']
            origin.set('rpy', ' '.join(_number(v) for v in rpy))
        for tag in ('visual', 'collision'):
            for element in list(root.iter(tag)):
                geometry = element.find('geometry')
                shapes = [] if geometry is None else [s for s in geometry
                                                      if isinstance(s.tag, str)]
                if not shapes or shapes[0].tag != 'capsule':
                    continue
                parent = element.getparent()
                index = parent.index(element)
                parent.remove(element)
                for offset, part in enumerate(_capsule_parts(element, shapes[0], filename)):
                    parent.insert(index + offset, part)
    if version >= (1, 2):
        for limit in root.iter('limit'):
            dropped = [f'{name}="{limit.get(name)}"' for name in ('acceleration',
                                                                  'deceleration', 'jerk')
                       if limit.get(name) is not None]
            if not dropped:
                continue
            for name in ('acceleration', 'deceleration', 'jerk'):
                if name in limit.attrib:
                    del limit.attrib[name]
            limit.addprevious(etree.Comment(f' urdf-tools convert: {" ".join(dropped)} dropped '
                                            '(URDF 1.2 only) '))
    if root.get('version') is not None:
        root.set('version', '1.0')
    return '<?xml version="1.0"?>\n' + etree.tostring(root, encoding='unicode') + '\n'
