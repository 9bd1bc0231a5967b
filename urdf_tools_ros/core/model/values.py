"""
What the URDF reader needs to know about values and names, without reporting anything.

The tables of attributes and children the URDF specification (and urdfdom) define, the tag of
an element without its namespace, and the parsing of a number or a vector of numbers as the
reader does it (:class:`~urdf_tools_ros.core.model.reader.UrdfReader`, which turns each
problem into a finding). Attribute and element names follow the URDF specification
(http://wiki.ros.org/urdf/XML). A number is Python's ``float`` of the attribute's text, a vector
its whitespace-separated words; the reader reports NaN and infinity separately. Also which URDF
versions urdfdom reads, and which ROS 2 distros therefore read each one.
"""

from __future__ import annotations

from collections.abc import Callable
import math
import re
from typing import Any

from ..location import SourceLocation

Element = Any  # lxml.etree._Element; typed loosely so that the core needs no lxml stubs
Locate = Callable[[Element], SourceLocation]
Resolve = Callable[[str], 'str | None']

#: Attributes the URDF specification (and urdfdom) know, per element.
KNOWN_ATTRIBUTES = {
    'limit': frozenset({'lower', 'upper', 'effort', 'velocity', 'acceleration', 'deceleration',
                        'jerk'}),
    'dynamics': frozenset({'damping', 'friction'}),
    'safety_controller': frozenset({'soft_lower_limit', 'soft_upper_limit', 'k_position',
                                    'k_velocity'}),
    'mimic': frozenset({'joint', 'multiplier', 'offset'}),
    'calibration': frozenset({'rising', 'falling', 'reference_position'}),
    'origin': frozenset({'xyz', 'rpy', 'quat_xyzw'}),
    'axis': frozenset({'xyz'}),
    'inertia': frozenset({'ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'}),
}
#: Children the URDF specification (and urdfdom) know, per element.
KNOWN_ROBOT_CHILDREN = frozenset({'link', 'joint', 'material', 'transmission', 'gazebo',
                                  'ros2_control', 'sensor'})
KNOWN_LINK_CHILDREN = frozenset({'inertial', 'visual', 'collision'})
KNOWN_JOINT_CHILDREN = frozenset({'origin', 'parent', 'child', 'axis', 'calibration', 'dynamics',
                                  'limit', 'mimic', 'safety_controller'})
#: Children of a ROS 1 transmission's joint/actuator that ros_control's parser reads.
KNOWN_TRANSMISSION_PART_CHILDREN = frozenset({'hardwareInterface', 'mechanicalReduction',
                                              'role', 'offset'})

_isfinite = math.isfinite

#: The URDF versions urdfdom 6.0 reads (``major.minor``); no ``version`` attribute means 1.0.
URDF_VERSIONS = ((1, 0), (1, 1), (1, 2))
_INTEGER = re.compile(r'\s*[+-]?\d+')
#: The urdfdom that first reads each URDF version: 1.1 (quat_xyzw, capsule) came with 5.1.0
#: (ros/rosdistro#49718), 1.2 (acceleration, deceleration, jerk) with 6.0.0 (ros/rosdistro#50827).
URDFDOM_SINCE = {(1, 1): '5.1', (1, 2): '6.0'}
#: The ROS 2 distros, oldest first, and the URDF versions their urdfdom (so robot_state_publisher
#: and RViz) reads: Humble (urdfdom 3.0), Jazzy (4.0) and Kilted (5.0) read 1.0 only; Lyrical
#: (the LTS of May 2026) and Rolling have urdfdom 6.0, which reads 1.0, 1.1 and 1.2.
ROS_DISTRO_URDF_VERSIONS: dict[str, tuple[tuple[int, int], ...]] = {
    'humble': ((1, 0),), 'jazzy': ((1, 0),), 'kilted': ((1, 0),),
    'lyrical': URDF_VERSIONS, 'rolling': URDF_VERSIONS}


def ros_distros(reads: tuple[int, int], *, refuse: bool = False) -> str:
    """
    The ROS 2 distros whose urdfdom reads (or, ``refuse``, refuses) a URDF version, in words.

    From :data:`ROS_DISTRO_URDF_VERSIONS`, oldest first: ``ros_distros((1, 2))`` is
    ``'Lyrical and Rolling'``, ``ros_distros((1, 2), refuse=True)`` ``'Humble, Jazzy and
    Kilted'``; ``'none'`` when there is none.

    :param reads: The URDF version ``(major, minor)``.
    :param refuse: Name the distros that refuse the version instead.
    """
    names = [distro.capitalize() for distro, versions in ROS_DISTRO_URDF_VERSIONS.items()
             if (reads in versions) is not refuse]
    if len(names) < 2:
        return names[0] if names else 'none'
    return ', '.join(names[:-1]) + ' and ' + names[-1]


def urdf_version(text: str | None) -> tuple[int, int]:
    """
    The ``(major, minor)`` of a ``<robot version>`` attribute, parsed as urdfdom does.

    urdfdom (``URDFVersion``, urdf_parser.h, 3.x to 6.0) splits the text at dots, wants exactly
    two fields and reads each with ``strtol``; ``None`` (no attribute) is 1.0. Whether the
    version is one a parser supports is the caller's question (:data:`URDF_VERSIONS`).

    :raises ValueError: with urdfdom's message: ``1``, ``1.0.0`` ("should be in the form
        'x.y'"), ``1.`` ("blank"), ``a.b`` ("not an integer"), ``1.0~pre6`` ("extra
        characters"), ``-1.0`` ("must be positive").
    """
    if text is None:
        return 1, 0
    fields = text.split('.')
    if len(fields) != 2:
        raise ValueError("The version attribute should be in the form 'x.y'")
    numbers = []
    for field in fields:
        if field == '':
            raise ValueError('One of the fields of the version attribute is blank')
        match = _INTEGER.match(field)
        if match is None:
            raise ValueError('Version attribute is not an integer')
        if match.end() != len(field):
            raise ValueError('Extra characters after the version number')
        value = int(match.group())
        if value < 0:
            raise ValueError('Version number must be positive')
        numbers.append(value)
    return numbers[0], numbers[1]


def local_name(tag: object) -> str:
    """Tag without namespace, as written (``{ns}x`` -> ``x``); comments give ``''``."""
    if not isinstance(tag, str):
        return ''
    return tag.rpartition('}')[2] if tag.startswith('{') else tag


def parse_number(text: str) -> float:
    """
    The number ``text`` holds (surrounding whitespace allowed), possibly NaN or infinite.

    :raises ValueError: ``text`` is not one number.
    """
    return float(text)


def parse_numbers(text: str) -> tuple[float, ...]:
    """
    The whitespace-separated numbers ``text`` holds (any count, possibly NaN or infinite).

    :raises ValueError: one of the words is not a number.
    """
    return tuple(map(float, text.split()))


def all_finite(values: tuple[float, ...]) -> bool:
    """Whether every value is finite (neither NaN nor infinite)."""
    # A finite sum means every value is finite (NaN and inf propagate); a sum that overflows
    # is decided value by value.
    return _isfinite(sum(values)) or all(map(_isfinite, values))
