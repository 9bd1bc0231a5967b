"""
The typed robot model: frozen dataclasses named as in the URDF specification.

Every class is named after its URDF element and every field after its attribute, with the
URDF default on the field (URDF spec, http://wiki.ros.org/urdf/XML). The one exception is
``Joint.joint_type`` (the ``type`` attribute). Lengths are in m, angles in rad, masses in kg,
inertias in kg·m², rpy is fixed-axis roll about x, pitch about y, yaw about z (REP 103).

The model holds what the file says, including what is wrong with it (two links of one name,
a NaN limit, an unknown joint type): the checker (:mod:`urdf_tools_ros.core.checks`) reports
those, and the kinematic code refuses them. Every element keeps its :class:`SourceLocation`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Union

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

    URDF 1.1 (urdfdom 5.1) allows ``quat_xyzw="x y z w"`` instead of ``rpy``: ``quat_xyzw`` is
    then that rotation as a unit quaternion (normalised by the reader) and ``rpy`` the same
    rotation as roll, pitch, yaw, so code reading ``rpy`` poses the element alike;
    :func:`~urdf_tools_ros.core.transforms.origin_transform` uses the quaternion.
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
    """
    URDF 1.1 ``<capsule radius length>`` (urdfdom 5.1), m.

    A cylinder of ``length`` along z of the element frame, centred, with a hemisphere of
    ``radius`` on each end (total height ``length + 2 * radius``).
    """

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
    """
    URDF ``<mesh filename scale>``: a mesh file scaled per axis (default 1, 1, 1).

    ``filename`` is as written (``package://``, ``file://`` or relative); ``resolved`` is the
    local path the loader found for it, or ``None`` when it could not be resolved.
    """

    filename: str
    scale: Vector3 = (1.0, 1.0, 1.0)
    resolved: str | None = None
    location: SourceLocation | None = field(default=None, compare=False)


Geometry = Union[Box, Cylinder, Sphere, Mesh, Capsule]


def geometry_sizes(geometry: Geometry) -> tuple[tuple[str, float], ...]:
    """
    The numbers a geometry is written with, each named by its attribute (URDF spec, geometry).

    :return: A box's ``('size', x), ('size', y), ('size', z)``; a cylinder's or capsule's
        ``('radius', r), ('length', l)``; a sphere's ``('radius', r)`` (all m, as written:
        NaN, inf and negative values included); a mesh's ``('scale', s)`` per axis (unitless).
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

    A visual's material that names a global material and gives neither colour nor texture is a
    reference; the loader keeps it as written and :meth:`Robot.material` resolves it.
    ``texture`` is the filename as written; ``texture_resolved`` the local path the loader found
    for it, or ``None`` when it could not be resolved.
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
    """
    URDF ``<visual>``: geometry placed by ``origin`` in the link frame, with a material.

    ``unknown_shape`` is the tag of a shape URDF does not define (``geometry`` is then None).
    """

    geometry: Geometry | None
    origin: Origin = Origin()
    name: str | None = None
    material: Material | None = None
    location: SourceLocation | None = None
    unknown_shape: str | None = None


@dataclass(frozen=True, slots=True)
class Collision:
    """
    URDF ``<collision>``: geometry placed by ``origin`` in the link frame.

    ``unknown_shape`` is the tag of a shape URDF does not define (``geometry`` is then None).
    """

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
    #: Where the element stands (not part of equality: two equal limits are equal anywhere).
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Dynamics:
    """URDF ``<dynamics>``: damping (N·s/m or N·m·s/rad) and static friction (N or N·m)."""

    damping: float = 0.0
    friction: float = 0.0
    #: Where the element stands (not part of equality: two equal limits are equal anywhere).
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Limit:
    """
    URDF ``<limit>``: position range (rad or m), maximum effort (N or N·m) and velocity.

    ``lower``/``upper`` default to 0 as in the spec; ``effort`` and ``velocity`` are required by
    the spec and are ``None`` here only when the file leaves them out (a checker error).
    """

    lower: float = 0.0
    upper: float = 0.0
    effort: float | None = None
    velocity: float | None = None
    #: Where the element stands (not part of equality: two equal limits are equal anywhere).
    location: SourceLocation | None = field(default=None, compare=False)
    #: URDF 1.2 (urdfdom 6.0): maximum acceleration, deceleration (rad/s², m/s²) and jerk
    #: (rad/s³, m/s³); ``None`` when not given or the file declares an earlier version.
    acceleration: float | None = None
    deceleration: float | None = None
    jerk: float | None = None


@dataclass(frozen=True, slots=True)
class Mimic:
    """URDF ``<mimic>``: ``position = multiplier * position(joint) + offset``."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    #: Where the element stands (not part of equality: two equal limits are equal anywhere).
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SafetyController:
    """
    URDF ``<safety_controller>``: soft position limits and the gains of the safety model.

    The spec gives 0 as the default of ``soft_lower_limit`` and ``soft_upper_limit``, which
    urdf_parser_py applies, so an absent soft limit would clamp a joint to 0. We keep an absent
    soft limit as ``None`` ("no soft limit on that side"), as joint_state_publisher does when it
    narrows limits only by attributes that are present. ``k_position`` defaults to 0 (spec);
    ``k_velocity`` is required by the spec and ``None`` only when missing (a checker error).
    """

    soft_lower_limit: float | None = None
    soft_upper_limit: float | None = None
    k_position: float = 0.0
    k_velocity: float | None = None
    #: Where the element stands (not part of equality: two equal limits are equal anywhere).
    location: SourceLocation | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Joint:
    """
    URDF ``<joint>``: moves ``child`` relative to ``parent``.

    ``origin`` is ``T_parent_joint`` (the joint frame in the parent link frame, which is also the
    child link frame at position 0). ``axis`` is in the joint frame, default (1, 0, 0) as in the
    spec; the loader keeps it as written (the checker reports a zero or non-unit axis).
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
    """
    An XML element kept as data: tag, attributes, text and children, with its location.

    Used for ``<gazebo>`` blocks and for elements the URDF specification does not define.
    """

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
class TransmissionJoint:
    """A ``<joint>`` of a transmission with its hardware interfaces."""

    name: str
    hardware_interfaces: tuple[str, ...] = ()
    role: str | None = None
    mechanical_reduction: float | None = None
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class TransmissionActuator:
    """An ``<actuator>`` of a transmission; ``mechanical_reduction`` is dimensionless."""

    name: str
    mechanical_reduction: float | None = None
    hardware_interfaces: tuple[str, ...] = ()
    role: str | None = None
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Transmission:
    """
    A ``<transmission>`` in either form.

    The ROS 1 form names its class in ``<type>`` and gives ``hardwareInterface`` and
    ``mechanicalReduction``; the ros2_control form (inside ``<ros2_control>``) names it in
    ``<plugin>`` and gives ``mechanical_reduction``. Both land in ``transmission_type``.
    """

    name: str
    transmission_type: str | None = None
    joints: tuple[TransmissionJoint, ...] = ()
    actuators: tuple[TransmissionActuator, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Ros2ControlJoint:
    """A ``<joint>`` of a ``<ros2_control>`` block with its command and state interfaces."""

    name: str
    command_interfaces: tuple[str, ...] = ()
    state_interfaces: tuple[str, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Ros2Control:
    """A ``<ros2_control name type>`` block: hardware plugin, joints and transmissions."""

    name: str
    control_type: str | None = None
    plugin: str | None = None
    joints: tuple[Ros2ControlJoint, ...] = ()
    transmissions: tuple[Transmission, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Gazebo:
    """A ``<gazebo>`` block: optional ``reference`` (a link or joint) and its children as data."""

    reference: str | None = None
    children: tuple[XmlData, ...] = ()
    location: SourceLocation | None = None


@dataclass(frozen=True)
class Robot:
    """
    URDF ``<robot>``: the whole description, elements in file order.

    Links, joints and materials are tuples so that duplicates stay visible to the checker;
    :meth:`link`, :meth:`joint` and :meth:`material` look up the first one of a name.
    """

    name: str
    version: str | None = None
    links: tuple[Link, ...] = ()
    joints: tuple[Joint, ...] = ()
    materials: tuple[Material, ...] = ()
    transmissions: tuple[Transmission, ...] = ()
    ros2_control: tuple[Ros2Control, ...] = ()
    gazebo: tuple[Gazebo, ...] = ()
    unknown_elements: tuple[XmlData, ...] = ()
    location: SourceLocation | None = None
    #: ``<sensor>`` elements (URDF spec, sensor), kept as data.
    sensors: tuple[XmlData, ...] = ()

    @cached_property
    def link_map(self) -> dict[str, Link]:
        """
        Links by name, first of each name, in file order.

        A link without a name (``''``, the reader's ``attribute-missing``) is not in it: nothing
        can refer to it, and a joint whose ``<child>`` has no link is not attached to it.
        """
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
        """
        Return the link called ``name``.

        :raises UnknownLinkError: if there is none.
        """
        from ..errors import UnknownLinkError
        try:
            return self.link_map[name]
        except KeyError:
            raise UnknownLinkError(f'robot "{self.name}" has no link "{name}"') from None

    def joint(self, name: str) -> Joint:
        """
        Return the joint called ``name``.

        :raises UnknownJointError: if there is none.
        """
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
