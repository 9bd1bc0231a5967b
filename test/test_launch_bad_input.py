"""
Bad launch input, launched by launch_pytest: one clear log line each, every node stays up.

``display.launch.py`` with a model that does not exist, one that is not well-formed XML (the
line is named) or an unknown ``xacro_args`` key (``prefx:=``: xacro ignores it, so the
description is published with the default and ``xacro-arg-unknown`` is logged once); and
``use_sim_time:=true`` with nothing on ``/clock``: the joint-state publisher says once that it
waits, publishes nothing until a ``/clock`` arrives and then stamps with it. Nothing unchecked
is published (no description, no joint states, no TF for a model that did not load); every node
is still running when the test ends and exits 0 at shutdown.
"""

from __future__ import annotations

from pathlib import Path
import time
from typing import Any

from launch_helpers import assert_ended_cleanly, bringup, LAUNCH_PYTEST_MODULES, Probe, Recorder
import pytest

from conftest import missing

LAUNCH_MISSING = missing(*LAUNCH_PYTEST_MODULES)
pytestmark = [pytest.mark.slow, pytest.mark.ros_install,
              pytest.mark.skipif(LAUNCH_MISSING is not None, reason=str(LAUNCH_MISSING))]

if LAUNCH_MISSING is None:
    import launch_pytest
    launch_fixture: Any = launch_pytest.fixture
else:  # the tests skip; the fixtures are only defined
    launch_fixture = pytest.fixture


BAD_MODEL = '<robot name="broken">\n  <link name="a">\n  </lnk>\n</robot>\n'


# Module scope: a test and the shutdown test after it share one launch (launch_pytest runs
# ``shutdown=True`` tests after the launch of the same fixture and parameter has ended). Tests
# do not yield (pytest 9 refuses a test function that yields).
@launch_fixture(scope='module', params=['missing', 'broken', 'unknown-xacro-arg'])
def bad_input(request: pytest.FixtureRequest, launch_prefix: Path,
              tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str, Path, Recorder]:
    recorder = Recorder()
    folder = tmp_path_factory.mktemp('bad')
    arguments = {}
    if request.param == 'missing':
        model = folder / 'nothere.urdf'
    elif request.param == 'broken':
        model = folder / 'broken.urdf'
        model.write_text(BAD_MODEL)
    else:
        model = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
        arguments['xacro_args'] = 'prefx:=zz_'
    return bringup(launch_prefix, 'display.launch.py', recorder, model=str(model), rviz='false',
                   gui='false', **arguments), request.param, model, recorder


@pytest.mark.launch(fixture=bad_input)
def test_bad_model_gives_one_clear_line_and_nodes_stay_up(
        probe: Probe, bad_input: tuple[Any, str, Path, Recorder]) -> None:
    _, case, model, bad_recorder = bad_input
    if case == 'unknown-xacro-arg':
        lines = bad_recorder.wait_for('xacro-arg-unknown', 'prefx:=')
        assert probe.wait(lambda: bool(probe.descriptions)), bad_recorder.text()
        assert 'zz_' not in probe.descriptions[0]  # xacro ignored it: the default prefix
        assert not bad_recorder.matching('ERROR')
    else:
        lines = bad_recorder.wait_for('not published', str(model))
        if case == 'broken':
            assert ':3' in lines[0] or 'line 3' in lines[0], lines
        time.sleep(3.0)  # the joint-state publisher and TF broadcaster wait, quietly
        assert probe.descriptions == [] and probe.joint_states == []
        assert probe.buffer.all_frames_as_string() == ''
    assert len(lines) == 1, bad_recorder.text()
    assert not bad_recorder.exits, bad_recorder.text()  # every node still up


@pytest.mark.launch(fixture=bad_input, shutdown=True)
def test_bad_model_nodes_end_cleanly(bad_input: tuple[Any, str, Path, Recorder]) -> None:
    assert_ended_cleanly(bad_input[3], 3)


@launch_fixture(scope='module')
def sim_time_without_clock(launch_prefix: Path) -> tuple[Any, Recorder]:
    recorder = Recorder()
    return bringup(launch_prefix, 'display.launch.py', recorder, rviz='false', gui='false',
                   use_sim_time='true'), recorder


@pytest.mark.launch(fixture=sim_time_without_clock)
def test_use_sim_time_without_clock_gives_one_line_then_follows_clock(
        probe: Probe, sim_time_without_clock: tuple[Any, Recorder]) -> None:
    from builtin_interfaces.msg import Time
    from rosgraph_msgs.msg import Clock

    sim_recorder = sim_time_without_clock[1]
    lines = sim_recorder.wait_for('use_sim_time is true', '/clock')
    assert len(lines) == 1 and 'joint_states is not published' in lines[0], sim_recorder.text()
    assert probe.wait(lambda: bool(probe.descriptions))  # the description does not wait
    assert probe.joint_states == []  # joint_states does, as joint_state_publisher
    time.sleep(2.0)
    assert len(sim_recorder.matching('use_sim_time is true')) == 1
    assert not sim_recorder.exits, sim_recorder.text()
    stamp = Time(sec=1234, nanosec=5)
    assert probe.wait(lambda: (probe.clock.publish(Clock(clock=stamp)) or
                               bool(probe.joint_states))), sim_recorder.text()
    assert probe.joint_states[0].header.stamp.sec >= 1234


@pytest.mark.launch(fixture=sim_time_without_clock, shutdown=True)
def test_use_sim_time_without_clock_nodes_end_cleanly(
        sim_time_without_clock: tuple[Any, Recorder]) -> None:
    assert_ended_cleanly(sim_time_without_clock[1], 3)
