"""Forward kinematics: hand-computed joint types, batches, joint transforms and bad input."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_model
from urdf_tools_ros.core.errors import (InvalidJointError, JointStateError, KinematicTreeError,
                                        MimicError, UnknownJointError, UnknownLinkError)
from urdf_tools_ros.core.kinematics.forward import forward_kinematics, KinematicModel
from urdf_tools_ros.core.source.loader import load, load_string
from urdf_tools_ros.core.transforms import axis_rotation, inverse, origin

pytestmark = pytest.mark.portability

ALL_TYPES = Path(__file__).parent / 'urdf' / 'kinematics' / 'all_joint_types.urdf'
ATOL = 1e-12


def one_joint(joint_type: str, axis: str = '0 0 1', rpy: str = '0 0 0', xyz: str = '0 0 0',
              extra: str = '') -> KinematicModel:
    limit = '<limit lower="-4" upper="4" effort="1" velocity="1"/>' \
        if joint_type in ('revolute', 'prismatic') else ''
    text = (f'<robot name="r"><link name="a"/><link name="b"/>'
            f'<joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>'
            f'<origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>{limit}</joint>{extra}'
            '</robot>')
    return KinematicModel(load_string(text).robot)


def moved(model: KinematicModel, positions: object, xyz: tuple[float, float, float],
          link: str = 'b') -> np.ndarray:
    pose = model.link_poses(positions)[link]  # type: ignore[arg-type]
    return (pose @ np.array([*xyz, 1.0]))[:3]


# -- hand-computed, per joint type ------------------------------------------------------------
@pytest.mark.parametrize(('joint_type', 'axis', 'value', 'before', 'after'), [
    ('revolute', '0 0 1', math.pi / 2, (1, 0, 0), (0, 1, 0)),
    ('revolute', '0 0 -1', math.pi / 2, (1, 0, 0), (0, -1, 0)),
    ('revolute', '1 0 0', math.pi / 2, (0, 1, 0), (0, 0, 1)),
    ('revolute', '0 1 0', math.pi / 2, (0, 0, 1), (1, 0, 0)),
    ('revolute', '0 -1 0', math.pi / 2, (0, 0, 1), (-1, 0, 0)),
    ('revolute', '1 1 1', 2 * math.pi / 3, (1, 0, 0), (0, 1, 0)),
    ('continuous', '0 0 1', -math.pi, (1, 0, 0), (-1, 0, 0)),
    ('continuous', '0 0 1', 5 * math.pi / 2, (1, 0, 0), (0, 1, 0)),
    ('prismatic', '1 0 0', 0.5, (0, 0, 0), (0.5, 0, 0)),
    ('prismatic', '0 3 4', 1.0, (1, 1, 1), (1, 1.6, 1.8)),
    ('prismatic', '0 0 -1', 0.25, (0, 0, 0), (0, 0, -0.25)),
])
def test_single_dof_joints(joint_type: str, axis: str, value: float,
                           before: tuple[float, float, float],
                           after: tuple[float, float, float]) -> None:
    model = one_joint(joint_type, axis)
    np.testing.assert_allclose(moved(model, {'j': value}, before), after, atol=ATOL)
    np.testing.assert_allclose(model.link_pose_batch([[value]])[0, model.link_index('b')],
                               model.link_poses({'j': value})['b'], atol=ATOL)


def test_origin_is_applied_before_the_motion() -> None:
    model = one_joint('revolute', '0 0 1', rpy=f'0 0 {math.pi / 2}', xyz='1 0 0')
    # joint frame: at (1, 0, 0), turned 90° about z; then a further 90° turn about its z
    np.testing.assert_allclose(moved(model, {'j': math.pi / 2}, (1, 0, 0)), (0, 0, 0),
                               atol=ATOL)
    np.testing.assert_allclose(moved(model, {'j': 0.0}, (1, 0, 0)), (1, 1, 0), atol=ATOL)


def test_fixed_joint() -> None:
    model = one_joint('fixed', rpy=f'{math.pi / 2} 0 0', xyz='0 0 1')
    assert model.nq == 0 and model.variable_names == ()
    np.testing.assert_allclose(moved(model, None, (0, 1, 0)), (0, 0, 2), atol=ATOL)
    np.testing.assert_allclose(model.fixed_joint_transforms()['j'],
                               origin((0, 0, 1), (math.pi / 2, 0, 0)), atol=ATOL)
    assert model.joint_transforms() == {}


def test_floating_joint_rpy_and_quaternion() -> None:
    model = one_joint('floating', xyz='1 0 0')
    assert model.variable_names == ('j/x', 'j/y', 'j/z', 'j/roll', 'j/pitch', 'j/yaw')
    values = {'j/x': 0.5, 'j/y': -1.0, 'j/z': 2.0, 'j/yaw': math.pi / 2}
    np.testing.assert_allclose(moved(model, values, (1, 0, 0)), (1.5, 0.0, 2.0), atol=ATOL)
    quaternion = one_joint('floating', xyz='1 0 0', extra='')
    quaternion = KinematicModel(quaternion.tree, floating='quaternion')
    assert quaternion.variable_names[3:] == ('j/qx', 'j/qy', 'j/qz', 'j/qw')
    np.testing.assert_array_equal(quaternion.neutral(), (0, 0, 0, 0, 0, 0, 1))
    half = math.sqrt(0.5)
    values_q = {'j/x': 0.5, 'j/y': -1.0, 'j/z': 2.0, 'j/qz': 2 * half, 'j/qw': 2 * half}
    np.testing.assert_allclose(moved(quaternion, values_q, (1, 0, 0)), (1.5, 0.0, 2.0),
                               atol=ATOL)
    with pytest.raises(JointStateError, match='quaternion'):
        quaternion.link_poses({'j/qw': 0.0})


@pytest.mark.parametrize(('axis', 'x_direction', 'y_direction'), [
    ('0 0 1', (1, 0, 0), (0, 1, 0)),
    ('1 0 0', (0, 1, 0), (0, 0, 1)),
    ('0 1 0', (0, 0, 1), (1, 0, 0)),
    ('0 0 -1', (1, 0, 0), (0, -1, 0)),
])
def test_planar_joint_convention(axis: str, x_direction: tuple[float, ...],
                                 y_direction: tuple[float, ...]) -> None:
    model = one_joint('planar', axis)
    assert model.variable_names == ('j/x', 'j/y', 'j/yaw')
    np.testing.assert_allclose(moved(model, {'j/x': 2.0}, (0, 0, 0)),
                               2.0 * np.asarray(x_direction), atol=ATOL)
    np.testing.assert_allclose(moved(model, {'j/y': 3.0}, (0, 0, 0)),
                               3.0 * np.asarray(y_direction), atol=ATOL)
    pose = model.link_poses({'j/x': 0.3, 'j/y': -0.2, 'j/yaw': 0.7})['b']
    normal = np.asarray(axis.split(), dtype=float)
    np.testing.assert_allclose(pose[:3, :3], axis_rotation(normal, 0.7)[:3, :3], atol=ATOL)
    assert abs(np.dot(pose[:3, 3], normal)) < ATOL


def test_mimic_joints_follow_their_source() -> None:
    model = KinematicModel(load(ALL_TYPES).robot)
    assert 'follower_joint' not in model.variable_names
    transforms = model.joint_transforms({'turn_joint': 0.4, 'follower_joint': 99.0})
    follower = -2 * 0.4 + 0.1
    second = 0.5 * follower - 0.2
    np.testing.assert_allclose(transforms['follower_joint'],
                               origin((0, 0, 0.1)) @ axis_rotation((1, 0, 0), follower),
                               atol=ATOL)
    np.testing.assert_allclose(transforms['follower2_joint'],
                               origin((0, 0.1, 0)) @ axis_rotation((0, 0, 1), second), atol=ATOL)
    # a value given for a mimic joint is ignored, even a non-finite one; extremes stay finite
    assert np.isfinite(model.link_pose_array({'follower_joint': math.nan})).all()
    extreme = np.full((2, model.nq), 1e150)
    extreme[1] *= -1
    assert np.isfinite(model.link_pose_batch(extreme)).all()
    assert np.isfinite(model.link_pose_array(extreme[0])).all()


# -- consistency on every joint type ----------------------------------------------------------
def random_configurations(model: KinematicModel, count: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=(count, model.nq))


def test_poses_compose_joint_transforms_and_batch_matches_single() -> None:
    model = KinematicModel(load(ALL_TYPES).robot)
    robot = model.tree.robot
    configurations = random_configurations(model, 20)
    batch = model.link_pose_batch(configurations)
    assert batch.shape == (20, len(robot.links), 4, 4) and batch.dtype == np.float64
    for row, values in enumerate(configurations):
        poses = model.link_poses(values)
        moving = model.joint_transforms(values)
        steps = {**moving, **model.fixed_joint_transforms()}
        assert set(steps) == {joint.name for joint in robot.joints}
        for joint in robot.joints:
            np.testing.assert_allclose(poses[joint.parent] @ steps[joint.name],
                                       poses[joint.child], atol=1e-12)
        np.testing.assert_allclose(batch[row], model.link_pose_array(values), atol=1e-12)
        np.testing.assert_allclose(model.transform(values, 'glide', 'follower2'),
                                   inverse(poses['glide']) @ poses['follower2'], atol=1e-12)
    # new arrays each time; the input is not changed
    assert not np.shares_memory(model.link_pose_array(configurations[0]),
                                model.link_pose_array(configurations[1]))
    np.testing.assert_array_equal(configurations, random_configurations(model, 20))


def test_link_order_is_documented_and_parents_come_first() -> None:
    model = KinematicModel(load(shared_model('talos_full_v2')).robot)
    names = model.link_names
    assert names[0] == model.root == 'base_link'
    assert sorted(names) == sorted(link.name for link in model.tree.robot.links)
    for index, name in enumerate(names[1:], start=1):
        parent = model.tree.parent_link(name)
        assert parent is not None and names.index(parent) < index
        assert model.link_index(name) == index
    assert len(model.joint_names) == 32 and model.nq == 32


def test_forward_kinematics_function_and_defaults() -> None:
    robot = load(ALL_TYPES).robot
    poses = forward_kinematics(robot, {'turn_joint': 0.3})
    assert set(poses) == {link.name for link in robot.links}
    np.testing.assert_allclose(poses['base'], np.eye(4), atol=0)
    np.testing.assert_allclose(poses['free'], origin((1, 0, 0), (0, 0, 0.5)), atol=ATOL)


# -- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize(('positions', 'error', 'match'), [
    ({'nope': 1.0}, UnknownJointError, '"nope"'),
    ({'turn_joint': math.nan}, JointStateError, '"turn_joint"'),
    ({'turn_joint': math.inf}, JointStateError, '"turn_joint"'),
    ({'turn_joint': 1e200}, JointStateError, 'out of range'),
    ({'turn_joint': 'x'}, JointStateError, 'not a number'),
    ({'bolted_joint': 0.0}, JointStateError, 'fixed'),
    ({'free_joint': 0.0}, JointStateError, 'free_joint/x'),
    (np.zeros(3), JointStateError, r'shape \(13,\)'),
    (np.zeros((1, 13)), JointStateError, 'shape'),
    ([[1.0, 2.0]], JointStateError, 'shape'),
])
def test_bad_positions(positions: object, error: type[Exception], match: str) -> None:
    model = KinematicModel(load(ALL_TYPES).robot)
    with pytest.raises(error, match=match):
        model.link_poses(positions)  # type: ignore[arg-type]


def test_bad_batches_name_the_joint_and_row() -> None:
    model = KinematicModel(load(ALL_TYPES).robot)
    values = np.zeros((4, model.nq))
    values[2, model.variable_names.index('spin_joint')] = math.nan
    with pytest.raises(JointStateError, match=r'"spin_joint".*configuration 2'):
        model.link_pose_batch(values)
    with pytest.raises(JointStateError, match=r'shape \(N, 13\)'):
        model.link_pose_batch(np.zeros(13))
    with pytest.raises(UnknownLinkError, match='"nowhere"'):
        model.transform(None, 'base', 'nowhere')


@pytest.mark.parametrize(('text', 'error', 'match'), [
    ('<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/>'
     '<limit lower="0" upper="1" effort="1" velocity="1"/></joint>', InvalidJointError, 'zero'),
    ('<joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint>',
     InvalidJointError, 'not a URDF joint type'),
    ('<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
     '<origin xyz="nan 0 0"/></joint>', InvalidJointError, 'origin'),
    ('<joint name="j" type="fixed"><parent link="a"/><child link="a"/></joint>',
     KinematicTreeError, 'same link'),
    ('<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
     '<mimic joint="j"/></joint>', MimicError, 'itself'),
])
def test_models_that_cannot_be_compiled(text: str, error: type[Exception], match: str) -> None:
    robot = load_string(f'<robot name="r"><link name="a"/><link name="b"/>{text}</robot>').robot
    with pytest.raises(error, match=match):
        KinematicModel(robot)
