"""
Inertial rules: mass, physical validity of the inertia tensor, plausibility, KDL and Gazebo needs.

Links play three roles here. A *moving* link is the child of a non-fixed joint: a simulator
integrates it as its own body, so it needs a valid, non-negligible ``<inertial>``. A link
attached by a *fixed* joint is lumped into its parent by Gazebo (sdformat's fixed-joint
reduction) and summed into the parent segment by KDL, so its own tensor only matters through
that sum; an invalid tensor there is a warning, not an error. The *root* link's inertia is
ignored by KDL (kdl_parser warns "The root link ... has an inertia specified in the URDF, but
KDL does not support a root link with an inertia").

Conventions accepted as correct: a massless frame link (mass 0, all-zero tensor) and a point
mass (mass > 0, all-zero tensor) on a link attached by a fixed joint; both are common in real
descriptions (panda_link8, ur5's tool0, talos' ``*_ft_tool_link``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
import math
from typing import cast

from . import check, CheckContext, rule
from ..findings import Finding, Severity
from ..inertia import (CERTAINTY_MARGIN, describe_inertia, describe_solid, entry_scale,
                       format_inertia_element, implied_inertia, implied_trace,
                       is_certainly_valid, is_zero, principal_moments,
                       triangle_inequality_violation)
from ..model import Box, Cylinder, Inertia, Inertial, Link, MOVING_JOINT_TYPES, Origin, Sphere

#: A moving link lighter than this is "near zero", kg.
MIN_MASS = 1e-6
#: A moving link whose largest principal moment is below this is "near zero", kg·m².
MIN_MOMENT = 1e-12
#: ``inertia-implausible`` fires when the sum of principal moments is off by more than this
#: factor from that of the solid collision primitive of the same mass (the identity tensor on a
#: 1 kg, 10 cm link is ~600 times too large; a hollow or unevenly filled link is within ~3).
IMPLAUSIBLE_FACTOR = 10.0

MASS_NOT_POSITIVE = rule('inertial-mass-not-positive', Severity.ERROR,
                         'mass < 0, or mass 0 with a non-zero inertia tensor')
NOT_POSITIVE_DEFINITE = rule('inertia-not-positive-definite', Severity.ERROR,
                             'inertia tensor is not positive definite (link not attached by a '
                             'fixed joint)')
TRIANGLE = rule('inertia-triangle-inequality', Severity.ERROR,
                'principal moments break I1 + I2 >= I3 (link not attached by a fixed joint)')
INVALID_ON_FIXED = rule('inertia-invalid-on-fixed-link', Severity.WARNING,
                        'physically invalid inertia on a link attached by a fixed joint '
                        '(lumped into its parent by simulators)')
IMPLAUSIBLE = rule('inertia-implausible', Severity.WARNING,
                   'inertia is far (> 10×) from what the mass and collision primitive imply')
NEAR_ZERO = rule('inertia-near-zero', Severity.WARNING,
                 'a moving link has (near-)zero mass or inertia')
ROOT_INERTIA = rule('root-link-inertia', Severity.WARNING,
                    'the root link has an <inertial>, which KDL ignores')
MISSING_ON_MOVING = rule('inertial-missing-on-moving-link', Severity.WARNING,
                         'a moving link has no <inertial> (Gazebo ignores massless links)')


#: Relative slack of the eigenvalue-free plausibility decision (traces instead of sums of
#: principal moments): far above their rounding difference (see :func:`_surely_plausible`).
_TRACE_SLACK = 1e-9
#: Masses, sizes and offsets inside this range (or exactly 0 for sizes and offsets) keep every
#: product in :func:`~urdf_tools_ros.core.inertia.implied_trace` a normal float.
_SAFE_RANGE = (1e-50, 1e50)


def _roles(ctx: CheckContext) -> tuple[dict[str, str], str | None]:
    """Return ``({link: joint type of its parent joint}, the single root link or None)``."""
    cached = ctx.cache.get('inertial.roles')
    if cached is None:
        parent_type: dict[str, str] = {}
        for joint in ctx.robot.joints:
            parent_type.setdefault(joint.child, joint.joint_type)
        roots = [link.name for link in ctx.robot.links if link.name not in parent_type]
        cached = ctx.cache['inertial.roles'] = (
            parent_type, roots[0] if len(set(roots)) == 1 else None)
    return cast('tuple[dict[str, str], str | None]', cached)


def _primitive_collision(link: Link) -> tuple[Box | Cylinder | Sphere, Origin] | None:
    """The link's single collision geometry and origin, when it is one box/cylinder/sphere."""
    if len(link.collisions) != 1:
        return None
    collision = link.collisions[0]
    geometry = collision.geometry
    if not isinstance(geometry, (Box, Cylinder, Sphere)):
        return None
    sizes: tuple[float, ...] = (geometry.radius,) if isinstance(geometry, Sphere) else (
        geometry.size if isinstance(geometry, Box) else (geometry.radius, geometry.length))
    if not all(math.isfinite(value) and value > 0 for value in sizes) \
            or not _origin_finite(collision.origin):
        return None  # geometry-size-* and the loader report these
    return geometry, collision.origin


def _origin_finite(origin: Origin) -> bool:
    return all(math.isfinite(value) for value in (*origin.xyz, *origin.rpy))


def _implied(ctx: CheckContext, link: Link, geometry: Box | Cylinder | Sphere, origin: Origin,
             inertial: Inertial) -> Inertia | None:
    """:func:`implied_inertia` of the link's primitive, computed once per link and run."""
    implied = cast('dict[int, Inertia | None]', ctx.cache.setdefault('inertial.implied', {}))
    key = id(link)
    if key not in implied:
        implied[key] = implied_inertia(geometry, inertial.mass, origin, inertial.origin)
    return implied[key]


def _solid_fix(ctx: CheckContext, link: Link) -> str | None:
    """The inertia of the link's collision primitive at the link's mass, as a fix hint."""
    inertial = link.inertial
    primitive = _primitive_collision(link)
    if inertial is None or primitive is None or not inertial.mass > 0 \
            or not _origin_finite(inertial.origin):
        return None
    geometry, origin = primitive
    implied = _implied(ctx, link, geometry, origin, inertial)
    if implied is None:
        return None
    return (f'{describe_solid(geometry, inertial.mass)} (its collision geometry) has '
            f'{describe_inertia(implied)}: {format_inertia_element(implied)}')


def _finite(inertia: Inertia, mass: float) -> bool:
    """Whether mass and tensor are finite (the loader reports NaN and inf)."""
    values = (mass, inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz)
    return all(math.isfinite(value) for value in values)


def _moments_text(moments: Iterable[float]) -> str:
    return ', '.join(f'{value:.4g}' for value in moments)


@check
def check_validity(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report negative mass and tensors that are not positive definite or break the triangle.

    Principal moments are computed only for tensors that
    :func:`~urdf_tools_ros.core.inertia.is_certainly_valid` does not clear.
    """
    parent_type, _ = _roles(ctx)
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or not _finite(inertial.inertia, inertial.mass):
            continue
        mass, inertia = inertial.mass, inertial.inertia
        if mass > 0 and is_certainly_valid(inertia):
            continue  # the common case: nothing to report
        element, where = f'link:{link.name}', inertial.location or link.location
        if mass < 0 or (mass == 0 and not is_zero(inertia)):
            reason = 'a mass is >= 0' if mass < 0 else 'a body without mass has no inertia'
            yield ctx.finding(MASS_NOT_POSITIVE, element,
                              f'link "{link.name}": mass={mass:g} kg ({reason})', where,
                              'give the real mass in kg (> 0), or leave <inertial> out '
                              'for a massless frame')
            continue
        if is_zero(inertia):
            continue  # a massless frame or a point mass: see the module docstring
        moments = principal_moments(inertia)
        fixed = parent_type.get(link.name) == 'fixed'
        tensor = f'inertia {describe_inertia(inertia)}'
        if moments[0] <= 0:
            code = INVALID_ON_FIXED if fixed else NOT_POSITIVE_DEFINITE
            lumped = ' (attached by a fixed joint: lumped into its parent)' if fixed else ''
            yield ctx.finding(code, element,
                              f'link "{link.name}": {tensor} has principal moments '
                              f'({_moments_text(moments)}) kg·m², not all > 0: not positive '
                              f'definite{lumped}', where,
                              _solid_fix(ctx, link) or 'each product of inertia needs |ixy| < '
                              'sqrt(ixx iyy) (likewise ixz, iyz); recompute the tensor')
            continue
        excess = triangle_inequality_violation(inertia)
        if excess:
            code = INVALID_ON_FIXED if fixed else TRIANGLE
            lumped = ' (attached by a fixed joint: lumped into its parent)' if fixed else ''
            a, b, c = (float(value) for value in moments)
            yield ctx.finding(code, element,
                              f'link "{link.name}": {tensor} has principal moments '
                              f'{a:.4g} + {b:.4g} < {c:.4g} kg·m², which no rigid body '
                              f'has{lumped}', where,
                              _solid_fix(ctx, link) or 'recompute the tensor (e.g. from CAD)')


def _in_safe_range(value: float, zero_allowed: bool = True) -> bool:
    magnitude = abs(value)
    return (zero_allowed and magnitude == 0.0) or _SAFE_RANGE[0] <= magnitude <= _SAFE_RANGE[1]


def _surely_plausible(inertial: Inertial, geometry: Box | Cylinder | Sphere,
                      origin: Origin) -> bool:
    """
    Whether the declared and implied tensors are within :data:`IMPLAUSIBLE_FACTOR` for sure.

    The sum of principal moments is the trace (exactly in arithmetic; eigvalsh's sum is within
    ~1e-15 of :func:`entry_scale`, and :func:`implied_inertia` drops entries below 1e-12 of the
    largest), so traces decide the ratio unless it lies within :data:`_TRACE_SLACK` of a limit;
    ``False`` means "not decided": compute the principal moments.
    """
    mass = inertial.mass
    sizes = (geometry.radius,) if isinstance(geometry, Sphere) else (
        geometry.size if isinstance(geometry, Box) else (geometry.radius, geometry.length))
    offsets = (*origin.xyz, *inertial.origin.xyz)
    if not _in_safe_range(mass, zero_allowed=False) \
            or not all(_in_safe_range(value) for value in (*sizes, *offsets)):
        return False
    implied = implied_trace(geometry, mass, origin, inertial.origin)
    inertia = inertial.inertia
    declared = inertia.ixx + inertia.iyy + inertia.izz
    declared_error = _TRACE_SLACK * entry_scale(inertia)
    if implied is None or not 0.0 < implied < math.inf or not declared > declared_error:
        return False
    low = (declared - declared_error) / (implied * (1.0 + _TRACE_SLACK))
    high = (declared + declared_error) / (implied * (1.0 - _TRACE_SLACK))
    return (1.0 + _TRACE_SLACK) / IMPLAUSIBLE_FACTOR < low \
        and high < IMPLAUSIBLE_FACTOR * (1.0 - _TRACE_SLACK)


@check
def check_plausibility(ctx: CheckContext) -> Iterator[Finding]:
    """Report tensors far from the solid collision primitive of the same mass."""
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or len(link.collisions) != 1:
            continue
        primitive = _primitive_collision(link)
        if primitive is None or not inertial.mass > 0 \
                or not _finite(inertial.inertia, inertial.mass) or is_zero(inertial.inertia) \
                or not _origin_finite(inertial.origin):
            continue
        geometry, origin = primitive
        if _surely_plausible(inertial, geometry, origin):
            continue
        implied = _implied(ctx, link, geometry, origin, inertial)
        if implied is None:
            continue
        declared_sum = float(sum(principal_moments(inertial.inertia)))
        implied_sum = float(sum(principal_moments(implied)))
        if not (math.isfinite(implied_sum) and implied_sum > 0 and declared_sum > 0):
            continue
        ratio = declared_sum / implied_sum
        if 1.0 / IMPLAUSIBLE_FACTOR <= ratio <= IMPLAUSIBLE_FACTOR:
            continue
        # The inverse from the sums, not 1 / ratio: ratio may underflow to 0.
        how = f'{ratio:.3g} times' if ratio > 1 else f'1/{implied_sum / declared_sum:.3g} of'
        yield ctx.finding(IMPLAUSIBLE, f'link:{link.name}',
                          f'link "{link.name}": inertia {describe_inertia(inertial.inertia)} '
                          f'is {how} what {describe_solid(geometry, inertial.mass)} (its '
                          'collision geometry) would have (sum of principal moments)',
                          inertial.location or link.location, _solid_fix(ctx, link))


@check
def check_moving_links(ctx: CheckContext) -> Iterator[Finding]:
    """Report moving links without ``<inertial>`` or with near-zero mass or inertia."""
    parent_type, _ = _roles(ctx)
    moving = {name for name, joint_type in parent_type.items()
              if joint_type in MOVING_JOINT_TYPES}
    for link in ctx.robot.links:
        if link.name not in moving:
            continue
        joint_type = parent_type[link.name]
        inertial = link.inertial
        if inertial is None:
            yield ctx.finding(MISSING_ON_MOVING, f'link:{link.name}',
                              f'link "{link.name}" moves (child of a {joint_type} joint) but has '
                              'no <inertial>; Gazebo drops or refuses massless moving links',
                              link.location, 'add <inertial> with its mass and inertia')
            continue
        inertia = inertial.inertia
        if not _finite(inertia, inertial.mass) or inertial.mass < 0:
            continue
        # The largest principal moment is >= every diagonal entry (Rayleigh quotient).
        if inertial.mass >= MIN_MASS and max(inertia.ixx, inertia.iyy, inertia.izz) \
                - CERTAINTY_MARGIN * entry_scale(inertia) > MIN_MOMENT:
            continue
        largest = float(max(principal_moments(inertia)))
        if inertial.mass < MIN_MASS or largest < MIN_MOMENT:
            yield ctx.finding(NEAR_ZERO, f'link:{link.name}',
                              f'link "{link.name}" moves (child of a {joint_type} joint) but has '
                              f'mass={inertial.mass:g} kg and largest principal moment '
                              f'{largest:.3g} kg·m² (limits {MIN_MASS:g} kg, {MIN_MOMENT:g} '
                              'kg·m²); simulators become unstable',
                              inertial.location or link.location,
                              _solid_fix(ctx, link) or 'give the real mass and inertia')


@check
def check_root_inertia(ctx: CheckContext) -> Iterator[Finding]:
    """Report an ``<inertial>`` on the root link, which KDL (robot_state_publisher) ignores."""
    _, root = _roles(ctx)
    link = ctx.robot.link_map.get(root) if root is not None else None
    if link is None or link.inertial is None:
        return
    if link.inertial.mass == 0 and is_zero(link.inertial.inertia):
        return  # nothing is lost: a massless root (tiago's base_footprint)
    yield ctx.finding(ROOT_INERTIA, f'link:{link.name}',
                      f'root link "{link.name}" has an <inertial> (mass='
                      f'{link.inertial.mass:g} kg); KDL does not support inertia on the root and '
                      'ignores it (kdl_parser warns the same)',
                      link.inertial.location or link.location,
                      'if KDL dynamics need it, add a link without <inertial> as the new root '
                      f'and a fixed joint from it to "{link.name}"')
