"""
Attribute by attribute: what changed in matched joints, links and global materials.

Each function returns :class:`~.records.ValueChange` records in the new description's names.
Numbers are the same to 1e-9 relative or 1e-12 absolute. Names of other elements (parent,
child, mimic joint) are compared through the rename table, mesh files by their place in their
package (:func:`~.git.package_uri`). Units: URDF spec, joint; REP 103.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import math
from typing import Union

import numpy as np

from .git import package_uri
from .matching import Matching
from .records import Value, ValueChange
from ..kinematics.inertia import inertia_matrix, principal_moments
from ..model.robot import (Box, Capsule, Collision, Cylinder, Geometry, Inertial, Joint,
                           Link, Material, Mesh, Origin, Robot, Sphere, Visual)
from ..transforms import rpy_to_rotation

Shape = Union[Visual, Collision]
Shapes = Sequence[Shape]

_FIELDS = {
    'limit': ('lower', 'upper', 'effort', 'velocity', 'acceleration', 'deceleration', 'jerk'),
    'safety_controller': ('soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity'),
    'mimic': ('joint', 'multiplier', 'offset'),
    'dynamics': ('damping', 'friction'),
    'calibration': ('rising', 'falling'),
}


def same(old: Value, new: Value) -> bool:
    """Whether two values are equal: numbers to 1e-9 relative or 1e-12 absolute, NaN to NaN."""
    if isinstance(old, float) and isinstance(new, float):
        if math.isnan(old) or math.isnan(new):
            return math.isnan(old) and math.isnan(new)
        return math.isclose(old, new, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(old, tuple) and isinstance(new, tuple):
        return len(old) == len(new) and all(same(float(a), float(b)) for a, b in zip(old, new))
    return old == new


def _value(value: object) -> Value:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(float(item) for item in value)
    return float(value)  # type: ignore[arg-type]


class _Collector:
    """The changes of one element: ``add`` keeps a value pair when the values differ."""

    def __init__(self, element: str) -> None:
        self.element = element
        self.changes: list[ValueChange] = []

    def add(self, attribute: str, old: object, new: object, unit: str = '',
            old_unit: str | None = None) -> None:
        """
        Keep the pair when the values differ, or are one nonzero number in two units.

        :param old_unit: Unit of ``old`` when it is another quantity than ``new`` (``None``:
            ``unit``); 0 and absent are the same in any unit.
        """
        old_value, new_value = _value(old), _value(new)
        other = old_unit is not None and old_unit != unit
        if not same(old_value, new_value) or (other and old_value not in (None, 0.0)):
            self.changes.append(ValueChange(self.element, attribute, old_value, new_value, unit,
                                            old_unit if other else None))

    def origin(self, prefix: str, old: Origin | None, new: Origin | None) -> None:
        """Keep the origin's ``xyz`` and ``rpy`` changes; ``rpy`` only if the rotation changed."""
        self.add(f'{prefix}origin.xyz', old.xyz if old else None, new.xyz if new else None, 'm')
        old_rpy = old.rpy if old else (0.0, 0.0, 0.0)
        new_rpy = new.rpy if new else (0.0, 0.0, 0.0)
        if not same_rotation(old_rpy, new_rpy):
            self.add(f'{prefix}origin.rpy', old.rpy if old else None,
                     new.rpy if new else None, 'rad')


def same_rotation(old_rpy: Sequence[float], new_rpy: Sequence[float]) -> bool:
    """Whether two roll-pitch-yaw triples (rad) are one rotation, to 1e-9 per matrix entry."""
    if not all(math.isfinite(value) for value in (*old_rpy, *new_rpy)):
        return tuple(old_rpy) == tuple(new_rpy)
    return bool(np.allclose(rpy_to_rotation(old_rpy), rpy_to_rotation(new_rpy), rtol=0.0,
                            atol=1e-9))


def joint_units(joint_type: str) -> dict[str, str]:
    """Units of a joint's position-like, effort and velocity values by its type."""
    if joint_type == 'prismatic':
        return {'position': 'm', 'effort': 'N', 'velocity': 'm/s', 'acceleration': 'm/s²',
                'jerk': 'm/s³', 'damping': 'N·s/m', 'friction': 'N'}
    if joint_type in ('revolute', 'continuous'):
        return {'position': 'rad', 'effort': 'N·m', 'velocity': 'rad/s',
                'acceleration': 'rad/s²', 'jerk': 'rad/s³', 'damping': 'N·m·s/rad',
                'friction': 'N·m'}
    return {}


_UNIT_OF = {'lower': 'position', 'upper': 'position', 'soft_lower_limit': 'position',
            'soft_upper_limit': 'position', 'offset': 'position', 'rising': 'position',
            'falling': 'position', 'effort': 'effort', 'velocity': 'velocity',
            'acceleration': 'acceleration', 'deceleration': 'acceleration', 'jerk': 'jerk',
            'damping': 'damping', 'friction': 'friction'}


#: Joint types whose ``<limit>`` has a position range (URDF spec, joint/limit).
RANGED_JOINT_TYPES = frozenset({'revolute', 'prismatic'})


def _field(joint: Joint, element: str, name: str) -> object:
    """A sub-element field as the joint means it: ``None`` where absent or meaningless."""
    part = getattr(joint, element)
    if part is None or (element == 'limit' and name in ('lower', 'upper')
                        and joint.joint_type not in RANGED_JOINT_TYPES):
        return None
    return getattr(part, name)


def compare_joint(old: Joint, new: Joint, matching: Matching) -> list[ValueChange]:
    """
    Type, parent, child, origin, axis and every sub-element field of two matched joints.

    ``limit.lower``/``upper`` count for :data:`RANGED_JOINT_TYPES` only; each side's values
    carry its own type's units (:func:`joint_units`: revolute turned prismatic is ``rad -> m``).

    :param matching: The rename table.
    :return: One change per attribute that differs (``limit.upper``, ``mimic.joint`` ...).
    """
    out = _Collector(f'joint:{new.name}')
    out.add('joint_type', old.joint_type, new.joint_type)
    out.add('parent', matching.link(old.parent), new.parent)
    out.add('child', matching.link(old.child), new.child)
    out.origin('', old.origin, new.origin)
    out.add('axis', old.axis, new.axis)
    new_units = joint_units(new.joint_type) or joint_units(old.joint_type)
    old_units = joint_units(old.joint_type) or new_units
    for element, names in _FIELDS.items():
        if getattr(old, element) is None and getattr(new, element) is None:
            continue
        for name in names:
            old_value, new_value = _field(old, element, name), _field(new, element, name)
            if element == 'mimic' and name == 'joint' and old_value is not None:
                old_value = matching.joint(str(old_value))
            quantity = _UNIT_OF.get(name, '')
            out.add(f'{element}.{name}', old_value, new_value, new_units.get(quantity, ''),
                    old_units.get(quantity, ''))
    return out.changes


def geometry_text(geometry: Geometry | None, unknown: str | None = None) -> str:
    """A shape in a few words: ``box 0.1 × 0.2 × 0.3 m``, ``mesh "package://a/b.stl"``."""
    if isinstance(geometry, Box):
        return 'box ' + ' × '.join(f'{side:g}' for side in geometry.size) + ' m'
    if isinstance(geometry, (Cylinder, Capsule)):
        kind = 'cylinder' if isinstance(geometry, Cylinder) else 'capsule'
        return f'{kind} r={geometry.radius:g} m, length={geometry.length:g} m'
    if isinstance(geometry, Sphere):
        return f'sphere r={geometry.radius:g} m'
    if isinstance(geometry, Mesh):
        return f'mesh "{geometry.filename}"'
    return f'<{unknown}>' if unknown else '(no geometry)'


def _shape(geometry: Geometry | None) -> str | None:
    return None if geometry is None else type(geometry).__name__.lower()


def _compare_geometry(out: _Collector, prefix: str, old: Geometry | None,
                      new: Geometry | None) -> None:
    if _shape(old) != _shape(new):
        out.add(f'{prefix}geometry', geometry_text(old), geometry_text(new))
        return
    if isinstance(old, Box) and isinstance(new, Box):
        out.add(f'{prefix}geometry.size', old.size, new.size, 'm')
    elif isinstance(old, (Cylinder, Capsule, Sphere)) and isinstance(new, type(old)):
        out.add(f'{prefix}geometry.radius', old.radius, new.radius, 'm')
        if not isinstance(old, Sphere):
            out.add(f'{prefix}geometry.length', old.length, new.length, 'm')  # type: ignore
    elif isinstance(old, Mesh) and isinstance(new, Mesh):
        if package_uri(old.filename) != package_uri(new.filename):  # not two checkouts' paths
            out.add(f'{prefix}geometry.filename', old.filename, new.filename)
        out.add(f'{prefix}geometry.scale', old.scale, new.scale)


def _material(robot: Robot, visual: Visual) -> Material | None:
    return robot.material(visual.material) if visual.material is not None else None


Pair = tuple[str, Union[Shape, None], Union[Shape, None]]


def _pairs(old: Shapes, new: Shapes, kind: str) -> Iterator[Pair]:
    """Pair elements by name where both are named alike, else by position: ``(label, o, n)``."""
    names = [element.name or '' for element in old]
    by_name = all(names) and len(set(names)) == len(names) and \
        sorted(names) == sorted(element.name or '' for element in new)
    if by_name:
        lookup = {element.name: element for element in new}
        for element in old:
            yield f'{kind} "{element.name}".', element, lookup[str(element.name)]
        return
    for index in range(max(len(old), len(new))):
        yield (f'{kind}[{index}].', old[index] if index < len(old) else None,
               new[index] if index < len(new) else None)


def _compare_shapes(out: _Collector, kind: str, old_robot: Robot, new_robot: Robot,
                    old: Shapes, new: Shapes) -> None:
    for prefix, first, second in _pairs(old, new, kind):
        if first is None or second is None:
            present = first if second is None else second
            if present is None:
                continue
            text = geometry_text(present.geometry, present.unknown_shape)
            out.add(prefix.rstrip('.'), text if first is not None else None,
                    text if second is not None else None)
            continue
        _compare_geometry(out, prefix, first.geometry, second.geometry)
        out.origin(prefix, first.origin, second.origin)
        if isinstance(first, Visual) and isinstance(second, Visual):
            old_material = _material(old_robot, first)
            new_material = _material(new_robot, second)
            for name in ('name', 'color', 'texture'):
                out.add(f'{prefix}material.{name}',
                        getattr(old_material, name) if old_material else None,
                        getattr(new_material, name) if new_material else None)


def _entries(inertial: Inertial) -> tuple[float, ...]:
    """``(ixx, ixy, ixz, iyy, iyz, izz)``, kg·m²."""
    inertia = inertial.inertia
    return (inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz)


def _compare_inertial(out: _Collector, old: Inertial | None, new: Inertial | None) -> None:
    if old is None or new is None:
        out.add('inertial.mass', old.mass if old else None, new.mass if new else None, 'kg')
        return
    out.add('inertial.mass', old.mass, new.mass, 'kg')
    out.origin('inertial.', old.origin, new.origin)
    old_moments = tuple(principal_moments(old.inertia))
    new_moments = tuple(principal_moments(new.inertia))
    out.add('inertial.principal_moments', old_moments, new_moments, 'kg·m²')
    if same(_value(old_moments), _value(new_moments)) and not np.allclose(
            inertia_matrix(old.inertia), inertia_matrix(new.inertia), rtol=1e-9, atol=1e-15):
        out.add('inertial.inertia', _entries(old), _entries(new), 'kg·m²')


def compare_link(old: Link, new: Link, old_robot: Robot, new_robot: Robot) -> list[ValueChange]:
    """
    Inertial, visuals (with their resolved materials) and collisions of two matched links.

    The inertial as mass, centre of mass and principal moments (the six entries only when the
    axes turned). Visuals and collisions pair by name when all are named, else in file order.

    :return: One change per attribute that differs.
    """
    out = _Collector(f'link:{new.name}')
    _compare_inertial(out, old.inertial, new.inertial)
    _compare_shapes(out, 'visual', old_robot, new_robot, old.visuals, new.visuals)
    _compare_shapes(out, 'collision', old_robot, new_robot, old.collisions, new.collisions)
    return out.changes


def moved_meshes(old: Link, new: Link) -> dict[str, str]:
    """
    The mesh files of two matched links that moved: ``{old path: new path}``.

    As written and, where both resolve, as resolved; a path moved to two places is left out.
    """
    moved: dict[str, str | None] = {}
    for kind, first, second in (('visual', old.visuals, new.visuals),
                                ('collision', old.collisions, new.collisions)):
        for _, before, after in _pairs(first, second, kind):
            old_mesh = before.geometry if before is not None else None
            new_mesh = after.geometry if after is not None else None
            if not isinstance(old_mesh, Mesh) or not isinstance(new_mesh, Mesh) or \
                    package_uri(old_mesh.filename) == package_uri(new_mesh.filename):
                continue
            pairs = [(old_mesh.filename, new_mesh.filename)]
            if old_mesh.resolved is not None and new_mesh.resolved is not None:
                pairs.append((old_mesh.resolved, new_mesh.resolved))
            for key, value in pairs:
                moved[key] = value if moved.get(key, value) == value else None
    return {key: value for key, value in moved.items() if value is not None}


def compare_robot(old: Robot, new: Robot) -> list[ValueChange]:
    """The robot's name and URDF version, and the global materials (colour, texture) by name."""
    out = _Collector('robot')
    out.add('name', old.name, new.name)
    out.add('version', old.version, new.version)
    changes = out.changes
    for name in dict.fromkeys([*old.material_map, *new.material_map]):
        first, second = old.material_map.get(name), new.material_map.get(name)
        material = _Collector(f'material:{name}')
        if first is None or second is None:
            material.add('material', name if first else None, name if second else None)
        else:
            material.add('color', first.color, second.color)
            material.add('texture', first.texture, second.texture)
        changes.extend(material.changes)
    return changes
