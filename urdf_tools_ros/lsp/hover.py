"""
Hover: what the model, the xacro source and the package locator say about a position.

* a ``<joint>`` (or one a ``parent``, ``child``, ``mimic`` or ``reference`` names): its type,
  parent → child, axis, limits, mimic;
* a ``<link>``: its mass, centre of mass, principal moments and pose at zero in the root frame;
* ``${name}`` (or a ``<xacro:property name>``): the property's value, evaluated (numbers and
  arithmetic over the properties in scope and xacro's ``math`` names, :func:`evaluate`), and its
  expression as written; or the macro parameter it is;
  ``$(arg name)``: the value the entry run gave it, else the ``<xacro:arg>`` default;
* a macro call ``<xacro:NAME`` or a ``<xacro:macro>``: its parameters with their defaults,
  where it is defined, how many calls the run's files write;
* ``$(find pkg)`` and ``package://`` URIs: the path they resolve to, with the run's locator.

The values are the last check's (:class:`~.checking.RunResult`); an element a macro body
writes shows each expansion.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import math
import operator
import os
import re

import numpy as np

from urdf_tools_ros.core.model.robot import Joint, Link, Robot
from urdf_tools_ros.core.source.scanner import tags_holding
from .checking import RunResult
from .definition import macro_name, macros_named
from .ranges import Span, text_index
from .symbols import (all_definitions, Definition, enclosing, macro_at, model_elements,
                      named_reference, referenced, resolve_filename, run_files, Token, token_at,
                      visible)
from ..core.errors import RobotDescriptionError
from ..core.kinematics.inertia import format_number, principal_moments
from ..core.transforms import rotation_to_rpy

#: Expansions of one macro-written element shown; the others are counted.
MAX_SHOWN = 4
_POSES: list[tuple[Robot, str, dict[str, np.ndarray]]] = []
#: The names xacro's expressions have from ``math`` (also as ``math.NAME``), and a few builtins.
MATH_NAMES = {**{name: value for name, value in vars(math).items() if not name.startswith('_')},
              'abs': abs, 'min': min, 'max': max, 'round': round, 'float': float, 'int': int}
_OPERATORS: dict[type, Callable[..., float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: lambda base, power: float(base) ** float(power), ast.USub: operator.neg,
    ast.UAdd: operator.pos}


class NotEvaluated(Exception):
    """A property value :func:`evaluate` does not compute; the message says why."""


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


def _arithmetic(node: ast.expr, lookup: Callable[[str], float]) -> float:
    """The value of an expression of numbers, operators, names and ``math`` functions."""
    function = MATH_NAMES.get(node.func.id if isinstance(node.func, ast.Name) else
                              node.func.attr if isinstance(node.func, ast.Attribute) else '') \
        if isinstance(node, ast.Call) and not node.keywords else None
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_arithmetic(node.left, lookup),
                                         _arithmetic(node.right, lookup))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_arithmetic(node.operand, lookup))
    if isinstance(node, ast.Name):
        return lookup(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == 'math' and isinstance(MATH_NAMES.get(node.attr), float):
        return MATH_NAMES[node.attr]
    if isinstance(node, ast.Call) and callable(function):  # float arguments: no huge integers
        return function(*(float(_arithmetic(item, lookup)) for item in node.args))
    raise NotEvaluated(f'`{ast.unparse(node)}` is not arithmetic')


def evaluate(written: str | None, lookup: Callable[[str], float]) -> float | str:
    """
    The value of a property written ``written`` (a number, a text or one ``${...}``).

    :param lookup: The value of a name the expression uses (the property in scope).
    :raises NotEvaluated: if it is not arithmetic (strings, ``$(...)``, text around ``${}``).
    """
    text = (written or '').strip()
    whole = re.fullmatch(r'\$\{([^{}]*)\}', text)
    if whole is None and '$' in text:
        raise NotEvaluated('text around an expression, or a substitution')
    if whole is None:
        try:
            return float(text)
        except ValueError:
            return text
    try:
        value = _arithmetic(ast.parse(whole.group(1).strip(), mode='eval').body, lookup)
    except SyntaxError as exc:
        raise NotEvaluated('not a Python expression') from exc
    except (ArithmeticError, TypeError, ValueError) as exc:
        raise NotEvaluated(str(exc)) from exc
    if not isinstance(value, (int, float)):
        raise NotEvaluated(f'`{whole.group(1)}` is not a real number')
    return float(value)


def _lookup(found: Sequence[Definition], here: Definition | None,
            seen: frozenset[str] = frozenset()) -> Callable[[str], float]:
    """The value of a name in the macro ``here`` (``None``: the top level): a property's."""
    def lookup(name: str) -> float:
        defined = visible(found, 'property', name, here)
        if here is not None and name in here.params:
            raise NotEvaluated(f'`{name}` is a parameter of macro `{here.name}`')
        if not defined:
            if isinstance(MATH_NAMES.get(name), float):
                return MATH_NAMES[name]
            raise NotEvaluated(f"`{name}` is not defined in the run's files")
        if name in seen:
            raise NotEvaluated(f'`{name}` is defined through itself')
        item = next((item for item in defined if item.scope is not None), defined[-1])
        value = evaluate(item.value, _lookup(found, item.scope, seen | {name}))
        if isinstance(value, str):
            raise NotEvaluated(f'`{name}` is `{value}`, not a number')
        return value
    return lookup


def _property(item: Definition, found: Sequence[Definition]) -> str:
    """A property's value (evaluated) and expression as written, as Markdown."""
    if item.value is None:
        return f'**property** `{item.name}` (a block) ({item.place})'
    try:
        value = evaluate(item.value, _lookup(found, item.scope))
        shown = f'= `{format_number(value) if isinstance(value, float) else value}`'
    except NotEvaluated as exc:
        shown = f'(not evaluated: {exc})'
    written = f'  \nwritten `{item.value}`' if '$' in item.value else ''
    return f'**property** `{item.name}` {shown} ({item.place}){written}'


def _macro_hover(name: str, result: RunResult | None, path: str,
                 read: Callable[[str], str | None]) -> str | None:
    """A macro's parameters with their defaults, where it is, how many calls the files write."""
    files = run_files(result, path)
    found = macros_named(all_definitions(files, read), name)
    calls = sum(element.tag == f'xacro:{name}' for file in files if (text := read(file))
                for element in tags_holding(text, f'<xacro:{name}'))
    lines = []
    for item in found:
        words = [f'`{word}` (block)' if word.startswith('*') else f'`{key}`' if default is None
                 else f'`{key}` = `{default}`' for word in (item.value or '').split()
                 for key in [word.partition(':=')[0].rstrip('^')]
                 for default in [item.param_default(key)]]
        lines += [f'**macro** `{item.name}` ({item.place})',
                  'parameters: ' + (', '.join(words) or 'none')]
    return '  \n'.join(lines + [f'{calls} call{"" if calls == 1 else "s"} in the run\'s files'])\
        if found else None


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
    shown = [_property(item, found) for item in visible(found, 'property', token.text, here)]
    return '\n\n'.join(shown) or None


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
    innermost, robot = chain[-1], result.robot if result is not None else None
    name, at = innermost.attribute('name'), None
    called = macro_name(innermost) or (name.value if innermost.tag == 'xacro:macro' and name
                                       else None)
    if called is not None and offset < innermost.tag_end:
        shown = _macro_hover(called, result, path, read)
        at = (name.start, name.end) if innermost.tag == 'xacro:macro' and name else \
            (innermost.start + 1, innermost.start + 1 + len(innermost.tag))
    elif innermost.tag == 'xacro:property' and name and name.start <= offset <= name.end:
        shown = _token_hover(Token('name', name.value, *(at := (name.start, name.end))),
                             result, path, read)
    if at is not None:
        return HoverText(shown, index.span(*at)) if shown else None
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
