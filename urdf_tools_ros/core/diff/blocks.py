"""
``<ros2_control>``, ``<gazebo>`` and ``<transmission>`` blocks compared as canonical XML.

Read from the description's URDF XML (the model keeps only part of them). Each top-level block
is keyed by its ``name`` (``reference`` for gazebo, ``''`` for the robot's own) and written one
element per line: attributes sorted, comments dropped, text stripped, a file of a ROS package as
``package://`` (two checkouts alike). In the old block a renamed link's or joint's old name
becomes the new one, so a rename alone changes no block.
"""

from __future__ import annotations

from collections.abc import Mapping
import difflib
from typing import Any

from .git import package_uri
from .records import BlockChange
from ..source.loader import parse_xml

#: The block tags compared, each with the attribute that keys it.
BLOCK_TAGS = {'ros2_control': 'name', 'gazebo': 'reference', 'transmission': 'name'}


def canonical_lines(element: Any, renamed: Mapping[str, str] | None = None,
                    depth: int = 0) -> list[str]:
    """
    An lxml element as canonical lines (``<tag a="1">text``), children indented by two spaces.

    :param renamed: ``{old name: new name}`` applied to whole attribute values and texts.
    """
    table = renamed or {}
    if not isinstance(element.tag, str):  # a comment or processing instruction
        return []
    attributes = ''.join(f' {key}="{_value(value, table)}"'
                         for key, value in sorted(element.attrib.items()))
    text = (element.text or '').strip()
    lines = ['  ' * depth + f'<{element.tag}{attributes}>' + _value(text, table)]
    for child in element:
        lines.extend(canonical_lines(child, table, depth + 1))
    return lines


def _value(text: str, renamed: Mapping[str, str]) -> str:
    """A renamed name, a file of a package as ``package://`` (:func:`~.git.package_uri`)."""
    return renamed.get(text, package_uri(text))


def blocks(xml: str, filename: str = '<string>',
           renamed: Mapping[str, str] | None = None) -> dict[tuple[str, str], list[str]]:
    """
    The blocks of a URDF as canonical lines, keyed by ``(tag, key)`` (repeats: ``key#2`` ...).

    :param renamed: Applied as in :func:`canonical_lines`, also to the keys.
    :raises DescriptionLoadError: if ``xml`` is not a ``<robot>`` document.
    """
    root, _ = parse_xml(xml, filename)
    table = renamed or {}
    result: dict[tuple[str, str], list[str]] = {}
    for child in root:
        if not isinstance(child.tag, str) or child.tag not in BLOCK_TAGS:
            continue
        key = child.get(BLOCK_TAGS[child.tag], '')
        key = table.get(key, key)
        unique, count = key, 1
        while (child.tag, unique) in result:
            count += 1
            unique = f'{key}#{count}'
        result[(child.tag, unique)] = canonical_lines(child, table)
    return result


def compare_blocks(old_xml: str, new_xml: str, renamed: Mapping[str, str] | None = None,
                   old_name: str = '<old>', new_name: str = '<new>') -> list[BlockChange]:
    """
    The blocks added, removed or changed between two URDF documents.

    :param renamed: ``{old name: new name}`` of renamed links and joints.
    :return: Removed and changed blocks in the old order, then added ones; each with the
        unified diff of its canonical lines. One block of a tag gone and one come is changed.
    """
    old, new = blocks(old_xml, old_name, renamed), blocks(new_xml, new_name)
    removed = [key for key in old if key not in new]
    added = [key for key in new if key not in old]
    pairs = {key: key for key in old if key in new}
    for tag in BLOCK_TAGS:  # one block of a tag renamed: the same block, changed
        gone = [key for key in removed if key[0] == tag]
        come = [key for key in added if key[0] == tag]
        if len(gone) == 1 and len(come) == 1:
            pairs[gone[0]] = come[0]
    changes = []
    for key, lines in old.items():
        other = pairs.get(key)
        if other is None:
            changes.append(BlockChange(*key, 'removed', tuple('-' + line for line in lines)))
        elif new[other] != lines:
            diff = [line for line in difflib.unified_diff(lines, new[other], lineterm='', n=1)
                    if not line.startswith(('---', '+++'))]
            changes.append(BlockChange(*other, 'changed', tuple(diff)))
    paired = set(pairs.values())
    for key, lines in new.items():
        if key not in paired:
            changes.append(BlockChange(*key, 'added', tuple('+' + line for line in lines)))
    return changes
