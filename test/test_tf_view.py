"""Link poses chained from per-joint transforms (core.tf.view): equal to FK, fallback, gaps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.description.loader import load, load_string
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.kinematics.transforms import origin
from urdf_tools_ros.core.tf.view import chain_link_poses, joint_edges

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


@pytest.mark.parametrize('model_name', ['sample_robot', 'talos_full_v2'])
def test_chaining_equals_forward_kinematics(model_name: str) -> None:
    if model_name == 'sample_robot':
        robot = load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true'}).robot
    else:
        robot = load(shared_model(model_name)).robot
    model = KinematicModel(robot)
    rng = np.random.default_rng(7)
    for _ in range(5):
        positions = {name: float(rng.uniform(-math.pi, math.pi))
                     for name in model.variable_names}
        poses = chain_link_poses(model.tree, joint_edges(model, positions))
        expected = model.link_poses(positions)
        assert set(poses) == set(expected)
        for link, pose in poses.items():
            np.testing.assert_allclose(pose, expected[link], atol=1e-12, err_msg=link)


def test_edges_override_the_fallback() -> None:
    model = chain_model()
    positions = {'j1': 0.3, 'j2': -0.5, 'j_side': 0.1}
    T_upper_lower = origin((0, 0, 0.4), (0, 1.2, 0))
    poses = chain_link_poses(model.tree, {'j2': T_upper_lower}, joint_edges(model, positions))
    T_root_upper = model.link_poses(positions)['upper']
    np.testing.assert_allclose(poses['lower'], T_root_upper @ T_upper_lower, atol=1e-12)
    np.testing.assert_allclose(  # the fixed child follows the given pose of its parent
        poses['hand'], T_root_upper @ T_upper_lower @ origin((0, 0, 0.2), (0, 0, 0.5)),
        atol=1e-12)
    np.testing.assert_allclose(poses['side'], model.link_poses(positions)['side'], atol=1e-12)


def test_partial_and_overflowing_chains_are_left_out() -> None:
    model = chain_model()
    assert set(chain_link_poses(model.tree, {'j1': origin()})) == {'base', 'upper'}
    poses = chain_link_poses(model.tree, {'j1': origin((1e308, 0, 0)),
                                          'j2': origin((1e308, 0, 0)), 'wrist': origin()})
    assert set(poses) == {'base', 'upper'}
    assert all(np.isfinite(pose).all() for pose in poses.values())
