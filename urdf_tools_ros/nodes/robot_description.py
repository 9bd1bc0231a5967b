"""
Robot description node: load, check and publish a robot description.

Loads ``robot_description`` (the XML itself) or else ``model`` (a .urdf or .xacro file with
``xacro_args``), runs every check, logs each finding once with its file:line, and publishes the
XML on ``robot_description`` (reliable, transient local, depth 1: late joiners get it) when its
graph can load it. The check report goes to ``/diagnostics``, on every load and every
``diagnostic_period`` s.

What it refuses is decided in :mod:`urdf_tools_ros.core.checks.publication` (CONVENTIONS C12:
the node acts on what its own graph can use). The findings are those ``urdf-tools check
--target ros-<distro>`` reports (``ROS_DISTRO`` when it names Humble, Jazzy, Kilted, Lyrical or
Rolling, else Jazzy), with the suppression comments of the description's files and the
``select``/``ignore`` of the configuration found upwards from ``model`` (``.urdf-tools.toml``,
``pyproject.toml``; none for XML given as a parameter) applied. A description is refused, and
the last good one kept, when it cannot be loaded or checked as configured, or when a reported
error breaks the distro's urdfdom (robot_state_publisher, RViz) or this package's joint-state
publisher and TF broadcaster and ``allow_errors`` is false. Every other error is logged once, in
one group that names the consumers it breaks, reported on ``/diagnostics``, and published with
the description.

With ``watch`` the files the description was made from (the model and every xacro include) are
polled every ``watch_period`` s of steady time (under ``use_sim_time`` too); a change reloads,
re-checks and republishes. A broken edit (or one with errors) keeps the last good description
published and says why, in the log and on ``/diagnostics``. ``ros2 param set`` of
``robot_description``, ``model`` or ``xacro_args`` is loaded and checked first and refused with the
reason when it cannot be published.

XML given as a parameter is never run through xacro (xacro files are programs; a parameter can
be set from anywhere on the network).

With ``serve_meshes`` the files the description references are served over ROS
(:mod:`urdf_tools_ros.ros.resource_service`) and ``robot_description``, the topic and this node's
parameter, carries ``service://`` URLs of them; the files on disk are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path
import shlex
from typing import Any

from diagnostic_msgs.msg import DiagnosticArray
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter
from std_msgs.msg import String

from ..core.checks import counts_text
from ..core.checks.config import Config, find_config
from ..core.checks.publication import (distro_name, distro_target, graph_check,
                                       GRAPH_CONSUMERS, GraphCheck)
from ..core.description.loader import parse_xacro_args, RobotDescription
from ..core.errors import DescriptionLoadError, RobotDescriptionError
from ..core.findings import Finding, Severity
from ..core.pipeline import resolve, Settings
from ..ros import conversions, parameters, qos
from ..ros.clock import steady_timer
from ..ros.resource_service import ResourceServers
from ..ros.spin import spin_node

__all__ = ['DescriptionSource', 'RobotDescriptionNode', 'main']

#: Parameters that say which description to publish.
_SOURCE_PARAMETERS = ('model', 'xacro_args', 'robot_description')


@dataclass(frozen=True)
class DescriptionSource:
    """
    Where the description comes from: the XML itself, or a file with xacro arguments.

    :ivar model: Path of the .urdf or .xacro file.
    :ivar xacro_args: ``name:=value`` items, or one string of them separated by spaces.
    :ivar xml: The URDF XML; used instead of ``model`` when not empty.
    """

    model: str = ''
    xacro_args: tuple[str, ...] | str = ()
    xml: str = ''

    def settings(self, target: str | None = None) -> Settings:
        """
        The pipeline's settings: ``target``, and the configuration found upwards from ``model``.

        XML given as a parameter has no configuration and is never run through xacro.

        :param target: The node's (its distro's); ``None``: the configuration's, else ``ros``.
        :raises ConfigError: if the file found cannot be read or holds a wrong key or value.
        :raises UnknownCodeError: if it names no rule.
        """
        from_file = bool(self.model and not self.xml)
        return resolve(self.model if from_file else None, target=target, use_config=from_file,
                       is_xacro=False if self.xml else None)

    def load(self, settings: Settings | None = None) -> RobotDescription:
        """
        Load the description (with ``settings``; default :meth:`settings`).

        :raises RobotDescriptionError: if it cannot be loaded (the message names file:line).
        """
        if not self.xml and not self.model:
            raise DescriptionLoadError('neither robot_description nor model is set',
                                       '<parameters>')
        settings = self.settings() if settings is None else settings
        if self.xml:
            return settings.load('<robot_description>', text=self.xml)
        try:
            items = shlex.split(self.xacro_args) if isinstance(self.xacro_args, str) else \
                list(self.xacro_args)
            arguments = parse_xacro_args(items)
        except ValueError as exc:
            raise DescriptionLoadError(str(exc), '<xacro_args>') from exc
        return settings.load(self.model, arguments)

    def config(self) -> Config:
        """
        The checker configuration found upwards from ``model``; none for XML.

        :raises ConfigError: if the file found cannot be read or holds a wrong key or value.
        """
        return find_config(Path(self.model)) if self.model and not self.xml else Config()

    def watched(self) -> tuple[str, ...]:
        """The file to watch before any load succeeded (none for XML)."""
        return (os.path.abspath(self.model),) if self.model and not self.xml else ()


@dataclass(frozen=True)
class _Candidate:
    """A description that loaded, its check for the graph and why it is refused (or ``None``)."""

    description: RobotDescription
    check: GraphCheck
    refusal: str | None


def _xacro_args(value: object) -> tuple[str, ...] | str:
    """The ``xacro_args`` parameter as a string or a tuple of strings (unset: none)."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(item) for item in value)
    return str(value)


def _file_signature(paths: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """``(path, mtime ns, size)`` of each file; ``(-1, -1)`` for a missing one."""
    result = []
    for path in paths:
        try:
            status = os.stat(path)
            result.append((path, status.st_mtime_ns, status.st_size))
        except OSError:
            result.append((path, -1, -1))
    return tuple(result)


class RobotDescriptionNode(Node):
    """
    Publishes a checked robot description and its check report.

    The description goes to ``robot_description``, the report to ``/diagnostics``.

    :param node_name: Node name.
    :param kwargs: Passed to :class:`rclpy.node.Node` (``parameter_overrides``, ``context``).
    """

    def __init__(self, node_name: str = 'robot_description_publisher',
                 **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        parameters.declare(self, parameters.DESCRIPTION_PARAMETERS)
        settings = parameters.settings(self, parameters.DescriptionSettings)
        self._allow_errors: bool = settings.allow_errors
        self._target = distro_target()
        self.get_logger().info(
            f'checking for ROS 2 {distro_name(self._target)} (ROS_DISTRO='
            f'{os.environ.get("ROS_DISTRO", "")!r}): a description is published unless '
            f'{GRAPH_CONSUMERS["urdfdom"]} or {GRAPH_CONSUMERS["urdf_tools_ros"]} cannot load '
            'it; other errors are logged and published with it')
        self._source = DescriptionSource(settings.model, _xacro_args(settings.xacro_args),
                                         settings.robot_description)
        self._publisher = self.create_publisher(String, 'robot_description',
                                                qos.LATCHED_DESCRIPTION)
        self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics',
                                                  qos.DIAGNOSTICS)
        self._resources = ResourceServers(self, settings.mesh_service,
                                          settings.serve_meshes_kilted) \
            if settings.serve_meshes else None
        #: The XML published last with serve_meshes (service:// URLs), mirrored in the parameter.
        self._published_xml = ''
        self._current: RobotDescription | None = None
        #: (code, severity, element, message) of every finding logged so far (logged once).
        self._logged: set[tuple[str, Severity, str, str]] = set()
        self._report: tuple[tuple[Finding, ...], str, bool, str] = ((), 'nothing loaded yet',
                                                                    True, '')
        self._watch(self._source.watched())
        self._reload()
        if settings.watch:
            steady_timer(self, settings.watch_period, self._on_watch_timer)
        if settings.diagnostic_period > 0.0:
            self.create_timer(settings.diagnostic_period, self._on_diagnostics_timer)
        self.add_on_set_parameters_callback(self._on_set_parameters)

    @property
    def description(self) -> RobotDescription | None:
        """The description published now (the last good one), or ``None``."""
        return self._current

    # -- load, check, publish ---------------------------------------------------------------
    def _candidate(self, source: DescriptionSource) -> _Candidate:
        """Load and check; :raises RobotDescriptionError: if it does not load."""
        settings = source.settings(self._target)  # the configuration's select and ignore
        description = source.load(settings)
        check = graph_check(settings.check(description), settings.target)
        refusal = None
        if check.refusals and not self._allow_errors:
            refusal = (f'the check found {check.refusal_text()} and allow_errors is false; '
                       f'first: {check.refusals[0]}')
        return _Candidate(description, check, refusal)

    def _reload(self) -> None:
        """Load the current source; publish it if good, else keep the last good one."""
        try:
            candidate = self._candidate(self._source)
        except RobotDescriptionError as exc:
            self._refused(f'cannot load: {exc}', (), failed=True)
            return
        if candidate.refusal is not None:
            self._log_findings(candidate, self._source)
            self._refused(candidate.refusal, candidate.check.findings, failed=False,
                          robot=candidate.description.robot.name)
            return
        self._publish(candidate, self._source)

    def _publish(self, candidate: _Candidate, source: DescriptionSource) -> None:
        self._log_findings(candidate, source)
        description = candidate.description
        self._current = description
        xml = self._served(description)
        self._publisher.publish(conversions.description_to_msg(xml))
        summary = (f'published robot "{description.robot.name}" from {description.filename}: '
                   f'{counts_text(candidate.check.findings)}')
        if candidate.check.refusals:  # allow_errors
            summary += f'; allow_errors is true: published with {candidate.check.refusal_text()}'
        self.get_logger().info(summary)
        self._report = (candidate.check.findings, summary, False, description.robot.name)
        self._publish_diagnostics()

    def _served(self, description: RobotDescription) -> str:
        """Serve ``description``'s files (``serve_meshes``); the XML to publish."""
        if self._resources is None:
            return description.xml
        count = self._resources.serve(description)
        xml = self._resources.rewrite(description.xml)
        self.get_logger().info(f'serving {count} files of robot "{description.robot.name}"')
        self._published_xml = xml
        timer = steady_timer(self, 0.001, lambda: self._on_mirror_timer(timer))
        return xml

    def _refused(self, reason: str, findings: tuple[Finding, ...], failed: bool,
                 robot: str = '') -> None:
        keeping = ('; keeping the last good description' if self._current is not None
                   else '; nothing published')
        summary = f'not published: {reason}{keeping}'
        self.get_logger().error(summary)
        self._report = (findings, summary, failed, robot)
        self._publish_diagnostics()

    def _log_findings(self, candidate: _Candidate, source: DescriptionSource) -> None:
        """
        Log each finding not logged before (a reload logs only what is new); watch its files.

        Errors outside the graph go in one warning that names the consumers they break, one
        finding a line; every other finding is logged at its severity. Findings are the same
        when code, severity, element and message are (a line that moved in an edited file does
        not make a finding new); the summary line of each publication gives the counts.
        ``/diagnostics`` carries every finding each time.
        """
        self._watch(candidate.description.dependencies or source.watched())
        check, logger = candidate.check, self.get_logger()
        new = []
        for finding in check.findings:
            key = (finding.code, finding.severity, finding.element, finding.message)
            if key not in self._logged:
                self._logged.add(key)
                new.append(finding)
        outside = [finding for finding in new if finding in check.outside]
        if outside:
            logger.warning('\n  '.join([check.outside_text(outside), *map(str, outside)]))
        for finding in new:  # rclpy: one severity per call site
            if finding in outside:
                continue
            if finding.severity is Severity.ERROR:
                logger.error(str(finding))
            elif finding.severity is Severity.WARNING:
                logger.warning(str(finding))
            else:
                logger.info(str(finding))

    def _publish_diagnostics(self) -> None:
        findings, summary, failed, robot = self._report
        self._diagnostics.publish(conversions.diagnostics_msg(
            f'{self.get_name()}: robot description', robot, findings, summary,
            self.get_clock().now().nanoseconds, failed))

    def _watch(self, paths: tuple[str, ...]) -> None:
        self._watched = paths
        self._signature = _file_signature(paths)

    # -- callbacks --------------------------------------------------------------------------
    def _on_watch_timer(self) -> None:
        signature = _file_signature(self._watched)
        if signature != self._signature:
            self._signature = signature
            self.get_logger().info('description files changed, reloading')
            self._reload()

    def _on_diagnostics_timer(self) -> None:
        self._publish_diagnostics()

    def _on_mirror_timer(self, timer: Any) -> None:
        """Set the parameter to the XML published (not from inside a parameter callback)."""
        self.destroy_timer(timer)
        self.set_parameters([Parameter('robot_description', Parameter.Type.STRING,
                                       self._published_xml)])

    def _on_set_parameters(self, changes: list[Parameter]) -> SetParametersResult:
        given = {change.name: change.value for change in changes}
        if not any(name in given for name in _SOURCE_PARAMETERS) or \
                (self._published_xml and given == {'robot_description': self._published_xml}):
            return SetParametersResult(successful=True)
        source = DescriptionSource(
            str(given.get('model', self._source.model)),
            _xacro_args(given['xacro_args']) if 'xacro_args' in given else
            self._source.xacro_args,
            str(given.get('robot_description', self._source.xml)))
        try:
            candidate = self._candidate(source)
        except RobotDescriptionError as exc:
            self.get_logger().warning(f'parameter change refused: {exc}')
            return SetParametersResult(successful=False, reason=str(exc))
        if candidate.refusal is not None:
            self.get_logger().warning(f'parameter change refused: {candidate.refusal}')
            return SetParametersResult(successful=False, reason=candidate.refusal)
        self._source = source
        self._publish(candidate, source)
        return SetParametersResult(successful=True)


def main(args: list[str] | None = None) -> None:
    """Run the robot description node until shut down."""
    spin_node(RobotDescriptionNode, args)


if __name__ == '__main__':
    main()
