"""Link poses chained from TF transforms (core.tf_compose): equal to FK, prefixes, gaps, NaN."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.description.loader import load, load_string
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.kinematics.transforms import origin, transform_to_quaternion
from urdf_tools_ros.core.tf.buffer import joint_edges, TfFrameStore

CHAIN_URDF = """<?xml version="1.0"?>
<robot name="chain">
  <link name="base"/><link name="upper"/><link name="lower"/><link name="hand"/>
  <link name="side"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 0.3"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0 0 0.4"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="wrist" type="fixed">
    <parent link="lower"/><child link="hand"/><origin xyz="0 0 0.2" rpy="0 0 0.5"/>
  </joint>
  <joint name="j_side" type="prismatic">
    <parent link="base"/><child link="side"/><origin xyz="0.1 0 0"/>
    <axis xyz="1 0 0"/><limit lower="0" upper="0.2" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def chain_model() -> KinematicModel:
    return KinematicModel(load_string(CHAIN_URDF, 'chain.urdf').robot)


def random_positions(model: KinematicModel, rng: np.random.Generator) -> dict[str, float]:
    return {name: float(rng.uniform(-math.pi, math.pi)) for name in model.variable_names}


def feed(store: TfFrameStore, model: KinematicModel, transforms: dict[str, np.ndarray],
         static: bool, prefix: str = '') -> None:
    for name, matrix in transforms.items():
        joint = model.tree.joint(name)
        assert store.add(prefix + joint.parent, prefix + joint.child, matrix,
                         static=static) is None


@pytest.mark.parametrize('model_name', ['sample_robot', 'talos_full_v2'])
def test_chaining_equals_forward_kinematics(model_name: str) -> None:
    if model_name == 'sample_robot':
        robot = load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true'}).robot
    else:
        robot = load(shared_model(model_name)).robot
    model = KinematicModel(robot)
    rng = np.random.default_rng(7)
    store = TfFrameStore()
    feed(store, model, model.fixed_joint_transforms(), static=True)
    for _ in range(5):
        positions = random_positions(model, rng)
        feed(store, model, model.joint_transforms(positions), static=False)
        poses = store.link_poses(model.tree)
        expected = model.link_poses(positions)
        assert set(poses) == set(expected)
        for link, pose in poses.items():
            np.testing.assert_allclose(pose, expected[link], atol=1e-12, err_msg=link)


def test_quaternion_input_equals_forward_kinematics() -> None:
    model = KinematicModel(load(shared_model('talos_full_v2')).robot)
    positions = random_positions(model, np.random.default_rng(3))
    edges = joint_edges(model, positions)
    joints = [model.tree.joint(name) for name in edges]
    xyz, quat = transform_to_quaternion(np.stack(list(edges.values())))
    store = TfFrameStore()
    problems = store.add_quaternions([j.parent for j in joints], [j.child for j in joints],
                                     xyz, quat)
    assert problems == []
    expected = model.link_poses(positions)
    poses = store.link_poses(model.tree)
    assert set(poses) == set(expected)
    for link, pose in poses.items():
        np.testing.assert_allclose(pose, expected[link], atol=1e-12, err_msg=link)


def test_fallback_alone_is_forward_kinematics_and_tf_overrides_it() -> None:
    model = chain_model()
    positions = {'j1': 0.3, 'j2': -0.5, 'j_side': 0.1}
    store = TfFrameStore()
    poses = store.link_poses(model.tree, joint_edges(model, positions))
    for link, pose in model.link_poses(positions).items():
        np.testing.assert_allclose(poses[link], pose, atol=1e-12)
    T_upper_lower = origin((0, 0, 0.4), (0, 1.2, 0))
    store.add('upper', 'lower', T_upper_lower)
    poses = store.link_poses(model.tree, joint_edges(model, positions))
    T_root_upper = model.link_poses(positions)['upper']
    np.testing.assert_allclose(poses['lower'], T_root_upper @ T_upper_lower, atol=1e-12)
    np.testing.assert_allclose(  # the fixed child follows the TF pose of its parent
        poses['hand'], T_root_upper @ T_upper_lower @ origin((0, 0, 0.2), (0, 0, 0.5)),
        atol=1e-12)


def test_frame_prefix_is_stripped_and_other_frames_ignored() -> None:
    model = chain_model()
    positions = {'j1': 0.7, 'j2': 0.2, 'j_side': 0.05}
    store = TfFrameStore(frame_prefix='r1/')
    feed(store, model, model.fixed_joint_transforms(), static=True, prefix='r1/')
    feed(store, model, model.joint_transforms(positions), static=False, prefix='r1/')
    assert store.add('r2/base', 'r2/upper', origin((5, 5, 5))) is None  # another robot
    assert store.add('base', 'upper', origin((5, 5, 5))) is None
    assert store.transform('upper') is not None and store.transform('upper')[0] == 'base'
    poses = store.link_poses(model.tree)
    for link, pose in model.link_poses(positions).items():
        np.testing.assert_allclose(poses[link], pose, atol=1e-12)


def test_partial_chains_are_left_out() -> None:
    model = chain_model()
    store = TfFrameStore()
    store.add('lower', 'hand', origin((0, 0, 0.2)), static=True)  # chain broken above at j2
    store.add('base', 'side', origin((0.1, 0, 0)))
    store.add('base', 'lower', origin((0, 0, 1)))  # not its URDF parent: does not count
    poses = store.link_poses(model.tree)
    assert set(poses) == {'base', 'side'}
    np.testing.assert_allclose(poses['base'], np.eye(4))
    store.add('base', 'upper', origin((0, 0, 0.3)))
    assert set(store.link_poses(model.tree)) == {'base', 'side', 'upper'}


def test_latest_wins_and_reset_keeps_static() -> None:
    model = chain_model()
    store = TfFrameStore()
    store.add('base', 'upper', origin((0, 0, 1.0)))
    version = store.version
    store.add('base', 'upper', origin((0, 0, 2.0)))
    assert store.version > version
    np.testing.assert_allclose(store.link_poses(model.tree)['upper'][:3, 3], (0, 0, 2.0))
    store.add('base', 'side', origin((0.1, 0, 0)), static=True)
    store.reset()
    assert set(store.link_poses(model.tree)) == {'base', 'side'}
    store.reset(keep_static=False)
    assert len(store) == 0


@pytest.mark.parametrize('bad', [
    np.full((4, 4), math.nan),
    np.array([[1, 0, 0, math.inf], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    np.eye(3),
    np.diag([2.0, 1.0, 1.0, 1.0]),                  # not a rotation
    np.diag([-1.0, 1.0, 1.0, 1.0]),                 # a reflection
    np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 1]], dtype=float),
    'garbage',
])
def test_bad_matrices_are_dropped_with_a_reason(bad: object) -> None:
    store = TfFrameStore()
    reason = store.add('base', 'upper', bad)  # type: ignore[arg-type]
    assert reason is not None and "'base' -> 'upper'" in reason
    assert len(store) == 0
    assert set(store.link_poses(chain_model().tree)) == {'base'}


def test_nan_quaternions_are_dropped_the_rest_kept() -> None:
    model = chain_model()
    store = TfFrameStore()
    problems = store.add_quaternions(
        ['base', 'base', 'upper', 'lower'], ['upper', 'side', 'lower', 'hand'],
        [[0, 0, 0.3], [math.nan, 0, 0], [0, 0, 0.4], [0, 0, 0.2]],
        [[0, 0, 0, 2.0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, math.inf, 1]])
    assert len(problems) == 3
    assert 'side' in problems[0] and 'NaN' in problems[0]
    assert 'zero quaternion' in problems[1] and 'NaN' in problems[2]
    poses = store.link_poses(model.tree)
    assert set(poses) == {'base', 'upper'}
    np.testing.assert_allclose(poses['upper'], origin((0, 0, 0.3)), atol=1e-15)  # normalised
    assert store.add_quaternions(['base'], ['upper', 'side'], [[0, 0, 0]], [[0, 0, 0, 1]])


def test_overflowing_chains_are_left_out() -> None:
    model = chain_model()
    store = TfFrameStore()
    store.add('base', 'upper', origin((1e308, 0, 0)))
    store.add('upper', 'lower', origin((1e308, 0, 0)))
    store.add('lower', 'hand', origin())
    poses = store.link_poses(model.tree)
    assert set(poses) == {'base', 'upper'}
    assert all(np.isfinite(pose).all() for pose in poses.values())


def test_inputs_are_copied() -> None:
    store = TfFrameStore()
    matrix = origin((0, 0, 1.0))
    store.add('base', 'upper', matrix)
    matrix[0, 3] = 9.0
    stored = store.transform('upper')
    assert stored is not None and stored[1][0, 3] == 0.0
    stored[1][0, 3] = 7.0
    np.testing.assert_allclose(store.link_poses(chain_model().tree)['upper'][:3, 3], (0, 0, 1))
