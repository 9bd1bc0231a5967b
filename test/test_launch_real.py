"""
The launch files as launched: the real ``launch``/``launch_ros`` on a colcon install space.

A bringup including description or display launch runs in a ``LaunchService`` process of its
own session: a global ``SetParameter(use_sim_time)`` is neither lost nor overrides the launch
arguments, and a terminal's Ctrl-C (SIGINT twice per node) ends every node cleanly.
"""

from __future__ import annotations

from collections.abc import Iterator
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

LAUNCH_MISSING = missing('rclpy', 'launch.actions', 'launch_ros.actions', 'colcon_core')
pytestmark = [pytest.mark.slow, pytest.mark.ros_install,
              pytest.mark.skipif(LAUNCH_MISSING is not None, reason=str(LAUNCH_MISSING))]

#: A bringup: optional global use_sim_time, then the package's launch file with arguments.
_BRINGUP = """
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import SetParameter


def generate_launch_description():
    actions = [SetParameter(name='use_sim_time', value=True)] if {global_sim_time} else []
    actions.append(IncludeLaunchDescription(PythonLaunchDescriptionSource({launch_file!r}),
                                            launch_arguments={arguments!r}.items()))
    return LaunchDescription(actions)
"""
#: Two robots: the launch file included twice, in two namespaces with two frame prefixes.
_TWO_ROBOTS = """
from launch import LaunchDescription
from launch.actions import GroupAction, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import PushRosNamespace


def generate_launch_description():
    return LaunchDescription([
        GroupAction([PushRosNamespace(name), IncludeLaunchDescription(
            PythonLaunchDescriptionSource({launch_file!r}),
            launch_arguments={{'model': {model!r}, 'frame_prefix': name + '/'}}.items())])
        for name in ('robot1', 'robot2')])
"""
#: Looks up every link through a real tf2_ros Buffer: argv = root, JSON [links]; prints JSON
#: {link: [x, y, z, qx, qy, qz, qw]} of T_root_link for the links found within 40 s.
_TF = """
import json, sys, time
import rclpy
from rclpy.time import Time
from tf2_ros import Buffer, TransformListener
rclpy.init()
node = rclpy.create_node('launch_test_tf')
buffer = Buffer()
listener = TransformListener(buffer, node)
root, links = sys.argv[1], json.loads(sys.argv[2])
found = {}
deadline = time.monotonic() + 40.0
while len(found) < len(links) and time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.1)
    for link in links:
        if link in found:
            continue
        try:
            stamped = buffer.lookup_transform(root, link, Time())
        except Exception:
            continue
        t, q = stamped.transform.translation, stamped.transform.rotation
        found[link] = [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
print(json.dumps(found))
"""
#: Reads parameters of nodes: argv = JSON {node: [names]}; prints JSON {node: [values]}.
_PARAMETERS = """
import json, sys
import rclpy
from rcl_interfaces.srv import GetParameters
from rclpy.parameter import parameter_value_to_python
rclpy.init()
node = rclpy.create_node('launch_test_probe')
result = {}
for name, names in json.loads(sys.argv[1]).items():
    client = node.create_client(GetParameters, name + '/get_parameters')
    if not client.wait_for_service(timeout_sec=20.0):
        result[name] = None
        continue
    future = client.call_async(GetParameters.Request(names=names))
    rclpy.spin_until_future_complete(node, future, timeout_sec=10.0)
    result[name] = [parameter_value_to_python(value) for value in future.result().values]
print(json.dumps(result))
"""


@pytest.fixture(scope='module')
def install(package_install: Path) -> Path:
    """The package's install prefix (the sourced one, or built by ``colcon build`` once)."""
    return package_install


class Launched:
    """A bringup running in its own session; :meth:`stop` sends SIGINT like a terminal."""

    def __init__(self, prefix: Path, tmp_path: Path, launch_file: str,
                 arguments: dict[str, str], global_sim_time: bool) -> None:
        share = prefix / 'share' / 'urdf_tools_ros'
        bringup = tmp_path / 'bringup.launch.py'
        bringup.write_text(_BRINGUP.format(global_sim_time=global_sim_time,
                                           launch_file=str(share / 'launch' / launch_file),
                                           arguments=arguments))
        self.env = launch_environment(prefix)
        self.process = subprocess.Popen([sys.executable, '-c', RUN_LAUNCH, str(bringup)],
                                        env=self.env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        self.output = ''

    def parameters(self, wanted: dict[str, list[str]]) -> dict[str, list[object] | None]:
        done = subprocess.run([sys.executable, '-c', _PARAMETERS, json.dumps(wanted)],
                              env=self.env, capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stderr
        result: dict[str, list[object] | None] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    def stop(self, whole_group: bool) -> int:
        """SIGINT to launch only, or to its whole process group (a terminal's Ctrl-C)."""
        if whole_group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        try:
            self.output, _ = self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.output, _ = self.process.communicate()
            pytest.fail('launch did not end within 60 s of SIGINT:\n' + self.output[-3000:])
        return self.process.returncode


@pytest.fixture
def launched(install: Path, tmp_path: Path) -> Iterator[list[Launched]]:
    started: list[Launched] = []
    yield started
    for run in started:
        if run.process.poll() is None:
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.communicate()


def start(started: list[Launched], install: Path, tmp_path: Path, launch_file: str,
          global_sim_time: bool, **arguments: str) -> Launched:
    model = str(install / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro')
    run = Launched(install, tmp_path, launch_file, {'model': model, **arguments},
                   global_sim_time)
    started.append(run)
    time.sleep(1.0)
    return run


@pytest.mark.parametrize('launch_file, extra', [
    ('description.launch.py', {}),
    ('display.launch.py', {'rviz': 'false', 'gui': 'false'})])
@pytest.mark.parametrize('global_sim_time, explicit, expected', [
    (False, None, False), (True, None, True), (True, 'false', False), (False, 'true', True)])
def test_launch_arguments_and_use_sim_time_under_a_bringup(
        launched: list[Launched], install: Path, tmp_path: Path, launch_file: str,
        extra: dict[str, str], global_sim_time: bool, explicit: str | None,
        expected: bool) -> None:
    arguments = dict(extra, frame_prefix='r1/')
    if explicit is not None:
        arguments['use_sim_time'] = explicit
    run = start(launched, install, tmp_path, launch_file, global_sim_time, **arguments)
    values = run.parameters({'/robot_description_publisher': ['use_sim_time', 'model'],
                             '/tf_broadcaster': ['use_sim_time', 'frame_prefix']})
    model = values['/robot_description_publisher']
    tf = values['/tf_broadcaster']
    assert model is not None and tf is not None, run.stop(whole_group=False) or run.output
    assert model[0] is expected and tf[0] is expected
    assert str(model[1]).endswith('sample_robot.urdf.xacro')  # not the YAML's ''
    assert tf[1] == 'r1/'
    assert run.stop(whole_group=False) == 0
    assert 'Traceback' not in run.output


@pytest.mark.parametrize('whole_group', [False, True])
def test_ctrl_c_ends_every_node_cleanly(launched: list[Launched], install: Path,
                                        tmp_path: Path, whole_group: bool) -> None:
    run = start(launched, install, tmp_path, 'display.launch.py', False, rviz='false',
                gui='false')
    values = run.parameters({'/tf_broadcaster': ['frame_prefix']})
    assert values['/tf_broadcaster'] is not None
    assert run.stop(whole_group) == 0
    assert 'Traceback' not in run.output, run.output[-3000:]
    assert 'process has died' not in run.output, run.output[-3000:]
    assert run.output.count('process has finished cleanly') == 3, run.output[-3000:]


def test_included_twice_in_two_namespaces_with_two_frame_prefixes(
        launched: list[Launched], install: Path, tmp_path: Path) -> None:
    if missing('tf2_ros') is not None:
        pytest.skip(str(missing('tf2_ros')))
    run = start(launched, install, tmp_path, 'description.launch.py', False)
    run.stop(whole_group=False)  # only its environment and install paths are reused
    share = install / 'share' / 'urdf_tools_ros'
    bringup = tmp_path / 'two.launch.py'
    bringup.write_text(_TWO_ROBOTS.format(
        launch_file=str(share / 'launch' / 'description.launch.py'),
        model=str(share / 'urdf' / 'sample_robot.urdf.xacro')))
    run.process = subprocess.Popen([sys.executable, '-c', RUN_LAUNCH, str(bringup)], env=run.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
    values = run.parameters({f'/{name}/tf_broadcaster': ['frame_prefix']
                             for name in ('robot1', 'robot2')})
    assert values == {'/robot1/tf_broadcaster': ['robot1/'],
                      '/robot2/tf_broadcaster': ['robot2/']}
    # Fixed joints only (no joint_states here): /tf_static of both robots, side by side.
    welded = ['base_link', 'caster_link', 'mast_link']
    for name in ('robot1', 'robot2'):
        done = subprocess.run([sys.executable, '-c', _TF, f'{name}/world',
                               json.dumps([f'{name}/{link}' for link in welded])],
                              env=run.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert sorted(json.loads(done.stdout.strip().splitlines()[-1])) == \
            sorted(f'{name}/{link}' for link in welded)
    assert run.stop(whole_group=True) == 0
    assert run.output.count('process has finished cleanly') == 4, run.output[-3000:]
