"""Effective limits, clamping and the safety controller's velocity and effort bounds."""

from __future__ import annotations

import math

import pytest

from urdf_tools_ros.core.errors import InvalidJointError
from urdf_tools_ros.core.kinematics.limits import effective_limits, wrap_angle
from urdf_tools_ros.core.model.robot import Joint
from urdf_tools_ros.core.source.loader import load_string

pytestmark = pytest.mark.portability


def joint(joint_type: str = 'revolute', limit: str = 'lower="-1" upper="2"',
          safety: str | None = None) -> Joint:
    limit_text = f'<limit {limit} effort="10" velocity="3"/>' if limit else ''
    safety_text = f'<safety_controller {safety}/>' if safety is not None else ''
    text = (f'<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
            f'type="{joint_type}"><parent link="a"/><child link="b"/>{limit_text}{safety_text}'
            '</joint></robot>')
    return load_string(text).robot.joint('j')


def test_plain_range_and_clamping() -> None:
    limits = effective_limits(joint())
    assert (limits.lower, limits.upper) == (-1.0, 2.0)
    assert (limits.velocity, limits.effort) == (3.0, 10.0)
    assert limits.clamp(5.0) == 2.0 and limits.clamp(-5.0) == -1.0 and limits.clamp(0.5) == 0.5
    assert limits.default_position() == 0.0
    assert limits.center() == 0.5
    # zero outside the range: its middle
    assert effective_limits(joint(limit='lower="0.5" upper="1.5"')).default_position() == 1.0
    assert effective_limits(joint(limit='lower="-3" upper="-1"')).default_position() == -2.0


def test_soft_limits_narrow_only_with_use_smallest_joint_limits() -> None:
    text = 'soft_lower_limit="-0.5" soft_upper_limit="1.5" k_position="10" k_velocity="2"'
    narrowed = effective_limits(joint(safety=text))
    assert (narrowed.lower, narrowed.upper) == (-0.5, 1.5)
    wide = effective_limits(joint(safety=text), use_smallest_joint_limits=False)
    assert (wide.lower, wide.upper) == (-1.0, 2.0)
    assert (wide.soft_lower, wide.soft_upper) == (-0.5, 1.5)


def test_absent_soft_limit_narrows_nothing_on_its_side() -> None:
    limits = effective_limits(joint(safety='soft_upper_limit="1.0" k_velocity="1"'))
    assert (limits.lower, limits.upper) == (-1.0, 1.0)
    assert limits.soft_lower == -math.inf
    # k_position 0 (absent): no velocity towards the present soft limit
    assert limits.safety_velocity_bounds(0.0) == (-3.0, 0.0)


def test_continuous_joints_are_unbounded_with_a_pi_slider() -> None:
    limits = effective_limits(joint('continuous', limit=''))
    assert (limits.lower, limits.upper) == (-math.inf, math.inf)
    assert (limits.slider_lower, limits.slider_upper) == (-math.pi, math.pi)
    assert limits.clamp(100.0) == 100.0
    assert limits.velocity == math.inf
    assert wrap_angle(3 * math.pi / 2) == pytest.approx(-math.pi / 2)
    assert wrap_angle(math.pi) == pytest.approx(-math.pi)


def test_safety_velocity_and_effort_bounds_hand_computed() -> None:
    # ROS wiki pr2_controller_manager/safety_limits
    limits = effective_limits(joint(safety='soft_lower_limit="-0.5" soft_upper_limit="1.5" '
                                           'k_position="10" k_velocity="2"'))
    # deep inside: bounded by the velocity limit
    assert limits.safety_velocity_bounds(0.5) == (-3.0, 3.0)
    # 0.1 from the soft upper limit: upper velocity bound -10 (1.4 - 1.5) = 1
    low, high = limits.safety_velocity_bounds(1.4)
    assert (low, high) == (-3.0, pytest.approx(1.0))
    # beyond the soft upper limit: must move back at 10 (q - soft_upper) at least
    assert limits.safety_velocity_bounds(1.6)[1] == pytest.approx(-1.0)
    # effort: [max(-10, -2 (v - v_low)), min(10, -2 (v - v_high))] at q = 1.4, v = 0.5
    low, high = limits.safety_effort_bounds(1.4, 0.5)
    assert low == pytest.approx(-7.0)
    assert high == pytest.approx(1.0)
    assert limits.safety_effort_bounds(1.4, -20.0)[1] == 10.0


def test_without_safety_controller_or_k_velocity() -> None:
    plain = effective_limits(joint())
    assert plain.safety_velocity_bounds(1.9) == (-3.0, 3.0)
    assert plain.safety_effort_bounds(1.9, 2.9) == (-10.0, 10.0)
    no_gain = effective_limits(joint(safety='soft_upper_limit="1.0"'))
    assert no_gain.k_velocity is None and no_gain.safety_effort_bounds(0.0, 0.0) == (-10.0, 10.0)


@pytest.mark.parametrize(('made', 'match'), [
    (lambda: joint(limit=''), 'no <limit>'),
    (lambda: joint('fixed', limit=''), 'no single position'),
    (lambda: joint(limit='lower="nan" upper="1"'), 'not finite'),
])
def test_unusable_limits_are_refused(made: object, match: str) -> None:
    with pytest.raises(InvalidJointError, match=match):
        effective_limits(made())  # type: ignore[operator]


@pytest.mark.parametrize(('made', 'pinned'), [
    (lambda: joint(limit='lower="2" upper="1"'), 1.5),
    (lambda: joint(safety='soft_lower_limit="3" k_velocity="1"'), None),
])
def test_an_empty_range_pins_the_joint_at_its_midpoint(made: object,
                                                       pinned: float | None) -> None:
    """An empty range is a checker warning every consumer loads: pinned, not refused."""
    limits = effective_limits(made())  # type: ignore[operator]
    assert limits.slider_lower == limits.slider_upper == limits.lower == limits.upper
    assert limits.empty
    assert not effective_limits(joint()).empty
    if pinned is not None:
        assert limits.lower == pinned
