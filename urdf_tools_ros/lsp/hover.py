"""
Hover: what the model, the xacro source and the package locator say about a position.

* a ``<joint>`` (or one a ``parent``, ``child``, ``mimic`` or ``reference`` names): its type,
  parent → child, axis, limits, mimic;
* a ``<link>``: its mass, centre of mass, principal moments and pose at zero in the root frame;
* ``${name}``: the ``<xacro:property>`` value as written, or the macro parameter it is;
  ``$(arg name)``: the value the entry run gave it, else the ``<xacro:arg>`` default;
* ``$(find pkg)`` and ``package://`` URIs: the path they resolve to, with the run's locator.

The values are the last check's (:class:`~.checking.RunResult`); an element a macro body
writes shows each expansion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import math
import os

import numpy as np

from urdf_tools_ros.core.model.robot import Joint, Link, Robot
from .checking import RunResult
from .ranges import Span, text_index
from .symbols import (all_definitions, enclosing, macro_at, model_elements, named_reference,
                      referenced, resolve_filename, run_files, Token, token_at, visible)
from ..core.errors import RobotDescriptionError
from ..core.kinematics.inertia import format_number, principal_moments
from ..core.transforms import rotation_to_rpy

#: Expansions of one macro-written element shown; the others are counted.
MAX_SHOWN = 4
_POSES: list[tuple[Robot, str, dict[str, np.ndarray]]] = []


@dataclass(frozen=True)
class HoverText:
    """A hover's Markdown and the range of the text it is about."""

    markdown: str
    span: Span


def _number(value: float) -> str:
    return format_number(float(value), 4)


def _vector(values: Iterable[float]) -> str:
    return '(' + ', '.join(_number(value) for value in values) + ')'


def _poses(robot: Robot) -> tuple[str, dict[str, np.ndarray]] | None:
    """The root and ``{link: T_root_link}`` at zero, the last robot's kept."""
    if _POSES and _POSES[0][0] is robot:
        return _POSES[0][1], _POSES[0][2]
    from ..core.kinematics import KinematicModel
    try:
        model = KinematicModel(robot)
        poses = model.link_poses()
    except (RobotDescriptionError, ValueError):
        return None
    _POSES[:] = [(robot, model.root, poses)]
    return model.root, poses


def describe_joint(joint: Joint) -> str:
    """A joint's type, parent → child, axis, limits and mimic, as Markdown."""
    lines = [f'**joint** `{joint.name}` ({joint.joint_type})',
             f'`{joint.parent}` → `{joint.child}`']
    if joint.is_moving:
        lines.append(f'axis {_vector(joint.axis)}')
    limit = joint.limit
    if limit is not None and joint.is_single_dof:
        if joint.joint_type == 'prismatic':
            lines.append(f'limits {_number(limit.lower)} … {_number(limit.upper)} m')
            units = ('N', 'm/s')
        else:
            if joint.joint_type == 'revolute':
                lines.append(f'limits {_number(limit.lower)} … {_number(limit.upper)} rad '
                             f'({_number(math.degrees(limit.lower))}° … '
                             f'{_number(math.degrees(limit.upper))}°)')
            units = ('N·m', 'rad/s')
        if limit.effort is not None:
            lines.append(f'effort {_number(limit.effort)} {units[0]}')
        if limit.velocity is not None:
            lines.append(f'velocity {_number(limit.velocity)} {units[1]}')
    if joint.mimic is not None:
        mimic = joint.mimic
        lines.append(f'mimic `{mimic.joint}`: × {_number(mimic.multiplier)} '
                     f'+ {_number(mimic.offset)}')
    return '  \n'.join(lines)


def describe_link(link: Link, robot: Robot | None) -> str:
    """A link's mass, centre of mass, principal moments and pose at zero, as Markdown."""
    lines = [f'**link** `{link.name}`']
    inertial = link.inertial
    if inertial is None:
        lines.append('no `<inertial>`')
    else:
        moments = principal_moments(inertial.inertia)
        lines += [f'mass {_number(inertial.mass)} kg',
                  f'centre of mass {_vector(inertial.origin.xyz)} m in the link frame',
                  f'principal moments {_vector(moments)} kg·m²']
    found = _poses(robot) if robot is not None else None
    if found is not None and link.name in found[1]:
        root, poses = found
        pose = poses[link.name]
        lines.append(f'pose at zero in `{root}`: xyz {_vector(pose[:3, 3])} m, '
                     f'rpy {_vector(rotation_to_rpy(pose[:3, :3]))} rad')
    return '  \n'.join(lines)


def describe(items: Sequence[Joint | Link], robot: Robot | None) -> str:
    """The joints or links of one element (each expansion), as Markdown."""
    shown = [describe_joint(item) if isinstance(item, Joint) else describe_link(item, robot)
             for item in items[:MAX_SHOWN]]
    if len(items) > MAX_SHOWN:
        shown.append(f'and {len(items) - MAX_SHOWN} more expansions of this element')
    return '\n\n---\n\n'.join(shown)


def _token_hover(token: Token, result: RunResult | None, path: str,
                 read: Callable[[str], str | None]) -> str | None:
    locate = result.locate if result is not None else None
    if token.kind == 'find':
        share = locate(token.text) if locate is not None else None
        return f'`$(find {token.text})` → `{share}`' if share else \
            f'`$(find {token.text})`: package not found'
    if token.kind == 'package':
        resolved = resolve_filename(token.text, path, locate)
        return f'`{token.text}` → `{resolved}`' if resolved and os.path.exists(resolved) else \
            f'`{token.text}`: not found'
    found = all_definitions(run_files(result, path), read)
    if token.kind == 'arg':
        given = dict(result.run.args) if result is not None else {}
        lines: list[str] = [f'**arg** `{token.text}`']
        if token.text in given:
            lines.append(f'`{given[token.text]}` in this check (an argument of the entry run)')
        for item in visible(found, 'arg', token.text, None):
            written = f'default `{item.value}`' if item.value is not None else 'no default'
            lines.append(f'{written} ({item.place})')
        return '  \n'.join(lines) if len(lines) > 1 else None
    here = macro_at(found, path, token.start)
    if here is not None and token.text in here.params:
        fallback = here.param_default(token.text)
        return (f'**parameter** `{token.text}` of macro `{here.name}`' +
                (f', default `{fallback}`' if fallback is not None else ''))
    lines = []
    for item in visible(found, 'property', token.text, here):
        value = f'= `{item.value}`' if item.value is not None else '(a block)'
        lines.append(f'**property** `{item.name}` {value} ({item.place})')
    if not lines:
        return None
    return '  \n'.join(lines + ['as written: xacro evaluates the expression when it loads'])


def hover(result: RunResult | None, path: str, text: str, offset: int,
          read: Callable[[str], str | None]) -> HoverText | None:
    """
    What to show for ``offset`` of the file ``path`` whose text is ``text``, or ``None``.

    :param result: The last run that covers ``path`` (``None``: none yet, only the xacro
        source's names are shown).
    :param read: The text of another file of the run (the editor's when open), ``None``
        when it cannot be read.
    """
    index = text_index(text)
    token = token_at(text, offset)
    if token is not None:
        shown = _token_hover(token, result, path, read)
        return HoverText(shown, index.span(token.start, token.end)) if shown else None
    chain = enclosing(index.elements, offset)
    if not chain:
        return None
    robot = result.robot if result is not None else None
    reference = named_reference(chain[-1], offset)
    if reference is not None:
        items = referenced(robot, path, chain, reference)
        span = index.span(reference[1].start, reference[1].end)
        return HoverText(describe(items, robot), span) if items else None
    element = next((item for item in reversed(chain) if item.tag in ('joint', 'link')), None)
    if element is None:
        return None
    items = model_elements(robot, path, element)
    if not items:
        return None
    name = element.attribute('name')
    span = index.span(name.start, name.end) if name is not None else \
        index.span(element.start, element.start + 1 + len(element.tag))
    return HoverText(describe(items, robot), span)
