"""
The launch files as launched: the real ``launch``/``launch_ros`` on a colcon install space.

A bringup including description or display launch runs in a ``LaunchService`` process of its
own session: a global ``SetParameter(use_sim_time)`` is neither lost nor overrides the launch
arguments, and a terminal's Ctrl-C (SIGINT twice per node) ends every node cleanly.
"""

from __future__ import annotations

from collections.abc import Iterator
import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from launch_helpers import Probe, RUN_LAUNCH
import pytest

from conftest import missing

LAUNCH_MISSING = missing('rclpy', 'launch.actions', 'launch_ros.actions', 'tf2_ros',
                         'colcon_core')
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


class Launched:
    """A bringup running in its own session; :meth:`stop` sends SIGINT like a terminal."""

    def __init__(self, bringup: Path) -> None:
        # this process's environment is a sourced workspace's (conftest's launch_prefix)
        self.process = subprocess.Popen([sys.executable, '-c', RUN_LAUNCH, str(bringup)],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, start_new_session=True)
        self.output = ''

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
def launched(launch_prefix: Path) -> Iterator[list[Launched]]:
    started: list[Launched] = []
    yield started
    for run in started:
        if run.process.poll() is None:
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.communicate()


def start(started: list[Launched], bringup: Path, text: str) -> Launched:
    """Launch ``text`` written to ``bringup``."""
    bringup.write_text(text)
    started.append(Launched(bringup))
    time.sleep(1.0)
    return started[-1]


def sample(prefix: Path, launch_file: str, global_sim_time: bool, **arguments: str) -> str:
    """A bringup of the sample robot through the installed ``launch_file``."""
    share = prefix / 'share' / 'urdf_tools_ros'
    return _BRINGUP.format(global_sim_time=global_sim_time,
                           launch_file=str(share / 'launch' / launch_file),
                           arguments={'model': str(share / 'urdf' / 'sample_robot.urdf.xacro'),
                                      **arguments})


@pytest.mark.parametrize('launch_file, extra', [
    ('description.launch.py', {}),
    ('display.launch.py', {'rviz': 'false', 'gui': 'false'})])
@pytest.mark.parametrize('global_sim_time, explicit, expected', [
    (False, None, False), (True, None, True), (True, 'false', False), (False, 'true', True)])
def test_launch_arguments_and_use_sim_time_under_a_bringup(
        launched: list[Launched], launch_prefix: Path, probe: Probe, tmp_path: Path,
        launch_file: str, extra: dict[str, str], global_sim_time: bool, explicit: str | None,
        expected: bool) -> None:
    arguments = dict(extra, frame_prefix='r1/')
    if explicit is not None:
        arguments['use_sim_time'] = explicit
    run = start(launched, tmp_path / 'bringup.launch.py',
                sample(launch_prefix, launch_file, global_sim_time, **arguments))
    model = probe.parameters('/robot_description_publisher', ['use_sim_time', 'model'])
    tf = probe.parameters('/tf_broadcaster', ['use_sim_time', 'frame_prefix'])
    assert model is not None and tf is not None, run.stop(whole_group=False) or run.output
    assert model[0] is expected and tf[0] is expected
    assert str(model[1]).endswith('sample_robot.urdf.xacro')  # not the YAML's ''
    assert tf[1] == 'r1/'
    assert run.stop(whole_group=False) == 0
    assert 'Traceback' not in run.output


@pytest.mark.parametrize('whole_group', [False, True])
def test_ctrl_c_ends_every_node_cleanly(launched: list[Launched], launch_prefix: Path,
                                        probe: Probe, tmp_path: Path, whole_group: bool) -> None:
    run = start(launched, tmp_path / 'bringup.launch.py',
                sample(launch_prefix, 'display.launch.py', False, rviz='false', gui='false'))
    assert probe.parameters('/tf_broadcaster', ['frame_prefix']) is not None
    assert run.stop(whole_group) == 0
    assert 'Traceback' not in run.output, run.output[-3000:]
    assert 'process has died' not in run.output, run.output[-3000:]
    assert run.output.count('process has finished cleanly') == 3, run.output[-3000:]


def test_included_twice_in_two_namespaces_with_two_frame_prefixes(
        launched: list[Launched], launch_prefix: Path, probe: Probe, tmp_path: Path) -> None:
    share = launch_prefix / 'share' / 'urdf_tools_ros'
    run = start(launched, tmp_path / 'two.launch.py', _TWO_ROBOTS.format(
        launch_file=str(share / 'launch' / 'description.launch.py'),
        model=str(share / 'urdf' / 'sample_robot.urdf.xacro')))
    robots = ('robot1', 'robot2')
    assert {name: probe.parameters(f'/{name}/tf_broadcaster', ['frame_prefix'])
            for name in robots} == {name: [f'{name}/'] for name in robots}
    # Fixed joints only (no joint_states here): /tf_static of both robots, side by side.
    frames = [(f'{name}/world', f'{name}/{link}') for name in robots
              for link in ('base_link', 'caster_link', 'mast_link')]
    assert probe.wait(lambda: all(probe.lookup(*frame) is not None for frame in frames),
                      timeout=40.0), [frame for frame in frames if probe.lookup(*frame) is None]
    assert run.stop(whole_group=True) == 0
    assert run.output.count('process has finished cleanly') == 4, run.output[-3000:]
