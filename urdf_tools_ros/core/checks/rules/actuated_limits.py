"""
Limits that command an actuated joint: ``effort``/``velocity`` of 0 and the safety controller.

An actuated joint has a command interface in a ``<ros2_control>`` block that ros2_control reads,
or a ``<joint>`` in a transmission. From Kilted (ros2_control 5.x, 6.x) the controller manager
clamps every command to the URDF's limits by default: ``enforce_command_limits`` is true in
``controller_manager/src/controller_manager_parameters.yaml`` (branches kilted, master), false on
jazzy, absent on humble; ``ControllerManager::init_resource_manager`` then calls
``import_joint_limiters``. Its limits are ``getJointLimits`` (``joint_limits_urdf.hpp``:
``|velocity|`` and ``|effort|``, always set when a ``<limit>`` is written) narrowed by the
interfaces (``component_parser.cpp`` ``update_interface_limits``; ``<limits enable="false">`` on
the joint drops them, on a velocity or effort interface drops that one);
``joint_limits_helpers.cpp`` bounds a position command to the previous one ± velocity·dt, a
velocity command to ± velocity and an effort command to ± effort (to 0 against a motion beyond
velocity). A ``<safety_controller>``
makes the limiter a ``JointSoftLimiter`` (``joint_soft_limiter.cpp``), with the soft limits as
urdfdom reads them (an absent one is 0) intersected with ``lower``/``upper``.

Gazebo takes both as the motor's limits: SDFormat's URDF conversion writes them into the joint
(``parser_urdf.cc``) and gz-physics makes them its force and velocity limits (dartsim
``SDFFeatures.cc`` ``CopyStandardJointAxisProperties``: only a negative one is no limit).
PyBullet keeps them unused (``btMultiBodyLink.h``: "unused for now, it is set by a URDF loader").

Severity: when the block declares the joint commanded and Kilted's limiter turns every command
of it into none, the targets whose ros2_control enforces limits by default move no joint where
the file says one moves (an error, consumer ``ros2_control-limits``); where ros2_control does not
clamp it (Jazzy, a transmission of ``<robot>``, an effort of 0 without an effort interface) or
the joint's other interfaces still move it (KUKA's effort="0" beside position commands), it is a
warning that says what each consumer does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..registry import check, CheckContext, format_value, rule
from ...findings import Finding, Severity
from ...model.robot import Joint, Robot, SafetyController
from ...model.ros2_control import Limits

_ENFORCING = 'ros2_control-limits'
_SOURCE = ('ros2_control controller_manager_parameters.yaml enforce_command_limits (default true '
           'on kilted and master, false on jazzy); joint_limits joint_limits_urdf.hpp '
           'getJointLimits')
ZERO_ACTUATED = rule(
    'joint-limit-zero-actuated', Severity.WARNING,
    'an actuated joint (a command interface in <ros2_control>, or in a transmission) has limit '
    'effort="0" or velocity="0": ros2_control from Kilted limits its commands by it, Gazebo its '
    'motor', consumers=(_ENFORCING,),
    reference=_SOURCE + '; joint_limits_helpers.cpp compute_position_limits, '
                        'compute_velocity_limits, compute_effort_limits; gz-physics dartsim '
                        'SDFFeatures.cc CopyStandardJointAxisProperties')
SAFETY_APPLIED = rule(
    'safety-controller-applied', Severity.INFO,
    "a <ros2_control> joint's <safety_controller>: ros2_control from Kilted applies its soft "
    'limits to every command by default',
    reference=_SOURCE + ', getSoftJointLimits; joint_soft_limiter.cpp JointSoftLimiter')

#: Command interfaces whose commands a velocity limit bounds (joint_limits_helpers.cpp).
_MOVING = frozenset({'position', 'velocity', 'effort'})
#: Below this a soft range is no range (joint_soft_limiter.hpp VALUE_CONSIDERED_ZERO).
_ZERO = 1e-10


def _enabled(limits: Limits | None) -> bool:
    return limits is None or (limits.enable or '').strip().lower() != 'false'


@dataclass
class _Drive:
    """How a joint is commanded: by whom, which interfaces, what ros2_control clamps."""

    owners: list[str] = field(default_factory=list)
    interfaces: set[str] = field(default_factory=set)
    #: The ``<limit>`` attributes whose 0 ros2_control applies to a command.
    clamped: set[str] = field(default_factory=set)
    #: A block applies the joint's limits (its soft limits too).
    limited: bool = False


def _drives(robot: Robot) -> dict[str, _Drive]:
    """The actuated joints by name."""
    drives: dict[str, _Drive] = {}
    for control in robot.ros2_control_read:
        for joint in control.joints:
            commands = joint.command_interfaces
            if not commands:
                continue
            drive = drives.setdefault(joint.name, _Drive())
            names = {interface.name for interface in commands}
            drive.owners.append(f'the {", ".join(sorted(names))} command interface'
                                f'{"s" if len(names) > 1 else ""} of ros2_control '
                                f'"{control.name}"')
            drive.interfaces |= names
            if not _enabled(joint.limits):
                continue
            drive.limited = True
            off = {interface.name for interface in commands if not _enabled(interface.limits)}
            if names & _MOVING and 'velocity' not in off:
                drive.clamped.add('velocity')
            if 'effort' in names and 'effort' not in off:
                drive.clamped.add('effort')
    transmissions = [*robot.transmissions, *(transmission for control in
                                             robot.ros2_control_read
                                             for transmission in control.transmissions)]
    for transmission in transmissions:
        for part in transmission.joints:
            drive = drives.setdefault(part.name, _Drive())
            drive.owners.append(f'transmission "{transmission.name}"')
    return drives


def _name(joint: Joint) -> str:
    return f'joint "{joint.name}" ({joint.joint_type})'


@check(codes=(ZERO_ACTUATED, SAFETY_APPLIED))
def check_actuated_limits(ctx: CheckContext) -> Iterator[Finding]:
    """Report a 0 effort or velocity of an actuated joint, and a safety controller applied."""
    drives = _drives(ctx.robot)
    for joint in ctx.robot.joints:
        drive = drives.get(joint.name)
        if drive is None or not joint.is_single_dof:
            continue
        owner = ' and '.join(dict.fromkeys(drive.owners))
        limit = joint.limit
        linear = joint.joint_type == 'prismatic'
        for attribute, unit in (('effort', 'N' if linear else 'N·m'),
                                ('velocity', 'm/s' if linear else 'rad/s')):
            if limit is None or getattr(limit, attribute) != 0:
                continue
            moving = drive.interfaces & _MOVING
            clamped = set() if attribute not in drive.clamped else \
                moving if attribute == 'velocity' else {'effort'}
            free = '/'.join(sorted(moving - clamped))
            ros2_control = '' if not clamped else (
                f'ros2_control from Kilted limits its {"/".join(sorted(clamped))} commands by it '
                "by default (enforce_command_limits; Jazzy's only when that is set)"
                + (f', not its {free} commands; ' if free else ': the joint never moves; '))
            yield ctx.finding(
                ZERO_ACTUATED, f'joint:{joint.name}',
                f'{_name(joint)}: limit {attribute}="0" on a joint driven by {owner}: '
                f"{ros2_control}Gazebo takes it as the motor's {attribute} limit and PyBullet "
                'leaves it unused', limit.location or joint.location,
                f"{attribute}=\"...\" with the actuator's rated {attribute} ({unit})",
                consumers=None if clamped and not free else ())
        if joint.safety_controller is not None and drive.limited:
            yield _safety_applied(ctx, joint, joint.safety_controller)


def _safety_applied(ctx: CheckContext, joint: Joint, safety: SafetyController) -> Finding:
    """What ros2_control's JointSoftLimiter makes of the joint's ``<safety_controller>``."""
    low, high = safety.soft_lower_limit or 0.0, safety.soft_upper_limit or 0.0
    limit = joint.limit
    if limit is not None and joint.joint_type in ('revolute', 'prismatic'):
        low, high = max(low, limit.lower), min(high, limit.upper)
    absent = [name for name, value in (('soft_lower_limit', safety.soft_lower_limit),
                                       ('soft_upper_limit', safety.soft_upper_limit))
              if value is None]
    read = f' ({" and ".join(absent)} absent: urdfdom reads 0)' if absent else ''
    positions = (f'position commands kept in [{format_value(low)}, {format_value(high)}]{read}'
                 if high - low > _ZERO else f'no soft range, so positions unbounded by it{read}')
    fix = ('write both soft_lower_limit and soft_upper_limit (ros2_control reads an absent one as '
           '0)') if absent else None
    return ctx.finding(
        SAFETY_APPLIED, f'joint:{joint.name}',
        f'{_name(joint)}: ros2_control from Kilted applies its <safety_controller> to every '
        f'command by default (JointSoftLimiter): {positions}, velocity near them by '
        f'k_position={format_value(safety.k_position)}, effort by k_velocity='
        f"{format_value(safety.k_velocity or 0.0)}; Jazzy's only with enforce_command_limits",
        safety.location or joint.location, fix)
