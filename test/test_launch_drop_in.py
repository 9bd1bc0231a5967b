"""
urdf_launch's description and display launch files with only the package names changed.

Run as ``ros2 launch`` runs it (SIGINT to stop): every link has a transform through a real
tf2_ros Buffer, joint_states and robot_description are published, and ``ros2 param dump``
lists the joint-state publisher's parameters.
"""

from __future__ import annotations

import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from launch_helpers import Probe, RUN_LAUNCH
import pytest

from conftest import missing

LAUNCH_MISSING = missing('rclpy', 'launch.actions', 'launch_ros.actions', 'tf2_ros', 'ros2cli')
pytestmark = [pytest.mark.slow, pytest.mark.ros_install,
              pytest.mark.skipif(LAUNCH_MISSING is not None, reason=str(LAUNCH_MISSING))]

URDF_LAUNCH_STYLE = """
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition, UnlessCondition
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    robot_description = ParameterValue(Command(['xacro ', LaunchConfiguration('urdf_path')]),
                                       value_type=str)
    return LaunchDescription([
        DeclareLaunchArgument('urdf_path'),
        DeclareLaunchArgument('jsp_gui', default_value='false', choices=['true', 'false']),
        Node(package='urdf_tools_ros', executable='robot_state_publisher',
             parameters=[{'robot_description': robot_description}]),
        Node(package='urdf_tools_ros', executable='joint_state_publisher',
             condition=UnlessCondition(LaunchConfiguration('jsp_gui'))),
        Node(package='urdf_tools_ros', executable='joint_state_publisher_gui',
             condition=IfCondition(LaunchConfiguration('jsp_gui'))),
    ])
"""


@pytest.mark.parametrize('gui', ['false', 'true'])
def test_urdf_launch_style_file_with_only_the_package_changed(launch_prefix: Path, probe: Probe,
                                                              tmp_path: Path, gui: str) -> None:
    from urdf_tools_ros.core.source.loader import load

    model = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
    robot = load(model).robot
    launch_file = tmp_path / 'display.launch.py'
    launch_file.write_text(URDF_LAUNCH_STYLE)
    # this process's environment is a sourced workspace's (launch_prefix), which has xacro (and
    # ros2) on PATH
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                                 os.environ.get('PATH', '')]))
    process = subprocess.Popen(
        [sys.executable, '-c', RUN_LAUNCH, str(launch_file), f'urdf_path:={model}',
         f'jsp_gui:={gui}'],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    links = [link.name for link in robot.links]
    root = next(link for link in links if all(j.child != link for j in robot.joints))
    jsp = 'joint_state_publisher_gui' if gui == 'true' else 'joint_state_publisher'

    def missing_parts() -> list[str]:
        """What the graph lacks yet: links without a transform, topics, node names."""
        return [*(link for link in links if probe.lookup(root, link) is None),
                *(['joint_states'] if not probe.joint_states else []),
                *(['robot_description'] if not probe.descriptions else []),
                *({'robot_state_publisher', jsp} - set(probe.node.get_node_names()))]

    try:
        probe.wait(lambda: not missing_parts(), timeout=40.0)
        lacking = missing_parts()
        for _ in range(20):  # discovery may not have found the node yet (a loaded machine)
            dump = subprocess.run(['ros2', 'param', 'dump', '--no-daemon', f'/{jsp}'], env=env,
                                  capture_output=True, text=True, timeout=60)
            if dump.returncode == 0:
                break
            time.sleep(1.0)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
    assert lacking == [], output[-4000:]
    assert dump.returncode == 0 and 'rate:' in dump.stdout and 'source_list' in dump.stdout, \
        dump.stdout + dump.stderr
    assert process.returncode == 0, output[-4000:]
    assert 'Traceback' not in output, output[-4000:]
