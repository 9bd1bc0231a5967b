"""
The kinematic tree of a robot model: root link, parent/child maps, topological order, chains.

A URDF is a tree of links joined by joints: exactly one link (the root) is the child of no
joint, every other link is the child of exactly one joint, and every joint names links that
exist (URDF spec, robot/joint; urdfdom ``initTree``/``initRoot``). :func:`analyze_tree` returns
every way a model breaks that as :class:`~urdf_tools_ros.core.findings.Finding` errors, without
raising (for the checker);
:class:`KinematicTree` refuses such a model with :class:`KinematicTreeError`.

Order: :attr:`KinematicTree.links` is depth-first pre-order from the root, the children of a
link taken in the file order of their joints; every link comes after its parent.
:attr:`KinematicTree.joints` is in the same order (each joint at the place of its child link).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import KinematicTreeError, UnknownLinkError
from ..findings import Finding, Severity
from ..location import SourceLocation
from ..model.robot import Joint, Robot

__all__ = ['Chain', 'KinematicTree', 'analyze_tree']


def _problem(code: str, element: str, message: str,
             location: SourceLocation | None = None) -> Finding:
    """A structural problem as a finding: always an error (the checker's tree rules)."""
    return Finding(code, Severity.ERROR, element, message, location)


def _where(location: SourceLocation | None) -> str:
    return f'{location}: ' if location is not None else ''


def _joint_problems(robot: Robot, names: set[str],
                    problems: list[Finding]) -> dict[str, Joint]:
    """
    Report joints with missing or equal links; return the first parent joint of each link.

    A joint without a parent or child name is the reader's finding (``attribute-missing``): it
    is left out here, not reported again as naming a link that does not exist.
    """
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
    ``link-multiple-parents`` (each at the joint), ``no-root-link``, ``multiple-root-links``
    (at the robot) and ``kinematic-cycle`` (once per cycle, at its first joint in file order).
    A robot without links gives no problem here (the checker's ``robot-no-links`` covers it).
    A link or joint without a name, or a joint without a parent or child, is the reader's
    ``attribute-missing`` finding and takes no part here: one cause, one finding.

    :param robot: The model.
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


@dataclass(frozen=True, slots=True)
class Chain:
    """
    The path between two links through their lowest common ancestor ``base``.

    ``T_source_target = inverse(T_base_source) @ T_base_target``.

    :ivar source: The link the chain starts at.
    :ivar target: The link the chain ends at.
    :ivar base: The lowest common ancestor of both.
    :ivar up: Joints from ``source`` up to ``base`` (each traversed child to parent).
    :ivar down: Joints from ``base`` down to ``target`` (each traversed parent to child).
    """

    source: str
    target: str
    base: str
    up: tuple[Joint, ...]
    down: tuple[Joint, ...]

    @property
    def joints(self) -> tuple[Joint, ...]:
        """Every joint on the path, ``up`` then ``down``."""
        return self.up + self.down


class KinematicTree:
    """
    The link/joint tree of a valid robot model.

    :ivar robot: The model.
    :ivar root: Name of the root link.
    :ivar links: Link names, depth-first pre-order from the root (see module doc).
    :ivar joints: Joints in the same topological order (parent side before child side).
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
        depth = {self.root: 0}
        stack = [self.root]
        while stack:
            link = stack.pop()
            order.append(link)
            for joint in reversed(self._children[link]):
                depth[joint.child] = depth[link] + 1
                stack.append(joint.child)
        self.links: tuple[str, ...] = tuple(order)
        self.joints: tuple[Joint, ...] = tuple(self._parent_joint[link] for link in order[1:])
        self._depth = depth

    def _check_link(self, link: str) -> None:
        if link not in self._depth:
            raise UnknownLinkError(f'robot "{self.robot.name}" has no link "{link}"')

    def joint(self, name: str) -> Joint:
        """
        Return the joint called ``name``.

        :raises UnknownJointError: if there is none.
        """
        return self.robot.joint(name)

    def parent_joint(self, link: str) -> Joint | None:
        """
        Return the joint whose child is ``link``; ``None`` for the root.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        self._check_link(link)
        return self._parent_joint.get(link)

    def parent_link(self, link: str) -> str | None:
        """
        Return the parent link of ``link``; ``None`` for the root.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        joint = self.parent_joint(link)
        return None if joint is None else joint.parent

    def child_joints(self, link: str) -> tuple[Joint, ...]:
        """
        Return the joints whose parent is ``link``, in file order.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        self._check_link(link)
        return tuple(self._children[link])

    def child_links(self, link: str) -> tuple[str, ...]:
        """
        Return the child links of ``link``, in the file order of their joints.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        return tuple(joint.child for joint in self.child_joints(link))

    def depth(self, link: str) -> int:
        """
        Return the number of joints between the root and ``link`` (0 for the root).

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        self._check_link(link)
        return self._depth[link]

    def ancestors(self, link: str) -> tuple[str, ...]:
        """
        Return the links from ``link`` up to the root, both included.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        self._check_link(link)
        result = [link]
        while result[-1] in self._parent_joint:
            result.append(self._parent_joint[result[-1]].parent)
        return tuple(result)

    def chain(self, source: str, target: str) -> Chain:
        """
        Return the path of joints from ``source`` to ``target``.

        :raises UnknownLinkError: if either link is not in the tree.
        """
        up_links = self.ancestors(source)
        down_links = self.ancestors(target)
        common = set(up_links).intersection(down_links)
        base = next(link for link in up_links if link in common)
        up = tuple(self._parent_joint[link] for link in up_links[:up_links.index(base)])
        down = tuple(self._parent_joint[link]
                     for link in reversed(down_links[:down_links.index(base)]))
        return Chain(source, target, base, up, down)

    def subtree(self, link: str) -> tuple[str, ...]:
        """
        Return ``link`` and every link below it, in the tree's depth-first order.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        self._check_link(link)
        result: list[str] = []
        stack = [link]
        while stack:
            current = stack.pop()
            result.append(current)
            stack.extend(joint.child for joint in reversed(self._children[current]))
        return tuple(result)

    def subtree_joints(self, link: str) -> tuple[Joint, ...]:
        """
        Return the joints below ``link``, in the tree's depth-first order.

        :raises UnknownLinkError: if ``link`` is not in the tree.
        """
        return tuple(self._parent_joint[child] for child in self.subtree(link)[1:])
