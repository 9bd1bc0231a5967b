"""
Gazebo's fixed-joint lumping: the bodies SDFormat's URDF -> SDF conversion keeps or drops.

SDFormat (``parser_urdf.cc``) lumps the child of every fixed joint into its parent, leaves
first, children in joint-name order, except joints marked ``<preserveFixedJoint>`` or
``<disableFixedJointLumping>`` and those of a root named ``world``. Merging an ``<inertial>``
into a parent of mass 0 gives a NaN centre of mass ("Pose values must be finite"); a remaining
link without mass (:data:`GZ_MASS_EPSILON`) is dropped with everything below it, a massless
root leaves no link ("A model must have at least one link"). Measured with SDFormat 12.3
(``test/test_consumer_oracles.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
import math

from .inertial import GZ_MASS_EPSILON
from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...model.robot import Joint, Robot

_SOURCE = 'sdformat parser_urdf.cc (ReduceFixedJoints, CreateLink: "has no inertia")'
MASSLESS_LUMP = rule('gazebo-lumping-zero-mass', Severity.INFO,
                     'a fixed joint lumps an <inertial> into a link with no mass so far, and '
                     'the total mass is 0: Gazebo computes a NaN centre of mass',
                     consumers=('gazebo',), reference=_SOURCE)
ROOT_MASSLESS = rule('root-body-massless', Severity.INFO,
                     'the root body (the root link and the links welded to it) has no mass and '
                     'is not "world": Gazebo drops it and everything attached to it',
                     consumers=('gazebo',), reference=_SOURCE)
#: The ``<gazebo reference="joint">`` tags that keep SDFormat from lumping a fixed joint.
KEEP_JOINT_TAGS = ('preserveFixedJoint', 'disableFixedJointLumping')


@dataclass(frozen=True)
class Lumping:
    """
    What SDFormat's lumping makes of a robot.

    :ivar kept: ``{link: mass}`` of each link that remains a body (kg), in tree order.
    :ivar undefined: The fixed joints whose lumping divides by a total mass of 0, in order.
    """

    kept: dict[str, float]
    undefined: tuple[Joint, ...]


def _kept_joints(robot: Robot) -> set[str]:
    """Names of the fixed joints a ``<gazebo>`` block keeps from lumping."""
    kept = set()
    for block in robot.gazebo:
        for child in block.children:
            if block.reference and child.tag in KEEP_JOINT_TAGS \
                    and child.text.strip().lower() in ('true', '1'):
                kept.add(block.reference)
    return kept


def lumping(robot: Robot) -> Lumping | None:
    """
    Simulate SDFormat's fixed-joint lumping on ``robot`` (see the module doc).

    :return: The bodies kept and the undefined merges; ``None`` when the links and joints are
        not one tree or a mass is not finite (other rules report those).
    """
    links = robot.link_map
    children: dict[str, list[Joint]] = {}
    child_of: set[str] = set()
    for joint in robot.joints:
        if joint.parent not in links or joint.child not in links or joint.child in child_of:
            return None
        child_of.add(joint.child)
        children.setdefault(joint.parent, []).append(joint)
    roots = [name for name in links if name not in child_of]
    if len(roots) != 1 or len(links) != len(robot.links):
        return None
    root = roots[0]
    kept_joints = _kept_joints(robot)
    mass: dict[str, float] = {}
    has_inertial: dict[str, bool] = {}
    order: list[str] = []
    undefined: list[Joint] = []
    # Post-order walk without recursion: (link, children done?).
    stack: list[tuple[str, bool]] = [(root, False)]
    seen: set[str] = set()
    while stack:
        name, done = stack.pop()
        if not done:
            if name in seen:
                return None
            seen.add(name)
            inertial = links[name].inertial
            mass[name] = inertial.mass if inertial is not None else 0.0
            if not math.isfinite(mass[name]):
                return None
            has_inertial[name] = inertial is not None
            order.append(name)
            stack.append((name, True))
            for joint in sorted(children.get(name, ()), key=lambda item: item.name, reverse=True):
                stack.append((joint.child, False))
            continue
        for joint in sorted(children.get(name, ()), key=lambda item: item.name):
            lumped = (joint.joint_type == 'fixed' and joint.name not in kept_joints
                      and not (name == root and name == 'world'))
            if not lumped or not has_inertial[joint.child]:
                continue
            if mass[name] + mass[joint.child] == 0:
                undefined.append(joint)
            mass[name] += mass[joint.child]
            has_inertial[name] = True
            has_inertial[joint.child] = False
            mass[joint.child] = -1.0  # merged away
    if len(seen) != len(links):
        return None
    merged = {joint.child for name in order for joint in children.get(name, ())
              if joint.joint_type == 'fixed' and joint.name not in kept_joints
              and not (name == root and name == 'world')}
    kept = {name: max(mass[name], 0.0) for name in order if name not in merged}
    return Lumping(kept, tuple(undefined))


@check(codes=(MASSLESS_LUMP, ROOT_MASSLESS))
def check_gazebo_lumping(ctx: CheckContext) -> Iterator[Finding]:
    """Report lumping that divides by zero mass, and a massless static body Gazebo drops."""
    result = lumping(ctx.robot)
    if result is None:
        return
    for joint in result.undefined:
        yield ctx.finding(MASSLESS_LUMP, f'joint:{joint.name}',
                          f'fixed joint "{joint.name}" welds "{joint.child}" (mass 0) to '
                          f'"{joint.parent}" (no mass so far): Gazebo lumps them into a body of '
                          'mass 0 and refuses the file',
                          joint.location,
                          f'remove the <inertial> of massless frame links (a frame needs '
                          f'none) or give "{joint.child}" its real mass')
    moving = {joint.child for joint in ctx.robot.joints if joint.joint_type != 'fixed'}
    links = ctx.robot.link_map
    for name, mass in result.kept.items():
        if mass > GZ_MASS_EPSILON or name in moving or name == 'world':
            continue
        yield ctx.finding(ROOT_MASSLESS, f'link:{name}',
                          f'link "{name}" is a static body without mass ({mass:g} kg with the '
                          'links welded to it): Gazebo drops it and everything attached to it',
                          links[name].location,
                          f'to fix the robot in place (what mass 0 means to pybullet), add a '
                          f'root link "world" and a fixed joint from it to "{name}"; otherwise '
                          'give it its real mass')
