"""Inertia tensors of solid primitives, validity, rotation, parallel axis and formatting."""

from __future__ import annotations

import math

from hypothesis import given, strategies as st
import numpy as np
import pytest

from urdf_tools_ros.core.kinematics.inertia import (box_inertia, cylinder_inertia,
                                                    describe_inertia, describe_solid,
                                                    format_inertia_element, implied_inertia,
                                                    inertia_from_matrix, inertia_matrix,
                                                    is_physically_valid, is_positive_definite,
                                                    is_zero, parallel_axis, principal_moments,
                                                    rotate, sphere_inertia,
                                                    triangle_inequality_violation)
from urdf_tools_ros.core.model.robot import Box, Cylinder, Inertia, Mesh, Origin, Sphere
from urdf_tools_ros.core.transforms import rpy_to_rotation

pytestmark = pytest.mark.portability

positive = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False)
angle = st.floats(min_value=-math.pi, max_value=math.pi, allow_nan=False)


def diagonal(inertia: Inertia) -> tuple[float, float, float]:
    return (inertia.ixx, inertia.iyy, inertia.izz)


# -- the solid formulas -------------------------------------------------------------------------
@pytest.mark.parametrize('inertia, moments', [
    # a 0.1 x 0.1 x 0.2 m box of 0.6 kg: ixx = 0.6 (0.01 + 0.04) / 12 = 0.0025
    (box_inertia(0.6, (0.1, 0.1, 0.2)), (0.0025, 0.0025, 0.001)),
    (box_inertia(12.0, (1.0, 1.0, 1.0)), (2.0, 2.0, 2.0)),
    # m (3 r^2 + h^2) / 12 and m r^2 / 2 for r = 0.1, h = 0.6, m = 2: the axis is z
    (cylinder_inertia(2.0, 0.1, 0.6), (0.065, 0.065, 0.01)),
    (sphere_inertia(5.0, 0.2), (0.08, 0.08, 0.08)),
])
def test_solids_by_hand(inertia: Inertia, moments: tuple[float, float, float]) -> None:
    np.testing.assert_allclose(diagonal(inertia), moments, atol=1e-15)
    assert (inertia.ixy, inertia.ixz, inertia.iyz) == (0.0, 0.0, 0.0)


# -- validity -----------------------------------------------------------------------------------
@pytest.mark.parametrize('inertia, positive_definite, violation', [
    (Inertia(1, 0, 0, 1, 0, 1), True, 0.0),
    (Inertia(1, 0, 0, 1, 0, 3), True, 1.0),          # 1 + 1 < 3
    (Inertia(1, 0, 0, 1, 0, 2), True, 0.0),          # a thin disc: equality holds
    (Inertia(1, 0, 0, 1, 0, 2 + 1e-9), True, 0.0),   # rounding is accepted
    (Inertia(1, 0, 0, 1, 0, 2.00001), True, 1e-5),   # more than TRIANGLE_RTOL = 1e-6 is not
    (Inertia(-1, 0, 0, 1, 0, 1), False, None),
    (Inertia(1, 2, 0, 1, 0, 1), False, None),        # |ixy| > sqrt(ixx iyy)
    (Inertia(), False, None),
])
def test_validity_table(inertia: Inertia, positive_definite: bool,
                        violation: float | None) -> None:
    assert is_positive_definite(inertia) is positive_definite
    if violation is not None:
        assert triangle_inequality_violation(inertia) == pytest.approx(violation)
    assert is_physically_valid(inertia) is (positive_definite and violation == 0.0)


def test_principal_moments_of_a_tensor_with_a_product_of_inertia() -> None:
    # [[2, 1, 0], [1, 2, 0], [0, 0, 3]]: eigenvalues 2 - 1, 2 + 1 and 3, ascending
    np.testing.assert_allclose(principal_moments(Inertia(2, 1, 0, 2, 0, 3)), (1.0, 3.0, 3.0),
                               atol=1e-12)


@given(st.tuples(positive, positive, positive), angle, angle, angle)
def test_principal_moments_undo_a_rotation(moments: tuple[float, float, float], roll: float,
                                           pitch: float, yaw: float) -> None:
    R = rpy_to_rotation((roll, pitch, yaw))
    inertia = inertia_from_matrix(R @ np.diag(moments) @ R.T)
    np.testing.assert_allclose(principal_moments(inertia), sorted(moments),
                               atol=1e-12 * max(moments))


def test_non_finite_gives_nan_moments_and_is_not_valid() -> None:
    inertia = Inertia(ixx=math.nan, iyy=1.0, izz=1.0)
    assert np.all(np.isnan(principal_moments(inertia)))
    assert not is_positive_definite(inertia)


def test_is_zero() -> None:
    assert is_zero(Inertia())
    assert not is_zero(Inertia(iyz=1e-20))


def test_from_matrix_symmetrizes_and_checks_shape() -> None:
    inertia = inertia_from_matrix([[1, 2, 0], [0, 1, 0], [0, 0, 1]])
    assert inertia.ixy == 1.0
    with pytest.raises(ValueError, match='3, 3'):
        inertia_from_matrix(np.eye(2))


# -- rotation and parallel axis -----------------------------------------------------------------
def test_cylinder_lying_along_x_swaps_moments() -> None:
    implied = implied_inertia(Cylinder(0.1, 0.6), 2.0, Origin(rpy=(0.0, math.pi / 2, 0.0)))
    assert implied is not None
    np.testing.assert_allclose(diagonal(implied), (0.01, 0.065, 0.065), atol=1e-12)
    assert (implied.ixy, implied.ixz, implied.iyz) == (0.0, 0.0, 0.0)


def test_parallel_axis_shift() -> None:
    # a sphere 0.5 m from the point along z: ixx = iyy = 2/5 m r^2 + m d^2, izz unchanged
    shifted = parallel_axis(sphere_inertia(2.0, 0.1), 2.0, (0.0, 0.0, 0.5))
    np.testing.assert_allclose(diagonal(shifted), (0.008 + 0.5, 0.008 + 0.5, 0.008),
                               atol=1e-12)


def test_implied_inertia_shifts_by_offset_in_inertial_frame() -> None:
    implied = implied_inertia(Sphere(0.1), 2.0, Origin(xyz=(0.0, 0.0, 0.5)),
                              Origin(rpy=(0.0, math.pi / 2, 0.0)))
    assert implied is not None
    # the offset is along the inertial frame's x axis after the pitch: ixx unchanged
    np.testing.assert_allclose(diagonal(implied), (0.008, 0.508, 0.508), atol=1e-12)


coordinate = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


@given(positive, st.tuples(positive, positive, positive),
       st.tuples(coordinate, coordinate, coordinate),
       st.tuples(coordinate, coordinate, coordinate),
       st.one_of(st.just((0.0, 0.0, 0.0)), st.tuples(angle, angle, angle)),
       st.one_of(st.just((0.0, 0.0, 0.0)), st.tuples(angle, angle, angle)))
def test_implied_inertia_is_the_rotated_and_shifted_solid(
        mass: float, size: tuple[float, float, float], geometry_xyz: tuple[float, float, float],
        com: tuple[float, float, float], geometry_rpy: tuple[float, float, float],
        inertial_rpy: tuple[float, float, float]) -> None:
    # I = R I_g Rᵀ + m (|d|² E - d dᵀ) with R = R_inertialᵀ R_geometry, d = R_inertialᵀ (g - c),
    # for unrotated origins (rpy 0, which the function does not multiply by) as for turned ones
    R_inertial = rpy_to_rotation(inertial_rpy)
    R = R_inertial.T @ rpy_to_rotation(geometry_rpy)
    d = R_inertial.T @ (np.array(geometry_xyz) - np.array(com))
    expected = (R @ inertia_matrix(box_inertia(mass, size)) @ R.T
                + mass * (float(d @ d) * np.eye(3) - np.outer(d, d)))
    implied = implied_inertia(Box(size), mass, Origin(geometry_xyz, geometry_rpy),
                              Origin(com, inertial_rpy))
    assert implied is not None
    np.testing.assert_allclose(inertia_matrix(implied), expected, rtol=1e-9,
                               atol=1e-9 * float(np.abs(expected).max()))


def test_implied_inertia_of_a_mesh_is_unknown() -> None:
    assert implied_inertia(Mesh('m.stl'), 1.0) is None
    assert implied_inertia(None, 1.0) is None


# -- formatting ---------------------------------------------------------------------------------
def test_format_inertia_element() -> None:
    text = format_inertia_element(box_inertia(0.6, (0.1, 0.1, 0.2)))
    assert text == '<inertia ixx="0.0025" ixy="0" ixz="0" iyy="0.0025" iyz="0" izz="0.001"/>'


def test_describe() -> None:
    assert describe_solid(Box((0.1, 0.1, 0.2)), 0.6) == 'a solid 0.1 × 0.1 × 0.2 m box of 0.6 kg'
    assert describe_solid(Cylinder(0.05, 0.3), 2) == \
        'a solid r=0.05 m × 0.3 m cylinder of 2 kg'
    assert describe_solid(Sphere(0.1), 1) == 'a solid r=0.1 m sphere of 1 kg'
    assert describe_inertia(Inertia(1, 0.5, 0, 2, 0, 3)) == 'ixx=1, iyy=2, izz=3, ixy=0.5'


# -- properties ---------------------------------------------------------------------------------
@given(positive, positive, positive, positive)
def test_solids_are_always_physically_valid(mass: float, x: float, y: float, z: float) -> None:
    assert is_physically_valid(box_inertia(mass, (x, y, z)))
    assert is_physically_valid(cylinder_inertia(mass, x, y))
    assert is_physically_valid(sphere_inertia(mass, x))


@given(positive, positive, positive, positive, angle, angle, angle)
def test_rotation_preserves_principal_moments(mass: float, x: float, y: float, z: float,
                                              roll: float, pitch: float, yaw: float) -> None:
    inertia = box_inertia(mass, (x, y, z))
    rotated = rotate(inertia, rpy_to_rotation((roll, pitch, yaw)))
    scale = float(np.max(principal_moments(inertia)))
    np.testing.assert_allclose(principal_moments(rotated), principal_moments(inertia),
                               atol=1e-12 * scale)
    assert is_physically_valid(rotated)
    np.testing.assert_allclose(inertia_matrix(rotated), inertia_matrix(rotated).T, atol=0)
