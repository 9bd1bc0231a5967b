"""
The forward-kinematics engine against independent references.

Every link pose equals pinocchio's (``oracle_fk``) to 1e-12 on the sample robot, the URDF 1.1
example, the shared models and the corpus; ``joint_motion`` equals ``expm(θ [a]×)`` (by its
power series) about the normalised axis to 1e-12, axes a hair off a coordinate axis included.
"""

from __future__ import annotations

import math
from pathlib import Path

from corpus_models import MODELS
from hypothesis import given, settings, strategies as st
import numpy as np
import oracle_fk
import pytest

from conftest import REPO, SAMPLE_ROBOT, SHARED_URDFS
from urdf_tools_ros.core.kinematics.fk_plan import joint_motion
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load_string
from urdf_tools_ros.core.transforms import origin

pytestmark = pytest.mark.portability

TOLERANCE = 1e-12
#: A URDF 1.1 file (a capsule, a quaternion origin).
CAPSULE_ARM = REPO / 'urdf' / 'examples' / 'capsule_arm_1_1.urdf'
NEAR_UNIT_AXES = [(0.0, -1.0, 1e-8), (1e-9, 1.0, 0.0), (0.0, 0.0, -1.0), (1.0, 1e-12, -1e-12),
                  (0.3, -0.4, 0.866), (-1.0, 0.0, 0.0)]


def rotation_exponential(axis: tuple[float, float, float], angle: float) -> np.ndarray:
    """``expm(angle [a]×)`` for the normalised ``axis``, by its power series (to 60 terms)."""
    x, y, z = np.asarray(axis) / np.linalg.norm(axis)
    generator = angle * np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    result, term = np.eye(3), np.eye(3)
    for power in range(1, 60):
        term = term @ generator / power
        result = result + term
    return result


ROBOTS = {'sample_robot': SAMPLE_ROBOT, 'capsule_arm_1_1': CAPSULE_ARM, **SHARED_URDFS,
          **{model.path.stem: model.path for model in MODELS if model.pinocchio_loads}}


@pytest.mark.slow
@pytest.mark.parametrize('name', sorted(ROBOTS))
def test_every_link_pose_equals_pinocchio(name: str) -> None:
    path = ROBOTS[name]
    if not Path(path).exists():
        pytest.skip(f'{path} is not present')
    difference = oracle_fk.pinocchio_fk_difference(path, configurations=8, seed=3)
    if difference is None:
        pytest.skip('pinocchio is not installed')
    assert difference <= TOLERANCE, f'{name}: max |dT| = {difference:.3g}'


@pytest.mark.parametrize('axis', NEAR_UNIT_AXES)
@given(angle=st.floats(-2 * math.pi, 2 * math.pi))
@settings(max_examples=25, deadline=None)
def test_revolute_motion_is_the_rotation_about_the_normalised_axis(
        axis: tuple[float, float, float], angle: float) -> None:
    motion = joint_motion('revolute', np.asarray(axis) / np.linalg.norm(axis), np.array(angle))
    assert np.abs(motion[:3, :3] - rotation_exponential(axis, angle)).max() <= TOLERANCE
    assert np.array_equal(motion[3], [0.0, 0.0, 0.0, 1.0]) and not motion[:3, 3].any()


@pytest.mark.parametrize('axis', NEAR_UNIT_AXES)
@pytest.mark.parametrize('joint_type', ['revolute', 'continuous', 'prismatic'])
def test_every_path_moves_a_joint_about_its_exact_axis(axis: tuple[float, float, float],
                                                       joint_type: str) -> None:
    """Link poses, batch and joint transforms: origin @ the exact motion, to 1e-12."""
    limit = '<limit lower="-7" upper="7" effort="1" velocity="1"/>'
    text = ('<robot name="r"><link name="a"/><link name="b"/>'
            f'<joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>'
            '<origin xyz="0.1 -0.2 0.3" rpy="0.4 -0.5 0.6"/>'
            f'<axis xyz="{" ".join(repr(c) for c in axis)}"/>{limit}</joint></robot>')
    model = KinematicModel(load_string(text).robot)
    angles = np.array([-2.5, -0.3, 0.0, 1.1, 3.0])
    unit = np.asarray(axis) / np.linalg.norm(axis)
    expected = []
    for angle in angles:
        motion = np.eye(4)
        if joint_type == 'prismatic':
            motion[:3, 3] = angle * unit
        else:
            motion[:3, :3] = rotation_exponential(axis, angle)
        expected.append(origin((0.1, -0.2, 0.3), (0.4, -0.5, 0.6)) @ motion)
    batch = model.link_pose_batch(angles[:, None])
    for row, angle in enumerate(angles):
        index = model.link_index('b')
        assert np.abs(model.link_pose_array([angle])[index] - expected[row]).max() <= TOLERANCE
        assert np.abs(batch[row, index] - expected[row]).max() <= TOLERANCE
        assert np.abs(model.joint_transforms([angle])['j'] - expected[row]).max() <= TOLERANCE
