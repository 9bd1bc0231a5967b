"""
Whether the robot description node may publish a description: what its graph can load.

CONVENTIONS C12: a node acts on what its own graph can use. The graph of the description node
is the distro's robot_state_publisher and RViz, which read ``robot_description`` through the
distro's urdfdom, and this package's joint-state publisher and TF broadcaster, which read it
through :class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` and
:class:`~urdf_tools_ros.core.joint_state.table.JointStateTable`. The refusal rule:

* The findings are those :func:`~urdf_tools_ros.core.checks.check_description` reports for the
  distro's target ``ros-<distro>`` (:func:`distro_target`: ``ROS_DISTRO``, as ``--target ros``
  reads it), with the suppression comments of the description's files and the configuration's
  ``select``/``ignore`` applied: a finding the file's author suppressed is not reported and
  refuses nothing, in the node as in ``urdf-tools check``.
* A finding *refuses* the description when its consumers include one of
  :data:`GRAPH_CONSUMERS` that belongs to the distro's target: ``urdfdom`` (every distro),
  ``urdfdom-before-5.1`` (Humble, Jazzy and Kilted, whose urdfdom reads URDF 1.0 only: a URDF
  1.1 or 1.2 file is refused there and published on Lyrical and Rolling) and ``urdf_tools_ros``
  (this package's kinematics and joint-state table cannot build their model: a mimic cycle, a
  zero joint axis, no single root link).
* Every other error is *outside* the graph: it breaks only ``joint_state_publisher`` 2.4 (a
  revolute wheel whose ``<limit>`` has no bounds crashes it; this package's joint-state
  publisher reads the joint as locked at 0), ``urdf_parser_py`` (a PR2-form transmission),
  ``kdl``, ``ros2_control`` or a simulator. It is reported and does not stop publication.

A description that cannot be loaded at all (malformed XML, a xacro error, not a robot), or whose
checking cannot run as configured (an unknown rule code in a suppression comment or in the
configuration, a configuration that does not parse), raises instead.

What the node logs of each check is grouped here too (:class:`FindingsLog`): each finding once
over the reloads of a node, the errors outside the graph in one entry.
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

#: The consumers of the description node's graph, with the words its messages use for them.
#: Only those that belong to the distro's target count (``urdfdom-before-5.1`` is not one of
#: Lyrical's or Rolling's).
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

    :param distro: A distro name (``jazzy``); ``None`` reads ``ROS_DISTRO`` now (the ``ros``
        entry of :data:`~urdf_tools_ros.core.checks.TARGETS` read it at import).
    :return: A key of :data:`~urdf_tools_ros.core.checks.TARGETS`; ``ros-jazzy`` for a distro
        that is unset or not listed there, as ``ros`` does.
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

    :ivar target: The distro's target, ``ros-jazzy`` (:func:`distro_target`).
    :ivar findings: Every finding reported (:func:`~urdf_tools_ros.core.checks.check_description`
        for ``target``, suppressions and ``select``/``ignore`` applied), sorted.
    :ivar refusals: The findings that a consumer of the graph cannot load (the errors that
        refuse the description).
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
        """
        Why the graph cannot load it, ``''`` when it can.

        ``2 error(s) that urdfdom (robot_state_publisher, RViz) cannot load on ROS 2 Jazzy``;
        :attr:`refusals` holds them.
        """
        if not self.refusals:
            return ''
        broken = {name for finding in self.refusals
                  for name in _graph_consumers(finding, self.target)}
        names = _named(name for name in GRAPH_CONSUMERS if name in broken)
        return f'{len(self.refusals)} error(s) that {names} cannot load on ROS 2 {self.distro}'

    def outside_groups(self) -> dict[str, tuple[Finding, ...]]:
        """
        The errors outside the graph by the consumer they break, in :data:`CONSUMERS` order.

        A finding that breaks several consumers of the target is under each; one that names
        none of the target's is under the first it names (``(unnamed)`` when it names none).
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
        One line on the errors outside the graph, grouped by the consumer they break.

        ``2 error(s) for consumers outside this graph only, published anyway
        (robot_state_publisher, RViz and this package's nodes load it): joint_state_publisher:
        joint-limit-bound-missing x2``; ``''`` when there are none.

        :param findings: Only these of :attr:`outside` (those not logged yet); default all.
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
    Check ``description`` for the description node's graph (the module doc's rule).

    :param description: A loaded description.
    :param target: The distro's target, ``ros-jazzy``; ``None``: that of ``ROS_DISTRO``
        (:func:`distro_target`).
    :param config: The configuration whose ``select`` and ``ignore`` apply (its ``target`` does
        not: the node's target is its distro's); ``None``: none.
    :raises KeyError: if ``target`` is not a key of :data:`TARGETS`.
    :raises UnknownCodeError: if a suppression comment or the configuration names an unknown
        rule code (a :class:`~urdf_tools_ros.core.errors.RobotDescriptionError`).
    """
    target = distro_target() if target is None else target
    return graph_check(check_description(
        description, target, select=config.select if config is not None else (),
        ignore=config.ignore if config is not None else ()), target)


def graph_check(findings: Iterable[Finding], target: str) -> GraphCheck:
    """
    What the description node's graph can do with the findings reported for ``target``.

    :param findings: As :func:`~urdf_tools_ros.core.checks.check_description` (or the pipeline,
        :mod:`urdf_tools_ros.core.session`) reports them for ``target``.
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
    """
    One log line (or group of lines) of the description node.

    :ivar severity: The level to log it at.
    :ivar text: What to log.
    """

    severity: Severity
    text: str


class FindingsLog:
    """
    What the description node logs of each check: each finding once, over every reload.

    Findings are the same when code, severity, element and message are: a line that moved in an
    edited file does not make a finding new (the findings of one check are merged by file:line
    already, :func:`~urdf_tools_ros.core.checks.expansion.merge_expansions`; this is across
    checks). Of the new findings, the errors outside the graph make one warning entry that names
    the consumers they break (:meth:`GraphCheck.outside_text`), one finding a line; every other
    finding is one entry at its severity, in the order of the check.
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
