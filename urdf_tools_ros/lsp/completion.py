"""
Completion: the names a position of a description can take.

Read from the text before the position, so a half-typed file completes too: the model's links
or joints in ``<parent|child link="``, ``<mimic joint="`` and ``reference="``; macros after
``<xacro:`` and their unwritten parameters in a call; properties (and the macro's parameters)
after ``${``; ``<xacro:arg>`` names after ``$(arg ``.

The model is the last check's (:class:`~.checking.RunResult`), the xacro names are the run's
files as written (:func:`~.symbols.definitions`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
import os
import re

from urdf_tools_ros.core.model.robot import Joint, Link
from urdf_tools_ros.core.source.scanner import tag_context
from .checking import RunResult
from .definition import macros_named, XACRO_ELEMENTS
from .symbols import all_definitions, Definition, macro_at, run_files

#: How much text before the position is read for its context.
WINDOW = 4000
#: The model's names an attribute value takes: ``(tag or '', attribute)`` -> kinds.
_NAMED = {('parent', 'link'): ('link',), ('child', 'link'): ('link',),
          ('mimic', 'joint'): ('joint',), ('', 'reference'): ('link', 'joint')}
_PROPERTY = re.compile(r'\$\{(\w*)$')
_ARG = re.compile(r'\$\(arg\s+(\w*)$')
_MACRO = re.compile(r'xacro:([\w.]*)')


@dataclass(frozen=True)
class Item:
    """
    One completion.

    :ivar label: The name to insert.
    :ivar kind: ``link``, ``joint``, ``macro``, ``parameter``, ``property`` or ``arg``.
    :ivar detail: Where it is written, or its value as written.
    :ivar start: Offset where the typed part the name replaces starts.
    """

    label: str
    kind: str
    detail: str
    start: int


def _where(item: Joint | Link | Definition) -> str:
    if isinstance(item, Definition):
        return item.place
    location = item.location
    return f'{os.path.basename(location.filename)}:{location.line}' if location else ''


def _model(items: Iterable[Joint | Link], kind: str, start: int) -> list[Item]:
    return [Item(item.name, kind, _where(item), start) for item in items if item.name]


def _definitions(found: Iterable[Definition], start: int) -> list[Item]:
    items: dict[str, Item] = {}
    for item in found:
        value = f' = {item.value}' if item.kind in ('property', 'arg') and item.value else ''
        items.setdefault(item.name, Item(item.name, item.kind, _where(item) + value, start))
    return list(items.values())


def complete(result: RunResult | None, path: str, text: str, offset: int,
             read: Callable[[str], str | None]) -> list[Item]:
    """
    The completions at ``offset`` of ``path`` (text ``text``), best first; empty when none.

    :param result: The last run that covers ``path`` (``None``: none yet, no model names).
    :param read: The text of another file (the editor's when open), ``None`` if unreadable.
    """
    before = text[max(0, offset - WINDOW):offset]
    robot = result.robot if result is not None else None
    element, where, typed = tag_context(before) or (None, '', '')
    tag, start = element.tag if element is not None else '', offset - len(typed)
    kinds = _NAMED.get((tag, where)) or _NAMED.get(('', where), ())
    if kinds:
        unique: dict[str, Item] = {}
        for item in [*(_model(robot.links, 'link', start) if 'link' in kinds else []),
                     *(_model(robot.joints, 'joint', start) if 'joint' in kinds else [])
                     ] if robot is not None else []:
            unique.setdefault(item.label, item)
        return list(unique.values())
    found: list[Definition] | None = None

    def definitions() -> list[Definition]:
        nonlocal found
        if found is None:
            found = all_definitions(run_files(result, path), read)
        return found

    called = _MACRO.fullmatch(tag)
    if called is not None and where == 'tag':
        return _definitions((item for item in definitions() if item.kind == 'macro'),
                            offset - len(called.group(1)))
    if element is not None and called is not None and where == '' and \
            called.group(1) not in ('', *XACRO_ELEMENTS):
        written = {attribute.name for attribute in element.attributes}
        return [Item(name, 'parameter', f'of macro {macro.name} ({_where(macro)})', start)
                for macro in macros_named(definitions(), called.group(1))[:1]
                for name in macro.params if name not in written]
    match = _PROPERTY.search(before)
    if match is not None:
        start = offset - len(match.group(1))
        here = macro_at(definitions(), path, offset)
        own = [Item(name, 'parameter', f'of macro {here.name}', start)
               for name in here.params] if here is not None else []
        properties = [item for item in definitions() if item.kind == 'property'
                      and (item.scope is None or item.scope == here)]
        return own + [item for item in _definitions(properties, start)
                      if item.label not in {own_item.label for own_item in own}]
    match = _ARG.search(before)
    if match is not None:
        start = offset - len(match.group(1))
        args = [item for item in definitions() if item.kind == 'arg']
        return _definitions(args, start)
    return []
