"""
Robot description node: load, check and publish a robot description.

Loads ``robot_description`` (the XML, never run through xacro) or else ``model`` (a .urdf or
.xacro file with ``xacro_args``), checks it as ``urdf-tools check --target ros-<distro>`` with
the configuration found upwards from ``model``, logs each finding once, and publishes the XML on
``robot_description`` (transient local: late joiners get it) unless its graph cannot load it
(:mod:`urdf_tools_ros.core.description_source`, :mod:`urdf_tools_ros.core.checks.publication`;
CONVENTIONS C12; ``allow_errors`` publishes anyway). A refused description keeps the last good
one. The report goes to ``/diagnostics`` on every load and every ``diagnostic_period`` s.

With ``watch`` the model and its includes are polled every ``watch_period`` s of steady time; a
change reloads. ``ros2 param set`` of ``robot_description``, ``model`` or ``xacro_args`` is
checked when it is set and refused with the reason when it cannot be published
(:func:`~urdf_tools_ros.ros.parameters.on_set`). With ``serve_meshes`` the files the description
references are served over ROS (:mod:`urdf_tools_ros.ros.resource_service`) and the published
XML and parameter carry ``service://`` URLs of them.
"""

from __future__ import annotations

import os
from typing import Any

from diagnostic_msgs.msg import DiagnosticArray
from rclpy.node import Node
from rclpy.parameter import Parameter
from std_msgs.msg import String

from urdf_tools_ros.core.source.loader import RobotDescription
from urdf_tools_ros.core.source.watch import WatchedFiles
from ..core.checks import counts_text
from ..core.checks.publication import distro_name, distro_target, FindingsLog, GRAPH_CONSUMERS
from ..core.description_source import assess, Candidate, DescriptionSource, SOURCE_PARAMETERS
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding, Severity
from ..ros import conversions, parameters, qos
from ..ros.clock import steady_timer
from ..ros.resource_service import ResourceServers
from ..ros.spin import spin_node

__all__ = ['DescriptionSource', 'RobotDescriptionNode', 'main']


class RobotDescriptionNode(Node):
    """
    Publishes a checked robot description on ``robot_description``, its report on ``/diagnostics``.

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
        self._source = DescriptionSource.of(settings.model, settings.xacro_args,
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
        self._findings_log = FindingsLog()
        #: The candidate the last accepted parameter change was validated with.
        self._validated: Candidate | None = None
        self._report: tuple[tuple[Finding, ...], str, bool, str] = ((), 'nothing loaded yet',
                                                                    True, '')
        self._files = WatchedFiles.of(self._source.watched())
        self._reload()
        if settings.watch:
            steady_timer(self, settings.watch_period, self._on_watch_timer)
        if settings.diagnostic_period > 0.0:
            self.create_timer(settings.diagnostic_period, self._on_diagnostics_timer)
        parameters.on_set(self, self._refusal, self._apply)

    @property
    def description(self) -> RobotDescription | None:
        """The description published now (the last good one), or ``None``."""
        return self._current

    # -- load, check, publish ---------------------------------------------------------------
    def _reload(self, candidate: Candidate | None = None) -> None:
        """Load the current source (unless given); publish it if good, else keep the last."""
        try:
            candidate = candidate or assess(self._source, self._target, self._allow_errors)
        except RobotDescriptionError as exc:
            self._refused(f'cannot load: {exc}', (), failed=True)
            return
        self._log_findings(candidate)
        if candidate.refusal is not None:
            self._refused(candidate.refusal, candidate.check.findings, failed=False,
                          robot=candidate.description.robot.name)
            return
        description = self._current = candidate.description
        xml = self._served(description)
        self._publisher.publish(conversions.description_to_msg(xml))
        summary = (f'published robot "{description.robot.name}" from {description.filename}: '
                   f'{counts_text(candidate.check.findings)}')
        if candidate.check.refusals:  # allow_errors
            summary += f'; allow_errors is true: published with {candidate.check.refusal_text()}'
        self.get_logger().info(summary)
        self._report = (candidate.check.findings, summary, False, description.robot.name)
        self._publish_diagnostics()
        if self._resources is not None:  # the parameter says what is published
            self.set_parameters([Parameter('robot_description', Parameter.Type.STRING, xml)])

    def _served(self, description: RobotDescription) -> str:
        """Serve ``description``'s files (``serve_meshes``); the XML to publish."""
        if self._resources is None:
            return description.xml
        count = self._resources.serve(description)
        self._published_xml = self._resources.rewrite(description.xml)
        self.get_logger().info(f'serving {count} files of robot "{description.robot.name}"')
        return self._published_xml

    def _refused(self, reason: str, findings: tuple[Finding, ...], failed: bool,
                 robot: str = '') -> None:
        keeping = ('; keeping the last good description' if self._current is not None
                   else '; nothing published')
        summary = f'not published: {reason}{keeping}'
        self.get_logger().error(summary)
        self._report = (findings, summary, failed, robot)
        self._publish_diagnostics()

    def _log_findings(self, candidate: Candidate) -> None:
        """Log what is new of the candidate's findings (:class:`FindingsLog`); watch its files."""
        self._files = WatchedFiles.of(candidate.watched)
        logger = self.get_logger()
        for entry in self._findings_log.entries(candidate.check):  # rclpy: a severity a call
            if entry.severity is Severity.ERROR:
                logger.error(entry.text)
            elif entry.severity is Severity.WARNING:
                logger.warning(entry.text)
            else:
                logger.info(entry.text)

    def _publish_diagnostics(self) -> None:
        findings, summary, failed, robot = self._report
        self._diagnostics.publish(conversions.diagnostics_msg(
            f'{self.get_name()}: robot description', robot, findings, summary,
            self.get_clock().now().nanoseconds, failed))

    # -- callbacks --------------------------------------------------------------------------
    def _on_watch_timer(self) -> None:
        files = self._files.changed()
        if files is not None:
            self._files = files
            self.get_logger().info('description files changed, reloading')
            self._reload()

    def _on_diagnostics_timer(self) -> None:
        self._publish_diagnostics()

    def _changes_source(self, given: dict[str, Any]) -> bool:
        """Whether ``given`` changes the source (not the XML published, set back: no change)."""
        return any(name in given for name in SOURCE_PARAMETERS) and not (
            self._published_xml and given == {'robot_description': self._published_xml})

    def _refusal(self, given: dict[str, Any]) -> str | None:
        """Why parameter changes are refused (``None``: accepted); validates, changes nothing."""
        if not self._changes_source(given):
            return None
        try:
            candidate = assess(self._source.with_parameters(given), self._target,
                               self._allow_errors)
        except RobotDescriptionError as exc:
            reason: str | None = str(exc)
        else:
            reason, self._validated = candidate.refusal, candidate
        if reason is not None:
            self.get_logger().warning(f'parameter change refused: {reason}')
        return reason

    def _apply(self, given: dict[str, Any]) -> None:
        """Publish the new source once it is set (validated: the candidate is reused)."""
        if not self._changes_source(given):
            return
        self._source = self._source.with_parameters(given)
        validated, self._validated = self._validated, None
        self._reload(validated if validated and validated.source == self._source else None)


def main(args: list[str] | None = None) -> None:
    """Run the robot description node until shut down."""
    spin_node(RobotDescriptionNode, args)


if __name__ == '__main__':
    main()
