"""
What makes a joint unusable for kinematics: one validation shared by the checker and the FK.

The checker (:mod:`urdf_tools_ros.core.checks.rules.joints`) reports these problems as errors and
:class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` refuses the same joints with the
same reason, so a description that checks with 0 errors always compiles, and one that the
kinematics refuses never checks clean.

* The joint type must be one of the six of the URDF specification (URDF spec, joint/@type);
  ``type=""`` is not one (urdfdom: "Joint [j] has no known type []").
* The axis of a revolute, continuous, prismatic or planar joint is normalised before use, as KDL,
  urdfdom's consumers and pinocchio do; that needs a direction: every component finite and at most
  :data:`MAX_AXIS_COMPONENT` in magnitude (so that the squared norm cannot overflow: a component
  of 1e308 would) and a length above :data:`MIN_AXIS_NORM` (so that the unit vector is not
  rounding noise: ``0 1e-13 0`` is refused; MuJoCo refuses it too, "axis too small").
"""

from __future__ import annotations

from collections.abc import Sequence
import math

from ..model.robot import JOINT_TYPES

__all__ = ['AXIS_TYPES', 'MAX_AXIS_COMPONENT', 'MIN_AXIS_NORM', 'axis_norm', 'axis_problem',
           'joint_type_problem']

#: Joint types that use ``<axis>`` (fixed and floating ignore it; urdfdom does not read it there).
AXIS_TYPES = frozenset({'revolute', 'continuous', 'prismatic', 'planar'})
#: Shortest axis accepted for normalisation, in the axis' own (unitless) scale.
MIN_AXIS_NORM = 1e-12
#: Largest axis component accepted: its square stays far inside the float64 range.
MAX_AXIS_COMPONENT = 1e150


def axis_norm(axis: Sequence[float]) -> float:
    """
    Return the Euclidean length of a 3-vector without overflow or underflow (``math.hypot``).

    :param axis: ``(x, y, z)``; NaN or inf give NaN or inf.
    """
    return math.hypot(*axis)


def axis_problem(axis: Sequence[float]) -> str | None:
    """
    Say why ``axis`` cannot be normalised, or return ``None`` when it can.

    :param axis: The ``<axis xyz>`` as written, ``(x, y, z)``.
    :return: A reason that completes ``axis xyz="..." ...``, e.g. ``is the zero vector``.
    """
    if not all(math.isfinite(component) for component in axis):
        return 'has a component that is NaN or infinite'
    if any(abs(component) > MAX_AXIS_COMPONENT for component in axis):
        return (f'has a component above {MAX_AXIS_COMPONENT:g} in magnitude, which overflows '
                'its squared length')
    norm = axis_norm(axis)
    if norm == 0.0:
        return 'is the zero vector'
    if norm <= MIN_AXIS_NORM:
        return (f'has length {norm:.3g}, too short to give a direction (at most '
                f'{MIN_AXIS_NORM:g})')
    return None


def joint_type_problem(joint_type: str) -> str | None:
    """
    Say why ``joint_type`` is not a URDF joint type, or return ``None`` when it is one.

    :param joint_type: The ``<joint type>`` as written (``''`` for ``type=""``).
    """
    if joint_type in JOINT_TYPES:
        return None
    return (f'type="{joint_type}" is not a URDF joint type (one of '
            f'{", ".join(sorted(JOINT_TYPES))})')
