"""
The typed robot model: frozen dataclasses named as in the URDF specification.

Classes and fields are named after URDF's elements and attributes, with the spec's defaults
(URDF spec, http://wiki.ros.org/urdf/XML); ``Joint.joint_type`` is the ``type`` attribute.
Units: m, rad, kg, kg·m²; rpy is fixed-axis roll, pitch, yaw (REP 103). The model holds what
the file says, errors included (the checker reports them); every element keeps its location.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Union

from .ros2_control import Ros2Control, Transmission
from ..location import SourceLocation

Vector3 = tuple[float, float, float]
RGBA = tuple[float, float, float, float]

#: The six joint types of the URDF specification (URDF spec, joint/@type).
JOINT_TYPES = frozenset({'revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar'})
#: Joint types with one degree of freedom driven by a position (rad or m).
SINGLE_DOF_JOINT_TYPES = frozenset({'revolute', 'continuous', 'prismatic'})
#: Joint types whose child link moves relative to the parent.
MOVING_JOINT_TYPES = frozenset({'revolute', 'continuous', 'prismatic', 'floating', 'planar'})


@dataclass(frozen=True, slots=True)
class Origin:
    """
    URDF ``<origin>``: ``xyz`` in m and ``rpy`` in rad (fixed axes x, y, z; REP 103).

    URDF 1.1 ``quat_xyzw``: the unit quaternion, with ``rpy`` the same rotation.
    """

    xyz: Vector3 = (0.0, 0.0, 0.0)
    rpy: Vector3 = (0.0, 0.0, 0.0)
    quat_xyzw: tuple[float, float, float, float] | None = None
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Box:
    """URDF ``<box size>``: side lengths along x, y, z of the element frame, m."""

    size: Vector3
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Cylinder:
    """URDF ``<cylinder radius length>``: axis along z of the element frame, centred; m."""

    radius: float
    length: float
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Capsule:
    """URDF 1.1 ``<capsule radius length>``: a cylinder along z with hemispheres on its ends; m."""

    radius: float
    length: float
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Sphere:
    """URDF ``<sphere radius>``: centred on the element frame; m."""

    radius: float
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Mesh:
    """URDF ``<mesh filename scale>``; ``resolved``: the local path found, or ``None``."""

    filename: str
    scale: Vector3 = (1.0, 1.0, 1.0)
    resolved: str | None = None
    location: SourceLocation | None = field(default=None, compare=False)


Geometry = Union[Box, Cylinder, Sphere, Mesh, Capsule]


def geometry_sizes(geometry: Geometry) -> tuple[tuple[str, float], ...]:
    """
    The numbers a geometry is written with, as written, each named by its attribute.

    :return: e.g. ``(('radius', r), ('length', l))`` (m); a mesh's ``('scale', s)`` per axis.
    """
    if isinstance(geometry, Box):
        return tuple(('size', side) for side in geometry.size)
    if isinstance(geometry, (Cylinder, Capsule)):
        return (('radius', geometry.radius), ('length', geometry.length))
    if isinstance(geometry, Sphere):
        return (('radius', geometry.radius),)
    return tuple(('scale', factor) for factor in geometry.scale)


@dataclass(frozen=True, slots=True)
class Material:
    """
    URDF ``<material>``: a name, an optional ``<color rgba>`` and ``<texture filename>``.

    A bare name is a reference (:meth:`Robot.material`); ``texture_resolved`` is the local path.
    """

    name: str
    color: RGBA | None = None
    texture: str | None = None
    location: SourceLocation | None = None
    texture_resolved: str | None = None


@dataclass(frozen=True, slots=True)
class Inertia:
    """URDF ``<inertia>``: the symmetric 3×3 rotational inertia about the centre of mass, kg·m²."""

    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0

    def as_matrix(self) -> tuple[Vector3, Vector3, Vector3]:
        """Return the tensor as rows ``((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))``."""
        return ((self.ixx, self.ixy, self.ixz),
                (self.ixy, self.iyy, self.iyz),
                (self.ixz, self.iyz, self.izz))


@dataclass(frozen=True, slots=True)
class Inertial:
    """URDF ``<inertial>``: centre-of-mass frame ``origin``, ``mass`` in kg, inertia there."""

    mass: float
    inertia: Inertia
    origin: Origin = Origin()
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Visual:
    """URDF ``<visual>``; ``unknown_shape``: the tag of a shape URDF does not define."""

    geometry: Geometry | None
    origin: Origin = Origin()
    name: str | None = None
    material: Material | None = None
    location: SourceLocation | None = None
    unknown_shape: str | None = None


@dataclass(frozen=True, slots=True)
class Collision:
    """URDF ``<collision>``; ``unknown_shape``: the tag of a shape URDF does not define."""

    geometry: Geometry | None
    origin: Origin = Origin()
    name: str | None = None
    location: SourceLocation | None = None
    unknown_shape: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """URDF ``<link>``: a rigid body with an optional inertial, visuals and collisions."""

    name: str
    inertial: Inertial | None = None
    visuals: tuple[Visual, ...] = ()
    collisions: tuple[Collision, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Calibration:
    """URDF ``<calibration>``: joint positions (rad or m) of the rising and falling edges."""

    rising: float | None = None
    falling: float | None = None
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Dynamics:
    """URDF ``<dynamics>``: damping (N·s/m or N·m·s/rad) and static friction (N or N·m)."""

    damping: float = 0.0
    friction: float = 0.0
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Limit:
    """
    URDF ``<limit>``: position range (rad or m), maximum effort (N or N·m) and velocity.

    ``effort`` and ``velocity`` are ``None`` only when the file leaves them out.
    """

    lower: float = 0.0
    upper: float = 0.0
    effort: float | None = None
    velocity: float | None = None
    location: SourceLocation | None = field(default=None, compare=False)
    #: URDF 1.2: acceleration, deceleration (rad/s², m/s²), jerk (rad/s³, m/s³), or ``None``.
    acceleration: float | None = None
    deceleration: float | None = None
    jerk: float | None = None


@dataclass(frozen=True, slots=True)
class Mimic:
    """URDF ``<mimic>``: ``position = multiplier * position(joint) + offset``."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SafetyController:
    """
    URDF ``<safety_controller>``: soft position limits and the gains of the safety model.

    An absent soft limit is ``None`` (no limit on that side), as joint_state_publisher reads
    it, not the spec's 0 that urdf_parser_py applies. ``k_velocity`` is ``None`` when missing.
    """

    soft_lower_limit: float | None = None
    soft_upper_limit: float | None = None
    k_position: float = 0.0
    k_velocity: float | None = None
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Joint:
    """
    URDF ``<joint>``: moves ``child`` relative to ``parent``.

    ``origin`` is ``T_parent_joint``; ``axis`` is in the joint frame, as written.
    """

    name: str
    joint_type: str
    parent: str
    child: str
    origin: Origin = Origin()
    axis: Vector3 = (1.0, 0.0, 0.0)
    calibration: Calibration | None = None
    dynamics: Dynamics | None = None
    limit: Limit | None = None
    mimic: Mimic | None = None
    safety_controller: SafetyController | None = None
    location: SourceLocation | None = None
    #: Where the ``<axis>`` element stands (``None`` when the axis is the default).
    axis_location: SourceLocation | None = field(default=None, compare=False)

    @property
    def is_moving(self) -> bool:
        """Whether the child moves relative to the parent (every type but ``fixed``)."""
        return self.joint_type in MOVING_JOINT_TYPES

    @property
    def is_single_dof(self) -> bool:
        """Whether the joint is revolute, continuous or prismatic (one position value)."""
        return self.joint_type in SINGLE_DOF_JOINT_TYPES


@dataclass(frozen=True, slots=True)
class XmlData:
    """An XML element kept as data (``<gazebo>`` children, elements URDF does not define)."""

    tag: str
    attributes: tuple[tuple[str, str], ...] = ()
    text: str = ''
    children: tuple[XmlData, ...] = ()
    location: SourceLocation | None = None

    def attribute(self, name: str, default: str | None = None) -> str | None:
        """Return the attribute ``name`` or ``default``."""
        for key, value in self.attributes:
            if key == name:
                return value
        return default


@dataclass(frozen=True, slots=True)
class Gazebo:
    """A ``<gazebo>`` block: optional ``reference`` (a link or joint) and its children as data."""

    reference: str | None = None
    children: tuple[XmlData, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True)
class Robot:
    """URDF ``<robot>``: every element in file order, duplicates kept; lookups take the first."""

    name: str
    version: str | None = None
    links: tuple[Link, ...] = ()
    joints: tuple[Joint, ...] = ()
    materials: tuple[Material, ...] = ()
    transmissions: tuple[Transmission, ...] = ()
    #: Every ``<ros2_control>`` block, also one nested in another element (``parent``).
    ros2_control: tuple[Ros2Control, ...] = ()
    gazebo: tuple[Gazebo, ...] = ()
    unknown_elements: tuple[XmlData, ...] = ()
    location: SourceLocation | None = None
    #: ``<sensor>`` elements (URDF spec, sensor), kept as data.
    sensors: tuple[XmlData, ...] = ()

    @property
    def ros2_control_read(self) -> tuple[Ros2Control, ...]:
        """The ``<ros2_control>`` blocks ros2_control reads: direct children of ``<robot>``."""
        return tuple(control for control in self.ros2_control if control.is_read)

    @cached_property
    def link_map(self) -> dict[str, Link]:
        """Links by name, first of each name, in file order; unnamed links are left out."""
        result: dict[str, Link] = {}
        for link in self.links:
            if link.name:
                result.setdefault(link.name, link)
        return result

    @cached_property
    def joint_map(self) -> dict[str, Joint]:
        """Joints by name, first of each name, in file order."""
        result: dict[str, Joint] = {}
        for joint in self.joints:
            result.setdefault(joint.name, joint)
        return result

    @cached_property
    def material_map(self) -> dict[str, Material]:
        """Global materials by name, first of each name."""
        result: dict[str, Material] = {}
        for material in self.materials:
            result.setdefault(material.name, material)
        return result

    def link(self, name: str) -> Link:
        """Return the link called ``name``; raises :exc:`UnknownLinkError` if there is none."""
        from ..errors import UnknownLinkError
        try:
            return self.link_map[name]
        except KeyError:
            raise UnknownLinkError(f'robot "{self.name}" has no link "{name}"') from None

    def joint(self, name: str) -> Joint:
        """Return the joint called ``name``; raises :exc:`UnknownJointError` if there is none."""
        from ..errors import UnknownJointError
        try:
            return self.joint_map[name]
        except KeyError:
            raise UnknownJointError(f'robot "{self.name}" has no joint "{name}"') from None

    def material(self, reference: Material) -> Material:
        """
        Resolve a visual's material: a bare name becomes the global material of that name.

        :return: ``reference`` itself when it has a colour or texture or no global one exists.
        """
        if reference.color is None and reference.texture is None:
            return self.material_map.get(reference.name, reference)
        return reference
