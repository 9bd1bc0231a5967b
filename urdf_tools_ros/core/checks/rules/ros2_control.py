"""
``<ros2_control>`` rules: what the controller manager of each distro refuses or drops.

From hardware_interface ``src/component_parser.cpp`` (``parse_control_resources_from_urdf`` and
the ``detail`` helpers it calls) and ``src/resource_manager.cpp`` (``load_urdf``), on the branches
humble (ros2_control 2.x, consumer ``ros2_control-humble``) and jazzy (4.x; kilted and master, of
Kilted, Lyrical and Rolling, parse alike: consumer ``ros2_control``). Both throw on a required
attribute or ``<plugin>`` that is absent, an unknown child of ``<ros2_control>``, a ``size`` that
is not a positive integer and a transmission naming a joint the block lacks; 4.x also reads
booleans and integers 2.x ignores, and checks the joints against the URDF
(:mod:`.ros2_control_joints`). Absent required attributes are the reader's ``attribute-missing``
(:mod:`~urdf_tools_ros.core.model.ros2_control_reader`).
"""

from __future__ import annotations

from collections.abc import Iterator
import re

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...location import SourceLocation
from ...model.ros2_control import (Component, EVERY_ROS2_CONTROL, HARDWARE_TYPES, Interface,
                                   Ros2Control)

_EVERY = EVERY_ROS2_CONTROL
_4X = ('ros2_control',)
PARSER = 'hardware_interface/src/component_parser.cpp'

NOT_FOUND = rule('ros2-control-not-found', Severity.WARNING,
                 'a <ros2_control> block that is not a direct child of <robot> (e.g. inside '
                 '<gazebo>): ros2_control never reads it', consumers=_EVERY,
                 reference=f'{PARSER} (humble, jazzy) parse_control_resources_from_urdf: '
                           'robot_it->FirstChildElement("ros2_control"); ros2_control#1602')
TYPE_UNKNOWN = rule('ros2-control-type-unknown', Severity.WARNING,
                    '<ros2_control type> is not system, actuator or sensor: the resource manager '
                    'loads nothing for the block', consumers=_EVERY,
                    reference='hardware_interface/src/resource_manager.cpp (humble, jazzy) '
                              'load_urdf: only system_type, sensor_type and actuator_type load')
PLUGIN_MISSING = rule('ros2-control-plugin-missing', Severity.WARNING,
                      'a <ros2_control> block without <hardware><plugin>, or one of its '
                      'transmissions without <plugin>', consumers=_EVERY,
                      reference=f'{PARSER} (humble, jazzy) parse_resource_from_xml and '
                                'parse_transmission_from_xml: "Missing <plugin> tag"; '
                                'resource_manager.cpp load_hardware: no plugin to load')
ELEMENT_UNKNOWN = rule('ros2-control-element-unknown', Severity.INFO,
                       'a child of <ros2_control> the parser does not know (2.x: hardware, '
                       'joint, sensor, gpio, transmission; 4.x also properties)',
                       consumers=_EVERY,
                       reference=f'{PARSER} (humble, jazzy) parse_resource_from_xml: '
                                 '"invalid tag name"')
VALUE_INVALID = rule('ros2-control-value-invalid', Severity.WARNING,
                     'a value ros2_control cannot read: a boolean other than true/false, a size, '
                     'rw_rate or thread_priority that is not a positive integer, an unknown '
                     'data_type or an initial_value of the wrong type', consumers=_4X,
                     reference=f'{PARSER} (humble: parse_size_attribute; jazzy: '
                               'parse_component_from_xml, parse_interfaces_from_xml, '
                               'parse_resource_from_xml, lexical_casts.cpp parse_bool); '
                               'hardware_interface/handle.hpp (jazzy) Handle: data types')
HARDWARE_DUPLICATE = rule('ros2-control-hardware-duplicate', Severity.WARNING,
                          'two <ros2_control> blocks have the same name', consumers=_EVERY,
                          reference='hardware_interface/src/resource_manager.cpp (humble: '
                                    'check_for_duplicates throws; jazzy: load_urdf fails) '
                                    '"Hardware name ... is duplicated"')
TRANSMISSION_INVALID = rule('ros2-control-transmission-invalid', Severity.WARNING,
                            'a <ros2_control> transmission names a joint the block does not '
                            'declare, or an actuator block has a transmission with other than '
                            'one joint', consumers=_EVERY,
                            reference=f'{PARSER} (humble, jazzy) '
                                      'auto_fill_transmission_interfaces')

#: Interface data types of ros2_control 4.x handles, each with how its initial_value reads
#: (hardware_info.hpp ``HandleDataType``, handle.hpp ``Handle``): a float, a boolean or an
#: integer range.
_DATA_TYPES: dict[str, tuple[int, int] | str] = {
    'double': 'float', 'float32': 'float', 'bool': 'bool', 'uint8': (0, 2**8 - 1),
    'int8': (-2**7, 2**7 - 1), 'uint16': (0, 2**16 - 1), 'int16': (-2**15, 2**15 - 1),
    'uint32': (0, 2**32 - 1), 'int32': (-2**31, 2**31 - 1)}
_FLOAT = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?')
_INTEGER = re.compile(r'\s*[+-]?\d+')
_POSITIVE = re.compile(r'[1-9][0-9]*')
_INT_MAX = 2**31 - 1
#: A value ros2_control refuses: what it is, as written, where, the consumers refusing it.
_Value = tuple[str, str, SourceLocation | None, tuple[str, ...]]


def is_bool(text: str) -> bool:
    """Whether ros2_control 4.x reads ``text`` as a boolean (``parse_bool``: true, false)."""
    return text.strip().lower() in ('true', 'false')


def _is_positive(text: str) -> bool:
    return bool(_POSITIVE.fullmatch(text.strip())) and int(text) <= _INT_MAX


def reads(text: str, kind: tuple[int, int] | str) -> bool:
    """Whether ros2_control 4.x reads ``text`` as a value of ``kind`` (lexical_casts)."""
    if isinstance(kind, str):
        return is_bool(text) if kind == 'bool' else bool(_FLOAT.fullmatch(text)) and abs(
            float(text)) != float('inf')
    low, high = kind
    return bool(_INTEGER.fullmatch(text)) and low <= int(text) <= high


def _values(control: Ros2Control) -> Iterator[_Value]:
    """Yield ``(what, value, location, consumers)`` of each value ros2_control cannot read."""
    where = control.location
    if control.rw_rate is not None:
        match = _INTEGER.match(control.rw_rate)
        if not match or not 0 <= int(match.group()) <= _INT_MAX:
            yield 'rw_rate', control.rw_rate, where, _4X
    if control.is_async is not None and not is_bool(control.is_async):
        yield 'is_async', control.is_async, where, _4X
    elif control.is_async and control.is_async.strip().lower() == 'true' \
            and control.thread_priority is not None and not _is_positive(control.thread_priority):
        yield 'thread_priority', control.thread_priority, where, _4X
    if control.properties is not None:
        properties = control.properties
        priority, warnings = (properties.async_attribute(name)
                              for name in ('thread_priority', 'print_warnings'))
        if priority is not None and not _is_positive(priority):
            yield '<async thread_priority>', priority, properties.location, _4X
        if warnings is not None and not is_bool(warnings):
            yield '<async print_warnings>', warnings, properties.location, _4X
    for component in control.components:
        if component.component_type == 'joint' and component.mimic is not None \
                and not is_bool(component.mimic):
            yield f'<joint name="{component.name}" mimic>', component.mimic, \
                component.location, _4X
        for limits in (component.limits, *(i.limits for i in component.interfaces)):
            if limits is not None and limits.enable is not None and not is_bool(limits.enable):
                yield '<limits enable>', limits.enable, limits.location, _4X
        for interface in component.interfaces:
            yield from _interface_values(component, interface)
    for transmission in control.transmissions:
        parts = [('joint', part.read_only, part.location) for part in transmission.joints]
        parts += [('actuator', part.read_only, part.location) for part in transmission.actuators]
        for tag, read_only, location in parts:
            if read_only is not None and not is_bool(read_only):
                yield f'<{tag} read_only>', read_only, location, _4X


def _interface_values(component: Component, interface: Interface) -> Iterator[_Value]:
    """The ``size``, ``data_type`` and ``initial_value`` of an interface ros2_control refuses."""
    tag = f'<{component.component_type} name="{component.name}"> interface "{interface.name}"'
    if interface.size is not None and not _is_positive(interface.size):
        gpio = component.component_type == 'gpio'  # 2.x reads size on GPIOs only
        yield f'{tag} size', interface.size, interface.location, _EVERY if gpio else _4X
    kind = _DATA_TYPES.get((interface.data_type or 'double').strip())
    if kind is None:
        yield f'{tag} data_type', interface.data_type or '', interface.location, _4X
        return
    initial = interface.param('initial_value')
    if initial is not None and initial.value and not reads(initial.value, kind):
        yield f'{tag} initial_value ({interface.data_type or "double"})', initial.value, \
            initial.location, _4X


def block_owner(control: Ros2Control) -> tuple[str, str]:
    """The element and the message prefix of a block's findings."""
    return f'ros2_control:{control.name}', f'ros2_control "{control.name}"'


@check(codes=(NOT_FOUND, TYPE_UNKNOWN, PLUGIN_MISSING, ELEMENT_UNKNOWN, VALUE_INVALID,
              HARDWARE_DUPLICATE, TRANSMISSION_INVALID))
def check_ros2_control_blocks(ctx: CheckContext) -> Iterator[Finding]:
    """Report what the parser and the resource manager refuse in a block, whatever the URDF."""
    seen: dict[str, Ros2Control] = {}
    for control in ctx.robot.ros2_control:
        element, owner = block_owner(control)
        if not control.is_read:
            yield ctx.finding(NOT_FOUND, element,
                              f'{owner} is inside <{control.parent}>: ros2_control reads only '
                              'the <ros2_control> children of <robot> (it never finds this one)',
                              control.location, f'move it out of <{control.parent}>, into <robot>')
            continue
        first = seen.setdefault(control.name, control)
        if control.name and first is not control:
            yield ctx.finding(HARDWARE_DUPLICATE, element,
                              f'{owner}: a second block of this name (the first is at '
                              f'{first.location}); the resource manager refuses it',
                              control.location, 'give each <ros2_control> a unique name')
        if control.control_type is not None and control.control_type not in HARDWARE_TYPES:
            yield ctx.finding(TYPE_UNKNOWN, element,
                              f'{owner}: type="{control.control_type}" is none of system, '
                              'actuator, sensor: the resource manager loads nothing for it',
                              control.location, 'type="system" (or actuator, sensor)')
        yield from _plugins(ctx, control)
        for tag, location in control.unknown_elements:
            yield ctx.finding(ELEMENT_UNKNOWN, element,
                              f'{owner}: <{tag}> is not a child ros2_control knows '
                              '(it throws "invalid tag name")', location,
                              'remove it, or move it where it belongs (<param> goes inside '
                              '<hardware> or a <joint>)')
        if control.properties is not None:
            yield ctx.finding(ELEMENT_UNKNOWN, element,
                              f'{owner}: <properties> is read from ros2_control 4.x (Jazzy); '
                              'the 2.x of Humble throws "invalid tag name"',
                              control.properties.location, 'leave it out for Humble',
                              ('ros2_control-humble',))
        for what, value, where, consumers in _values(control):
            which = 'of every distro' if consumers == _EVERY else '4.x (Jazzy and later)'
            yield ctx.finding(VALUE_INVALID, element,
                              f'{owner}: {what}="{value}" cannot be read by ros2_control {which}',
                              where, 'true or false for a boolean, a positive integer for a '
                              'size or priority, a data_type of double, float32, bool, '
                              '(u)int8/16/32 and an initial_value of that type', consumers)
        yield from _transmissions(ctx, control)


def _plugins(ctx: CheckContext, control: Ros2Control) -> Iterator[Finding]:
    element, owner = block_owner(control)
    hardware = control.hardware
    if hardware is None or not hardware.plugin:
        what = ('has no <hardware>' if hardware is None else
                'has <hardware> without <plugin>' if hardware.plugin is None
                else 'has an empty <hardware><plugin>')
        yield ctx.finding(PLUGIN_MISSING, element,
                          f'{owner} {what}: ros2_control loads no hardware for it',
                          control.location if hardware is None else hardware.location,
                          '<hardware><plugin>mock_components/GenericSystem</plugin></hardware>')
    for transmission in control.transmissions:
        if transmission.plugin is None:
            yield ctx.finding(PLUGIN_MISSING, element,
                              f'{owner}: transmission "{transmission.name}" has no <plugin> '
                              '(ros2_control throws "Missing <plugin> tag of <transmission>")',
                              transmission.location,
                              '<plugin>transmission_interface/SimpleTransmission</plugin>')


def _transmissions(ctx: CheckContext, control: Ros2Control) -> Iterator[Finding]:
    element, owner = block_owner(control)
    declared = {joint.name for joint in control.joints}
    for transmission in control.transmissions:
        for part in transmission.joints:
            if part.name and part.name not in declared:
                yield ctx.finding(TRANSMISSION_INVALID, element,
                                  f'{owner}: transmission "{transmission.name}" drives joint '
                                  f'"{part.name}", which the block does not declare (ros2_control '
                                  'throws "is not available in component")',
                                  part.location or transmission.location,
                                  f'add <joint name="{part.name}"> with its interfaces to the '
                                  'block')
        if control.control_type == 'actuator' and len(transmission.joints) != 1:
            yield ctx.finding(TRANSMISSION_INVALID, element,
                              f'{owner}: transmission "{transmission.name}" of an actuator has '
                              f'{len(transmission.joints)} joints; ros2_control wants exactly one',
                              transmission.location, 'one <joint> per actuator transmission, or '
                              'type="system"')
