"""
Joint rules: type, ``<limit>``, ``<axis>``, ``<safety_controller>``, calibration, dynamics, mimic.

Per type (URDF spec, joint): ``lower``/``upper`` bind revolute and prismatic joints; urdfdom
parses a ``<limit>`` on any type, so ``effort``/``velocity`` are required wherever one is
written. ``<axis>`` is checked on revolute, continuous, prismatic and planar joints only (fixed
and floating ignore it). Soft limits are compared with the hard ones on revolute and prismatic
joints; a mimic source's range, mapped by the rule, should stay in the mimic joint's limits.
"""

from __future__ import annotations

from collections.abc import Iterator
import math

from . import actuated_limits  # noqa: F401  (the limits of actuated joints: registered here)
from ..registry import check, CheckContext, format_value, rule
from ...findings import Finding, Severity
from ...kinematics.validation import axis_norm, axis_problem, AXIS_TYPES, joint_type_problem
from ...model.robot import Joint

#: Types whose ``<limit lower upper>`` bound the position (URDF spec, joint/limit).
BOUNDED_TYPES = frozenset({'revolute', 'prismatic'})
#: Largest ``| |axis| - 1 |`` accepted as unit length: ``0 0.707 0.707`` (3 digits) passes.
AXIS_NORM_TOLERANCE = 1e-3
#: Slack of the mimic range comparison, rad or m (values written with ~6 digits).
MIMIC_RANGE_TOLERANCE = 1e-6

_SPEC = 'URDF spec, joint'
TYPE_UNKNOWN = rule('joint-type-unknown', Severity.ERROR,
                    'joint type is not one of the six URDF types', source='urdfdom',
                    consumers=('urdfdom', 'urdf_parser_py', 'mujoco', 'urdf_tools_ros'),
                    reference=_SPEC + '/@type; urdfdom joint.cpp ("has no known type")')
LIMIT_MISSING = rule('joint-limit-missing', Severity.ERROR,
                     'a revolute or prismatic joint has no <limit>', source='urdfdom',
                     consumers=('urdfdom', 'joint_state_publisher', 'urdf_tools_ros'),
                     reference=(_SPEC + '/limit (required for revolute and prismatic); '
                                'urdfdom joint.cpp; joint_state_publisher ("Limits must be '
                                'specified")'))
EFFORT_MISSING = rule('joint-limit-effort-missing', Severity.WARNING,
                      '<limit> has no effort (required)', source='urdfdom',
                      consumers=('urdfdom',), reference=_SPEC + '/limit; urdfdom joint.cpp')
VELOCITY_MISSING = rule('joint-limit-velocity-missing', Severity.WARNING,
                        '<limit> has no velocity (required)', source='urdfdom',
                        consumers=('urdfdom',), reference=_SPEC + '/limit; urdfdom joint.cpp')
LOWER_ABOVE_UPPER = rule('joint-limit-lower-above-upper', Severity.WARNING,
                         'limit lower > upper on a revolute or prismatic joint (every consumer '
                         'loads it; the joint cannot move)', reference=_SPEC + '/limit')
ZERO_RANGE = rule('joint-limit-zero-range', Severity.WARNING,
                  'limit lower == upper on a revolute or prismatic joint: it cannot move',
                  reference=_SPEC + '/limit (lower and upper default to 0)')
EFFORT_NEGATIVE = rule('joint-limit-effort-negative', Severity.WARNING,
                       'limit effort < 0 (it is a magnitude)', consumers=('pinocchio',),
                       reference=_SPEC + '/limit; pinocchio refuses a negative effort')
VELOCITY_NEGATIVE = rule('joint-limit-velocity-negative', Severity.WARNING,
                         'limit velocity < 0 (it is a magnitude)', consumers=('pinocchio',),
                         reference=_SPEC + '/limit; pinocchio refuses a negative velocity')
AXIS_ZERO = rule('joint-axis-zero', Severity.ERROR,
                 'joint axis cannot be normalised: zero, too short (<= 1e-12) or a component '
                 'above 1e150', consumers=('mujoco', 'urdf_tools_ros'),
                 reference=(_SPEC + '/axis (normalised by its consumers; KDL divides by the '
                            'norm: NaN motion); '
                            'MuJoCo "axis too small"; joint_validation.axis_problem'))
AXIS_NOT_UNIT = rule('joint-axis-not-unit', Severity.WARNING,
                     'joint axis is not a unit vector (URDF spec: it should be normalized)',
                     reference=_SPEC + '/axis')
K_VELOCITY_MISSING = rule('safety-controller-k-velocity-missing', Severity.WARNING,
                          '<safety_controller> has no k_velocity (required)', source='urdfdom',
                          consumers=('urdfdom',),
                          reference=_SPEC + '/safety_controller; urdfdom joint.cpp')
SOFT_LOWER_ABOVE_UPPER = rule('safety-soft-lower-above-upper', Severity.WARNING,
                              'safety_controller soft_lower_limit > soft_upper_limit',
                              reference=_SPEC + '/safety_controller')
SOFT_OUTSIDE_LIMITS = rule('safety-soft-limits-outside-limits', Severity.WARNING,
                           'a soft limit lies outside the hard <limit> range',
                           reference=(_SPEC + '/safety_controller; ROS wiki '
                                      'pr2_controller_manager/safety_limits'))
K_POSITION_NEGATIVE = rule('safety-k-position-negative', Severity.WARNING,
                           'safety_controller k_position < 0',
                           reference=_SPEC + '/safety_controller')
K_VELOCITY_NEGATIVE = rule('safety-k-velocity-negative', Severity.WARNING,
                           'safety_controller k_velocity < 0',
                           reference=_SPEC + '/safety_controller')
CALIBRATION_OUTSIDE = rule('joint-calibration-outside-limits', Severity.WARNING,
                           'a calibration edge (rising/falling) lies outside the joint limits',
                           reference=_SPEC + '/calibration')
DYNAMICS_NEGATIVE = rule('joint-dynamics-negative', Severity.WARNING,
                         'dynamics damping or friction < 0', reference=_SPEC + '/dynamics')
MIMIC_RANGE = rule('mimic-range-exceeds-limits', Severity.WARNING,
                   "the image of a mimic source's range leaves the mimic joint's limits",
                   reference=_SPEC + '/mimic')


def _finite(*values: float | None) -> bool:
    """Whether every given value is finite; ``None`` (absent) counts as finite."""
    return all(value is None or math.isfinite(value) for value in values)


def _name(joint: Joint) -> str:
    return f'joint "{joint.name}" ({joint.joint_type})'


@check(codes=(TYPE_UNKNOWN,))
def check_type(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report joint types outside the URDF six.

    The reason is :func:`~urdf_tools_ros.core.kinematics.validation.joint_type_problem`'s, the one
    :class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` refuses the joint with. An
    empty type is the loader's finding: ``attribute-missing`` when the attribute is absent,
    ``joint-type-unknown`` for ``type=""``.
    """
    for joint in ctx.robot.joints:
        if not joint.joint_type:
            continue
        problem = joint_type_problem(joint.joint_type)
        if problem is not None:
            yield ctx.finding(TYPE_UNKNOWN, f'joint:{joint.name}',
                              f'joint "{joint.name}": {problem}', joint.location,
                              'write one of the six types, e.g. type="revolute"')


@check(codes=(
    LIMIT_MISSING, EFFORT_MISSING, VELOCITY_MISSING, LOWER_ABOVE_UPPER, ZERO_RANGE,
    EFFORT_NEGATIVE, VELOCITY_NEGATIVE))
def check_limit(ctx: CheckContext) -> Iterator[Finding]:
    """Report missing, incomplete, inverted, empty and negative ``<limit>`` values."""
    for joint in ctx.robot.joints:
        element, where = f'joint:{joint.name}', joint.location
        limit = joint.limit
        if limit is None:
            if joint.joint_type in BOUNDED_TYPES:
                yield ctx.finding(LIMIT_MISSING, element, f'{_name(joint)} has no <limit>',
                                  where, '<limit lower="..." upper="..." effort="..." '
                                  'velocity="..."/>, or type="continuous" if it has no bounds')
            continue
        where = limit.location or joint.location
        # URDF 1.2 (urdfdom 6.0): effort and velocity optional; negative ones and lower > upper
        # refused (measured with the pin wheel's check_urdf, test_urdf_versions.py)
        strict = ctx.urdf_version >= (1, 2)
        optional = ('; urdfdom 6.0 accepts that in a URDF 1.2 file, older ones refuse the file'
                    if strict else '')
        if limit.effort is None:
            yield ctx.finding(EFFORT_MISSING, element,
                              f'{_name(joint)}: <limit> has no effort{optional}', where,
                              'add effort="..." (N·m or N; the spec requires it)',
                              consumers=() if strict else None)
        if limit.velocity is None:
            yield ctx.finding(VELOCITY_MISSING, element,
                              f'{_name(joint)}: <limit> has no velocity{optional}', where,
                              'add velocity="..." (rad/s or m/s; the spec requires it)',
                              consumers=() if strict else None)
        refused = '; urdfdom 6.0 refuses it in a URDF 1.2 file' if strict else ''
        if joint.joint_type in BOUNDED_TYPES and _finite(limit.lower, limit.upper):
            if limit.lower > limit.upper:
                yield ctx.finding(LOWER_ABOVE_UPPER, element,
                                  f'{_name(joint)}: limit lower={format_value(limit.lower)} > '
                                  f'upper={format_value(limit.upper)}{refused}', where,
                                  f'swap them: lower="{format_value(limit.upper)}" '
                                  f'upper="{format_value(limit.lower)}"',
                                  consumers=('urdfdom',) if strict else None)
            elif limit.lower == limit.upper:
                hint = (' (lower and upper default to 0 when left out)'
                        if limit.lower == 0.0 else '')
                yield ctx.finding(ZERO_RANGE, element,
                                  f'{_name(joint)}: limit lower = upper = '
                                  f'{format_value(limit.lower)}, the joint cannot move{hint}',
                                  where,
                                  'give the real range, or make it a fixed joint')
        if joint.is_single_dof:
            for code, attribute, value in ((EFFORT_NEGATIVE, 'effort', limit.effort),
                                           (VELOCITY_NEGATIVE, 'velocity', limit.velocity)):
                if value is not None and _finite(value) and value < 0:
                    yield ctx.finding(code, element,
                                      f'{_name(joint)}: limit {attribute}='
                                      f'{format_value(value)} < 0{refused}', where,
                                      f'{attribute}="{format_value(-value)}" (a magnitude)',
                                      consumers=('pinocchio', 'urdfdom') if strict else None)


def unit_axis_text(axis: tuple[float, float, float]) -> str | None:
    """
    The normalised axis as ``<axis xyz>`` text with 6 significant digits, when it checks clean.

    Rounding a long axis component by component can leave a vector that is no longer of unit
    length within :data:`AXIS_NORM_TOLERANCE` (or, for an absurd one, all zeros): such a hint
    would itself be reported, so ``None`` is returned instead (a fix must check clean).
    """
    norm = axis_norm(axis)
    text = ' '.join(format_value(float(f'{component / norm:.6g}')) for component in axis)
    written = tuple(float(part) for part in text.split())
    if axis_problem(written) is not None or abs(axis_norm(written) - 1.0) > AXIS_NORM_TOLERANCE:
        return None
    return text


@check(codes=(AXIS_ZERO, AXIS_NOT_UNIT))
def check_axis(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report an ``<axis>`` that cannot be normalised, or that is not of unit length.

    "Cannot be normalised" is :func:`~urdf_tools_ros.core.kinematics.validation.axis_problem`, the
    reason :class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` refuses the joint with.
    The fix of a non-unit axis is the normalised axis, itself checked clean.
    """
    for joint in ctx.robot.joints:
        if joint.joint_type not in AXIS_TYPES:
            continue
        where = joint.axis_location or joint.location
        text = ' '.join(format_value(component) for component in joint.axis)
        problem = axis_problem(joint.axis)
        if problem is not None:
            if not all(map(math.isfinite, joint.axis)):
                continue  # the loader reports NaN and inf (number-not-finite)
            yield ctx.finding(AXIS_ZERO, f'joint:{joint.name}',
                              f'{_name(joint)}: axis xyz="{text}" {problem}', where,
                              'give the unit axis of motion in the joint frame, '
                              'e.g. <axis xyz="0 0 1"/>')
            continue
        norm = axis_norm(joint.axis)
        if abs(norm - 1.0) > AXIS_NORM_TOLERANCE:
            unit = unit_axis_text(joint.axis)
            yield ctx.finding(AXIS_NOT_UNIT, f'joint:{joint.name}',
                              f'{_name(joint)}: axis xyz="{text}" has length {norm:.6g}, not 1',
                              where, f'<axis xyz="{unit}"/>' if unit else
                              'give the unit axis of motion, e.g. <axis xyz="0 0 1"/>')


@check(codes=(
    K_VELOCITY_MISSING, SOFT_LOWER_ABOVE_UPPER, SOFT_OUTSIDE_LIMITS, K_POSITION_NEGATIVE,
    K_VELOCITY_NEGATIVE))
def check_safety_controller(ctx: CheckContext) -> Iterator[Finding]:
    """Report missing k_velocity, negative gains, and inverted or out-of-range soft limits."""
    for joint in ctx.robot.joints:
        safety = joint.safety_controller
        if safety is None:
            continue
        element, where = f'joint:{joint.name}', safety.location or joint.location
        if not _finite(safety.k_velocity, safety.k_position, safety.soft_lower_limit,
                       safety.soft_upper_limit):
            continue  # the loader reports NaN and inf
        if safety.k_velocity is None:
            yield ctx.finding(K_VELOCITY_MISSING, element,
                              f'{_name(joint)}: <safety_controller> has no k_velocity', where,
                              'add k_velocity="..." (the spec requires it)')
        elif safety.k_velocity < 0:
            yield ctx.finding(K_VELOCITY_NEGATIVE, element,
                              f'{_name(joint)}: safety_controller '
                              f'k_velocity={format_value(safety.k_velocity)} < 0', where,
                              f'k_velocity="{format_value(-safety.k_velocity)}"')
        if safety.k_position < 0:
            yield ctx.finding(K_POSITION_NEGATIVE, element,
                              f'{_name(joint)}: safety_controller '
                              f'k_position={format_value(safety.k_position)} < 0', where,
                              f'k_position="{format_value(-safety.k_position)}"')
        lower, upper = safety.soft_lower_limit, safety.soft_upper_limit
        if lower is not None and upper is not None and lower > upper:
            yield ctx.finding(SOFT_LOWER_ABOVE_UPPER, element,
                              f'{_name(joint)}: safety_controller soft_lower_limit='
                              f'{format_value(lower)} > soft_upper_limit={format_value(upper)}',
                              where, 'swap them')
            continue
        if joint.joint_type not in BOUNDED_TYPES or joint.limit is None \
                or not _finite(joint.limit.lower, joint.limit.upper):
            continue
        limit = joint.limit
        outside = []
        if lower is not None and not limit.lower <= lower <= limit.upper:
            outside.append(f'soft_lower_limit={format_value(lower)}')
        if upper is not None and not limit.lower <= upper <= limit.upper:
            outside.append(f'soft_upper_limit={format_value(upper)}')
        if outside:
            yield ctx.finding(SOFT_OUTSIDE_LIMITS, element,
                              f'{_name(joint)}: safety_controller {" and ".join(outside)} '
                              f'outside limit [{format_value(limit.lower)}, '
                              f'{format_value(limit.upper)}]',
                              where, 'soft limits belong inside the hard limits')


@check(codes=(CALIBRATION_OUTSIDE, DYNAMICS_NEGATIVE))
def check_calibration_and_dynamics(ctx: CheckContext) -> Iterator[Finding]:
    """Report calibration edges outside the limits and negative damping or friction."""
    for joint in ctx.robot.joints:
        element, where = f'joint:{joint.name}', joint.location
        calibration, limit = joint.calibration, joint.limit
        if calibration is not None and limit is not None and joint.joint_type in BOUNDED_TYPES \
                and _finite(limit.lower, limit.upper, calibration.rising, calibration.falling):
            for edge, value in (('rising', calibration.rising),
                                ('falling', calibration.falling)):
                if value is not None and not limit.lower <= value <= limit.upper:
                    yield ctx.finding(CALIBRATION_OUTSIDE, element,
                                      f'{_name(joint)}: calibration {edge}='
                                      f'{format_value(value)} outside limit '
                                      f'[{format_value(limit.lower)}, '
                                      f'{format_value(limit.upper)}]: the edge can never be '
                                      'reached', calibration.location or where)
        dynamics = joint.dynamics
        if dynamics is None:
            continue
        negative = [f'{name}={format_value(value)}' for name, value in
                    (('damping', dynamics.damping), ('friction', dynamics.friction))
                    if _finite(value) and value < 0]
        if negative:
            yield ctx.finding(DYNAMICS_NEGATIVE, element,
                              f'{_name(joint)}: dynamics {" and ".join(negative)} < 0 (a negative '
                              'damping or friction adds energy)', dynamics.location or where,
                              'damping and friction are >= 0')


@check(codes=(MIMIC_RANGE,))
def check_mimic_range(ctx: CheckContext) -> Iterator[Finding]:
    """Report a mimic joint whose source's range maps outside its own limits."""
    joints = ctx.robot.joint_map
    for joint in ctx.robot.joints:
        mimic = joint.mimic
        if mimic is None or joint.joint_type not in BOUNDED_TYPES or joint.limit is None:
            continue
        source = joints.get(mimic.joint)
        if source is None or source.joint_type not in BOUNDED_TYPES or source.limit is None \
                or not _finite(mimic.multiplier, mimic.offset, source.limit.lower,
                               source.limit.upper, joint.limit.lower, joint.limit.upper):
            continue
        ends = (mimic.multiplier * source.limit.lower + mimic.offset,
                mimic.multiplier * source.limit.upper + mimic.offset)
        low, high = min(ends), max(ends)
        limit = joint.limit
        if low < limit.lower - MIMIC_RANGE_TOLERANCE or high > limit.upper + MIMIC_RANGE_TOLERANCE:
            yield ctx.finding(
                MIMIC_RANGE, f'joint:{joint.name}',
                f'{_name(joint)} mimics "{source.name}" ({format_value(mimic.multiplier)} * q + '
                f'{format_value(mimic.offset)}): its range [{format_value(source.limit.lower)}, '
                f'{format_value(source.limit.upper)}] maps to [{low:.6g}, {high:.6g}], outside '
                f'limit [{format_value(limit.lower)}, {format_value(limit.upper)}]',
                mimic.location or joint.location,
                f'limit lower="{low:.6g}" upper="{high:.6g}", or narrow "{source.name}"')
