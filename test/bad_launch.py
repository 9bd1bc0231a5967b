"""
Bad launch input for the launch_pytest modules ``test_launch_bad_*.py`` (no tests here).

display.launch.py with a missing, malformed or ``prefx:=``-argument model, or with
``use_sim_time:=true`` and no ``/clock``: one log line, nothing unchecked published, every node
up and ending with 0. One launch per module: launch_pytest's module-scoped fixture shares one
``LaunchService``, which starts nothing once its first launch has ended.
"""

from __future__ import annotations

from pathlib import Path
import time
from typing import Any

from launch_helpers import (assert_ended_cleanly, bringup, launch_fixture, LAUNCH_MARKS as MARKS,
                            Probe, Recorder)
import pytest

BAD_MODEL = '<robot name="broken">\n  <link name="a">\n  </lnk>\n</robot>\n'
#: ``(launch description, case, model, recorder)``.
BadLaunch = tuple[Any, str, Path, Recorder]


def bad_model_launch(case: str, launch_prefix: Path,
                     tmp_path_factory: pytest.TempPathFactory) -> BadLaunch:
    """display.launch.py with the model of ``case``: missing, broken or unknown-xacro-arg."""
    recorder = Recorder()
    folder = tmp_path_factory.mktemp('bad')
    arguments = {}
    if case == 'missing':
        model = folder / 'nothere.urdf'
    elif case == 'broken':
        model = folder / 'broken.urdf'
        model.write_text(BAD_MODEL)
    else:
        model = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
        arguments['xacro_args'] = 'prefx:=zz_'
    return bringup(launch_prefix, 'display.launch.py', recorder, model=str(model), rviz='false',
                   gui='false', **arguments), case, model, recorder


def check_one_clear_line(probe: Probe, launched: BadLaunch) -> None:
    """One log line names the problem; nothing unchecked is published; every node stays up."""
    _, case, model, recorder = launched
    if case == 'unknown-xacro-arg':
        lines = recorder.wait_for('xacro-arg-unknown', 'prefx:=')
        assert probe.wait(lambda: bool(probe.descriptions)), recorder.text()
        assert 'zz_' not in probe.descriptions[0]  # xacro ignored it: the default prefix
        assert not recorder.matching('ERROR')
    else:
        lines = recorder.wait_for('not published', str(model))
        if case == 'broken':
            assert lines and (':3' in lines[0] or 'line 3' in lines[0]), recorder.text()
        time.sleep(3.0)  # the joint-state publisher and TF broadcaster wait, quietly
        assert probe.descriptions == [] and probe.joint_states == []
        assert probe.buffer.all_frames_as_string() == ''
    assert len(lines) == 1, recorder.text()
    assert not recorder.exits, recorder.text()  # every node still up


def sim_time_launch(launch_prefix: Path) -> tuple[Any, Recorder]:
    """display.launch.py with ``use_sim_time:=true`` and nothing on ``/clock``."""
    recorder = Recorder()
    return bringup(launch_prefix, 'display.launch.py', recorder, rviz='false', gui='false',
                   use_sim_time='true'), recorder


def check_sim_time(probe: Probe, recorder: Recorder) -> None:
    """One line says joint_states waits for /clock; the first /clock is then followed."""
    from builtin_interfaces.msg import Time
    from rosgraph_msgs.msg import Clock

    lines = recorder.wait_for('use_sim_time is true', '/clock')
    assert len(lines) == 1 and 'joint_states is not published' in lines[0], recorder.text()
    assert probe.wait(lambda: bool(probe.descriptions))  # the description does not wait
    assert probe.joint_states == []  # joint_states does, as joint_state_publisher
    time.sleep(2.0)
    assert len(recorder.matching('use_sim_time is true')) == 1
    assert not recorder.exits, recorder.text()
    stamp = Time(sec=1234, nanosec=5)
    assert probe.wait(lambda: (probe.clock.publish(Clock(clock=stamp)) or
                               bool(probe.joint_states))), recorder.text()
    assert probe.joint_states[0].header.stamp.sec >= 1234


__all__ = ['assert_ended_cleanly', 'bad_model_launch', 'BadLaunch', 'check_one_clear_line',
           'check_sim_time', 'launch_fixture', 'MARKS', 'sim_time_launch']
