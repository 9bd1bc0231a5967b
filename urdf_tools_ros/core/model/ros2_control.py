"""
A ``<ros2_control>`` block in ros2_control's own words: hardware, components and interfaces.

Names follow hardware_interface's ``HardwareInfo``, ``ComponentInfo`` and ``InterfaceInfo``
(``hardware_interface/hardware_info.hpp``) and the tags its parser reads
(``component_parser.cpp``, branches humble and jazzy). Values are kept as written, as text: the
parser of each distro decides what they mean (``mimic="True"`` is a boolean for ros2_control 4.x,
``mimic="yes"`` is refused); an absent attribute is ``None``, an empty one ``''``. Every element
keeps its location. A ``<transmission>`` of a block and one of ``<robot>`` (ros_control's form,
read by ROS 1 tools and Gazebo Classic) share :class:`Transmission`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..location import SourceLocation

#: The ``type`` values the resource manager loads; it skips a block of any other type.
HARDWARE_TYPES = ('system', 'actuator', 'sensor')
#: The consumers (:data:`~urdf_tools_ros.core.checks.registry.CONSUMERS`) of every distro's
#: ros2_control: 2.x (Humble) and 4.x (Jazzy and later).
EVERY_ROS2_CONTROL = ('ros2_control-humble', 'ros2_control')


@dataclass(frozen=True, slots=True)
class Param:
    """A ``<param name="...">value</param>``; ``value`` is the text without surrounding spaces."""

    name: str
    value: str = ''
    location: SourceLocation | None = None


def parameter(parameters: tuple[Param, ...], name: str) -> Param | None:
    """The ``<param>`` called ``name``: the last one, as the parser's map keeps the last."""
    return next((param for param in reversed(parameters) if param.name == name), None)


@dataclass(frozen=True, slots=True)
class Limits:
    """A ``<limits enable>`` element (ros2_control 4.x): ``enable`` as written, or ``None``."""

    enable: str | None = None
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Interface:
    """
    A ``<command_interface>`` or ``<state_interface>`` (``InterfaceInfo``).

    ``data_type`` and ``size`` are the attributes as written (``None``: absent, a single
    double); ``min``, ``max`` and ``initial_value`` are ``<param>`` children (:meth:`param`).
    """

    name: str
    parameters: tuple[Param, ...] = ()
    data_type: str | None = None
    size: str | None = None
    limits: Limits | None = None
    location: SourceLocation | None = None

    def param(self, name: str) -> Param | None:
        """The ``<param>`` called ``name`` (``min``, ``max``, ``initial_value``), or ``None``."""
        return parameter(self.parameters, name)


@dataclass(frozen=True, slots=True)
class Component:
    """
    A ``<joint>``, ``<sensor>`` or ``<gpio>`` of a block (``ComponentInfo``).

    ``mimic`` is the joint's ``mimic`` attribute as written (read by ros2_control 4.x only);
    ``limits`` its ``<limits enable>`` child (4.x).
    """

    name: str
    component_type: str = 'joint'
    command_interfaces: tuple[Interface, ...] = ()
    state_interfaces: tuple[Interface, ...] = ()
    parameters: tuple[Param, ...] = ()
    mimic: str | None = None
    limits: Limits | None = None
    location: SourceLocation | None = None

    @property
    def interfaces(self) -> tuple[Interface, ...]:
        """The command interfaces, then the state interfaces."""
        return self.command_interfaces + self.state_interfaces


@dataclass(frozen=True, slots=True)
class Hardware:
    """``<hardware>``: the ``<plugin>`` text (``None``: no ``<plugin>``) and its params."""

    plugin: str | None = None
    parameters: tuple[Param, ...] = ()
    #: The ``<group>`` text (ros2_control 4.x), or ``None``.
    group: str | None = None
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class TransmissionJoint:
    """A ``<joint>`` of a transmission with its hardware interfaces."""

    name: str
    hardware_interfaces: tuple[str, ...] = ()
    role: str | None = None
    mechanical_reduction: float | None = None
    location: SourceLocation | None = None
    #: ros2_control 4.x ``read_only`` attribute as written, or ``None``.
    read_only: str | None = None


@dataclass(frozen=True, slots=True)
class TransmissionActuator:
    """An ``<actuator>`` of a transmission; ``mechanical_reduction`` is dimensionless."""

    name: str
    mechanical_reduction: float | None = None
    hardware_interfaces: tuple[str, ...] = ()
    role: str | None = None
    location: SourceLocation | None = None
    #: ros2_control 4.x ``read_only`` attribute as written, or ``None``.
    read_only: str | None = None


@dataclass(frozen=True, slots=True)
class Transmission:
    """
    A ``<transmission>``: ``transmission_type`` is its ``<type>`` (ROS 1) or ``<plugin>``.

    ``plugin`` is the ``<plugin>`` text (``None``: none), which ros2_control requires;
    ``parameters`` the ``<param>``s of one in a ``<ros2_control>`` block.
    """

    name: str
    transmission_type: str | None = None
    joints: tuple[TransmissionJoint, ...] = ()
    actuators: tuple[TransmissionActuator, ...] = ()
    location: SourceLocation | None = None
    plugin: str | None = None
    parameters: tuple[Param, ...] = ()


@dataclass(frozen=True, slots=True)
class Properties:
    """``<properties>`` (ros2_control 4.x): the attributes of its first ``<async>`` as written."""

    asynchronous: tuple[tuple[str, str], ...] | None = None
    location: SourceLocation | None = None

    def async_attribute(self, name: str) -> str | None:
        """The ``<async>`` attribute ``name`` as written, or ``None``."""
        return dict(self.asynchronous or ()).get(name)


@dataclass(frozen=True, slots=True)
class Ros2Control:
    """
    A ``<ros2_control name type>`` block (``HardwareInfo``), children in file order per tag.

    ``control_type`` is ``type`` as written (``None``: absent). ``rw_rate``, ``is_async`` and
    ``thread_priority`` are attributes ros2_control 4.x reads, ``properties`` its
    ``<properties>`` child; ``unknown_elements`` the children no parser accepts. ``parent`` is
    the tag of the enclosing element: ros2_control reads only a block whose parent is ``robot``.
    """

    name: str
    control_type: str | None = None
    hardware: Hardware | None = None
    joints: tuple[Component, ...] = ()
    sensors: tuple[Component, ...] = ()
    gpios: tuple[Component, ...] = ()
    transmissions: tuple[Transmission, ...] = ()
    properties: Properties | None = None
    #: The tag and location of each child the parser refuses.
    unknown_elements: tuple[tuple[str, SourceLocation | None], ...] = ()
    rw_rate: str | None = None
    is_async: str | None = None
    thread_priority: str | None = None
    parent: str = 'robot'
    location: SourceLocation | None = None

    @property
    def is_read(self) -> bool:
        """Whether ros2_control finds the block: a direct child of ``<robot>``."""
        return self.parent == 'robot'

    @property
    def components(self) -> tuple[Component, ...]:
        """The joints, sensors and GPIOs."""
        return self.joints + self.sensors + self.gpios
