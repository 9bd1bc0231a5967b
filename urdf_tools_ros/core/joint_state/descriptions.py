"""
The joints of whatever joint_state_publisher reads on ``robot_description``: URDF, SDF, COLLADA.

As joint_state_publisher 2.4 (``configure_robot``, ``init_urdf``, ``init_sdf``,
``init_collada``), :func:`joint_state_robot` makes a model whose
:class:`~urdf_tools_ros.core.joint_state.table.JointStateTable` publishes the same joints:

* URDF: root ``<robot>``, or the first ``<robot>`` inside another root, through the loader;
* SDF: the ``<joint>`` children of the first ``<model>`` (gearbox, revolute2, ball, screw,
  universal and fixed skipped; continuous [-π, π]; others need ``<limit><lower>``/``<upper>``);
* COLLADA 1.5+: the revolute joints of the first kinematics model, limits in degrees
  (min = max: fixed, skipped).

The XML is parsed as the loader parses URDF (no entities, no DTD, no network, bounded size).
"""

from __future__ import annotations

import math
from typing import Any

from lxml import etree

from ..errors import DescriptionLoadError, DescriptionTooLargeError
from ..location import SourceLocation
from ..model.robot import Joint, Limit, Link, Robot, Vector3
from ..source.loader import (load_string, MAX_DESCRIPTION_BYTES, parse_xml,
                             RobotDescription)
from ..source.packages import PackageLocator

__all__ = ['joint_state_robot']

#: SDF joint types upstream leaves out.
_SDF_SKIPPED = frozenset({'gearbox', 'revolute2', 'ball', 'screw', 'universal', 'fixed'})


def _local(tag: object) -> str:
    return tag.rpartition('}')[2] if isinstance(tag, str) else ''


def _children(element: Any, name: str) -> list[Any]:
    return [child for child in element if _local(child.tag) == name]


def _first(element: Any, name: str) -> Any | None:
    """The first descendant named ``name`` (any namespace), as minidom's getElementsByTagName."""
    for child in element.iter():
        if child is not element and _local(child.tag) == name:
            return child
    return None


def _bounds(limits: Any, names: tuple[str, str], joint: str, kind: str,
            filename: str) -> tuple[float, float]:
    """The bounds ``names`` of a limits element; upstream's error if one is missing or bad."""
    bounds = []
    for which in names:
        bound = _first(limits, which)
        if bound is None:
            raise DescriptionLoadError(f'"{which}" limit must be specified for joint "{joint}" of '
                                       f'type "{kind}"', filename, limits.sourceline)
        try:
            bounds.append(float((bound.text or '').strip()))
        except ValueError:
            raise DescriptionLoadError(f'"{which}" limit must be a float for joint "{joint}" of '
                                       f'type "{kind}"', filename, bound.sourceline) from None
    return bounds[0], bounds[1]


def joint_state_robot(text: str, filename: str = '<robot_description>', *,
                      locator: PackageLocator | None = None
                      ) -> tuple[Robot, str, RobotDescription | None]:
    """
    The joints of a URDF, SDF or COLLADA description, as joint_state_publisher reads them.

    :param text: The description's XML.
    :param filename: Where it came from, for messages.
    :param locator: Package locator for ``package://`` in URDF (meshes are not needed here).
    :return: ``(robot, format, description)``; format is ``'urdf'``, ``'urdf in <ROOT>'``,
        ``'sdf'`` or ``'collada'``; ``description`` is the loaded URDF (``None`` otherwise).
    :raises DescriptionLoadError: malformed or too large XML, entity declarations, a root with no
        ``<robot>``, an SDF or COLLADA joint without limits (upstream's messages).
    """
    if len(text) > MAX_DESCRIPTION_BYTES:
        raise DescriptionTooLargeError('larger than the limit', filename)
    root, _ = parse_xml(text, filename, any_root=True)
    kind = _local(root.tag)
    if kind == 'robot':
        description = load_string(text, filename, is_xacro=False, locator=locator)
        return description.robot, 'urdf', description
    if kind == 'sdf':
        return _sdf(root, filename), 'sdf', None
    if kind == 'COLLADA':
        return _collada(root, filename), 'collada', None
    inner = _first(root, 'robot')
    if inner is None:
        raise DescriptionLoadError(f'the root element is <{kind}> and holds no <robot>: not a '
                                   'URDF, SDF or COLLADA description', filename, root.sourceline)
    xml = etree.tostring(inner, encoding='unicode')
    description = load_string(xml, filename, is_xacro=False, locator=locator)
    return description.robot, f'urdf in <{kind}>', description


def _sdf(root: Any, filename: str) -> Robot:
    model = _first(root, 'model')
    if model is None:
        raise DescriptionLoadError('SDF must have a "model" tag', filename, root.sourceline)
    links = tuple(Link(child.get('name', ''), location=SourceLocation(filename, child.sourceline))
                  for child in _children(model, 'link'))
    joints: list[Joint] = []
    for child in _children(model, 'joint'):
        kind = child.get('type', '')
        if kind in _SDF_SKIPPED:
            continue
        name = child.get('name', '')
        where = SourceLocation(filename, child.sourceline)
        axis_element = _first(child, 'axis')
        axis: Vector3 = (0.0, 0.0, 1.0)
        xyz = None if axis_element is None else _first(axis_element, 'xyz')
        if xyz is not None and xyz.text:
            values = [float(value) for value in xyz.text.split()]
            if len(values) == 3:
                axis = (values[0], values[1], values[2])
        if kind == 'continuous':
            limit = Limit(-math.pi, math.pi)
        else:
            limit_element = _first(child, 'limit')
            if limit_element is None:
                raise DescriptionLoadError(
                    f'Limits must be specified for joint "{name}" of type "{kind}"', filename,
                    child.sourceline)
            limit = Limit(*_bounds(limit_element, ('lower', 'upper'), name, kind, filename))
        parent, child_link = _first(child, 'parent'), _first(child, 'child')
        joints.append(Joint(name, kind, (parent.text or '').strip() if parent is not None else '',
                            (child_link.text or '').strip() if child_link is not None else '',
                            axis=axis, limit=limit, location=where))
    return Robot(model.get('name', ''), root.get('version'), links, tuple(joints),
                 location=SourceLocation(filename, root.sourceline))


def _collada(root: Any, filename: str) -> Robot:
    version = root.get('version')
    if version is None:
        raise DescriptionLoadError('COLLADA must have a version tag', filename, root.sourceline)
    try:
        numbers = tuple(int(part) for part in version.split('.'))
    except ValueError:
        numbers = ()
    if numbers < (1, 5, 0):
        raise DescriptionLoadError('COLLADA must be at least version 1.5.0', filename,
                                   root.sourceline)
    model = _first(root, 'kinematics_model')
    if model is None:
        raise DescriptionLoadError('COLLADA must have a "kinematics_model" tag', filename)
    technique = _first(model, 'technique_common')
    if technique is None:
        raise DescriptionLoadError('COLLADA must have a "technique_common" tag', filename,
                                   model.sourceline)
    joints: list[Joint] = []
    for child in _children(technique, 'joint'):
        name = child.get('name', '')
        revolute = _first(child, 'revolute')
        if revolute is None:
            continue
        limits = _first(revolute, 'limits')
        if limits is None:
            raise DescriptionLoadError(
                f'Limits must be specified for joint "{name}" of type "revolute"', filename,
                revolute.sourceline)
        bounds = _bounds(limits, ('min', 'max'), name, 'revolute', filename)
        if bounds[0] == bounds[1]:  # a fixed joint
            continue
        joints.append(Joint(name, 'revolute', '', '',
                            limit=Limit(math.radians(bounds[0]), math.radians(bounds[1])),
                            location=SourceLocation(filename, child.sourceline)))
    return Robot(model.get('name', ''), version, (), tuple(joints),
                 location=SourceLocation(filename, root.sourceline))
