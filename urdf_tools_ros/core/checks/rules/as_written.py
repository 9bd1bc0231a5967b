"""
The ``xacro-in-urdf`` rule: a file not named ``.xacro`` read both as ROS runs it and as written.

A ROS launch file runs xacro on it (every other rule checks the expansion); check_urdf,
pinocchio, MuJoCo, Gazebo and pybullet read the text as written. Reported at the first xacro
construct: an error for the non-ROS targets whose consumers refuse the text, a warning for the
ROS targets (a stated exception to the severity policy).
"""

from __future__ import annotations

from ..registry import CheckContext, for_target, registered_checks, rule
from ...findings import Finding, Severity
from ...location import SourceLocation
from ...source.loader import RobotDescription

#: The targets whose consumers are handed the file itself, not xacro's output.
AS_WRITTEN_TARGETS: tuple[str, ...] = ('gazebo', 'mujoco', 'pinocchio')

XACRO_IN_URDF = rule(
    'xacro-in-urdf', Severity.WARNING,
    'a file not named .xacro holds xacro syntax: checked as xacro expands it (what a ROS launch '
    'file running xacro gets), and reported for the tools that read the file as written '
    '(check_urdf, pinocchio, MuJoCo, Gazebo, pybullet) and refuse it',
    consumers=AS_WRITTEN_TARGETS,
    reference='xacro (a launch file runs it on any file); check_urdf on pybullet_data '
              'husky.urdf: "Unable to parse component [$(optenv] to a double"')


def as_written_findings(description: RobotDescription) -> list[Finding]:
    """
    Return the ``xacro-in-urdf`` finding of ``description``, or nothing.

    :param description: A loaded description (only one with ``as_written`` can have it).
    :return: One finding at the first xacro construct, its consumers the targets of
        :data:`AS_WRITTEN_TARGETS` that refuse the text as written.
    """
    written = description.as_written
    if written is None:
        return []
    either: list[str] = []
    if written.error is not None or written.robot is None:
        refusing = AS_WRITTEN_TARGETS
        why = f'as written it is not URDF: {written.error}'
    else:
        context = CheckContext(written.robot, description.filename)
        raw = [finding for finding in (*written.findings, *(
            finding for check in registered_checks() for finding in check(context)))
            if any(for_target(finding, target).severity is Severity.ERROR
                   for target in AS_WRITTEN_TARGETS)]
        # an error the expansion has too (same code and element) is not the xacro syntax's
        expanded = CheckContext(description.robot, description.filename)
        shared = {(finding.code, finding.element) for finding in (*description.findings, *(
            finding for check in registered_checks({finding.code for finding in raw})
            for finding in check(expanded)))}
        own = [finding for finding in raw if (finding.code, finding.element) not in shared]
        refusing = _refusing(own)
        why = 'as written: ' + (_where(own[0]) if own else 'nothing refuses it')
        for target in AS_WRITTEN_TARGETS:
            first = next((finding for finding in raw if _breaks(finding, target)), None)
            if first is not None and target not in refusing:
                either.append(f'{_NAMES[target]} refuses either reading, not for the xacro '
                              f'syntax ({_where(first)})')
    said = ', '.join(_NAMES[target] for target in refusing)
    message = (f'the file is not named .xacro but holds xacro syntax ("{written.construct}"): '
               'checked as xacro expands it, as a ROS launch file that runs xacro reads it; '
               + (f'{said}, given the file itself, refuse{"s" if len(refusing) == 1 else ""} '
                  f'it ({why})' if refusing else '; '.join(either) if either
                  else f'tools given the file itself read the text literally ({why})')
               + ''.join(f'; {text}' for text in either if refusing))
    return [Finding(XACRO_IN_URDF, Severity.WARNING, 'robot', message,
                    SourceLocation(description.filename, written.line),
                    'name it .urdf.xacro and expand it with xacro (as the launch file does), or '
                    'write the values out', refusing)]


_NAMES = {'gazebo': 'Gazebo', 'mujoco': 'MuJoCo', 'pinocchio': 'pinocchio'}


def _breaks(finding: Finding, target: str) -> bool:
    return for_target(finding, target).severity is Severity.ERROR


def _refusing(findings: list[Finding]) -> tuple[str, ...]:
    """The targets of :data:`AS_WRITTEN_TARGETS` that one of ``findings`` is an error for."""
    return tuple(target for target in AS_WRITTEN_TARGETS
                 if any(_breaks(finding, target) for finding in findings))


def _where(finding: Finding) -> str:
    """``line 5: message`` (or the message alone)."""
    line = finding.location.line if finding.location is not None else None
    return f'line {line}: {finding.message}' if line is not None else finding.message
