"""
Transmission rules for ROS 1 ``<transmission>`` elements and those of ``<ros2_control>`` blocks.

ros_control / ros2_control read them when the controller manager starts and fail on a joint
the robot does not have or a mechanical reduction of 0; one without joint or actuator does
nothing. What ros2_control's parser refuses in a block:
:mod:`urdf_tools_ros.core.checks.rules.ros2_control`.
"""

from __future__ import annotations

from collections.abc import Iterator
import re

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...model.ros2_control import Transmission

JOINT_MISSING = rule('transmission-joint-missing', Severity.WARNING,
                     'a transmission names a joint that is not in the robot',
                     reference='transmission_interface (ROS 1 form: read by gazebo_ros_control, '
                               'ignored by ROS 2 tools)')
REDUCTION_ZERO = rule('transmission-reduction-zero', Severity.WARNING,
                      'a mechanical reduction is 0',
                      reference='transmission_interface SimpleTransmission refuses a zero '
                                'reduction (not run here, so not claimed as a refusal)')
NO_JOINT = rule('transmission-no-joint', Severity.WARNING, 'a transmission has no <joint>',
                reference='transmission_interface')
#: A xacro expression missing its ``$``: ``{name}`` (xacro substitutes only ``${...}``).
_BRACE = re.compile(r'(?<!\$)\{[A-Za-z_]\w*\}')

NO_ACTUATOR = rule('transmission-no-actuator', Severity.WARNING,
                   'a transmission has no <actuator>', reference='transmission_interface')


def _transmissions(ctx: CheckContext) -> Iterator[tuple[str, Transmission]]:
    """Yield ``(where it is, transmission)`` for top-level and ros2_control transmissions."""
    for transmission in ctx.robot.transmissions:
        yield '', transmission
    for control in ctx.robot.ros2_control_read:
        for transmission in control.transmissions:
            yield f' (in ros2_control "{control.name}")', transmission


@check(codes=(JOINT_MISSING, REDUCTION_ZERO, NO_JOINT, NO_ACTUATOR))
def check_transmissions(ctx: CheckContext) -> Iterator[Finding]:
    """Report unknown joints, zero reductions and transmissions without joint or actuator."""
    joints = ctx.robot.joint_map
    for inside, transmission in _transmissions(ctx):
        element = f'transmission:{transmission.name}'
        owner = f'transmission "{transmission.name}"{inside}'
        if not transmission.joints:
            yield ctx.finding(NO_JOINT, element, f'{owner} has no <joint>',
                              transmission.location, 'add <joint name="..."> for the driven joint')
        if not transmission.actuators:
            yield ctx.finding(NO_ACTUATOR, element, f'{owner} has no <actuator>',
                              transmission.location, 'add <actuator name="..."> for the motor')
        for part in transmission.joints:
            if part.name and part.name not in joints:
                brace = _BRACE.search(part.name)
                yield ctx.finding(JOINT_MISSING, element,
                                  f'{owner}: joint "{part.name}" is not in the robot',
                                  part.location or transmission.location,
                                  f'`{brace[0]}` lacks its `$`: write '
                                  f'`{_BRACE.sub(lambda found: "$" + found[0], part.name)}`'
                                  if brace else
                                  "name one of the robot's joints (names are case-sensitive)")
        for kind, parts in (('joint', transmission.joints),
                            ('actuator', transmission.actuators)):
            for item in parts:
                if item.mechanical_reduction == 0:
                    yield ctx.finding(REDUCTION_ZERO, element,
                                      f'{owner}: {kind} "{item.name}" has mechanical reduction 0 '
                                      '(the transmission divides by it)',
                                      item.location or transmission.location,
                                      'give the gear ratio (1 for a direct drive)')
