"""
The rule registry: consumers, targets, rules, check functions and what findings need of them.

Rule families register with :func:`rule` and :func:`check` on import; the severity policy is
:mod:`urdf_tools_ros.core.checks`'.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
import os
from typing import overload

from ..findings import Finding, Severity
from ..location import SourceLocation
from ..model.robot import Robot
from ..model.values import ROS_DISTRO_URDF_VERSIONS, ros_distros, urdf_version


#: The consumers of a URDF the policy speaks of, by key: what each one is.
CONSUMERS: dict[str, str] = {
    'urdfdom': 'urdfdom (check_urdf; robot_state_publisher, RViz, MoveIt, Gazebo and pinocchio '
               'read URDF through it)',
    'urdfdom-before-5.1': f'urdfdom 3.0 to 5.0 (ROS 2 {ros_distros((1, 1), refuse=True)}; '
                          'SDFormat): URDF 1.0 only (urdfdom 6.0 of ROS 2 '
                          f'{ros_distros((1, 2))} reads 1.0, 1.1 and 1.2)',
    'urdf_parser_py': 'urdf_parser_py, the Python URDF reader of ROS tools (every release reads '
                      'URDF 1.0 only: SUPPORTED_VERSIONS = ["1.0"], no <capsule>)',
    'rviz-without-capsules': "RViz's robot model of ROS 2 Humble to Lyrical: draws nothing for a "
                             '<capsule> ("Unsupported geometry type"; Rolling draws it since '
                             'ros2/rviz#1735, May 2026)',
    'kdl': "kdl_parser and KDL, robot_state_publisher's kinematics",
    'joint_state_publisher': 'joint_state_publisher(_gui) 2.4',
    'ros2_control-humble': "ros2_control 2.x of Humble: the controller manager's reading of "
                           '<ros2_control> (hardware_interface component_parser.cpp, branch '
                           'humble) and its resource manager',
    'ros2_control': 'ros2_control 4.x and later (Jazzy 4.x, Kilted 5.x, Lyrical and Rolling '
                    "6.x; branches jazzy, kilted, master): the controller manager's reading of "
                    '<ros2_control>, checked against the URDF, and its resource manager',
    'ros2_control-limits': 'ros2_control 5.x and later (Kilted, Lyrical, Rolling): the '
                           "controller manager clamps every command to the joint's URDF limits "
                           'by default (enforce_command_limits; false by default in Jazzy)',
    'gazebo': "Gazebo's URDF to SDF conversion (SDFormat; fixed joints lumped)",
    'mujoco': "MuJoCo's URDF import (MjModel.from_xml_path; 3.13 and later)",
    'mujoco-before-3.13': 'MuJoCo 3.12 and earlier (their URDF import ignores <mimic>)',
    'pinocchio': "pinocchio's URDF import (buildModelFromUrdf)",
    'urdf_tools_ros': "this package's kinematics, joint-state publisher and TF broadcaster",
}

#: The consumers of each target: a finding is an error for a target when it breaks one of them.
#: Gazebo and pinocchio read URDF through urdfdom. A ``ros-*`` target holds the tools on a ROS
#: graph's path (CONVENTIONS C12); urdf_parser_py (a library a user may call) and RViz's missing
#: capsules are in no target: their findings are warnings that name them. ``ros`` is the distro
#: of ``ROS_DISTRO`` when it is a listed one, else Jazzy.
_ROS = frozenset({'urdfdom', 'kdl', 'joint_state_publisher', 'urdf_tools_ros'})
_DISTROS = {distro: _ROS | (set() if (1, 1) in versions else {'urdfdom-before-5.1'})
            | {'ros2_control-humble' if distro == 'humble' else 'ros2_control'}
            | (set() if distro in ('humble', 'jazzy') else {'ros2_control-limits'})
            for distro, versions in ROS_DISTRO_URDF_VERSIONS.items()}
TARGETS: dict[str, frozenset[str]] = {
    'ros': _DISTROS.get(os.environ.get('ROS_DISTRO', ''), _DISTROS['jazzy']),
    **{f'ros-{distro}': consumers for distro, consumers in _DISTROS.items()},
    'gazebo': frozenset({'urdfdom', 'urdfdom-before-5.1', 'gazebo', 'urdf_tools_ros'}),
    'mujoco': frozenset({'mujoco', 'urdf_tools_ros'}),
    'pinocchio': frozenset({'urdfdom', 'pinocchio', 'urdf_tools_ros'}),
}
#: The target of :func:`check_description` when none is given.
DEFAULT_TARGET = 'ros'


@dataclass(frozen=True, slots=True)
class Rule:
    """
    One rule of the catalog.

    :ivar code: Stable kebab-case code, e.g. ``mimic-cycle``.
    :ivar severity: Severity of its findings for a target none of whose consumers it breaks.
    :ivar summary: What the rule checks, one line.
    :ivar source: ``urdfdom`` when check_urdf reports the same problem, else ``urdf_tools_ros``.
    :ivar consumers: Keys of :data:`CONSUMERS` that refuse or misread a file with this finding.
    :ivar reference: Where the rule comes from: spec section, tool and source file, issue.
    """

    code: str
    severity: Severity
    summary: str
    source: str = 'urdf_tools_ros'
    consumers: tuple[str, ...] = ()
    reference: str = ''

    def severity_for(self, target: str = DEFAULT_TARGET) -> Severity:
        """The severity of this rule's findings for ``target``; :exc:`KeyError` if unknown."""
        return Severity.ERROR if TARGETS[target].intersection(self.consumers) else self.severity


#: Every rule by code, in registration order.
RULES: dict[str, Rule] = {}

CheckFunction = Callable[['CheckContext'], Iterable[Finding]]
#: Every check function with the codes it may report (``None``: any, it always runs).
_CHECKS: list[tuple[CheckFunction, frozenset[str] | None]] = []


def rule(code: str, severity: Severity, summary: str, source: str = 'urdf_tools_ros', *,
         consumers: Sequence[str] = (), reference: str = '') -> str:
    """
    Register a rule and return its code.

    :param consumers: Keys of :data:`CONSUMERS` that refuse or misread a file with it.
    :param reference: Spec section, tool or issue the rule comes from.
    :raises ValueError: if ``code`` is registered already with another definition, or a
        consumer is not in :data:`CONSUMERS`.
    """
    unknown = [name for name in consumers if name not in CONSUMERS]
    if unknown:
        raise ValueError(f'rule {code!r}: unknown consumers {unknown}')
    new = Rule(code, severity, summary, source, tuple(consumers), reference)
    old = RULES.setdefault(code, new)
    if old != new:
        raise ValueError(f'rule {code!r} registered twice with different definitions')
    return code


@overload
def check(function: CheckFunction) -> CheckFunction: ...


@overload
def check(*, codes: Iterable[str]) -> Callable[[CheckFunction], CheckFunction]: ...


def check(function: CheckFunction | None = None, *, codes: Iterable[str] | None = None
          ) -> CheckFunction | Callable[[CheckFunction], CheckFunction]:
    """
    Register a check function (:class:`CheckContext` -> findings); a decorator.

    ``@check(codes=(CODE, ...))`` names the codes it may report (a run that selects none of them
    skips it); a bare ``@check`` runs always.

    :raises ValueError: if a code is not a registered rule.
    """
    declared = None if codes is None else frozenset(codes)
    unknown = sorted(code for code in declared or () if code not in RULES)
    if unknown:
        raise ValueError(f'@check: unknown rule codes {unknown}')

    def register(target: CheckFunction) -> CheckFunction:
        _CHECKS.append((target, declared))
        return target
    return register(function) if function is not None else register


@dataclass
class CheckContext:
    """
    What a check function sees: the robot and where it came from.

    :ivar robot: The model to check.
    :ivar filename: The file the description came from (``'<string>'`` for strings).
    :ivar use_cache: Whether mesh facts may come from, and go to, the on-disk cache.
    """

    robot: Robot
    filename: str = '<string>'
    cache: dict[str, object] = field(default_factory=dict)
    use_cache: bool = True

    @property
    def urdf_version(self) -> tuple[int, int]:
        """The file's URDF version ``(major, minor)``; (1, 0) when absent or malformed."""
        try:
            return urdf_version(self.robot.version)
        except ValueError:
            return (1, 0)  # robot-version-unsupported says so

    def finding(self, code: str, element: str, message: str,
                location: SourceLocation | None = None, fix: str | None = None,
                consumers: Sequence[str] | None = None) -> Finding:
        """
        Make a finding of rule ``code`` with the rule's severity (the target is applied later).

        :param consumers: The consumers this finding breaks, when they differ from the rule's.
        :raises KeyError: if ``code`` is not a registered rule.
        """
        rule_ = RULES[code]
        return Finding(code, rule_.severity, element, message,
                       location if location is not None else self.robot.location, fix,
                       rule_.consumers if consumers is None else tuple(consumers))


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Sort findings by file, line, then severity (errors first), keeping order otherwise."""
    def key(finding: Finding) -> tuple[str, int, int]:
        location = finding.location
        if location is None:
            return ('', 0, finding.severity.rank)
        return (location.filename, location.line or 0, finding.severity.rank)
    return sorted(findings, key=key)


def for_target(finding: Finding, target: str = DEFAULT_TARGET) -> Finding:
    """
    Return ``finding`` with its severity for ``target``, its consumers filled in.

    An error when one of its consumers (``None``: its rule's) belongs to the target, else its
    rule's severity; a code outside the catalog keeps its own.

    :raises KeyError: if ``target`` is not one of :data:`TARGETS`.
    """
    consumers = TARGETS[target]
    known = RULES.get(finding.code)
    if finding.consumers is not None:
        own = finding.consumers
    else:
        own = known.consumers if known is not None else ()
    if consumers.intersection(own):
        severity = Severity.ERROR
    else:
        severity = known.severity if known is not None else finding.severity
    if severity is finding.severity and own == finding.consumers:
        return finding
    return replace(finding, severity=severity, consumers=own)


def portability(findings: Iterable[Finding]) -> dict[str, bool]:
    """Which targets load the file as written: ``{target: no error for it}``, ``ros`` left out."""
    items = list(findings)
    return {target: not any(for_target(f, target).severity is Severity.ERROR for f in items)
            for target in TARGETS if target != 'ros'}


def broken_consumers(finding: Finding, target: str = DEFAULT_TARGET) -> tuple[str, ...]:
    """The consumers of ``target`` that ``finding`` breaks, in :data:`CONSUMERS` order."""
    consumers = TARGETS[target]
    own = finding.consumers or ()
    return tuple(name for name in CONSUMERS if name in consumers and name in own)


def format_value(value: float) -> str:
    """Format a number as the shortest text that reads back: ``1.2``, ``3``, ``1e-09``, ``nan``."""
    text = repr(float(value))
    return text[:-2] if text.endswith('.0') else text


def count(findings: Iterable[Finding]) -> dict[Severity, int]:
    """Count findings per severity (every severity present as a key)."""
    result = {severity: 0 for severity in Severity}
    for finding in findings:
        result[finding.severity] += 1
    return result


def counts_text(findings: Iterable[Finding]) -> str:
    """The counts in words, as every report says them: ``2 errors, 1 warning, 0 info``."""
    counts = count(findings)

    def plural(number: int, word: str) -> str:
        return f'{number} {word}' + ('' if number == 1 or word == 'info' else 's')
    return (f'{plural(counts[Severity.ERROR], "error")}, '
            f'{plural(counts[Severity.WARNING], "warning")}, '
            f'{plural(counts[Severity.INFO], "info")}')


def errors(findings: Iterable[Finding]) -> Iterator[Finding]:
    """Yield the findings of severity error."""
    return (finding for finding in findings if finding.severity is Severity.ERROR)


def registered_checks(codes: Collection[str] | None = None) -> tuple[CheckFunction, ...]:
    """The check functions registered, in order; with ``codes``, those that may report one."""
    return tuple(function for function, declared in _CHECKS
                 if codes is None or declared is None or not declared.isdisjoint(codes))


def check_codes(function: CheckFunction) -> frozenset[str] | None:
    """The codes ``function`` declared (``None``: none); :exc:`KeyError` if not registered."""
    for registered, declared in _CHECKS:
        if registered is function:
            return declared
    raise KeyError(function)
