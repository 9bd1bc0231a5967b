"""
Effective joint limits: ``<limit>`` narrowed by ``<safety_controller>``, clamping, safety bounds.

Sources: URDF spec, joint/limit and joint/safety_controller (http://wiki.ros.org/urdf/XML/joint);
the joint safety-limits model of ROS, "Joint Safety Limits Explained"
(http://wiki.ros.org/pr2_controller_manager/safety_limits); joint_state_publisher for the
slider range of continuous joints and for narrowing by soft limits.

Decisions made on purpose:

* An absent ``soft_lower_limit`` or ``soft_upper_limit`` means "no soft limit on that side":
  it narrows nothing and bounds no velocity. (The spec's default of 0 would clamp every joint
  with a half-written ``<safety_controller>`` at 0; joint_state_publisher also narrows only by
  the attributes that are present.)
* A continuous joint is unbounded: its position range is (-inf, inf) and clamping never moves
  it. Its slider range is [-π, π] (joint_state_publisher's), narrowed by soft limits when
  ``use_smallest_joint_limits``; positions are wrapped into [-π, π) by :func:`wrap_angle` when
  shown or swept, which changes no link pose.
* A missing ``<limit>`` on a revolute or prismatic joint (the spec requires one, urdfdom refuses
  the file) and NaN or inf in any limit are refused with
  :class:`~urdf_tools_ros.core.errors.InvalidJointError` (the checker reports both as errors).
* An empty range (``lower > upper``, or soft limits that leave nothing of it) is loaded by every
  consumer and is only a checker warning, so it is not refused: the joint is pinned at the
  midpoint of the empty range (joint_state_publisher starts such a joint there too, at
  ``(lower + upper) / 2``, and cannot move it).
* A missing ``velocity``/``effort`` means unbounded; a missing ``k_velocity`` means no
  velocity-dependent effort bound (urdfdom refuses both: checker errors).
* URDF 1.2's ``acceleration``, ``deceleration`` and ``jerk`` (urdfdom 6.0) are carried as given;
  absent (or in a file of an earlier version, where the reader drops them) they are unbounded.
  A value <= 0 bounds nothing either (it would forbid any motion): the checker reports it
  (``limit-attribute-negative``). The ``delta`` sweep moves by ``delta`` per publish as
  joint_state_publisher's does, whatever these say.
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

    :ivar joint: Joint name.
    :ivar continuous: Whether the joint is continuous (position unbounded).
    :ivar lower: Lowest position, rad or m (``-inf`` for continuous).
    :ivar upper: Highest position, rad or m (``inf`` for continuous).
    :ivar slider_lower: Lower end of a slider for the joint (``lower``, or -π narrowed).
    :ivar slider_upper: Upper end of a slider for the joint (``upper``, or π narrowed).
    :ivar velocity: Largest speed, rad/s or m/s (``inf`` when not given).
    :ivar effort: Largest effort, N·m or N (``inf`` when not given).
    :ivar soft_lower: ``soft_lower_limit`` or ``-inf`` when absent (or no safety controller).
    :ivar soft_upper: ``soft_upper_limit`` or ``inf`` when absent.
    :ivar k_position: ``k_position``, 1/s (0 by the spec's default).
    :ivar k_velocity: ``k_velocity``, N·s/m or N·m·s/rad; ``None`` when absent.
    :ivar acceleration: Largest acceleration, rad/s² or m/s² (URDF 1.2; ``inf`` when not given).
    :ivar deceleration: Largest deceleration, rad/s² or m/s² (URDF 1.2; ``inf`` when not given).
    :ivar jerk: Largest jerk, rad/s³ or m/s³ (URDF 1.2; ``inf`` when not given).
    :ivar has_safety_controller: Whether the joint has a ``<safety_controller>``.
    :ivar empty: The range is empty (``lower > upper``, or soft limits that leave nothing of
        it); the joint is pinned at the midpoint (module doc).
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
    has_safety_controller: bool = False
    empty: bool = False
    acceleration: float = _INF
    deceleration: float = _INF
    jerk: float = _INF

    def contains(self, position: float) -> bool:
        """Whether ``position`` is inside [``lower``, ``upper``]."""
        return self.lower <= position <= self.upper

    def clamp(self, position: float) -> float:
        """Return ``position`` clamped into [``lower``, ``upper``] (unchanged if continuous)."""
        return min(max(position, self.lower), self.upper)

    def default_position(self) -> float:
        """
        The position a joint starts at: 0, or the middle of the range when 0 is outside it.

        Source: joint_state_publisher (``zeroval = (max + min) / 2`` when ``min > 0`` or
        ``max < 0``), with the slider range for continuous joints.
        """
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
        (ROS wiki, pr2_controller_manager/safety_limits). A side without a soft limit is bounded
        by ``v_max`` alone; with ``k_position = 0`` (the spec default) a present soft limit
        allows no velocity on its side, as the formula says. Without a safety controller the
        bounds are ``±velocity``.
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
        ``[v_low, v_high]`` from :meth:`safety_velocity_bounds` (ROS wiki,
        pr2_controller_manager/safety_limits). Without a ``k_velocity`` (or without a safety
        controller) the bounds are ``±effort``.
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

    :param joint: The joint.
    :param use_smallest_joint_limits: Narrow the range by the safety controller's soft limits
        (joint_state_publisher's parameter of the same name, default true there too).
    :return: The limits; see the module doc for absent values.
    :raises InvalidJointError: if the joint is not single-DOF, a revolute/prismatic joint has no
        ``<limit>``, or a number is NaN/inf. An empty (narrowed) range pins the joint at its
        midpoint.
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
    motion = [_number(joint, what, value, _INF) for what, value in (
        ('acceleration', limit.acceleration if limit else None),
        ('deceleration', limit.deceleration if limit else None),
        ('jerk', limit.jerk if limit else None))]
    acceleration, deceleration, jerk = (value if value > 0 else _INF for value in motion)
    return JointLimits(joint.name, continuous, lower, upper, slider_lower, slider_upper,
                       velocity, effort, soft_lower, soft_upper, k_position, k_velocity,
                       safety is not None, empty, acceleration, deceleration, jerk)
