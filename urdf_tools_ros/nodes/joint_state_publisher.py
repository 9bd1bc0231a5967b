"""
Joint-state publisher: a drop-in for joint_state_publisher.

Command line and descriptions (URDF, SDF, COLLADA) as joint_state_publisher 2.4. Publishes
``joint_states`` at ``rate`` Hz of the node clock from a
:class:`~urdf_tools_ros.core.joint_state.table.JointStateTable`; with ``source_list`` the first
message waits for the sources. Bad source values are refused per joint with a throttled
warning; a description that cannot be used keeps the previous table (upstream exits). With
``gui`` the browser slider page shares the table.
"""

from __future__ import annotations

from functools import partial
import time
from typing import Any

from rclpy.node import Node
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.loader import read_file, RobotDescription
from urdf_tools_ros.core.source.packages import ament_package_locator
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding, Severity
from ..core.joint_state.descriptions import joint_state_robot
from ..core.joint_state.sources import refusals_text, SourceSamples, table_notes
from ..core.joint_state.table import ClampPolicy, JointStateTable
from ..ros import conversions, parameters, qos
from ..ros.clock import warn_without_sim_clock
from ..ros.spin import description_file_argument, spin_node

__all__ = ['JointStatePublisherNode', 'gui_main', 'main']

_WARN_PERIOD = 5.0  # s between two warnings about refused source values


class JointStatePublisherNode(Node):
    """
    Publishes the joint state of the robot on ``robot_description``.

    :param node_name: Node name.
    :param kwargs: Passed to :class:`rclpy.node.Node` (``parameter_overrides``, ``context``).
    :raises ValueError: if ``clamp`` is not one of
        :data:`~urdf_tools_ros.ros.parameters.CLAMP_CHOICES`.
    """

    def __init__(self, node_name: str = 'joint_state_publisher', *,
                 description_file: str | None = None, gui: bool = False,
                 **kwargs: Any) -> None:
        # As joint_state_publisher: every override is a parameter (zeros.<joint> and
        # dependent_joints.<joint>.* of any joint show in ros2 param list).
        kwargs.setdefault('automatically_declare_parameters_from_overrides', True)
        super().__init__(node_name, **kwargs)
        parameters.declare(self, parameters.JOINT_STATE_GUI_PARAMETERS if gui
                           else parameters.JOINT_STATE_PARAMETERS)
        self._settings = parameters.settings(self, parameters.JointStateSettings)
        self._gui = self._settings.gui  # switched off when the page cannot be served
        self._clamp = ClampPolicy.parse(self._settings.clamp)
        self._table: JointStateTable | None = None
        self._sources = SourceSamples(self._settings.source_list, time.monotonic_ns())
        self._viewer: Any = None
        self._publisher = self.create_publisher(JointState, 'joint_states',
                                                qos.JOINT_STATES_PUBLISHER)
        if description_file is not None:
            self._read_description_file(description_file)
        if self._table is None:
            self.get_logger().info('Waiting for robot_description to be published on the '
                                   'robot_description topic...')
        # Always: a description published later replaces the one of the file (as upstream).
        self.create_subscription(String, 'robot_description', self._on_robot_description,
                                 qos.LATCHED_DESCRIPTION)
        for topic in self._settings.source_list:
            self.create_subscription(JointState, topic,
                                     partial(self._on_source_joint_states, topic),
                                     qos.JOINT_STATES_SUBSCRIPTION)
        # On the node clock, as joint_state_publisher: under use_sim_time nothing before /clock.
        self.create_timer(1.0 / self._settings.rate, self._on_timer)
        warn_without_sim_clock(self, 'joint_states is not published')

    @property
    def table(self) -> JointStateTable | None:
        """The joint-state table published now, or ``None`` before a usable description."""
        return self._table

    @property
    def viewer(self) -> Any:
        """The slider page (a ``RobotViewer``) when ``gui`` is on and it runs, else ``None``."""
        return self._viewer

    def _make_table(self, robot: Robot) -> JointStateTable:
        """The table of a robot, with the ``zeros.<joint>`` of its actuated joints."""
        options: dict[str, Any] = {name: getattr(self._settings, name) for name in (
            'use_mimic_tags', 'use_smallest_joint_limits', 'publish_default_positions',
            'publish_default_velocities', 'publish_default_efforts')}
        table = JointStateTable(robot, clamp=self._clamp, **options)
        zeros, problems = parameters.declare_zeros(self, table.joint_names)
        table = JointStateTable(robot, zeros=zeros, clamp=self._clamp, **options)
        for problem in problems:
            self.get_logger().warning(problem)
        for severity, note in table_notes(table, robot):  # rclpy: one severity per call site
            if severity is Severity.ERROR:
                self.get_logger().error(note)
            else:
                self.get_logger().warning(note)
        return table

    def _read_description_file(self, path: str) -> None:
        """Use the description in file ``path`` (the command-line argument, as upstream)."""
        try:
            text = read_file(path).decode('utf-8')
        except (RobotDescriptionError, UnicodeDecodeError) as exc:
            self.get_logger().error(f'{path}: cannot read the description ({exc})')
            return
        self._use_description(text, path)

    def _on_robot_description(self, msg: String) -> None:
        self._use_description(conversions.description_from_msg(msg), '<robot_description>')

    def _use_description(self, text: str, filename: str) -> None:
        """Make the table of a description and publish it; keep the previous one on error."""
        try:
            robot, kind, description = joint_state_robot(text, filename,
                                                         locator=ament_package_locator)
            table = self._make_table(robot)
        except RobotDescriptionError as exc:
            self.get_logger().error(f'robot_description refused, keeping the previous one: '
                                    f'{exc}')
            return
        self._warn_refused(self._sources.merge_into(table))  # from the sources' latest values
        self._table = table
        self.get_logger().info(f'robot "{robot.name}" ({kind}): publishing '
                               f'{len(table.names)} joints ({len(table.mimics)} mimic)')
        if self._gui and description is not None:
            self._show(description, table)

    def _on_source_joint_states(self, topic: str, msg: JointState) -> None:
        _, sample = conversions.joint_state_from_msg(msg)
        self._sources.take(topic, sample)
        table = self._table
        if table is None:
            return
        if self._viewer is not None and len(sample.position) == len(sample.name):
            # positions through the page so that its sliders follow; the rest straight in
            refusals = self._viewer.set_positions(dict(zip(sample.name, sample.position)))
            refusals += table.merge(sample.name, (), sample.velocity, sample.effort)
        else:
            refusals = table.merge(sample.name, sample.position, sample.velocity, sample.effort)
        self._warn_refused(refusals)

    def _warn_refused(self, refusals: list[Finding]) -> None:
        if refusals:
            self.get_logger().warning('source joint_states: ' + refusals_text(refusals),
                                      throttle_duration_sec=_WARN_PERIOD)

    def _on_timer(self) -> None:
        table = self._table  # as upstream no empty JointState; the first one waits for sources
        if table is None or not table.names or not self._sources.ready(time.monotonic_ns()):
            return
        if self._settings.delta > 0.0:
            table.step(self._settings.delta)
            if self._viewer is not None:
                self._viewer.refresh()
        self._publisher.publish(conversions.joint_state_to_msg(
            table.sample(), self.get_clock().now().nanoseconds))

    def _show(self, description: RobotDescription, table: JointStateTable) -> None:
        """Show the description in the slider page (started on the first description)."""
        if self._viewer is not None:
            self._viewer.set_description(description, table)
            return
        try:
            from ..gui.viewer import RobotViewer
            self._viewer = RobotViewer(description, table, host=self._settings.gui_host,
                                       port=self._settings.gui_port)
        except (ImportError, OSError) as exc:
            self.get_logger().error(f'gui: cannot serve the slider page ({exc}); running '
                                    'without it')
            self._gui = False
            return
        self.get_logger().info(f'gui: joint sliders at {self._viewer.url}')

    def destroy_node(self) -> None:
        """Close the slider page, then destroy the node."""
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None
        super().destroy_node()


def main(args: list[str] | None = None, *, gui: bool = False,
         node_name: str = 'joint_state_publisher') -> None:
    """
    Run the joint-state publisher until shut down.

    :param args: The command line (``sys.argv`` when ``None``): an optional description file to
        use until ``robot_description`` arrives, then ROS arguments.
    :param gui: The ``gui`` parameter's default (``joint_state_publisher_gui``: on).
    :param node_name: The node's default name.
    """
    path = description_file_argument(
        args, node_name, __doc__.split('\n\n')[0],
        'robot description file (URDF) to use until robot_description is published')
    spin_node(lambda: JointStatePublisherNode(node_name, gui=gui, description_file=path), args)


def gui_main(args: list[str] | None = None) -> None:
    """Run ``joint_state_publisher_gui``: the joint-state publisher with the slider page on."""
    main(args, gui=True, node_name='joint_state_publisher_gui')


if __name__ == '__main__':
    main()
