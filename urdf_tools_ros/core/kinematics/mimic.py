"""
Mimic relations resolved at load: each mimic joint folded onto the actuated joint it follows.

URDF spec, joint/mimic: ``position = multiplier * position(joint) + offset``. A chain ``a``
mimics ``b`` mimics ``c`` folds onto ``c``: ``q_a = (m_a m_b) q_c + (m_a o_b + o_a)``, as
joint_state_publisher folds it. Velocity is ``multiplier * v_source``; effort is copied, as
joint_state_publisher does. Only revolute, continuous and prismatic joints take part: a
``<mimic>`` on a fixed joint is ignored, on a floating or planar joint refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import MimicError
from ..findings import Finding, Severity
from ..location import SourceLocation
from ..model.robot import Joint, Robot, SINGLE_DOF_JOINT_TYPES

__all__ = ['ResolvedMimic', 'analyze_mimic', 'resolve_mimic']


def _problem(code: str, joint: str, message: str,
             location: SourceLocation | None = None) -> Finding:
    """A ``<mimic>`` that cannot be resolved, as an error finding at ``joint:<name>``."""
    return Finding(code, Severity.ERROR, f'joint:{joint}', message, location)


@dataclass(frozen=True, slots=True)
class ResolvedMimic:
    """
    A mimic joint folded onto its actuated source: ``q = multiplier * q_source + offset``.

    :ivar joint: The mimic joint.
    :ivar source: The actuated (non-mimic) joint at the end of the chain.
    :ivar multiplier: Product of the multipliers along the chain.
    :ivar offset: Composed offset along the chain, rad or m.
    :ivar chain: The joints from ``joint`` to ``source``, both included.
    """

    joint: str
    source: str
    multiplier: float
    offset: float
    chain: tuple[str, ...]

    def position(self, source_position: float) -> float:
        """Position of the mimic joint, rad or m: ``multiplier * source_position + offset``."""
        return self.multiplier * source_position + self.offset

    def velocity(self, source_velocity: float) -> float:
        """Velocity of the mimic joint, rad/s or m/s: ``multiplier * source_velocity``."""
        return self.multiplier * source_velocity

    def effort(self, source_effort: float) -> float:
        """Effort of the mimic joint, N·m or N: the source's, unchanged (see module doc)."""
        return source_effort


def _takes_part(joint: Joint) -> bool:
    return joint.mimic is not None and joint.joint_type != 'fixed'


def _direct_problem(joint: Joint, name: str, joints: dict[str, Joint]) -> Finding | None:
    """The problem of ``joint``'s own ``<mimic joint=name>``, not following the chain."""
    label = f'joint "{joint.name}" ({joint.joint_type})'
    if joint.joint_type not in SINGLE_DOF_JOINT_TYPES:
        return _problem('mimic-unsupported-joint', joint.name,
                        f'{label}: only revolute, continuous and prismatic joints can mimic',
                        joint.location)
    if name == joint.name:
        return _problem('mimic-self', joint.name, f'{label}: mimics itself', joint.location)
    source = joints.get(name)
    if source is None:
        return _problem('mimic-missing-joint', joint.name,
                        f'{label}: mimics joint "{name}", which does not exist',
                        joint.location)
    if source.joint_type == 'fixed':
        return _problem('mimic-fixed-joint', joint.name,
                        f'{label}: mimics joint "{name}", which is fixed', joint.location)
    if source.joint_type not in SINGLE_DOF_JOINT_TYPES:
        return _problem('mimic-unsupported-joint', joint.name,
                        f'{label}: mimics joint "{name}" of type "{source.joint_type}"; a '
                        'source must be revolute, continuous or prismatic', joint.location)
    return None


def _resolve(robot: Robot) -> tuple[dict[str, ResolvedMimic], list[Finding]]:
    joints = robot.joint_map
    problems: list[Finding] = []
    broken: set[str] = set()
    for joint in robot.joints:
        if joint.mimic is not None and _takes_part(joint) and joints[joint.name] is joint:
            problem = _direct_problem(joint, joint.mimic.joint, joints)
            if problem is not None:
                problems.append(problem)
                broken.add(joint.name)
    resolved: dict[str, ResolvedMimic] = {}
    in_cycle: set[str] = set()
    for joint in robot.joints:
        if not _takes_part(joint) or joint.name in broken or joints[joint.name] is not joint:
            continue
        chain = [joint.name]
        multiplier, offset = 1.0, 0.0
        current = joint
        while current.mimic is not None and current.joint_type != 'fixed':
            offset += multiplier * current.mimic.offset
            multiplier *= current.mimic.multiplier
            current = joints[current.mimic.joint]
            if current.name in broken or current.name in in_cycle:
                break
            if current.name in chain:
                loop = chain[chain.index(current.name):]
                if not in_cycle.intersection(loop):
                    order = {j.name: n for n, j in enumerate(robot.joints)}
                    first = joints[min(loop, key=order.__getitem__)]
                    path = ' -> '.join(f'"{name}"' for name in loop + [current.name])
                    problems.append(_problem('mimic-cycle', first.name,
                                             f'mimic joints form a cycle: {path}',
                                             first.location))
                in_cycle.update(loop)
                break
            chain.append(current.name)
        else:
            resolved[joint.name] = ResolvedMimic(joint.name, current.name, multiplier, offset,
                                                 tuple(chain))
    return resolved, problems


def analyze_mimic(robot: Robot) -> list[Finding]:
    """
    Find every ``<mimic>`` that cannot be resolved, without raising.

    :return: Error findings at ``joint:<mimic joint>``: each joint's own problem in file order,
        then each cycle once, at its first joint.
    """
    return _resolve(robot)[1]


def resolve_mimic(robot: Robot) -> dict[str, ResolvedMimic]:
    """
    Fold every mimic chain onto its actuated source.

    :return: ``{mimic joint name: ResolvedMimic}`` in file order.
    :raises MimicError: on the first problem :func:`analyze_mimic` reports, with its ``code``.
    """
    resolved, problems = _resolve(robot)
    if problems:
        first = problems[0]
        where = f'{first.location}: ' if first.location is not None else ''
        raise MimicError(f'{where}{first.message}', first.code, finding=first)
    return resolved
