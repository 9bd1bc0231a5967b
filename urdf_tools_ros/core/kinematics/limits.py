"""
Effective joint limits: ``<limit>`` narrowed by ``<safety_controller>``, clamping, safety bounds.

Sources: URDF spec, joint/limit and joint/safety_controller; pr2_controller_manager's "Joint
Safety Limits Explained"; joint_state_publisher (continuous slider range [-π, π], narrowing by
soft limits, an empty range pinned at its midpoint). An absent soft limit, ``velocity``,
``effort`` or ``k_velocity`` bounds nothing; a revolute or prismatic joint without ``<limit>``
and a non-finite limit are refused (:class:`~urdf_tools_ros.core.errors.InvalidJointError`).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from ..errors import InvalidJointError
from ..model.robot import Joint, SINGLE_DOF_JOINT_TYPES

__all__ = ['JointLimits', 'effective_limits', 'wrap_angle']

_INF = math.inf


def wrap_angle(angle: float) -> float:
    """Return ``angle`` (rad) wrapped into [-π, π)."""
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


@dataclass(frozen=True, slots=True)
class JointLimits:
    """
    The effective bounds of one revolute, continuous or prismatic joint.

    Positions in rad or m (``±inf`` for continuous), the slider range (-π..π for continuous),
    ``velocity`` rad/s or m/s and ``effort`` N·m or N (``inf`` when not given), soft limits
    (``±inf`` when absent), ``k_position`` 1/s, ``k_velocity`` (``None`` when absent).

    :ivar empty: The range is empty; the joint is pinned at the midpoint.
    """

    joint: str
    continuous: bool
    lower: float
    upper: float
    slider_lower: float
    slider_upper: float
    velocity: float = _INF
    effort: float = _INF
    soft_lower: float = -_INF
    soft_upper: float = _INF
    k_position: float = 0.0
    k_velocity: float | None = None
    empty: bool = False

    def clamp(self, position: float) -> float:
        """Return ``position`` clamped into [``lower``, ``upper``] (unchanged if continuous)."""
        return min(max(position, self.lower), self.upper)

    def default_position(self) -> float:
        """The position a joint starts at: 0, or the middle of the range when 0 is outside it."""
        if self.slider_lower > 0.0 or self.slider_upper < 0.0:
            return 0.5 * (self.slider_lower + self.slider_upper)
        return 0.0

    def center(self) -> float:
        """The middle of the slider range, rad or m."""
        return 0.5 * (self.slider_lower + self.slider_upper)

    def safety_velocity_bounds(self, position: float) -> tuple[float, float]:
        """
        Allowed velocity at ``position`` by the safety controller, rad/s or m/s.

        ``[max(-v_max, -k_position (q - soft_lower)), min(v_max, -k_position (q - soft_upper))]``
        (pr2_controller_manager/safety_limits); a side without a soft limit: ``±v_max``.
        """
        lower, upper = -self.velocity, self.velocity
        if self.soft_lower > -_INF:
            lower = max(lower, -self.k_position * (position - self.soft_lower))
        if self.soft_upper < _INF:
            upper = min(upper, -self.k_position * (position - self.soft_upper))
        return lower, upper

    def safety_effort_bounds(self, position: float, velocity: float) -> tuple[float, float]:
        """
        Allowed effort at ``position`` and ``velocity`` by the safety controller, N·m or N.

        ``[max(-e_max, -k_velocity (v - v_low)), min(e_max, -k_velocity (v - v_high))]`` with
        ``[v_low, v_high]`` from :meth:`safety_velocity_bounds`; no ``k_velocity``: ``±effort``.
        """
        if self.k_velocity is None:
            return -self.effort, self.effort
        v_low, v_high = self.safety_velocity_bounds(position)
        lower = -self.effort if v_low == -_INF else max(-self.effort,
                                                        -self.k_velocity * (velocity - v_low))
        upper = self.effort if v_high == _INF else min(self.effort,
                                                       -self.k_velocity * (velocity - v_high))
        return lower, upper


def _number(joint: Joint, what: str, value: float | None, default: float) -> float:
    if value is None:
        return default
    if not math.isfinite(value):
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}": {what}={value} is not '
                                'finite')
    return float(value)


def _where(joint: Joint) -> str:
    return f'{joint.location}: ' if joint.location is not None else ''


def effective_limits(joint: Joint, use_smallest_joint_limits: bool = True) -> JointLimits:
    """
    Compute the effective limits of a revolute, continuous or prismatic joint.

    :param use_smallest_joint_limits: Narrow the range by the soft limits
        (joint_state_publisher's parameter).
    :raises InvalidJointError: if the joint is not single-DOF, a revolute/prismatic joint has no
        ``<limit>``, or a number is NaN/inf.
    """
    if joint.joint_type not in SINGLE_DOF_JOINT_TYPES:
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}" ({joint.joint_type}) has '
                                'no single position to limit')
    continuous = joint.joint_type == 'continuous'
    limit = joint.limit
    velocity = _number(joint, 'velocity', limit.velocity if limit else None, _INF)
    effort = _number(joint, 'effort', limit.effort if limit else None, _INF)
    if continuous:
        lower, upper, slider_lower, slider_upper = -_INF, _INF, -math.pi, math.pi
    elif limit is not None:
        lower = _number(joint, 'lower', limit.lower, 0.0)
        upper = _number(joint, 'upper', limit.upper, 0.0)
        slider_lower, slider_upper = lower, upper
    else:
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}" ({joint.joint_type}) has '
                                'no <limit> (URDF spec requires it)')
    safety = joint.safety_controller
    soft_lower, soft_upper, k_position, k_velocity = -_INF, _INF, 0.0, None
    if safety is not None:
        soft_lower = _number(joint, 'soft_lower_limit', safety.soft_lower_limit, -_INF)
        soft_upper = _number(joint, 'soft_upper_limit', safety.soft_upper_limit, _INF)
        k_position = _number(joint, 'k_position', safety.k_position, 0.0)
        if safety.k_velocity is not None:
            k_velocity = _number(joint, 'k_velocity', safety.k_velocity, 0.0)
        if use_smallest_joint_limits:
            slider_lower, slider_upper = max(slider_lower, soft_lower), min(slider_upper,
                                                                            soft_upper)
            if not continuous:
                lower, upper = slider_lower, slider_upper
    empty = slider_lower > slider_upper
    if empty:  # pinned at its midpoint (module doc)
        slider_lower = slider_upper = 0.5 * slider_lower + 0.5 * slider_upper
        if not continuous:
            lower = upper = slider_lower
    for what in ('acceleration', 'deceleration', 'jerk'):  # URDF 1.2: refused when not finite
        _number(joint, what, getattr(limit, what) if limit else None, _INF)
    return JointLimits(joint.name, continuous, lower, upper, slider_lower, slider_upper,
                       velocity, effort, soft_lower, soft_upper, k_position, k_velocity, empty)
