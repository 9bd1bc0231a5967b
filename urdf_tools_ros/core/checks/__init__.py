"""
The rule catalog and the check runner.

Every rule has a stable ``code``, a default :class:`~urdf_tools_ros.core.findings.Severity`, a
one-line summary and its source (``urdfdom`` for what urdfdom itself reports, ``urdf_tools_ros``
for what urdfdom misses, with the physical or ROS reason in the rule module). Rule families live
in one module each; each registers its rules with :func:`rule` and its check functions with
:func:`check`. :func:`check_description` runs them all and returns every finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
import importlib
from typing import TYPE_CHECKING

from ..findings import Finding, Severity
from ..model import Robot, SourceLocation

if TYPE_CHECKING:
    from ..description import RobotDescription


@dataclass(frozen=True, slots=True)
class Rule:
    """
    One rule of the catalog.

    :ivar code: Stable kebab-case code, e.g. ``mimic-cycle``.
    :ivar severity: Severity of its findings.
    :ivar summary: What the rule checks, one line.
    :ivar source: ``urdfdom`` when urdfdom (check_urdf) reports the same problem, else
        ``urdf_tools_ros``.
    """

    code: str
    severity: Severity
    summary: str
    source: str = 'urdf_tools_ros'


#: Every rule by code, in registration order.
RULES: dict[str, Rule] = {}

CheckFunction = Callable[['CheckContext'], Iterable[Finding]]
_CHECKS: list[CheckFunction] = []

#: The rule family modules, imported on first use of :func:`check_description`.
FAMILIES = ('loading', 'structure', 'joints', 'tree', 'mimic', 'inertial', 'geometry',
            'materials', 'transmissions', 'gazebo')


def rule(code: str, severity: Severity, summary: str, source: str = 'urdf_tools_ros') -> str:
    """
    Register a rule and return its code.

    :raises ValueError: if ``code`` is registered already with another definition.
    """
    new = Rule(code, severity, summary, source)
    old = RULES.setdefault(code, new)
    if old != new:
        raise ValueError(f'rule {code!r} registered twice with different definitions')
    return code


def check(function: CheckFunction) -> CheckFunction:
    """Register ``function`` (:class:`CheckContext` -> findings) as a check; a decorator."""
    _CHECKS.append(function)
    return function


@dataclass
class CheckContext:
    """
    What a check function sees: the robot and where it came from.

    :ivar robot: The model to check.
    :ivar filename: The file the description came from (``'<string>'`` for strings).
    """

    robot: Robot
    filename: str = '<string>'
    cache: dict[str, object] = field(default_factory=dict)

    def finding(self, code: str, element: str, message: str,
                location: SourceLocation | None = None, fix: str | None = None) -> Finding:
        """
        Make a finding of rule ``code`` with the rule's severity.

        :raises KeyError: if ``code`` is not a registered rule.
        """
        return Finding(code, RULES[code].severity, element, message,
                       location if location is not None else self.robot.location, fix)


def load_families() -> None:
    """Import every rule family module so that :data:`RULES` and the checks are complete."""
    for family in FAMILIES:
        importlib.import_module(f'{__name__}.{family}')


def run_checks(robot: Robot, filename: str = '<string>') -> list[Finding]:
    """
    Run every registered check on ``robot``.

    :return: Every finding, in the order the checks produce them.
    """
    load_families()
    context = CheckContext(robot, filename)
    findings: list[Finding] = []
    for function in _CHECKS:
        findings.extend(function(context))
    return findings


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Sort findings by file, line, then severity (errors first), keeping order otherwise."""
    def key(finding: Finding) -> tuple[str, int, int]:
        location = finding.location
        if location is None:
            return ('', 0, finding.severity.rank)
        return (location.filename, location.line or 0, finding.severity.rank)
    return sorted(findings, key=key)


def check_description(description: RobotDescription) -> list[Finding]:
    """
    Return every finding about ``description``: those of loading, then of every rule, sorted.

    :param description: A loaded description (:func:`urdf_tools_ros.core.description.load`).
    :return: Findings sorted by file and line, errors first on a line.
    """
    return sort_findings([*description.findings,
                          *run_checks(description.robot, description.filename)])


def format_value(value: float) -> str:
    """
    Format a number as the shortest text that reads back as the same float.

    ``repr`` without a trailing ``.0``: ``1.2``, ``-0.4``, ``3``, ``1e-09``, ``nan``. Used in
    messages and fixes that quote a value from the file.
    """
    text = repr(float(value))
    return text[:-2] if text.endswith('.0') else text


def count(findings: Iterable[Finding]) -> dict[Severity, int]:
    """Count findings per severity (every severity present as a key)."""
    result = {severity: 0 for severity in Severity}
    for finding in findings:
        result[finding.severity] += 1
    return result


def errors(findings: Iterable[Finding]) -> Iterator[Finding]:
    """Yield the findings of severity error."""
    return (finding for finding in findings if finding.severity is Severity.ERROR)
