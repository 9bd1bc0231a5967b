"""
Whether the robot description node may publish a description: what its graph can load.

CONVENTIONS C12. The graph is the distro's robot_state_publisher and RViz (through urdfdom) and
this package's nodes. Of the findings for the distro's target ``ros-<distro>`` (suppressions
and ``select``/``ignore`` applied), an error *refuses* the description when it breaks one of
:data:`GRAPH_CONSUMERS` of that target; every other error is *outside* the graph, reported and
published anyway. :class:`FindingsLog` is what the node logs of each check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
import os
from typing import TYPE_CHECKING

from . import check_description
from .registry import CONSUMERS, TARGETS
from ..findings import Finding, Severity

if TYPE_CHECKING:
    from .config import Config
    from ..source.loader import RobotDescription

__all__ = ['GRAPH_CONSUMERS', 'FindingsLog', 'GraphCheck', 'LogEntry', 'check_for_graph',
           'distro_name', 'distro_target', 'graph_check']

#: The consumers of the description node's graph, as its messages name them (those of the
#: distro's target count).
GRAPH_CONSUMERS: dict[str, str] = {
    'urdfdom': 'urdfdom (robot_state_publisher, RViz)',
    'urdfdom-before-5.1': 'urdfdom (robot_state_publisher, RViz: URDF 1.0 only)',
    'urdf_tools_ros': "this package's joint-state publisher and TF broadcaster",
}

#: The distro whose target applies when ``ROS_DISTRO`` is unset or not a known distro.
FALLBACK_DISTRO = 'jazzy'


def distro_target(distro: str | None = None) -> str:
    """
    The target ``ros-<distro>`` of a ROS 2 distro, as ``urdf-tools check --target ros`` picks it.

    :param distro: A distro name (``jazzy``); ``None`` reads ``ROS_DISTRO`` now.
    :return: A key of :data:`~urdf_tools_ros.core.checks.TARGETS`; ``ros-jazzy`` when unknown.
    """
    name = os.environ.get('ROS_DISTRO', '') if distro is None else distro
    target = f'ros-{name.strip().lower()}'
    return target if target in TARGETS else f'ros-{FALLBACK_DISTRO}'


def distro_name(target: str) -> str:
    """The distro of a target ``ros-<distro>`` in words: ``ros-jazzy`` -> ``Jazzy``."""
    return target.removeprefix('ros-').capitalize()


def _named(consumers: Iterable[str]) -> str:
    return ', '.join(GRAPH_CONSUMERS.get(name, name) for name in consumers)


@dataclass(frozen=True)
class GraphCheck:
    """
    A checked description and what the description node's graph can do with it.

    :ivar target: The distro's target, ``ros-jazzy``.
    :ivar findings: Every finding reported for ``target``, sorted.
    :ivar refusals: The errors a consumer of the graph cannot load.
    :ivar outside: The other errors: their consumers are outside the graph.
    """

    target: str
    findings: tuple[Finding, ...]
    refusals: tuple[Finding, ...]
    outside: tuple[Finding, ...]

    @property
    def distro(self) -> str:
        """The distro's name in words: ``Jazzy``."""
        return distro_name(self.target)

    def refusal_text(self) -> str:
        """Why the graph cannot load it (``2 error(s) that urdfdom ... cannot load``) or ``''``."""
        if not self.refusals:
            return ''
        broken = {name for finding in self.refusals
                  for name in _graph_consumers(finding, self.target)}
        names = _named(name for name in GRAPH_CONSUMERS if name in broken)
        return f'{len(self.refusals)} error(s) that {names} cannot load on ROS 2 {self.distro}'

    def outside_groups(self) -> dict[str, tuple[Finding, ...]]:
        """
        The errors outside the graph by the consumer they break, in :data:`CONSUMERS` order.

        Under each consumer of the target it breaks, else under its first (or ``(unnamed)``).
        """
        groups: dict[str, list[Finding]] = {}
        consumers = TARGETS[self.target]
        for finding in self.outside:
            own = finding.consumers or ()
            names = [name for name in own if name in consumers] or list(own[:1]) or ['(unnamed)']
            for name in names:
                groups.setdefault(name, []).append(finding)
        order = list(CONSUMERS)
        return {name: tuple(groups[name]) for name in
                sorted(groups, key=lambda n: order.index(n) if n in order else len(order))}

    def outside_text(self, findings: Iterable[Finding] | None = None) -> str:
        """
        One line on the errors outside the graph by consumer, or ``''``.

        e.g. ``2 error(s) ... outside this graph ...: joint_state_publisher: <code> x2``.

        :param findings: Only these of :attr:`outside`; default all.
        """
        chosen = self.outside if findings is None else tuple(
            finding for finding in findings if finding in self.outside)
        if not chosen:
            return ''
        parts = []
        for consumer, group in self.outside_groups().items():
            mine = [finding for finding in group if finding in chosen]
            if not mine:
                continue
            codes: dict[str, int] = {}
            for finding in mine:
                codes[finding.code] = codes.get(finding.code, 0) + 1
            parts.append(f'{consumer}: ' + ', '.join(
                code if number == 1 else f'{code} x{number}' for code, number in codes.items()))
        return (f'{len(chosen)} error(s) for consumers outside this graph only, '
                "published anyway (robot_state_publisher, RViz and this package's nodes load "
                f'it): {"; ".join(parts)}')


def _graph_consumers(finding: Finding, target: str) -> tuple[str, ...]:
    """The consumers of the graph (for ``target``) that ``finding`` breaks."""
    consumers = TARGETS[target]
    return tuple(name for name in finding.consumers or ()
                 if name in GRAPH_CONSUMERS and name in consumers)


def check_for_graph(description: RobotDescription, target: str | None = None,
                    config: Config | None = None) -> GraphCheck:
    """
    Check ``description`` for the description node's graph.

    :param target: The distro's target, ``ros-jazzy``; ``None``: that of ``ROS_DISTRO``.
    :param config: The configuration whose ``select`` and ``ignore`` apply (not its target).
    :raises KeyError: if ``target`` is not a key of :data:`TARGETS`.
    :raises UnknownCodeError: if a suppression comment or the configuration names an unknown
        rule code.
    """
    target = distro_target() if target is None else target
    return graph_check(check_description(
        description, target, select=config.select if config is not None else (),
        ignore=config.ignore if config is not None else ()), target)


def graph_check(findings: Iterable[Finding], target: str) -> GraphCheck:
    """
    What the description node's graph can do with the findings reported for ``target``.

    :param findings: As :func:`~urdf_tools_ros.core.checks.check_description` reports them.
    :param target: The distro's target, ``ros-jazzy``.
    :raises KeyError: if ``target`` is not a key of :data:`TARGETS`.
    """
    findings = tuple(findings)
    refusals: list[Finding] = []
    outside: list[Finding] = []
    for finding in findings:
        if finding.severity is Severity.ERROR:
            (refusals if _graph_consumers(finding, target) else outside).append(finding)
    return GraphCheck(target, findings, tuple(refusals), tuple(outside))


@dataclass(frozen=True)
class LogEntry:
    """One log line (or group of lines) of the description node, at ``severity``."""

    severity: Severity
    text: str


class FindingsLog:
    """
    What the description node logs of each check: each finding once, over every reload.

    A finding is known by code, severity, element and message (a moved line is not new). The
    new errors outside the graph make one warning entry; every other finding one entry.
    """

    def __init__(self) -> None:
        self._logged: set[tuple[str, Severity, str, str]] = set()

    def entries(self, check: GraphCheck) -> tuple[LogEntry, ...]:
        """The entries to log for ``check``: those of its findings not logged before."""
        new = []
        for finding in check.findings:
            key = (finding.code, finding.severity, finding.element, finding.message)
            if key not in self._logged:
                self._logged.add(key)
                new.append(finding)
        outside = [finding for finding in new if finding in check.outside]
        entries = [LogEntry(Severity.WARNING, '\n  '.join([check.outside_text(outside),
                                                           *map(str, outside)]))] \
            if outside else []
        entries.extend(LogEntry(finding.severity, str(finding)) for finding in new
                       if finding not in outside)
        return tuple(entries)
