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

from . import check, CheckContext, rule
from ..findings import Finding, Severity
from ..inertia import (describe_inertia, describe_solid, format_inertia_element,
                       implied_inertia, is_zero, principal_moments,
                       triangle_inequality_violation)
from ..model import Box, Cylinder, Inertia, Link, MOVING_JOINT_TYPES, Origin, Robot, Sphere

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


def _roles(robot: Robot) -> tuple[dict[str, str], str | None]:
    """Return ``({link: joint type of its parent joint}, the single root link or None)``."""
    parent_type: dict[str, str] = {}
    for joint in robot.joints:
        parent_type.setdefault(joint.child, joint.joint_type)
    roots = [link.name for link in robot.links if link.name not in parent_type]
    return parent_type, (roots[0] if len(set(roots)) == 1 else None)


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


def _solid_fix(link: Link) -> str | None:
    """The inertia of the link's collision primitive at the link's mass, as a fix hint."""
    inertial = link.inertial
    primitive = _primitive_collision(link)
    if inertial is None or primitive is None or not inertial.mass > 0 \
            or not _origin_finite(inertial.origin):
        return None
    geometry, origin = primitive
    implied = implied_inertia(geometry, inertial.mass, origin, inertial.origin)
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
    """Report negative mass and tensors that are not positive definite or break the triangle."""
    parent_type, _ = _roles(ctx.robot)
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or not _finite(inertial.inertia, inertial.mass):
            continue
        element, where = f'link:{link.name}', inertial.location or link.location
        mass, inertia = inertial.mass, inertial.inertia
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
                              _solid_fix(link) or 'each product of inertia needs |ixy| < '
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
                              _solid_fix(link) or 'recompute the tensor (e.g. from CAD)')


@check
def check_plausibility(ctx: CheckContext) -> Iterator[Finding]:
    """Report tensors far from the solid collision primitive of the same mass."""
    for link in ctx.robot.links:
        inertial = link.inertial
        primitive = _primitive_collision(link)
        if inertial is None or primitive is None or not inertial.mass > 0 \
                or not _finite(inertial.inertia, inertial.mass) or is_zero(inertial.inertia) \
                or not _origin_finite(inertial.origin):
            continue
        geometry, origin = primitive
        implied = implied_inertia(geometry, inertial.mass, origin, inertial.origin)
        if implied is None:
            continue
        declared_sum = float(sum(principal_moments(inertial.inertia)))
        implied_sum = float(sum(principal_moments(implied)))
        if not (math.isfinite(implied_sum) and implied_sum > 0 and declared_sum > 0):
            continue
        ratio = declared_sum / implied_sum
        if 1.0 / IMPLAUSIBLE_FACTOR <= ratio <= IMPLAUSIBLE_FACTOR:
            continue
        how = f'{ratio:.3g} times' if ratio > 1 else f'1/{1 / ratio:.3g} of'
        yield ctx.finding(IMPLAUSIBLE, f'link:{link.name}',
                          f'link "{link.name}": inertia {describe_inertia(inertial.inertia)} '
                          f'is {how} what {describe_solid(geometry, inertial.mass)} (its '
                          'collision geometry) would have (sum of principal moments)',
                          inertial.location or link.location, _solid_fix(link))


@check
def check_moving_links(ctx: CheckContext) -> Iterator[Finding]:
    """Report moving links without ``<inertial>`` or with near-zero mass or inertia."""
    parent_type, _ = _roles(ctx.robot)
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
        if not _finite(inertial.inertia, inertial.mass) or inertial.mass < 0:
            continue
        largest = float(max(principal_moments(inertial.inertia)))
        if inertial.mass < MIN_MASS or largest < MIN_MOMENT:
            yield ctx.finding(NEAR_ZERO, f'link:{link.name}',
                              f'link "{link.name}" moves (child of a {joint_type} joint) but has '
                              f'mass={inertial.mass:g} kg and largest principal moment '
                              f'{largest:.3g} kg·m² (limits {MIN_MASS:g} kg, {MIN_MOMENT:g} '
                              'kg·m²); simulators become unstable',
                              inertial.location or link.location,
                              _solid_fix(link) or 'give the real mass and inertia')


@check
def check_root_inertia(ctx: CheckContext) -> Iterator[Finding]:
    """Report an ``<inertial>`` on the root link, which KDL (robot_state_publisher) ignores."""
    _, root = _roles(ctx.robot)
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
