"""
What makes a joint unusable for kinematics: one validation shared by the checker and the FK.

The checker reports these as errors and :class:`~.forward.KinematicModel` refuses the same
joints, so a description that checks clean always compiles. The type must be one of URDF's six
(URDF spec, joint/@type); the axis is normalised as KDL and pinocchio do, so it needs finite
components up to :data:`MAX_AXIS_COMPONENT` and a length above :data:`MIN_AXIS_NORM` (MuJoCo:
"axis too small").
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
    """Return the Euclidean length of ``(x, y, z)`` without overflow (``math.hypot``)."""
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
