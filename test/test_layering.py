"""The core stays ROS-free: importing it pulls in no ROS, launch or GUI module."""

from __future__ import annotations

import json
import re
import subprocess
import sys

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
    assert any(name == 'urdf_tools_ros.core.description.loader' for name in modules)
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


def test_node_executables_without_ros_exit_2_with_a_message() -> None:
    code = ('import sys\n'
            'sys.modules["rclpy"] = None\n'
            'from urdf_tools_ros.nodes import entry\n'
            'entry.tf_broadcaster()\n')
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True)
    assert result.returncode == 2
    # rclpy, or whichever ROS module the node imports first where there is no ROS at all.
    assert re.search(r'needs ROS 2 \((rclpy|rcl_interfaces) is not importable\)', result.stderr)
    assert 'Traceback' not in result.stderr
