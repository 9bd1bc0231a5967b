"""
urdf_launch's description and display launch files with only the package names changed.

Run as ``ros2 launch`` runs it (SIGINT to stop): every link has a transform through a real
tf2_ros Buffer, joint_states and robot_description are published, and ``ros2 param dump``
lists the joint-state publisher's parameters.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from launch_helpers import launch_environment, RUN_LAUNCH
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
#: Reads the graph: every link's transform from the root through tf2_ros, one joint_states and
#: robot_description message, the node names (once the expected ones are discovered, which can
#: lag behind the topics). argv = root, JSON [links], JSON [node names].
PROBE = """
import json, sys, time
import rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_ros import Buffer, TransformListener
rclpy.init()
node = rclpy.create_node('drop_in_probe')
buffer = Buffer()
listener = TransformListener(buffer, node)
got = {'joint_states': None, 'robot_description': None}
node.create_subscription(JointState, 'joint_states',
                         lambda msg: got.__setitem__('joint_states', list(msg.name)), 10)
node.create_subscription(String, 'robot_description',
                         lambda msg: got.__setitem__('robot_description', len(msg.data)),
                         QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
root, links, nodes = sys.argv[1], json.loads(sys.argv[2]), set(json.loads(sys.argv[3]))
found = set()
deadline = time.monotonic() + 40.0
while time.monotonic() < deadline and (len(found) < len(links) or None in got.values()
                                       or not nodes <= set(node.get_node_names())):
    rclpy.spin_once(node, timeout_sec=0.1)
    for link in links:
        if link not in found and buffer.can_transform(root, link, Time()):
            found.add(link)
print(json.dumps({'links': sorted(found), 'nodes': sorted(node.get_node_names()), **got}))
"""


@pytest.mark.parametrize('gui', ['false', 'true'])
def test_urdf_launch_style_file_with_only_the_package_changed(package_install: Path,
                                                              tmp_path: Path, gui: str) -> None:
    from urdf_tools_ros.core.source.loader import load

    share = package_install / 'share' / 'urdf_tools_ros'
    model = share / 'urdf' / 'sample_robot.urdf.xacro'
    robot = load(model).robot
    launch_file = tmp_path / 'display.launch.py'
    launch_file.write_text(URDF_LAUNCH_STYLE)
    env = launch_environment(package_install)
    # a sourced ROS environment has xacro (and ros2) on PATH
    env['PATH'] = os.pathsep.join([str(Path(sys.executable).parent), env.get('PATH', '')])
    process = subprocess.Popen(
        [sys.executable, '-c', RUN_LAUNCH, str(launch_file), f'urdf_path:={model}',
         f'jsp_gui:={gui}'],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        time.sleep(1.0)
        links = [link.name for link in robot.links]
        root = next(link for link in links if all(j.child != link for j in robot.joints))
        jsp = 'joint_state_publisher_gui' if gui == 'true' else 'joint_state_publisher'
        probe = subprocess.run([sys.executable, '-c', PROBE, root, json.dumps(links),
                                json.dumps(['robot_state_publisher', jsp])],
                               env=env, capture_output=True, text=True, timeout=120)
        assert probe.returncode == 0, probe.stderr
        seen = json.loads(probe.stdout.strip().splitlines()[-1])
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
    assert seen['links'] == sorted(links), output[-4000:]
    assert seen['joint_states'] and seen['robot_description'], output[-4000:]
    assert {'robot_state_publisher', jsp} <= set(seen['nodes'])
    assert dump.returncode == 0 and 'rate:' in dump.stdout and 'source_list' in dump.stdout, \
        dump.stdout + dump.stderr
    assert process.returncode == 0, output[-4000:]
    assert 'Traceback' not in output, output[-4000:]
