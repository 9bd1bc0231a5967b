"""``urdf-tools convert FILE --to 1.0``: the same kinematics in URDF 1.0, or a refusal."""

from __future__ import annotations

from pathlib import Path
import subprocess

import numpy as np
import oracles
import pytest

from conftest import REPO, run_cli
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.model.convert import ConversionError, to_urdf_1_0
from urdf_tools_ros.core.model.robot import Capsule, Cylinder, Sphere
from urdf_tools_ros.core.source.loader import load, load_string

EXAMPLE = REPO / 'urdf' / 'examples' / 'capsule_arm_1_1.urdf'


def convert(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli('convert', *args)


def test_the_round_trip_keeps_the_kinematics(tmp_path: Path) -> None:
    out = tmp_path / 'arm_1_0.urdf'
    done = convert(str(EXAMPLE), '--to', '1.0', '-o', str(out))
    assert done.returncode == 0, done.stderr
    before, after = load(EXAMPLE), load(out)
    assert after.robot.version == '1.0'
    codes = {f.code for f in check_description(after)}
    assert codes <= {'root-link-inertia'}, codes  # nothing 1.1 left, nothing broken
    a, b = KinematicModel(before.robot), KinematicModel(after.robot)
    for q in ({}, {'shoulder': 0.7, 'elbow': -1.1}, {'shoulder': -1.5, 'elbow': 1.9}):
        poses_a, poses_b = a.link_poses(q), b.link_poses(q)
        for link in poses_a:
            np.testing.assert_allclose(poses_a[link], poses_b[link], atol=1e-12)
    for version in ('3', '6'):
        verdict = oracles.urdfdom(out, version)
        if verdict is not None:
            assert verdict.loaded, verdict.message


def test_a_capsule_becomes_a_cylinder_and_two_spheres() -> None:
    before = load(EXAMPLE).robot.link('upper_arm')
    after = load_string(to_urdf_1_0(EXAMPLE.read_text())).robot.link('upper_arm')
    (capsule,) = [v.geometry for v in before.visuals]
    assert isinstance(capsule, Capsule)
    shapes = [v.geometry for v in after.visuals]
    assert [type(s) for s in shapes] == [Cylinder, Sphere, Sphere]
    assert shapes[0] == Cylinder(capsule.radius, capsule.length)
    centre = np.asarray(before.visuals[0].origin.xyz)
    ends = sorted(np.asarray(v.origin.xyz)[2] - centre[2] for v in after.visuals[1:])
    assert ends == pytest.approx([-capsule.length / 2, capsule.length / 2])
    assert all(s.radius == capsule.radius for s in shapes[1:])  # type: ignore[union-attr]
    assert len(after.collisions) == 3


def test_acceleration_limits_are_dropped_with_a_comment() -> None:
    text = ('<robot name="r" version="1.2"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1" acceleration="2" jerk="9"/>'
            '</joint></robot>')
    converted = to_urdf_1_0(text)
    assert 'acceleration="2" jerk="9" dropped' in converted
    limit = load_string(converted).robot.joints[0].limit
    assert limit is not None and (limit.lower, limit.upper, limit.velocity) == (-1, 1, 1)
    assert 'limit-attribute-ignored' not in {f.code for f in
                                             check_description(load_string(converted))}


@pytest.mark.parametrize('origin, words', [
    ('rpy="0 0 1" quat_xyzw="0 0 0 1"', 'both rpy and quat_xyzw'),
    ('quat_xyzw="0 0 0 0"', 'not a rotation'),
    ('quat_xyzw="0 0 1"', 'not a rotation'),
])
def test_what_1_0_cannot_say_is_refused_with_its_line(tmp_path: Path, origin: str,
                                                      words: str) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text('<robot name="r" version="1.1">\n<link name="a"/><link name="b"/>\n'
                    '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>\n'
                    f'<origin {origin}/></joint>\n</robot>\n')
    with pytest.raises(ConversionError, match=words):
        to_urdf_1_0(path.read_text(), str(path))
    done = convert(str(path))
    assert done.returncode == 2 and 'Traceback' not in done.stderr
    assert f'{path}:4' in done.stderr and words in done.stderr


def test_a_1_0_file_comes_out_the_same(tmp_path: Path) -> None:
    sample = load(REPO / 'urdf' / 'sample_robot.urdf.xacro')
    again = load_string(to_urdf_1_0(sample.xml))

    def joints(description: object) -> list[tuple[object, ...]]:
        return [(j.name, j.joint_type, j.parent, j.child, j.origin, j.axis, j.limit, j.mimic,
                 j.safety_controller) for j in description.robot.joints]  # type: ignore

    def shapes(description: object) -> list[tuple[object, ...]]:
        return [(v.geometry, v.origin, v.material and v.material.name)
                for link in description.robot.links  # type: ignore[attr-defined]
                for v in link.visuals]

    assert joints(again) == joints(sample) and shapes(again) == shapes(sample)
