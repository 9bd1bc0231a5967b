"""
Two robot descriptions compared as robots: :func:`diff_descriptions`.

Links and joints are matched (:mod:`.matching`) and compared attribute by attribute
(:mod:`.elements`); matched link frames are posed by forward kinematics at the zero
configuration and the given positions; blocks are compared as canonical XML (:mod:`.blocks`);
findings by code, element and message, a moved mesh path read as its new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
import math
import re

import numpy as np

from .blocks import compare_blocks
from .elements import compare_joint, compare_link, compare_robot, moved_meshes
from .git import package_uri
from .matching import match, Matching
from .records import (DescriptionDiff, ElementChange, FindingChange, FrameMove, Tolerance,
                      ValueChange)
from ..errors import RobotDescriptionError, UnknownJointError
from ..findings import Finding
from ..source.loader import RobotDescription
from ..transforms import FloatArray


def _elements(old: RobotDescription, new: RobotDescription,
              matching: Matching) -> list[ElementChange]:
    changes = []
    for kind, table, old_names, new_names in (
            ('link', matching.links, old.robot.link_map, new.robot.link_map),
            ('joint', matching.joints, old.robot.joint_map, new.robot.joint_map)):
        for name in old_names:
            if name not in table:
                changes.append(ElementChange(kind, 'removed', name))
            elif table[name] != name:
                changes.append(ElementChange(kind, 'renamed', name, table[name]))
        matched = set(table.values())
        changes.extend(ElementChange(kind, 'added', name) for name in new_names
                       if name not in matched)
    return changes


def _values(old: RobotDescription, new: RobotDescription,
            matching: Matching) -> list[ValueChange]:
    changes = compare_robot(old.robot, new.robot)
    for name, link in old.robot.link_map.items():
        if name in matching.links:
            changes.extend(compare_link(link, new.robot.link_map[matching.links[name]],
                                        old.robot, new.robot))
    for name, joint in old.robot.joint_map.items():
        if name in matching.joints:
            changes.extend(compare_joint(joint, new.robot.joint_map[matching.joints[name]],
                                         matching))
    return changes


def _rotation_angle(R_old: FloatArray, R_new: FloatArray) -> float:
    """Angle of ``R_old^T R_new`` in rad, accurate for small angles (atan2 of sin and cos)."""
    relative = R_old.T @ R_new
    sine = 0.5 * np.linalg.norm([relative[2, 1] - relative[1, 2], relative[0, 2] - relative[2, 0],
                                 relative[1, 0] - relative[0, 1]])
    cosine = 0.5 * (np.trace(relative) - 1.0)
    return float(math.atan2(sine, cosine))


def _poses(description: RobotDescription, positions: Mapping[str, float]
           ) -> dict[str, FloatArray]:
    from ..kinematics.forward import KinematicModel  # numpy-heavy: only when frames are compared
    model = KinematicModel(description.robot)
    usable = {name: value for name, value in positions.items()
              if name in model.variable_names or name in model.mimics}
    return model.link_poses(usable)


def _renamed(variable: str, table: Mapping[str, str]) -> str:
    """A variable (``joint`` or ``joint/x`` of a planar or floating joint) under ``table``."""
    joint, slash, part = variable.partition('/')
    return table.get(joint, joint) + slash + part


def _frames(old: RobotDescription, new: RobotDescription, matching: Matching,
            positions: Mapping[str, float] | None, tolerance: Tolerance,
            notes: list[str]) -> list[FrameMove]:
    configurations: list[tuple[str, dict[str, float], dict[str, float]]] = [('zero', {}, {})]
    if positions:
        back = {new_name: old_name for old_name, new_name in matching.joints.items()}
        configurations.append(('positions', {_renamed(name, back): value
                                             for name, value in positions.items()},
                               dict(positions)))
    moves = []
    for label, old_positions, new_positions in configurations:
        try:
            old_poses = _poses(old, old_positions)
            new_poses = _poses(new, new_positions)
        except RobotDescriptionError as exc:
            notes.append(f'link frames not compared ({label} configuration): {exc}')
            continue
        for old_name, new_name in matching.links.items():
            if old_name not in old_poses or new_name not in new_poses:
                continue
            T_root_old, T_root_new = old_poses[old_name], new_poses[new_name]
            delta = T_root_new[:3, 3] - T_root_old[:3, 3]
            distance = float(np.linalg.norm(delta))
            angle = _rotation_angle(T_root_old[:3, :3], T_root_new[:3, :3])
            if distance > tolerance.distance or angle > tolerance.angle:
                moves.append(FrameMove(new_name, label,
                                       (float(delta[0]), float(delta[1]), float(delta[2])),
                                       distance, angle))
    return moves


def _moved_meshes(old: RobotDescription, new: RobotDescription,
                  matching: Matching) -> dict[str, dict[str, str]]:
    """``{link:NAME (new name): {old mesh path: new mesh path}}`` of the matched links."""
    moved = {}
    for old_name, new_name in matching.links.items():
        paths = moved_meshes(old.robot.link_map[old_name], new.robot.link_map[new_name])
        if paths:
            moved[f'link:{new_name}'] = paths
    return moved


def _replace(text: str, table: Mapping[str, str]) -> str:
    """Every key of ``table`` in ``text`` replaced by its value at once (longest key first)."""
    if not table:
        return text
    pattern = '|'.join(re.escape(key) for key in sorted(table, key=len, reverse=True))
    return re.sub(pattern, lambda found: table[found[0]], text)


#: An absolute path (or ``file://`` URI) in a message, without trailing punctuation.
_PATH = re.compile(r'(?<![\w.:/])(?:file://)?/[^\s"]*[^\s".,;:)]')


def _finding_key(finding: Finding, renamed: Mapping[str, str], paths: Mapping[str, str],
                 moved: Mapping[str, Mapping[str, str]]) -> tuple[str, str, str]:
    kind, _, name = finding.element.partition(':')
    element = f'{kind}:{renamed.get(name, name)}' if name else finding.element
    message = finding.message
    if renamed:
        message = re.sub(r'"([^"]*)"', lambda found: f'"{renamed.get(found[1], found[1])}"',
                         message)
    message = _replace(message, moved.get(element, {}))
    for before, after in paths.items():
        message = message.replace(before, after)
    message = _PATH.sub(lambda found: package_uri(found[0]), message)  # a checkout's file
    return finding.code, element, message


def _where(finding: Finding, paths: Mapping[str, str], shown: Callable[[str], str]) -> str:
    location = finding.location
    if location is None:
        return ''
    name = location.filename
    for before, after in paths.items():
        name = name.replace(before, after)
    name = shown(name)
    return f'{name}:{location.line}' if location.line is not None else name


def _findings(old: list[Finding], new: list[Finding], renamed: Mapping[str, str],
              paths: Mapping[str, str], locations: Mapping[str, str],
              moved: Mapping[str, Mapping[str, str]],
              shown: Callable[[str], str]) -> list[FindingChange]:
    old_keys = Counter(_finding_key(finding, renamed, paths, moved) for finding in old)
    new_keys = Counter(_finding_key(finding, {}, {}, {}) for finding in new)
    changes = []
    for change, findings, keys, other in (('disappeared', old, old_keys, new_keys),
                                          ('appeared', new, new_keys, old_keys)):
        left = keys - other
        for finding in findings:
            key = _finding_key(finding, renamed, paths, moved) if change == 'disappeared' \
                else _finding_key(finding, {}, {}, {})
            if left[key] > 0:
                left[key] -= 1
                where = _where(finding, locations if change == 'disappeared' else {}, shown)
                message = key[2] if change == 'appeared' else \
                    _finding_key(finding, renamed, paths, {})[2]
                changes.append(FindingChange(change, key[0], finding.severity.value,
                                             key[1], message, where))
    return changes


def diff_descriptions(old: RobotDescription, new: RobotDescription, *,
                      positions: Mapping[str, float] | None = None,
                      tolerance: Tolerance = Tolerance(),
                      findings: bool = True,
                      old_findings: list[Finding] | None = None,
                      new_findings: list[Finding] | None = None,
                      paths: Mapping[str, str] | None = None,
                      locations: Mapping[str, str] | None = None,
                      shown: Callable[[str], str] | None = None,
                      old_label: str | None = None,
                      new_label: str | None = None) -> DescriptionDiff:
    """
    Compare two loaded descriptions as robots.

    :param positions: Joint positions (rad or m) by old or new joint name (``joint/x`` for
        planar and floating joints) at which link frames are compared besides zero.
    :param tolerance: Frame moves up to this are not reported.
    :param findings: Compare the checker's findings (default target).
    :param old_findings: The old description's findings if the caller has them.
    :param new_findings: Likewise for the new description.
    :param paths: ``{old prefix: new prefix}`` replaced in the old findings' messages (an old
        revision's temporary copy -> the work tree).
    :param locations: Likewise for the old findings' locations; default: ``paths``.
    :param shown: How a finding's file is written in its ``location``.
    :param old_label: How reports name the old description; default its filename.
    :param new_label: How reports name the new description; default its filename.
    :return: The changes; :attr:`DescriptionDiff.same` when there is none.
    :raises UnknownJointError: if ``positions`` names a joint that neither description has.
    """
    matching = match(old.robot, new.robot)
    renamed = matching.renamed()
    for variable in positions or {}:
        name = variable.partition('/')[0]  # planar and floating joints: joint/x, joint/yaw ...
        if name not in new.robot.joint_map and name not in old.robot.joint_map:
            raise UnknownJointError(f'position for joint "{name}": neither {old.filename} nor '
                                    f'{new.filename} has a joint of that name')
    notes: list[str] = []
    frames = _frames(old, new, matching, positions, tolerance, notes)
    finding_changes: list[FindingChange] = []
    if findings:
        from ..checks import check_description  # the checker only when findings are compared
        before = check_description(old) if old_findings is None else old_findings
        after = check_description(new) if new_findings is None else new_findings
        finding_changes = _findings(before, after, renamed, paths or {},
                                    paths or {} if locations is None else locations,
                                    _moved_meshes(old, new, matching),
                                    shown or (lambda name: name))
    return DescriptionDiff(
        old_label or old.filename, new_label or new.filename,
        elements=tuple(_elements(old, new, matching)),
        values=tuple(_values(old, new, matching)),
        frames=tuple(frames),
        blocks=tuple(compare_blocks(old.xml, new.xml, renamed, old.filename, new.filename)),
        findings=tuple(finding_changes),
        notes=tuple(notes),
        tolerance=tolerance)
