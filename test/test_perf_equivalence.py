"""
The fast paths of the loader and checker agree with the plain computations they replace.

Inertial checks decide most links without eigenvalues (a Cholesky certificate for validity,
traces for plausibility, the diagonal for the largest moment); the gazebo rule prunes
``difflib`` with quick-ratio bounds; the reader looks children up in one pass. Each property
compares with the straightforward computation on random, often borderline, input.
"""

from __future__ import annotations

import difflib
import math

from hypothesis import given, settings, strategies as st
import numpy as np

from urdf_tools_ros.core.checks import CheckContext, format_value, inertial
from urdf_tools_ros.core.checks.gazebo import NameMatcher
from urdf_tools_ros.core.description.loader import load_string
from urdf_tools_ros.core.description.model import (Box, Collision, Cylinder, Inertia, Inertial,
                                                   Joint, Link, Origin, Robot, Sphere)
from urdf_tools_ros.core.kinematics.inertia import (implied_inertia, implied_trace,
                                                    inertia_from_matrix, inertia_matrix,
                                                    is_certainly_valid, is_zero, parallel_axis,
                                                    principal_moments, rotate,
                                                    triangle_inequality_violation)
from urdf_tools_ros.core.transforms import rpy_to_rotation

angle = st.floats(min_value=-math.pi, max_value=math.pi, allow_nan=False)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
scale = st.sampled_from([1e-12, 1e-6, 1e-3, 1.0, 1e3])
#: Factors that put a tensor just inside, on, or just outside a validity boundary.
edge = st.sampled_from([1.0, 1.0 - 1e-12, 1.0 + 1e-12, 1.0 - 1e-7, 1.0 + 1e-7, 0.5, 2.0])


@st.composite
def tensors(draw: st.DrawFn) -> Inertia:
    """Tensors from principal moments near the triangle and PD boundaries, rotated."""
    a, b = draw(unit), draw(unit)
    c = (a + b) * draw(edge)
    sign = draw(st.sampled_from([1.0, 1.0, 1.0, -1.0, 0.0]))  # some moments <= 0
    moments = np.array([a, b, c * sign]) * draw(scale)
    R = rpy_to_rotation((draw(angle), draw(angle), draw(angle)))
    tensor = inertia_from_matrix(R @ np.diag(moments) @ R.T)
    if draw(st.booleans()):  # a product of inertia at the PD limit |ixy| = sqrt(ixx iyy)
        ixy = math.sqrt(abs(tensor.ixx * tensor.iyy)) * draw(edge)
        tensor = Inertia(tensor.ixx, ixy, tensor.ixz, tensor.iyy, tensor.iyz, tensor.izz)
    return tensor


@given(tensors())
@settings(max_examples=400)
def test_certainly_valid_agrees_with_principal_moments(inertia: Inertia) -> None:
    if is_certainly_valid(inertia):
        assert principal_moments(inertia)[0] > 0
        assert triangle_inequality_violation(inertia, rtol=0.0) == 0.0


def test_certainly_valid_clears_common_tensors_and_refuses_invalid_ones() -> None:
    assert is_certainly_valid(Inertia(1e-3, 0, 0, 1e-3, 0, 1e-3))
    assert is_certainly_valid(Inertia(2.0, 0.5, -0.3, 3.0, 0.2, 4.0))
    assert not is_certainly_valid(Inertia(1e-3, 0, 0, 1e-3, 0, 2e-3))  # on the triangle limit
    assert not is_certainly_valid(Inertia(1e-3, 2e-3, 0, 1e-3, 0, 1e-3))  # not PD
    assert not is_certainly_valid(Inertia(math.nan, 0, 0, 1, 0, 1))
    assert not is_certainly_valid(Inertia())


primitives = st.one_of(
    st.builds(lambda x, y, z: Box((x, y, z)), *[st.floats(1e-3, 2.0)] * 3),
    st.builds(Cylinder, st.floats(1e-3, 1.0), st.floats(1e-3, 2.0)),
    st.builds(Sphere, st.floats(1e-3, 1.0)))
origins = st.builds(lambda xyz, rpy: Origin(xyz, rpy),
                    st.tuples(*[st.floats(-1.0, 1.0)] * 3) | st.just((0.0, 0.0, 0.0)),
                    st.tuples(angle, angle, angle) | st.just((0.0, 0.0, 0.0)))


@given(primitives, st.floats(1e-3, 1e3), origins, origins)
def test_implied_trace_is_the_sum_of_implied_principal_moments(
        geometry: Box | Cylinder | Sphere, mass: float, geometry_origin: Origin,
        inertial_origin: Origin) -> None:
    implied = implied_inertia(geometry, mass, geometry_origin, inertial_origin)
    assert implied is not None
    expected = float(sum(principal_moments(implied)))
    trace = implied_trace(geometry, mass, geometry_origin, inertial_origin)
    assert trace is not None and math.isclose(trace, expected, rel_tol=1e-10)


@given(primitives, st.floats(1e-3, 1e3), origins, origins)
def test_implied_inertia_is_rotate_then_parallel_axis_bit_for_bit(
        geometry: Box | Cylinder | Sphere, mass: float, geometry_origin: Origin,
        inertial_origin: Origin) -> None:
    from urdf_tools_ros.core.kinematics.inertia import geometry_inertia
    solid = geometry_inertia(geometry, mass)
    assert solid is not None
    R_link_inertial = rpy_to_rotation(inertial_origin.rpy)
    rotated = rotate(solid, R_link_inertial.T @ rpy_to_rotation(geometry_origin.rpy))
    offset = R_link_inertial.T @ (np.asarray(geometry_origin.xyz)
                                  - np.asarray(inertial_origin.xyz))
    shifted = rotated if not np.any(offset) else parallel_axis(rotated, mass, offset)
    matrix = inertia_matrix(shifted)
    matrix[np.abs(matrix) < 1e-12 * np.max(np.abs(matrix))] = 0.0
    assert implied_inertia(geometry, mass, geometry_origin, inertial_origin) == \
        inertia_from_matrix(matrix)


def _robot(inertia: Inertia, mass: float, geometry: Box | Cylinder | Sphere,
           geometry_origin: Origin, inertial_origin: Origin) -> Robot:
    moving = Link('b', Inertial(mass, inertia, inertial_origin),
                  collisions=(Collision(geometry, geometry_origin),))
    return Robot('r', links=(Link('a'), moving),
                 joints=(Joint('j', 'continuous', 'a', 'b'),))


def _expected_codes(inertia: Inertia, mass: float, geometry: Box | Cylinder | Sphere,
                    geometry_origin: Origin, inertial_origin: Origin) -> list[str]:
    """``inertia-implausible`` for link b (mass > 0) when principal moments say so."""
    if is_zero(inertia):
        return []  # a point mass: no plausibility rule
    moments = principal_moments(inertia)
    # compared about the centre of mass: the solid centred there, in the geometry's orientation
    implied = implied_inertia(geometry, mass, Origin(inertial_origin.xyz, geometry_origin.rpy),
                              inertial_origin)
    assert implied is not None
    declared_sum, implied_sum = float(sum(moments)), float(sum(principal_moments(implied)))
    if declared_sum > 0 and not 0.1 <= declared_sum / implied_sum <= 10.0:
        return ['inertia-implausible']
    return []


@given(tensors(), st.floats(1e-9, 1e3) | st.sampled_from([1e-6, 1e-6 * (1 + 1e-12)]),
       primitives, origins, origins)
@settings(max_examples=300)
def test_plausibility_check_agrees_with_principal_moments(
        inertia: Inertia, mass: float, geometry: Box | Cylinder | Sphere,
        geometry_origin: Origin, inertial_origin: Origin) -> None:
    robot = _robot(inertia, mass, geometry, geometry_origin, inertial_origin)
    context = CheckContext(robot)
    codes = [finding.code for finding in inertial.check_plausibility(context)]
    assert codes == _expected_codes(inertia, mass, geometry, geometry_origin, inertial_origin)


@given(st.floats(1e-3, 1e3), st.sampled_from([0.1, 10.0]), edge, primitives)
def test_plausibility_at_the_factor_limits(mass: float, limit: float, factor: float,
                                           geometry: Box | Cylinder | Sphere) -> None:
    # a declared tensor whose trace is exactly at (or a hair from) 1/10 or 10 of the solid's
    solid = implied_inertia(geometry, mass)
    assert solid is not None
    declared = Inertia(solid.ixx * limit * factor, 0.0, 0.0, solid.iyy * limit * factor, 0.0,
                       solid.izz * limit * factor)
    robot = _robot(declared, mass, geometry, Origin(), Origin())
    codes = [finding.code for finding in inertial.check_plausibility(CheckContext(robot))]
    assert codes == [code for code in _expected_codes(declared, mass, geometry, Origin(),
                                                      Origin())
                     if code == 'inertia-implausible']


names = st.text(alphabet='abc_{}XY12', max_size=12)


@given(st.lists(names, max_size=30, unique=True), names,
       st.sampled_from([0.0, 0.3, 0.6, 0.9, 1.0]))
@settings(max_examples=300)
def test_name_matcher_is_difflib(candidates: list[str], word: str, cutoff: float) -> None:
    expected = difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)
    assert NameMatcher(candidates).closest(word, cutoff) == (expected[0] if expected else None)


def test_reader_takes_the_first_child_of_each_tag_as_find_does() -> None:
    # comments, a namespaced twin and a second <origin> do not change which one is read
    robot = load_string(
        '<robot name="r" xmlns:n="urn:n"><link name="a"/><link name="b">'
        '<visual><!-- c --><n:origin xyz="9 9 9"/><origin xyz="1 2 3"/><origin xyz="4 5 6"/>'
        '<geometry><!-- c --><sphere radius="0.5"/><box size="1 1 1"/></geometry></visual>'
        '</link><joint name="j" type="fixed"><child link="b"/><parent link="a"/>'
        '<parent link="x"/><n:origin xyz="9 9 9"/><origin rpy="0 0 1"/><origin xyz="7 7 7"/>'
        '</joint></robot>').robot
    visual = robot.link('b').visuals[0]
    assert visual.origin == Origin((1.0, 2.0, 3.0))
    assert visual.geometry == Sphere(0.5)
    joint = robot.joint('j')
    assert (joint.parent, joint.child, joint.origin) == ('a', 'b', Origin(rpy=(0.0, 0.0, 1.0)))


def test_reader_reports_a_bad_repeated_value_every_time() -> None:
    # parsed numbers are reused within a load; findings are not
    description = load_string(
        '<robot name="r"><link name="a"><visual><origin xyz="1 x 3"/><geometry>'
        '<sphere radius="1"/></geometry></visual><collision><origin xyz="1 x 3"/><geometry>'
        '<sphere radius="1"/></geometry></collision></link></robot>')
    assert [finding.code for finding in description.findings] == ['number-invalid'] * 2


def test_format_value() -> None:
    assert [format_value(value) for value in (1.2, -0.4, 3.0, 1e-9, -0.0, 1e22)] == \
        ['1.2', '-0.4', '3', '1e-09', '-0', '1e+22']
