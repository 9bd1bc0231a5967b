"""
description.launch.py with a ``.xacro`` and ``xacro_args:=prefix:=r1_``, by launch_pytest.

The description xacro gives, ``/tf_static``, no ``xacro-arg-unknown``, exit 0 at shutdown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from launch_helpers import (assert_ended_cleanly, bringup, launch_fixture, LAUNCH_MARKS, parsed,
                            Probe, Recorder)
import pytest

pytestmark = LAUNCH_MARKS


@launch_fixture(scope='module')
def described(launch_prefix: Path) -> tuple[Any, Recorder]:
    recorder = Recorder()
    model = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
    return bringup(launch_prefix, 'description.launch.py', recorder, model=str(model),
                   xacro_args='prefix:=r1_'), recorder


@pytest.mark.launch(fixture=described)
def test_xacro_arguments_reach_the_published_description(
        probe: Probe, launch_prefix: Path, described: tuple[Any, Recorder]) -> None:
    import xacro

    recorder = described[1]
    model = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
    expected = parsed(xacro.process_file(str(model), mappings={'prefix': 'r1_'}).toxml())
    assert probe.wait(lambda: bool(probe.descriptions)), recorder.text()
    published = parsed(probe.descriptions[0])
    assert [link.name for link in published.links] == [link.name for link in expected.links]
    assert any(link.name.startswith('r1_') for link in published.links)
    assert [(j.name, j.parent, j.child) for j in published.joints] == \
        [(j.name, j.parent, j.child) for j in expected.joints]
    # /tf_static carries the fixed joints of the prefixed robot (no joint_states here).
    fixed = [j for j in expected.joints if j.type == 'fixed']
    assert probe.wait(lambda: all(probe.lookup(j.parent, j.child) is not None for j in fixed))
    assert not recorder.matching('xacro-arg-unknown')


@pytest.mark.launch(fixture=described, shutdown=True)
def test_xacro_launch_nodes_end_cleanly(described: tuple[Any, Recorder]) -> None:
    assert_ended_cleanly(described[1], 2)
