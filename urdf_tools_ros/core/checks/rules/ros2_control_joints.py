"""
``<ros2_control>`` joints against the URDF: what ros2_control 4.x (Jazzy and later) refuses.

From hardware_interface ``src/component_parser.cpp`` (branch jazzy;
``parse_control_resources_from_urdf`` reads the URDF with urdfdom after the blocks and throws on a
joint it lacks, a fixed joint and mimic joints it cannot follow; ``update_interface_limits``
takes the min/max of command interfaces as joint limits) and ``src/resource_manager.cpp``
(interfaces declared twice). ros2_control 2.x (Humble) checks none of this: a warning there.
"""

from __future__ import annotations

from collections.abc import Iterator

from .ros2_control import block_owner, is_bool, PARSER, reads
from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...model.ros2_control import Component, Interface, Ros2Control

_4X = ('ros2_control',)

JOINT_MISSING = rule('ros2-control-joint-missing', Severity.WARNING,
                     'a <ros2_control> block names a joint that is not in the robot',
                     consumers=_4X,
                     reference=f'{PARSER} (jazzy) parse_control_resources_from_urdf: '
                               '"Joint \'...\' not found in URDF"; humble does not check')
JOINT_FIXED = rule('ros2-control-joint-fixed', Severity.WARNING,
                   'a <ros2_control> joint is a fixed joint of the robot', consumers=_4X,
                   reference=f'{PARSER} (jazzy) parse_control_resources_from_urdf: "Fixed '
                             'joints do not make sense in ros2_control"')
MIMIC_INVALID = rule('ros2-control-mimic-invalid', Severity.WARNING,
                     'mimic="true" on a joint without URDF <mimic>, or a URDF mimic joint (mimic '
                     'not "false") with command interfaces or whose source is not in the block',
                     consumers=_4X,
                     reference=f'{PARSER} (jazzy) parse_control_resources_from_urdf: the mimic '
                               'checks after urdf::Model::initString')
MIMIC_PARAM = rule('ros2-control-mimic-param', Severity.INFO,
                   'the pre-Jazzy <param name="mimic">: mock_components of ros2_control 4.x '
                   'ignores it and follows the URDF <mimic>',
                   reference='hardware_interface mock_components/generic_system.cpp (humble: '
                             'reads the param; jazzy: hardware_info.mimic_joints); '
                             'ros2_control#1553')
INTERFACE_DUPLICATE = rule('ros2-control-interface-duplicate', Severity.WARNING,
                           'an interface (component/name) is declared twice', consumers=_4X,
                           reference='hardware_interface/src/resource_manager.cpp (jazzy: '
                                     'add_state_interface, insert_command_interface throw '
                                     '"already existing key"; humble keeps the first)')
LIMITS_IGNORED = rule('ros2-control-limits-ignored', Severity.WARNING,
                      'a min/max <param> of a joint command interface that ros2_control 4.x '
                      'does not apply as a joint limit',
                      reference=f'{PARSER} (jazzy) update_interface_limits, '
                                'set_custom_interface_values, retrieve_min_max_interface_values')

#: Command interfaces whose min/max ros2_control 4.x applies as joint limits.
_LIMITED = ('position', 'velocity', 'effort', 'acceleration', 'jerk')


@check(codes=(JOINT_MISSING, JOINT_FIXED, MIMIC_INVALID, MIMIC_PARAM, INTERFACE_DUPLICATE,
              LIMITS_IGNORED))
def check_ros2_control_joints(ctx: CheckContext) -> Iterator[Finding]:
    """Report joints ros2_control 4.x refuses against the URDF, and interfaces declared twice."""
    joints = ctx.robot.joint_map
    keys: dict[tuple[str, str], tuple[Ros2Control, Interface]] = {}
    for control in ctx.robot.ros2_control_read:
        element, owner = block_owner(control)
        names = {joint.name for joint in control.joints}
        for component in control.components:
            for kind, interfaces in (('command', component.command_interfaces),
                                     ('state', component.state_interfaces)):
                for interface in interfaces:
                    if not (component.name and interface.name):
                        continue
                    key = (kind, f'{component.name}/{interface.name}')
                    first = keys.setdefault(key, (control, interface))
                    if first[1] is not interface:
                        apart = first[0] is not control
                        yield ctx.finding(
                            INTERFACE_DUPLICATE, element,
                            f'{owner}: {kind} interface "{key[1]}" is declared again (first at '
                            f'{first[1].location}); ' + (
                                "ros2_control 4.x refuses the second hardware, Humble's keeps "
                                'the first' if apart else 'one handle serves both'),
                            interface.location, 'declare each interface once',
                            None if apart else ())
        for joint in control.joints:
            urdf = joints.get(joint.name)
            if not joint.name:
                continue
            if urdf is None:
                yield ctx.finding(JOINT_MISSING, element,
                                  f'{owner}: joint "{joint.name}" is not in the robot '
                                  f'(ros2_control 4.x throws "Joint \'{joint.name}\' not found '
                                  'in URDF")', joint.location,
                                  "name one of the robot's joints (names are case-sensitive)")
                continue
            if urdf.joint_type == 'fixed':
                yield ctx.finding(JOINT_FIXED, element,
                                  f'{owner}: joint "{joint.name}" is fixed; ros2_control 4.x '
                                  'throws "Fixed joints do not make sense in ros2_control"',
                                  joint.location, 'remove the joint from <ros2_control>')
            yield from _mimic(ctx, control, joint, urdf.mimic.joint if urdf.mimic else None,
                              names)
            yield from _limits(ctx, control, joint)


def _mimic(ctx: CheckContext, control: Ros2Control, joint: Component, source: str | None,
           names: set[str]) -> Iterator[Finding]:
    """The mimic checks of ros2_control 4.x, and the 2.x ``<param name="mimic">``."""
    element, owner = block_owner(control)
    mimic = (joint.mimic or '').strip().lower()
    problem = None
    if source is None and mimic == 'true':
        problem = 'mimic="true" but its URDF joint has no <mimic>'
    elif source is not None and mimic != 'false' and joint.command_interfaces:
        problem = ('is a URDF mimic joint with command interfaces (ros2_control 4.x: "Activated '
                   'mimic joints cannot have command interfaces")')
    elif source is not None and mimic != 'false' and source not in names:
        problem = f'mimics "{source}", which the block does not declare'
    if problem and (joint.mimic is None or is_bool(joint.mimic)):
        yield ctx.finding(MIMIC_INVALID, element, f'{owner}: joint "{joint.name}" {problem}',
                          joint.location, 'mimic="false" to command it as a joint of its own, '
                          'or remove its command interfaces and declare the joint it mimics')
    param = next((p for p in joint.parameters if p.name == 'mimic'), None)
    if param is not None:
        mock = control.hardware is not None and control.hardware.plugin == \
            'mock_components/GenericSystem'
        yield ctx.finding(MIMIC_PARAM, element,
                          f'{owner}: joint "{joint.name}" has <param name="mimic">, which '
                          'ros2_control 4.x ignores: from Jazzy a joint mimics what its URDF '
                          '<mimic> says' + ('' if source else ' (this one has none)'),
                          param.location, 'write <mimic joint="..."/> in the URDF joint',
                          _4X if mock and source is None else ())


def _limits(ctx: CheckContext, control: Ros2Control, joint: Component) -> Iterator[Finding]:
    """The min/max of a command interface that ros2_control 4.x skips as a joint limit."""
    element, owner = block_owner(control)
    if joint.limits and (joint.limits.enable or '').strip().lower() == 'false':
        return
    for interface in joint.command_interfaces:
        if interface.limits and (interface.limits.enable or '').strip().lower() == 'false':
            continue
        for bound in ('min', 'max'):
            param = interface.param(bound)
            if param is None or not param.value:
                continue
            why = ('is not a limit ros2_control knows (position, velocity, effort, '
                   'acceleration, jerk)' if interface.name not in _LIMITED
                   else 'is ignored: jerk has only a max' if (interface.name, bound) == (
                       'jerk', 'min')
                   else 'is not a number' if not reads(param.value, 'float') else None)
            if why:
                yield ctx.finding(LIMITS_IGNORED, element,
                                  f'{owner}: joint "{joint.name}" {interface.name} <param '
                                  f'name="{bound}">{param.value}</param> {why}; ros2_control '
                                  '4.x does not apply it',
                                  param.location, 'write a number for position, velocity, '
                                  'effort, acceleration or jerk (max only)')
