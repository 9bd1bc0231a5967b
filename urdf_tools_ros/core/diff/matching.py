"""
Which link and joint of the old description is which of the new one: by name, then by structure.

An unmatched joint is renamed when its parent matches the new joint's parent and its child
matches, or its ``joint_type``, ``origin`` and ``axis`` are the same, or it is the one joint of
its type left under that parent on both sides. Children of matched joints and the roots match.
Repeated until nothing more matches, so ``prefix:=r1_`` renames every link and joint.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.robot import Joint, Robot


@dataclass(frozen=True)
class Matching:
    """
    Old names to new names of the links and joints both descriptions have.

    :ivar links: ``{old link: new link}``; a renamed link maps to another name.
    :ivar joints: ``{old joint: new joint}``.
    """

    links: dict[str, str]
    joints: dict[str, str]

    def link(self, name: str) -> str:
        """The new name of old link ``name`` (``name`` itself when it has no match)."""
        return self.links.get(name, name)

    def joint(self, name: str) -> str:
        """The new name of old joint ``name`` (``name`` itself when it has no match)."""
        return self.joints.get(name, name)

    def renamed(self) -> dict[str, str]:
        """``{old name: new name}`` of every renamed link and joint."""
        return {old: new for table in (self.links, self.joints)
                for old, new in table.items() if old != new}


def _roots(robot: Robot) -> list[str]:
    children = {joint.child for joint in robot.joints}
    return [name for name in robot.link_map if name not in children]


def _same_place(old: Joint, new: Joint) -> bool:
    return (old.joint_type == new.joint_type and old.origin == new.origin
            and old.axis == new.axis)


class _Matcher:
    """One matching run: the tables grow until nothing more matches."""

    def __init__(self, old: Robot, new: Robot) -> None:
        self.old, self.new = old, new
        self.links = {name: name for name in old.link_map if name in new.link_map}
        self.joints = {name: name for name in old.joint_map if name in new.joint_map}
        self.new_links = set(self.links.values())
        self.new_joints = set(self.joints.values())

    def pair_links(self, old: str, new: str) -> bool:
        if old in self.links or new in self.new_links:
            return False
        if old not in self.old.link_map or new not in self.new.link_map:
            return False
        self.links[old] = new
        self.new_links.add(new)
        return True

    def pair_joints(self, old: Joint, new: Joint) -> None:
        self.joints[old.name] = new.name
        self.new_joints.add(new.name)

    def children_of_matched_joints(self) -> bool:
        progress = False
        for old_name, new_name in list(self.joints.items()):
            old, new = self.old.joint_map[old_name], self.new.joint_map[new_name]
            progress |= self.pair_links(old.child, new.child)
            progress |= self.pair_links(old.parent, new.parent)
        return progress

    def joints_by_structure(self) -> bool:
        progress = False
        old_free = [joint for joint in self.old.joints
                    if joint.name not in self.joints and joint.parent in self.links]
        for old in old_free:
            if old.name in self.joints:
                continue
            parent = self.links[old.parent]
            candidates = [joint for joint in self.new.joints
                          if joint.name not in self.new_joints and joint.parent == parent]
            child = self.links.get(old.child)
            chosen = next((joint for joint in candidates if child is not None
                           and joint.child == child), None)
            if chosen is None:
                chosen = next((joint for joint in candidates if _same_place(old, joint)), None)
            if chosen is None:
                typed = [joint for joint in candidates if joint.joint_type == old.joint_type]
                siblings = [joint for joint in old_free if joint.name not in self.joints
                            and joint.parent == old.parent
                            and joint.joint_type == old.joint_type]
                if len(typed) == 1 and len(siblings) == 1:
                    chosen = typed[0]
            if chosen is not None:
                self.pair_joints(old, chosen)
                progress = True
        return progress


def match(old: Robot, new: Robot) -> Matching:
    """
    Match the links and joints of two models by name, then by their place in the tree.

    :return: The matched names; an old element not in it was removed, a new one not in it added.
    """
    matcher = _Matcher(old, new)
    old_roots, new_roots = _roots(old), _roots(new)
    if len(old_roots) == 1 and len(new_roots) == 1:
        matcher.pair_links(old_roots[0], new_roots[0])
    while matcher.children_of_matched_joints() | matcher.joints_by_structure():
        pass
    return Matching(dict(matcher.links), dict(matcher.joints))
