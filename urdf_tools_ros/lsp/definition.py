"""
Go to definition: where a name used at a position of a description is written.

* a macro call ``<xacro:NAME ...>`` → its ``<xacro:macro name="NAME">``;
* ``${name}`` → its ``<xacro:property>`` (or the ``<xacro:macro>`` whose parameter it is),
  ``$(arg name)`` → its ``<xacro:arg>``;
* ``<parent link>``, ``<child link>``, ``<mimic joint>``, a ``reference`` → the ``<link>`` or
  ``<joint>`` the model names (each expansion's);
* an include's ``filename`` → the file the run read, a ``package://`` URI → its file,
  ``$(find pkg)`` → the package's ``package.xml``.

Looked up in the files of the last run (:func:`~.symbols.run_files`) and the model's locations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
import os

from urdf_tools_ros.core.model.robot import Joint, Link
from urdf_tools_ros.core.source.scanner import Element
from .checking import RunResult
from .ranges import Span, text_index, TextIndex
from .symbols import (all_definitions, Definition, enclosing, included_file, macro_at,
                      named_reference, referenced, resolve_filename, run_files, token_at,
                      visible)

#: The tags of xacro's own elements (the others written ``xacro:NAME`` call a macro).
XACRO_ELEMENTS = frozenset({'property', 'arg', 'macro', 'include', 'if', 'unless', 'insert_block',
                            'element', 'attribute', 'call', 'eval-comments', 'load_yaml'})


@dataclass(frozen=True)
class Target:
    """A place to go to: a file and a range of its text."""

    path: str
    span: Span


def _index(path: str, read: Callable[[str], str | None],
           cache: dict[str, TextIndex | None]) -> TextIndex | None:
    if path not in cache:
        text = read(path)
        cache[path] = text_index(text) if text is not None else None
    return cache[path]


def _to_definitions(found: Sequence[Definition], read: Callable[[str], str | None]
                    ) -> list[Target]:
    cache: dict[str, TextIndex | None] = {}
    targets = []
    for item in found:
        index = _index(item.path, read, cache)
        if index is not None:
            targets.append(Target(item.path, index.span(item.name_start, item.name_end)))
    return targets


def _to_model(items: Sequence[Joint | Link], read: Callable[[str], str | None]
              ) -> list[Target]:
    cache: dict[str, TextIndex | None] = {}
    targets: list[Target] = []
    for item in items:
        location = item.location
        if location is None or location.line is None or location.filename.startswith('<'):
            continue
        path = os.path.abspath(location.filename)
        index = _index(path, read, cache)
        if index is None:
            continue
        kind = 'joint' if isinstance(item, Joint) else 'link'
        element = index.element_at(location.line, kind)
        name = element.attribute('name') if element is not None else None
        target = Target(path, index.span(name.start, name.end) if name is not None
                        else index.line_span(location.line))
        if target not in targets:
            targets.append(target)
    return targets


def _file(path: str | None) -> list[Target]:
    return [Target(path, Span(0, 0, 0, 0))] if path and os.path.isfile(path) else []


def macro_name(element: Element) -> str | None:
    """The macro a ``<xacro:NAME>`` element calls (``None``: not a call)."""
    if not element.tag.startswith('xacro:'):
        return None
    name = element.tag[len('xacro:'):]
    return None if name in XACRO_ELEMENTS else name


def macros_named(found: Sequence[Definition], name: str) -> list[Definition]:
    """The macros a call of ``name`` means (``ns.wheel``: a ``wheel`` of an include's ``ns``)."""
    exact = [item for item in found if item.kind == 'macro' and item.name == name]
    if exact or '.' not in name:
        return exact
    return [item for item in found if item.kind == 'macro'
            and item.name == name.rpartition('.')[2]]


def definition(result: RunResult | None, path: str, text: str, offset: int,
               read: Callable[[str], str | None]) -> list[Target]:
    """
    Where the name at ``offset`` of ``path`` (text ``text``) is defined; empty when nothing.

    :param result: The last run that covers ``path`` (``None``: none yet).
    :param read: The text of another file (the editor's when open), ``None`` if unreadable.
    """
    locate = result.locate if result is not None else None
    index = text_index(text)
    chain = enclosing(index.elements, offset)
    innermost = chain[-1] if chain else None
    if innermost is not None and innermost.tag == 'xacro:include':
        written = innermost.attribute('filename')
        if written is not None and written.start <= offset <= written.end:
            return _file(included_file(result, path, (innermost.first_line,
                                                      innermost.last_line))
                         or resolve_filename(written.value, path, locate))
    token = token_at(text, offset)
    if token is not None:
        if token.kind == 'find':
            share = locate(token.text) if locate is not None else None
            return _file(os.path.join(share, 'package.xml') if share else None)
        if token.kind == 'package':
            return _file(resolve_filename(token.text, path, locate))
        found = all_definitions(run_files(result, path), read)
        if token.kind == 'arg':
            return _to_definitions(visible(found, 'arg', token.text, None), read)
        here = macro_at(found, path, token.start)
        if here is not None and token.text in here.params:
            return _to_definitions([here], read)
        return _to_definitions(visible(found, 'property', token.text, here), read)
    if innermost is None:
        return []
    reference = named_reference(innermost, offset)
    if reference is not None:
        robot = result.robot if result is not None else None
        return _to_model(referenced(robot, path, chain, reference), read)
    called = macro_name(innermost)
    if called is not None and offset < innermost.tag_end:
        found = all_definitions(run_files(result, path), read)
        return _to_definitions(macros_named(found, called), read)
    return []
