"""SE(3) helpers: hand-computed cases, hypothesis properties, batches and bad input."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from urdf_tools_ros.core.errors import RobotDescriptionError, TransformError
from urdf_tools_ros.core.transforms import (axis_rotation, homogeneous, inverse, origin,
                                            quaternion_to_rotation,
                                            rotation_to_quaternion, rotation_to_rpy,
                                            rpy_to_rotation, transform_from_quaternion,
                                            transform_to_quaternion, unit_axis)

pytestmark = pytest.mark.portability

ATOL = 1e-12
angle = st.floats(-math.pi, math.pi, allow_nan=False)
length = st.floats(-10.0, 10.0, allow_nan=False)
vector = st.tuples(length, length, length)
unit = st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)).filter(
    lambda v: math.sqrt(sum(x * x for x in v)) > 0.1)


def point(transform: np.ndarray, xyz: tuple[float, float, float]) -> np.ndarray:
    return (transform @ np.array([*xyz, 1.0]))[:3]


# -- hand-computed ----------------------------------------------------------------------------
@pytest.mark.parametrize(('axis', 'theta', 'before', 'after'), [
    ((0, 0, 1), math.pi / 2, (1, 0, 0), (0, 1, 0)),
    ((0, 0, 1), math.pi, (1, 0, 0), (-1, 0, 0)),
    ((1, 0, 0), math.pi / 2, (0, 1, 0), (0, 0, 1)),
    ((0, 1, 0), math.pi / 2, (0, 0, 1), (1, 0, 0)),
    ((0, 0, -1), math.pi / 2, (1, 0, 0), (0, -1, 0)),
    ((0, 0, 2), math.pi / 2, (1, 0, 0), (0, 1, 0)),          # normalised
    ((1, 1, 1), 2 * math.pi / 3, (1, 0, 0), (0, 1, 0)),       # cyclic permutation
])
def test_axis_rotation_moves_points(axis: tuple[float, ...], theta: float,
                                    before: tuple[float, float, float],
                                    after: tuple[float, ...]) -> None:
    np.testing.assert_allclose(point(axis_rotation(axis, theta), before), after, atol=ATOL)


@pytest.mark.parametrize(('rpy', 'before', 'after'), [
    ((math.pi / 2, 0, 0), (0, 1, 0), (0, 0, 1)),     # roll about x
    ((0, math.pi / 2, 0), (1, 0, 0), (0, 0, -1)),    # pitch about y
    ((0, 0, math.pi / 2), (1, 0, 0), (0, 1, 0)),     # yaw about z
    # fixed axes: roll first, then pitch, then yaw (REP 103): x -> x -> -z -> -z
    ((math.pi / 2, math.pi / 2, math.pi / 2), (1, 0, 0), (0, 0, -1)),
    ((math.pi / 2, math.pi / 2, math.pi / 2), (0, 1, 0), (0, 1, 0)),
])
def test_rpy_is_fixed_axis_roll_pitch_yaw(rpy: tuple[float, float, float],
                                          before: tuple[float, float, float],
                                          after: tuple[float, float, float]) -> None:
    np.testing.assert_allclose(point(origin((0, 0, 0), rpy), before), after, atol=ATOL)


def test_origin_translates_after_rotating() -> None:
    transform = origin((1, 2, 3), (0, 0, math.pi / 2))
    np.testing.assert_allclose(point(transform, (1, 0, 0)), (1, 3, 3), atol=ATOL)
    np.testing.assert_array_equal(transform[3], (0, 0, 0, 1))
    assert transform.dtype == np.float64


def test_quaternion_convention_is_xyzw() -> None:
    half = math.sqrt(0.5)
    np.testing.assert_allclose(quaternion_to_rotation((0, 0, half, half)),
                               rpy_to_rotation((0, 0, math.pi / 2)), atol=ATOL)
    np.testing.assert_allclose(rotation_to_quaternion(np.eye(3)), (0, 0, 0, 1), atol=ATOL)
    translation, quaternion = transform_to_quaternion(origin((1, 2, 3), (0, 0, math.pi)))
    np.testing.assert_allclose(translation, (1, 2, 3), atol=ATOL)
    np.testing.assert_allclose(np.abs(quaternion), (0, 0, 1, 0), atol=ATOL)


def test_gimbal_lock_rpy_reproduces_rotation() -> None:
    rotation = rpy_to_rotation((0.3, math.pi / 2, -0.4))
    np.testing.assert_allclose(rpy_to_rotation(rotation_to_rpy(rotation)), rotation, atol=1e-9)


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=200)
@given(vector, st.tuples(angle, angle, angle))
def test_transform_times_inverse_is_identity(xyz: tuple[float, ...],
                                             rpy: tuple[float, ...]) -> None:
    transform = origin(xyz, rpy)
    np.testing.assert_allclose(transform @ inverse(transform), np.eye(4), atol=1e-12)
    np.testing.assert_allclose(inverse(transform) @ transform, np.eye(4), atol=1e-12)


@settings(max_examples=200)
@given(angle, st.floats(-1.5, 1.5), angle)
def test_rpy_round_trip_away_from_gimbal_lock(roll: float, pitch: float, yaw: float) -> None:
    back = rotation_to_rpy(rpy_to_rotation((roll, pitch, yaw)))
    np.testing.assert_allclose(rpy_to_rotation(back), rpy_to_rotation((roll, pitch, yaw)),
                               atol=1e-12)
    wrapped = (np.asarray(back) - (roll, pitch, yaw) + math.pi) % (2 * math.pi) - math.pi
    np.testing.assert_allclose(wrapped, 0.0, atol=1e-9)


@settings(max_examples=200)
@given(st.tuples(*[st.floats(-1, 1)] * 4).filter(
    lambda q: math.sqrt(sum(x * x for x in q)) > 0.1))
def test_quaternion_round_trip(quaternion: tuple[float, ...]) -> None:
    q = np.asarray(quaternion) / np.linalg.norm(quaternion)
    back = rotation_to_quaternion(quaternion_to_rotation(q))
    sign = 1.0 if np.dot(back, q) >= 0 else -1.0
    np.testing.assert_allclose(back, sign * q, atol=1e-12)
    rotation = quaternion_to_rotation(q)
    np.testing.assert_allclose(rotation @ rotation.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(rotation) == pytest.approx(1.0)


@settings(max_examples=100)
@given(unit, angle, angle)
def test_rotations_about_one_axis_compose_by_adding_angles(axis: tuple[float, ...], first: float,
                                                           second: float) -> None:
    np.testing.assert_allclose(axis_rotation(axis, first) @ axis_rotation(axis, second),
                               axis_rotation(axis, first + second), atol=1e-12)


@settings(max_examples=100)
@given(st.tuples(angle, angle, angle))
def test_rpy_equals_composed_axis_rotations(rpy: tuple[float, float, float]) -> None:
    roll, pitch, yaw = rpy
    composed = axis_rotation((0, 0, 1), yaw) @ axis_rotation((0, 1, 0), pitch) \
        @ axis_rotation((1, 0, 0), roll)
    np.testing.assert_allclose(origin((0, 0, 0), rpy), composed, atol=1e-12)


@settings(max_examples=100)
@given(vector, st.tuples(angle, angle, angle), vector, st.tuples(angle, angle, angle))
def test_inverse_of_product(xyz1: tuple[float, ...], rpy1: tuple[float, ...],
                            xyz2: tuple[float, ...], rpy2: tuple[float, ...]) -> None:
    a, b = origin(xyz1, rpy1), origin(xyz2, rpy2)
    np.testing.assert_allclose(inverse(a @ b), inverse(b) @ inverse(a), atol=1e-11)


# -- batches ----------------------------------------------------------------------------------
def test_batches_match_one_by_one() -> None:
    rng = np.random.default_rng(3)
    xyz, rpy = rng.normal(size=(5, 2, 3)), rng.uniform(-3, 3, size=(5, 2, 3))
    batch = origin(xyz, rpy)
    assert batch.shape == (5, 2, 4, 4)
    np.testing.assert_allclose(batch[3, 1], origin(xyz[3, 1], rpy[3, 1]), atol=ATOL)
    angles = rng.uniform(-3, 3, size=7)
    assert axis_rotation((0, 1, 0), angles).shape == (7, 4, 4)
    np.testing.assert_allclose(inverse(batch)[2, 0], inverse(batch[2, 0]), atol=ATOL)
    quaternions = rotation_to_quaternion(batch)
    assert quaternions.shape == (5, 2, 4)
    np.testing.assert_allclose(transform_from_quaternion(xyz, quaternions), batch, atol=1e-12)


def test_inputs_are_not_changed() -> None:
    transform = origin((1, 2, 3), (0.1, 0.2, 0.3))
    copy = transform.copy()
    inverse(transform)
    transform_to_quaternion(transform)
    homogeneous(transform[:3, :3], transform[:3, 3])
    np.testing.assert_array_equal(transform, copy)


# -- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize('call', [
    lambda: origin((0, 0, math.nan), (0, 0, 0)),
    lambda: origin((0, 0, 0), (math.inf, 0, 0)),
    lambda: origin((0, 0), (0, 0, 0)),
    lambda: axis_rotation((0, 0, 0), 1.0),
    lambda: axis_rotation((0, 0, 1), math.nan),
    lambda: inverse(np.eye(3)),
    lambda: inverse(np.full((4, 4), math.nan)),
    lambda: quaternion_to_rotation((0, 0, 0, 0)),
    lambda: quaternion_to_rotation((0, 0, 1)),
    lambda: unit_axis('x y z'),
])
def test_bad_input_raises_transform_error(call: object) -> None:
    with pytest.raises(TransformError):
        call()  # type: ignore[operator]
    assert issubclass(TransformError, RobotDescriptionError)
    assert issubclass(TransformError, ValueError)
