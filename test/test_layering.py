"""The core stays ROS-free: importing it pulls in no ROS, launch or GUI module."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from ros_helpers import ROS_MISSING

from conftest import REPO

FORBIDDEN = ('rclpy', 'std_msgs', 'sensor_msgs', 'geometry_msgs', 'diagnostic_msgs', 'tf2_ros',
             'tf2_msgs', 'launch', 'launch_ros', 'ament_index_python', 'viser')


def test_core_imports_no_ros() -> None:
    code = (
        'import importlib, json, pkgutil, sys\n'
        'import urdf_tools_ros.core as core\n'
        'for info in pkgutil.walk_packages(core.__path__, "urdf_tools_ros.core."):\n'
        '    importlib.import_module(info.name)\n'
        'print(json.dumps(sorted(sys.modules)))\n')
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True, check=True)
    modules = json.loads(result.stdout.strip().splitlines()[-1])
    assert any(name == 'urdf_tools_ros.core.source.loader' for name in modules)
    loaded = sorted(name for name in modules if name.split('.')[0] in FORBIDDEN)
    assert loaded == []


def test_check_cli_imports_no_gui_or_rclpy() -> None:
    code = ('import json, sys\n'
            'from urdf_tools_ros.cli import main\n'
            'main.build_parser()\n'
            'print(json.dumps(sorted(sys.modules)))\n')
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True, check=True)
    modules = json.loads(result.stdout.strip().splitlines()[-1])
    assert not [name for name in modules if name.split('.')[0] in ('rclpy', 'viser')]


#: What only a ROS 2 install gives (on no registry): the nodes must start without it.
ROS_INSTALL_ONLY = ('tf2_ros', 'tf2_py', 'launch', 'launch_ros', 'launch_testing', 'launch_pytest',
                    'ros2cli')


@pytest.mark.ros
@pytest.mark.skipif(ROS_MISSING is not None, reason=str(ROS_MISSING))
def test_the_nodes_start_on_rclpy_and_the_message_packages_alone() -> None:
    """ROS 2 from PyPI: every node module imports and its node starts without them."""
    code = ('import json, sys\n'
            f'for name in {ROS_INSTALL_ONLY!r}:\n'
            '    sys.modules[name] = None  # import raises ImportError\n'
            'import rclpy\n'
            'from urdf_tools_ros.nodes import joint_state_publisher, robot_description, '
            'robot_state_publisher, tf_broadcaster\n'
            'rclpy.init()\n'
            'nodes = [tf_broadcaster.TfBroadcasterNode(), '
            'joint_state_publisher.JointStatePublisherNode(), '
            'robot_description.RobotDescriptionNode()]\n'
            'print(json.dumps([node.get_name() for node in nodes]))\n'
            'for node in nodes:\n'
            '    node.destroy_node()\n'
            'rclpy.try_shutdown()\n')
    env = dict(os.environ, ROS_DOMAIN_ID='231', ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    names = json.loads(result.stdout.strip().splitlines()[-1])
    assert names == ['tf_broadcaster', 'joint_state_publisher', 'robot_description_publisher']
