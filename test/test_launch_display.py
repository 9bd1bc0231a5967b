"""
display.launch.py with a plain ``.urdf`` and ``frame_prefix:=r1/``, by launch_pytest.

The latched description reads as the file; ``joint_states`` names every moving joint, mimic
joints as their ``<mimic>`` says; every link through a real ``tf2_ros.Buffer`` equals the
forward kinematics to 1e-12; the nodes end with 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from launch_helpers import (assert_ended_cleanly, bringup, launch_fixture, LAUNCH_MARKS, parsed,
                            Probe, Recorder)
import pytest

pytestmark = LAUNCH_MARKS


@pytest.fixture(scope='module')
def sample_urdf(launch_prefix: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample robot expanded by the real xacro into a plain ``.urdf``."""
    import xacro

    source = launch_prefix / 'share' / 'urdf_tools_ros' / 'urdf' / 'sample_robot.urdf.xacro'
    path = tmp_path_factory.mktemp('urdf') / 'sample_robot.urdf'
    path.write_text(xacro.process_file(str(source)).toprettyxml(indent='  '))
    return path


@launch_fixture(scope='module')
def display(launch_prefix: Path, sample_urdf: Path) -> tuple[Any, Recorder]:
    recorder = Recorder()
    return bringup(launch_prefix, 'display.launch.py', recorder, model=str(sample_urdf),
                   rviz='false', gui='false', frame_prefix='r1/'), recorder


@pytest.mark.launch(fixture=display)
def test_display_publishes_the_urdf_latched(probe: Probe, sample_urdf: Path,
                                            display: tuple[Any, Recorder]) -> None:
    assert probe.wait(lambda: bool(probe.descriptions)), display[1].text()
    published, expected = parsed(probe.descriptions[0]), parsed(sample_urdf.read_text())
    assert published.name == expected.name
    assert [link.name for link in published.links] == [link.name for link in expected.links]
    assert [(j.name, j.type, j.parent, j.child) for j in published.joints] == \
        [(j.name, j.type, j.parent, j.child) for j in expected.joints]


@pytest.mark.launch(fixture=display)
def test_display_publishes_joint_states_with_mimic_joints(
        probe: Probe, sample_urdf: Path, display: tuple[Any, Recorder]) -> None:
    robot = parsed(sample_urdf.read_text())
    moving = {j.name for j in robot.joints if j.type in ('revolute', 'continuous', 'prismatic')}
    mimics = {j.name: j.mimic for j in robot.joints if j.mimic is not None}
    assert mimics, 'the sample robot has mimic joints'
    assert probe.wait(lambda: len(probe.joint_states) >= 3), display[1].text()
    for msg in probe.joint_states[:3]:
        assert set(msg.name) == moving and len(msg.name) == len(msg.position)
        position = dict(zip(msg.name, msg.position))
        for name, mimic in mimics.items():
            multiplier = 1.0 if mimic.multiplier is None else mimic.multiplier
            offset = 0.0 if mimic.offset is None else mimic.offset
            assert position[name] == pytest.approx(
                multiplier * position[mimic.joint] + offset, abs=1e-12), name


@pytest.mark.launch(fixture=display)
def test_display_tf_of_every_link_equals_forward_kinematics(
        probe: Probe, sample_urdf: Path, display: tuple[Any, Recorder]) -> None:
    import numpy as np

    from urdf_tools_ros.core.kinematics.forward import KinematicModel
    from urdf_tools_ros.core.source.loader import load
    from urdf_tools_ros.core.transforms import transform_to_quaternion

    robot = parsed(sample_urdf.read_text())
    root = robot.get_root()
    links = [link.name for link in robot.links if link.name != root]
    assert probe.wait(lambda: all(probe.lookup(f'r1/{root}', f'r1/{link}') is not None
                                  for link in links)), \
        [link for link in links if probe.lookup(f'r1/{root}', f'r1/{link}') is None]
    assert probe.wait(lambda: bool(probe.joint_states)), display[1].text()
    msg = probe.joint_states[-1]
    poses = KinematicModel(load(sample_urdf).robot).link_poses(dict(zip(msg.name,
                                                                        msg.position)))
    for link in links:
        transform = probe.lookup(f'r1/{root}', f'r1/{link}').transform
        xyz, quaternion = transform_to_quaternion(poses[link])
        t, q = transform.translation, transform.rotation
        got = np.array([q.x, q.y, q.z, q.w])
        if np.dot(got, quaternion) < 0:
            got = -got
        assert np.allclose([t.x, t.y, t.z], xyz, atol=1e-12), link
        assert np.allclose(got, quaternion, atol=1e-12), link


@pytest.mark.launch(fixture=display, shutdown=True)
def test_display_nodes_end_cleanly(display: tuple[Any, Recorder]) -> None:
    assert_ended_cleanly(display[1], 3)
