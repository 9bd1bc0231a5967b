"""
Inertial rules, on the bodies consumers actually simulate.

A body is a moving link (or the root) with the links welded to it by fixed joints: Gazebo,
KDL, MuJoCo and pinocchio simulate it lumped (:func:`.combine`), so
validity and mass are judged on it. ROS tools load any tensor; Gazebo refuses a lumped body
breaking gz-math's ``ValidMoments`` (:func:`gazebo_refuses`) and drops a massless moving one;
MuJoCo checks each link's own tensor (:func:`mujoco_refuses`) and refuses a moving body below
mjMINVAL (``test/test_consumer_oracles.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
import math
from typing import cast

import numpy as np

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...kinematics.inertia import (combine, describe_inertia, describe_solid, entry_scale,
                                   format_inertia_element, implied_inertia, is_zero,
                                   principal_moment_values, triangle_inequality_violation)
from ...model.robot import (Box, Capsule, Cylinder, geometry_sizes, Inertia, Inertial, Link,
                            Origin, Robot, Sphere)
from ...model.values import all_finite
from ...transforms import FloatArray, origin as origin_matrix

#: The solid shapes whose inertia a link's mass implies (:func:`implied_inertia`).
Primitive = Box | Cylinder | Sphere | Capsule

#: A moving body lighter than this is "near zero", kg.
MIN_MASS = 1e-6
#: A moving body whose largest principal moment is below this is "near zero", kg·m².
MIN_MOMENT = 1e-12
#: A tensor whose absolute entries sum to at most this is zero (rounding noise), kg·m²: MuJoCo's
#: mjMINVAL, below which it calls a moment "not positive".
NEGLIGIBLE_INERTIA = 1e-15
#: SDFormat's "no inertia": a mass at most this (``gz::math::equal(mass, 0.0)``), kg.
GZ_MASS_EPSILON = 1e-6
#: MuJoCo's mjMINVAL (mujoco/mjmodel.h), kg and kg·m².
MJ_MINVAL = 1e-15
#: gz-math's default MassMatrix3 tolerance (in units of machine epsilon), which SDFormat uses.
GZ_TOLERANCE = 10.0
#: Rounding allowed in "positive definite", as a fraction of the tensor's entry scale.
ROUNDING = 1e-12
#: ``inertia-implausible``: the sum of principal moments is off by more than this factor from
#: the solid collision primitive's of the same mass (a hollow link is within ~3).
IMPLAUSIBLE_FACTOR = 10.0

_BODIES = ('Gazebo lumps fixed joints (sdformat parser_urdf.cc); KDL sums fixed segments; '
           'MuJoCo fusestatic')
MASS_NOT_POSITIVE = rule('inertial-mass-not-positive', Severity.WARNING,
                         'mass < 0, or mass 0 with a non-zero inertia tensor (not on the root '
                         'body, where mass 0 means static)', consumers=(),
                         reference='URDF spec, link/inertial/mass; gz-math MassMatrix3::IsValid')
NOT_POSITIVE_DEFINITE = rule('inertia-not-positive-definite', Severity.WARNING,
                             'the lumped tensor of a moving body (the link and the links welded '
                             'to it) is not positive definite',
                             reference='Featherstone, Rigid Body Dynamics Algorithms, §2.14; '
                                       + _BODIES)
TRIANGLE = rule('inertia-triangle-inequality', Severity.WARNING,
                'the lumped principal moments of a moving body break I1 + I2 >= I3',
                reference='Featherstone §2.14 (I1 + I2 - I3 = 2 ∫ z² dm); ' + _BODIES)
LINK_INVALID = rule('link-inertia-invalid', Severity.INFO,
                    "a link's own tensor, or the root body's, is invalid, though ROS consumers "
                    'see it only lumped or not at all (MuJoCo checks each link, Gazebo the root '
                    'body)', reference='MuJoCo user model (per-link inertia checks); ' + _BODIES)
IMPLAUSIBLE = rule('inertia-implausible', Severity.WARNING,
                   'inertia about the centre of mass is far (> 10×) from what the mass and '
                   'collision primitive imply', reference='moments of inertia of solid '
                                                          'primitives (inertia.py)')
NEAR_ZERO = rule('inertia-near-zero', Severity.WARNING,
                 'a moving body has (near-)zero mass or inertia',
                 reference='MuJoCo "mass and inertia of moving bodies must be larger than '
                           'mjMINVAL"')
ROOT_INERTIA = rule('root-link-inertia', Severity.INFO,
                    'the root link of an articulated robot has an <inertial>, which KDL ignores',
                    reference='kdl_parser ("The root link ... has an inertia specified in the '
                              'URDF, but KDL does not support a root link with an inertia")')
MISSING_ON_MOVING = rule(
    'inertial-missing-on-moving-link', Severity.WARNING,
    'a moving body (the link and the links welded to it) has no mass at all: Gazebo drops it '
    'and all below it, MuJoCo refuses the file, pybullet gives it 1 kg, Isaac Sim lets PhysX '
    'compute a mass from its collisions', consumers=('gazebo', 'mujoco'),
    reference=('sdformat URDF to SDF: "urdf2sdf: link[...] has no inertia, not modeled in sdf"; '
               'MuJoCo "mass and inertia of moving bodies must be larger than mjMINVAL"; '
               'pybullet BulletUrdfImporter "No inertial data for link, using mass=1"; Isaac Sim '
               'URDF importer (isaac-sim/urdf-importer-extension UrdfImporter.cpp: "No mass '
               'specified for link", mass left to PhysX; fixed joints merged by default)'))


@dataclass(frozen=True)
class Body:
    """
    A moving link (or the root) with the links welded to it by fixed joints.

    :ivar anchor: The moving link, or the root link.
    :ivar links: ``anchor`` first, then the welded links in tree order.
    :ivar moving: Whether ``anchor`` is the child of a non-fixed joint.
    :ivar mass: Total mass, kg.
    :ivar inertia: Tensor about the combined centre of mass in the anchor frame axes, kg·m².
    :ivar has_inertial: Whether any of the links has an ``<inertial>``.
    """

    anchor: str
    links: tuple[str, ...]
    moving: bool
    mass: float
    inertia: Inertia
    has_inertial: bool


def _finite(inertia: Inertia, mass: float) -> bool:
    """Whether mass and tensor are finite (the loader reports NaN and inf)."""
    return all_finite((mass, inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz,
                       inertia.izz))


def _usable(inertial: Inertial | None) -> bool:
    return inertial is not None and _finite(inertial.inertia, inertial.mass) \
        and _origin_finite(inertial.origin)


def _origin_matrices(origins: list[Origin]) -> dict[int, FloatArray]:
    """``{id(origin): T (4, 4)}`` of finite origins, in one vectorised call."""
    if not origins:
        return {}
    matrices = origin_matrix([origin.xyz for origin in origins],
                             [origin.rpy for origin in origins])
    return {id(origin): matrix for origin, matrix in zip(origins, matrices)}


_IDENTITY = np.eye(4)
_IDENTITY.flags.writeable = False  # shared by every body's anchor frame


def _tree(robot: Robot) -> tuple[dict[str, str], dict[str, FloatArray], str] | None:
    """``({link: anchor}, {link: T_anchor_link}, root)`` for a valid tree, else ``None``."""
    links = robot.link_map
    children: dict[str, list[tuple[str, str, Origin]]] = {}
    parents: set[str] = set()
    for joint in robot.joints:
        if joint.parent not in links or joint.child not in links or joint.child in parents:
            return None
        parents.add(joint.child)
        children.setdefault(joint.parent, []).append((joint.child, joint.joint_type,
                                                      joint.origin))
    roots = [name for name in links if name not in parents]
    if len(roots) != 1 or len(links) != len(robot.links):
        return None
    root = roots[0]
    fixed = [joint.origin for joint in robot.joints if joint.joint_type == 'fixed']
    if not all(map(_origin_finite, fixed)):
        return None  # NaN origin: the loader's finding
    placed = _origin_matrices(fixed)
    anchor = {root: root}
    frames = {root: _IDENTITY}
    stack = [root]
    while stack:
        parent = stack.pop()
        for child, joint_type, joint_origin in children.get(parent, ()):
            if child in anchor:
                return None
            if joint_type == 'fixed':
                frames[child] = frames[parent] @ placed[id(joint_origin)]
                anchor[child] = anchor[parent]
            else:
                frames[child] = _IDENTITY
                anchor[child] = child
            stack.append(child)
    if len(anchor) != len(links):
        return None  # a cycle detached from the root
    return anchor, frames, root


def bodies(robot: Robot) -> list[Body] | None:
    """
    Lump the robot into the bodies consumers simulate (see the module doc).

    :return: One :class:`Body` per moving link and one for the root, in link file order, or
        ``None`` when the links and joints are not a tree.
    """
    tree = _tree(robot)
    if tree is None:
        return None
    anchor, frames, root = tree
    link_map = robot.link_map
    members: dict[str, list[str]] = {}
    for link in robot.links:
        members.setdefault(anchor[link.name], []).append(link.name)
    result: list[Body | None] = []
    lumped: list[tuple[int, str, tuple[str, ...], list[tuple[str, Inertial]]]] = []
    for name, names in members.items():
        names.sort(key=lambda member: member != name)
        inertials = [(member, inertial) for member in names
                     if (inertial := link_map[member].inertial) is not None]
        usable = [(member, inertial) for member, inertial in inertials if _usable(inertial)]
        if len(usable) == 1 and usable[0][0] == name \
                and usable[0][1].origin.rpy == (0.0, 0.0, 0.0):
            # The anchor alone in an unrotated inertial frame: its <inertial> as written.
            inertial = usable[0][1]
            result.append(Body(name, tuple(names), name != root, inertial.mass + 0.0,
                               inertial.inertia, True))
        elif usable:
            lumped.append((len(result), name, tuple(names), usable))
            result.append(None)
        else:
            result.append(Body(name, tuple(names), name != root, 0.0, Inertia(),
                               bool(inertials)))
    placed = _origin_matrices([inertial.origin for *_, usable in lumped
                               for _, inertial in usable])
    for index, name, welded, usable in lumped:
        mass, _, inertia = combine([(inertial.mass, inertial.inertia,
                                     frames[member] @ placed[id(inertial.origin)])
                                    for member, inertial in usable])
        result[index] = Body(name, welded, name != root, mass, inertia, True)
    return [body for body in result if body is not None]


def _bodies(ctx: CheckContext) -> list[Body] | None:
    if 'inertial.bodies' not in ctx.cache:
        ctx.cache['inertial.bodies'] = bodies(ctx.robot)
    return cast('list[Body] | None', ctx.cache['inertial.bodies'])


def negligible(inertia: Inertia) -> bool:
    """Whether the tensor is zero up to rounding noise (:data:`NEGLIGIBLE_INERTIA`)."""
    return entry_scale(inertia) <= NEGLIGIBLE_INERTIA


def ros_problem(inertia: Inertia) -> str | None:
    """
    Say why a (lumped) tensor is physically impossible, or return ``None``.

    :return: ``'not positive definite'`` (a moment <= ``ROUNDING`` × entry scale),
        ``'triangle'``, or ``None`` for a valid or negligible tensor.
    """
    if negligible(inertia):
        return None
    if principal_moment_values(inertia)[0] <= ROUNDING * entry_scale(inertia):
        return 'not positive definite'
    if triangle_inequality_violation(inertia) > 0.0:
        return 'triangle'
    return None


def gazebo_refuses(mass: float, inertia: Inertia) -> bool:
    """
    Whether SDFormat refuses a link of this mass and tensor ("has invalid inertia").

    gz-math ``MassMatrix3::IsValid``: mass >= 0, every moment >= -ε and each sum of two >= the
    third - ε, ``ε = 10 × DBL_EPS × ½ Σ|moments|``.
    """
    if mass < 0:
        return True
    a, b, c = principal_moment_values(inertia)
    epsilon = GZ_TOLERANCE * float(np.finfo(float).eps) * 0.5 * abs(a + b + c)
    return bool(min(a, b, c) < -epsilon or a + b < c - epsilon)


def mujoco_refuses(mass: float, inertia: Inertia) -> str | None:
    """
    Say why MuJoCo refuses a link's own ``<inertial>``, or return ``None``.

    Unless mass <= 0 and the tensor is zero: eigenvalues >= mjMINVAL and A + B >= C - mjMINVAL.
    """
    if not mass > 0 or is_zero(inertia):
        return None
    a, b, c = principal_moment_values(inertia)
    if a < MJ_MINVAL:
        return 'MuJoCo refuses it ("inertia must have positive eigenvalues")'
    if a + b < c - MJ_MINVAL:
        return 'MuJoCo refuses it ("inertia must satisfy A + B >= C")'
    return None


def _primitive_collision(link: Link) -> tuple[Primitive, Origin] | None:
    """The link's single collision geometry and origin, when it is one solid primitive."""
    if len(link.collisions) != 1:
        return None
    collision = link.collisions[0]
    geometry = collision.geometry
    if not isinstance(geometry, (Box, Cylinder, Sphere, Capsule)):
        return None
    sizes = [value for _, value in geometry_sizes(geometry)]
    if not all(math.isfinite(value) and value > 0 for value in sizes) \
            or not _origin_finite(collision.origin):
        return None  # geometry-size-* and the loader report these
    return geometry, collision.origin


def _origin_finite(origin: Origin) -> bool:
    return all_finite((*origin.xyz, *origin.rpy))


def _about_com(origin: Origin, inertial: Inertial) -> Origin:
    """The geometry origin moved so that the solid's centre is the centre of mass."""
    return Origin(inertial.origin.xyz, origin.rpy)


def _implied(geometry: Primitive, origin: Origin, inertial: Inertial) -> Inertia | None:
    """:func:`implied_inertia` of the link's primitive at the link's mass, about its COM."""
    return implied_inertia(geometry, inertial.mass, _about_com(origin, inertial),
                           inertial.origin)


def solid_inertia(link: Link) -> tuple[Primitive, Inertia] | None:
    """
    The inertia of the link's single collision primitive, solid, at the link's mass.

    The primitive is centred at the centre of mass in the collision's orientation
    (:func:`implied_inertia`); kg·m² in the ``<inertial>`` frame.

    :return: ``(primitive, inertia)``; ``None`` without an ``<inertial>`` of positive mass,
        exactly one finite primitive collision, or a tensor ROS accepts (:func:`ros_problem`).
    """
    inertial = link.inertial
    primitive = _primitive_collision(link)
    if inertial is None or primitive is None or not inertial.mass > 0 \
            or not _origin_finite(inertial.origin):
        return None
    geometry, origin = primitive
    implied = _implied(geometry, origin, inertial)
    if implied is None or ros_problem(implied) is not None:
        return None
    return geometry, implied


def _solid_fix(link: Link, solid: tuple[Primitive, Inertia] | None | bool = True
               ) -> str | None:
    """The fix hint of ``solid`` (:func:`solid_inertia` of ``link``; ``True``: computed here)."""
    if solid is True:
        solid = solid_inertia(link)
    if not isinstance(solid, tuple) or link.inertial is None:
        return None
    geometry, implied = solid
    inertial = link.inertial
    return (f'{describe_solid(geometry, inertial.mass)} (its collision geometry, about the '
            f'centre of mass) has {describe_inertia(implied)}: {format_inertia_element(implied)}')


def _moments_text(moments: Iterable[float]) -> str:
    return ', '.join(f'{value:.4g}' for value in moments)


def _lumped_text(body: Body) -> str:
    welded = body.links[1:]
    if not welded:
        return f'link "{body.anchor}"'
    more = ', '.join(f'"{name}"' for name in welded[:3]) + (', ...' if len(welded) > 3 else '')
    return (f'link "{body.anchor}" with the {len(welded)} link(s) welded to it ({more}), lumped '
            'as simulators see it,')


@check(codes=(MASS_NOT_POSITIVE, LINK_INVALID))
def check_link_inertials(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report negative masses, massless tensors and own tensors MuJoCo refuses.

    An invalid own tensor is reported here only when it is not a moving body's
    (:func:`check_bodies` reports those).
    """
    all_bodies = _bodies(ctx)
    by_anchor = {body.anchor: body for body in all_bodies or ()}
    root = next((body for body in all_bodies or () if not body.moving), None)
    in_root = set(root.links) if root is not None else set()
    for link in ctx.robot.links:
        inertial = link.inertial
        if inertial is None or not _finite(inertial.inertia, inertial.mass):
            continue
        mass, inertia = inertial.mass, inertial.inertia
        element, where = f'link:{link.name}', inertial.location or link.location
        if mass < 0:
            yield ctx.finding(MASS_NOT_POSITIVE, element,
                              f'link "{link.name}": mass={mass:g} kg; a mass is >= 0 (Gazebo '
                              'refuses it: "has invalid inertia")', where,
                              'give the real mass in kg (> 0), or leave <inertial> out for a '
                              'massless frame', consumers=('gazebo', 'mujoco'))
            continue
        if mass == 0 and not is_zero(inertia) and link.name not in in_root:
            yield ctx.finding(MASS_NOT_POSITIVE, element,
                              f'link "{link.name}": mass=0 kg with inertia '
                              f'{describe_inertia(inertia)}: a body without mass has no inertia',
                              where, 'give the real mass in kg (> 0), or leave <inertial> out '
                              'for a massless frame')
            continue
        mujoco = mujoco_refuses(mass, inertia)
        if mujoco is None:
            continue
        body = by_anchor.get(link.name)
        if body is not None and body.moving and ros_problem(body.inertia) is not None:
            continue  # check_bodies reports the moving body, MuJoCo's refusal included
        role = ('the root link' if link.name == (root.anchor if root else None) else
                'welded by a fixed joint' if link.name not in by_anchor else
                'lumped with the links welded to it into a valid body')
        yield ctx.finding(LINK_INVALID, element,
                          f'link "{link.name}" ({role}): its own inertia '
                          f'{describe_inertia(inertia)} has principal moments '
                          f'({_moments_text(principal_moment_values(inertia))}) kg·m²; '
                          f'{mujoco} (it checks each link before lumping)', where,
                          _solid_fix(link) or 'recompute the tensor (e.g. from CAD)',
                          consumers=('mujoco',))


@check(codes=(NOT_POSITIVE_DEFINITE, TRIANGLE, LINK_INVALID, NEAR_ZERO, MISSING_ON_MOVING))
def check_bodies(ctx: CheckContext) -> Iterator[Finding]:
    """Report moving bodies without mass, near-zero or physically impossible lumped tensors."""
    all_bodies = _bodies(ctx)
    if all_bodies is None:
        return
    links = ctx.robot.link_map
    for body in all_bodies:
        if not _finite(body.inertia, body.mass):
            continue  # absurd values: the loader and the per-link checks report them
        link = links[body.anchor]
        element = f'link:{body.anchor}'
        where = (link.inertial.location if link.inertial is not None else None) or link.location
        what = _lumped_text(body)
        if not body.moving:
            if body.mass > 0 and not negligible(body.inertia) \
                    and gazebo_refuses(body.mass, body.inertia):
                moments_text = _moments_text(principal_moment_values(body.inertia))
                yield ctx.finding(LINK_INVALID, element,
                                  f'root body: {what} has inertia {describe_inertia(body.inertia)}'
                                  f' with principal moments ({moments_text}) kg·m²; Gazebo '
                                  'refuses it ("has invalid inertia"); ROS consumers do not move '
                                  'the root', where,
                                  _solid_fix(link) or 'recompute the tensor',
                                  consumers=('gazebo',))
            continue
        if body.mass <= 0:
            reason = 'no link of it has an <inertial>' if not body.has_inertial \
                else 'its mass is 0'
            yield ctx.finding(MISSING_ON_MOVING, element,
                              f'{what} moves but has no mass ({reason}): Gazebo drops it and '
                              'everything attached to it, MuJoCo refuses the file',
                              link.location,
                              'add <inertial> with its mass and inertia')
            continue
        problem = ros_problem(body.inertia)
        moments = principal_moment_values(body.inertia)
        if problem is None:
            largest = max(moments)
            if body.mass < MIN_MASS or largest < MIN_MOMENT or negligible(body.inertia):
                broken = [name for name, breaks in (
                    ('gazebo', body.mass <= GZ_MASS_EPSILON
                     or gazebo_refuses(body.mass, body.inertia)),
                    ('mujoco', body.mass < MJ_MINVAL or min(moments) < MJ_MINVAL)) if breaks]
                said = {'gazebo': ('Gazebo drops it and everything attached to it'
                                   if body.mass <= GZ_MASS_EPSILON else
                                   'Gazebo refuses its rounding-noise tensor ("has invalid '
                                   'inertia": a moment < 0)'),
                        'mujoco': 'MuJoCo refuses it'}
                yield ctx.finding(NEAR_ZERO, element,
                                  f'{what} moves with mass={body.mass:g} kg, largest principal '
                                  f'moment {largest:.3g} kg·m² (below {MIN_MASS:g} kg or '
                                  f'{MIN_MOMENT:g} kg·m²): simulators become unstable'
                                  + ''.join(f'; {said[name]}' for name in broken), where,
                                  _solid_fix(link) or 'give the real mass and inertia',
                                  consumers=broken)
            continue
        consumers = []
        if gazebo_refuses(body.mass, body.inertia):
            consumers.append('gazebo')
        if link.inertial is not None and mujoco_refuses(link.inertial.mass,
                                                        link.inertial.inertia):
            consumers.append('mujoco')
        tensor = f'inertia {describe_inertia(body.inertia)}'
        said = {'gazebo': 'Gazebo', 'mujoco': 'MuJoCo'}
        refusals = ' and '.join(said[name] for name in consumers)
        tail = f'; {refusals} refuse{"s" if len(consumers) == 1 else ""} it' if refusals \
            else '; ROS tools load it'
        if problem == 'not positive definite':
            yield ctx.finding(NOT_POSITIVE_DEFINITE, element,
                              f'{what} has {tensor} with principal moments '
                              f'({_moments_text(moments)}) kg·m², not all > 0{tail}', where,
                              _solid_fix(link) or 'each product of inertia needs |ixy| < '
                              'sqrt(ixx iyy) (likewise ixz, iyz); recompute the tensor',
                              consumers=consumers)
        else:
            a, b, c = moments
            yield ctx.finding(TRIANGLE, element,
                              f'{what} has {tensor} with principal moments {a:.4g} + {b:.4g} < '
                              f'{c:.4g} kg·m² (no rigid body has){tail}', where,
                              _solid_fix(link) or 'recompute the tensor (e.g. from CAD)',
                              consumers=consumers)


@check(codes=(IMPLAUSIBLE,))
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
        implied = _implied(geometry, origin, inertial)
        if implied is None:
            continue
        declared_sum = sum(principal_moment_values(inertial.inertia))
        implied_sum = sum(principal_moment_values(implied))
        if not (math.isfinite(implied_sum) and implied_sum > 0 and declared_sum > 0):
            continue
        ratio = declared_sum / implied_sum
        if 1.0 / IMPLAUSIBLE_FACTOR <= ratio <= IMPLAUSIBLE_FACTOR:
            continue
        # The inverse from the sums, not 1 / ratio: ratio may underflow to 0.
        how = f'{ratio:.3g} times' if ratio > 1 else f'1/{implied_sum / declared_sum:.3g} of'
        yield ctx.finding(IMPLAUSIBLE, f'link:{link.name}',
                          f'link "{link.name}": inertia {describe_inertia(inertial.inertia)} '
                          f'is {how} that of {describe_solid(geometry, inertial.mass)} (its '
                          'collision geometry)',
                          inertial.location or link.location,
                          _solid_fix(link, (geometry, implied) if ros_problem(implied) is None
                                     else None))


@check(codes=(ROOT_INERTIA,))
def check_root_inertia(ctx: CheckContext) -> Iterator[Finding]:
    """Note a non-zero ``<inertial>`` on the root link of a robot that moves (KDL ignores it)."""
    all_bodies = _bodies(ctx)
    if not all_bodies or not any(body.moving for body in all_bodies):
        return
    root = next(body.anchor for body in all_bodies if not body.moving)
    link = ctx.robot.link_map[root]
    if link.inertial is None or (link.inertial.mass == 0 and is_zero(link.inertial.inertia)):
        return
    yield ctx.finding(ROOT_INERTIA, f'link:{link.name}',
                      f'root link "{link.name}" has an <inertial> (mass='
                      f'{link.inertial.mass:g} kg): KDL ignores inertia on the root in its '
                      'dynamics solvers; TF is not affected',
                      link.inertial.location or link.location,
                      'if KDL dynamics need it, add a link without <inertial> as the new root '
                      f'and a fixed joint from it to "{link.name}"')
