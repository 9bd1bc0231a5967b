"""
The kinematic tree of a robot model: root link, parent/child maps, topological order.

One root link, every other link the child of exactly one joint, every joint naming links that
exist (URDF spec, robot/joint; urdfdom ``initTree``/``initRoot``). :func:`analyze_tree` returns
each violation as a finding; :class:`KinematicTree` refuses it with :class:`KinematicTreeError`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import KinematicTreeError, UnknownLinkError
from ..findings import Finding, Severity
from ..location import SourceLocation
from ..model.robot import Joint, Robot

__all__ = ['KinematicTree', 'analyze_tree']


def _problem(code: str, element: str, message: str,
             location: SourceLocation | None = None) -> Finding:
    """A structural problem as a finding: always an error (the checker's tree rules)."""
    return Finding(code, Severity.ERROR, element, message, location)


def _where(location: SourceLocation | None) -> str:
    return f'{location}: ' if location is not None else ''


def _joint_problems(robot: Robot, names: set[str],
                    problems: list[Finding]) -> dict[str, Joint]:
    """Report joints with missing or equal links; return the first parent joint of each link."""
    parent_of: dict[str, Joint] = {}
    for joint in robot.joints:
        if not joint.parent or not joint.child:
            continue
        element, label = f'joint:{joint.name}', f'joint "{joint.name}"'
        usable = True
        if joint.parent == joint.child:
            problems.append(_problem(
                'joint-parent-equals-child', element,
                f'{label}: parent and child are the same link "{joint.child}"', joint.location))
            usable = False
        if joint.parent not in names:
            problems.append(_problem(
                'joint-parent-missing', element,
                f'{label}: parent link "{joint.parent}" does not exist', joint.location))
        if joint.child not in names:
            problems.append(_problem(
                'joint-child-missing', element,
                f'{label}: child link "{joint.child}" does not exist', joint.location))
            usable = False
        if not usable:
            continue
        first = parent_of.setdefault(joint.child, joint)
        if first is not joint:
            problems.append(_problem(
                'link-multiple-parents', element,
                f'{label}: link "{joint.child}" is already the child of joint "{first.name}"',
                joint.location))
    return parent_of


def _cycle_problems(robot: Robot, link_order: list[str], parent_of: Mapping[str, Joint],
                    problems: list[Finding]) -> None:
    """Report each cycle of parent links once, at its first joint in file order."""
    index = {joint.name: number for number, joint in enumerate(robot.joints)}
    settled: set[str] = set()
    for start in link_order:
        path: list[str] = []
        on_path: set[str] = set()
        current = start
        while current in parent_of and current not in settled and current not in on_path:
            path.append(current)
            on_path.add(current)
            current = parent_of[current].parent
        if current in on_path:
            loop = [parent_of[link] for link in path[path.index(current):]]
            first = min(loop, key=lambda joint: index[joint.name])
            names = ' -> '.join(f'"{joint.name}"' for joint in reversed(loop))
            problems.append(_problem(
                'kinematic-cycle', f'joint:{first.name}',
                f'joints {names} form a cycle through links '
                + ', '.join(f'"{joint.child}"' for joint in reversed(loop)), first.location))
        settled.update(path)


def analyze_tree(robot: Robot) -> list[Finding]:
    """
    Find every structural problem of the link/joint graph, without raising.

    Codes: ``joint-parent-equals-child``, ``joint-parent-missing``, ``joint-child-missing``,
    ``link-multiple-parents`` (at the joint), ``no-root-link``, ``multiple-root-links`` (at the
    robot) and ``kinematic-cycle`` (once per cycle, at its first joint in file order). Unnamed
    elements and a robot without links are other rules' findings.

    :return: The problems in that order of kinds, each kind in file order.
    """
    problems: list[Finding] = []
    link_order = list(dict.fromkeys(link.name for link in robot.links if link.name))
    parent_of = _joint_problems(robot, set(link_order), problems)
    if link_order:
        roots = [link for link in link_order if link not in parent_of]
        parent_missing = any(problem.code == 'joint-parent-missing' for problem in problems)
        if not roots and not parent_missing:  # else the link under the missing one is the root
            problems.append(_problem(
                'no-root-link', 'robot',
                f'robot "{robot.name}": every link is the child of a joint, so there is no root '
                'link', robot.location))
        elif len(roots) > 1:
            problems.append(_problem(
                'multiple-root-links', 'robot',
                f'robot "{robot.name}": {len(roots)} links are the child of no joint: '
                + ', '.join(f'"{link}"' for link in roots), robot.location))
    _cycle_problems(robot, link_order, parent_of, problems)
    return problems


class KinematicTree:
    """
    The link/joint tree of a valid robot model.

    :ivar robot: The model.
    :ivar root: Name of the root link.
    :ivar links: Link names, depth-first pre-order from the root, children in joint file order.
    :ivar joints: Joints in the same order (each at the place of its child link).
    :raises KinematicTreeError: if :func:`analyze_tree` finds a problem, or names repeat.
    """

    def __init__(self, robot: Robot) -> None:
        problems = analyze_tree(robot)
        if not robot.links:
            problems.append(_problem('no-root-link', 'robot',
                                     f'robot "{robot.name}" has no links', robot.location))
        for kind, names in (('link', [link.name for link in robot.links]),
                            ('joint', [joint.name for joint in robot.joints])):
            if len(set(names)) != len(names):
                twice = sorted({name for name in names if names.count(name) > 1})
                problems.append(_problem(f'{kind}-duplicate', 'robot',
                                         f'{kind} names used twice: {twice}', robot.location))
        if problems:
            first = problems[0]
            more = f' (and {len(problems) - 1} more problems)' if len(problems) > 1 else ''
            raise KinematicTreeError(f'{_where(first.location)}{first.message}{more}',
                                     finding=first)
        self.robot = robot
        self._parent_joint: dict[str, Joint] = {joint.child: joint for joint in robot.joints}
        self._children: dict[str, list[Joint]] = {link.name: [] for link in robot.links}
        for joint in robot.joints:
            self._children[joint.parent].append(joint)
        self.root = next(link.name for link in robot.links if link.name not in self._parent_joint)
        order: list[str] = []
        stack = [self.root]
        while stack:
            link = stack.pop()
            order.append(link)
            stack.extend(joint.child for joint in reversed(self._children[link]))
        self.links: tuple[str, ...] = tuple(order)
        self.joints: tuple[Joint, ...] = tuple(self._parent_joint[link] for link in order[1:])

    def _check_link(self, link: str) -> None:
        if link != self.root and link not in self._parent_joint:
            raise UnknownLinkError(f'robot "{self.robot.name}" has no link "{link}"')

    def joint(self, name: str) -> Joint:
        """Return the joint called ``name``; raises :exc:`UnknownJointError` if there is none."""
        return self.robot.joint(name)

    def parent_joint(self, link: str) -> Joint | None:
        """The joint whose child is ``link`` (``None``: root); :exc:`UnknownLinkError` if none."""
        self._check_link(link)
        return self._parent_joint.get(link)

    def parent_link(self, link: str) -> str | None:
        """Return the parent link of ``link`` (``None`` for the root), as :meth:`parent_joint`."""
        joint = self.parent_joint(link)
        return None if joint is None else joint.parent
