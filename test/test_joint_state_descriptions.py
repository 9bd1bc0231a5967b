"""URDF (also wrapped), SDF and COLLADA descriptions read for their joints as upstream does."""

from __future__ import annotations

import math
import tarfile

from paths import SHARED
import pytest

from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.joint_state.descriptions import joint_state_robot
from urdf_tools_ros.core.joint_state.table import JointStateTable

TARBALL = SHARED / 'ros-src' / 'joint_state_publisher-2.4.0.tar.gz'


@pytest.fixture(scope='module')
def fixtures() -> dict[str, str]:
    """Upstream joint_state_publisher 2.4.0's test descriptions, by file name."""
    if not TARBALL.is_file():
        pytest.skip(f'{TARBALL} is not there')
    found: dict[str, str] = {}
    with tarfile.open(TARBALL) as archive:
        for member in archive.getmembers():
            name = member.name.rsplit('/', 1)[-1]
            if member.isfile() and '/test/' in member.name and \
                    name.endswith(('.urdf', '.sdf', '.dae')):
                stream = archive.extractfile(member)
                assert stream is not None
                found[name] = stream.read().decode()
    return found


@pytest.mark.parametrize('name, kind', [('multi_joint_robot.urdf', 'urdf in <urdf>'),
                                        ('multi_joint_robot.sdf', 'sdf'),
                                        ('multi_joint_robot.dae', 'collada')])
def test_upstream_multi_joint_robot_in_three_formats(fixtures: dict[str, str], name: str,
                                                     kind: str) -> None:
    """What upstream's test_multi_joints asserts: j12 and j23 at 0, positions only."""
    robot, found, description = joint_state_robot(fixtures[name], name)
    assert found == kind
    assert (description is None) == (kind in ('sdf', 'collada'))
    sample = JointStateTable(robot).sample()
    assert dict(zip(sample.name, sample.position)) == {'j12': 0.0, 'j23': 0.0}
    assert sample.velocity == () and sample.effort == ()
    limits = JointStateTable(robot).limits['j12']
    assert (limits.lower, limits.upper) == pytest.approx((-1.0, 1.0))  # COLLADA: 57.3° = 1 rad


def test_upstream_mimic_chain(fixtures: dict[str, str]) -> None:
    robot, _, _ = joint_state_robot(fixtures['mimic_chain.urdf'])
    sample = JointStateTable(robot).sample()
    assert dict(zip(sample.name, sample.position)) == {'j12': 0.0, 'j23': 0.1, 'j34': -0.1}


def test_sdf_continuous_and_skipped_types() -> None:
    sdf = """<sdf version="1.8"><model name="m"><link name="a"/><link name="b"/>
      <joint name="spin" type="continuous"><parent>a</parent><child>b</child></joint>
      <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
      <joint name="slide" type="prismatic"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><limit><lower>0.2</lower><upper>0.4</upper></limit></axis>
      </joint></model></sdf>"""
    robot, _, _ = joint_state_robot(sdf)
    table = JointStateTable(robot)
    assert table.joint_names == ('spin', 'slide')
    assert (table.limits['spin'].slider_lower, table.limits['spin'].slider_upper) == \
        pytest.approx((-math.pi, math.pi))
    assert dict(zip(table.sample().name, table.sample().position))['slide'] == \
        pytest.approx(0.3)  # 0 outside [0.2, 0.4]: the middle, as upstream
    assert robot.joint('slide').axis == (1.0, 0.0, 0.0)


@pytest.mark.parametrize('xml, match', [
    ('<sdf version="1.8"><model name="m"><joint name="j" type="revolute"/></model></sdf>',
     'Limits must be specified for joint "j"'),
    ('<sdf version="1.8"><model name="m"><joint name="j" type="revolute"><axis><limit>'
     '<lower>0</lower></limit></axis></joint></model></sdf>', '"upper" limit must be specified'),
    ('<sdf version="1.8"/>', 'SDF must have a "model" tag'),
    ('<COLLADA version="1.4.1"/>', 'at least version 1.5.0'),
    ('<COLLADA version="1.5.0"/>', 'kinematics_model'),
    ('<urdf><not_a_robot/></urdf>', 'holds no <robot>'),
    ('<?xml version="1.0"?><!DOCTYPE sdf [<!ENTITY a "b">]><sdf version="1.8">&a;</sdf>',
     'entity'),
])
def test_refused_with_upstreams_reason(xml: str, match: str) -> None:
    with pytest.raises(DescriptionLoadError, match=match):
        joint_state_robot(xml)
