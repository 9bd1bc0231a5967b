"""
Entry points of the node executables.

The installed executables (``executables/`` in the repository, ``lib/urdf_tools_ros`` in a colcon
install) set :func:`stop_before_start` for SIGINT and SIGTERM in their first statement, then
call one of these. Each imports its node module only when run, so that on a machine without
ROS 2 (the package also installs with pip) the executable says what is missing instead of
printing a traceback.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from types import ModuleType

#: Top-level modules that come from a ROS 2 installation, not from this package.
ROS_MODULES = frozenset({'rclpy', 'rcl_interfaces', 'std_msgs', 'sensor_msgs', 'geometry_msgs',
                         'diagnostic_msgs', 'tf2_msgs', 'tf2_ros', 'builtin_interfaces',
                         'ament_index_python'})


def stop_before_start(_signum: int, _frame: object) -> None:
    """
    SIGINT or SIGTERM before ``rclpy.init``: nothing to clean up yet; exit 0 at once.

    ``os._exit``, not ``sys.exit``: a ``SystemExit`` raised in the middle of an import can be
    reported as ignored (with a traceback) instead of ending the process.
    """
    os._exit(0)


def _node_module(name: str) -> ModuleType:
    """
    Import ``urdf_tools_ros.nodes.<name>``; exit 2 with a message when ROS 2 is missing.

    SIGINT or SIGTERM during the import (rclpy, numpy and the message types take a second or
    more, so a Ctrl-C right after ``ros2 launch`` lands here) ends the process with 0 and no
    traceback, as one during the node's life does (:func:`~urdf_tools_ros.ros.spin.spin_node`
    takes both over before ``rclpy.init``).
    """
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, stop_before_start)
    try:
        return importlib.import_module(f'urdf_tools_ros.nodes.{name}')
    except ImportError as exc:
        missing = (exc.name or '').split('.')[0]
        if missing not in ROS_MODULES:
            raise
        print(f'urdf_tools_ros {name}: this node needs ROS 2 ({missing} is not importable); '
              'source your ROS 2 setup (e.g. /opt/ros/jazzy/setup.bash). The ROS-free tools '
              'are in urdf-tools (check, tree, graph, inertia, view).', file=sys.stderr)
        sys.exit(2)


def robot_description() -> None:
    """Run the robot description node."""
    _node_module('robot_description').main()


def joint_state_publisher() -> None:
    """Run the joint-state publisher node."""
    _node_module('joint_state_publisher').main()


def joint_state_publisher_gui() -> None:
    """Run the joint-state publisher with the browser slider page on."""
    _node_module('joint_state_publisher').gui_main()


def tf_broadcaster() -> None:
    """Run the TF broadcaster node."""
    _node_module('tf_broadcaster').main()


def robot_state_publisher() -> None:
    """Run the TF broadcaster as node ``robot_state_publisher``."""
    _node_module('robot_state_publisher').main()
