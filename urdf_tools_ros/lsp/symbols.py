"""
What a position of a description's text names, and the xacro definitions of a run's files.

For hover, definition and completion: :func:`definitions` (the ``<xacro:property|arg|macro|
include>`` elements of a file as written, values unevaluated; a half-typed file gives those it
has) and :func:`token_at` (the name in ``${...}``, ``$(arg NAME)``, ``$(find PKG)`` or the
``package://`` URI at an offset).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import functools
import os
import re

from urdf_tools_ros.core.model.robot import Joint, Link, Robot
from urdf_tools_ros.core.source.entries import include_target
from urdf_tools_ros.core.source.packages import resolve_resource
from urdf_tools_ros.core.source.scanner import (Attribute, Element, EXPRESSION, NAME, SUBSTITUTION,
                                                tokens)
from .checking import RunResult
from ..core.location import SourceLocation

#: The xacro elements that define a name, and the attribute each one's value is written in.
KINDS = {'property': 'value', 'arg': 'default', 'macro': 'params', 'include': 'filename'}
_PACKAGE_URI = re.compile(r'package://([^/\s"\'<>]+)(/[^\s"\'<>]*)?')
_PYTHON_WORDS = frozenset({'and', 'or', 'not', 'in', 'is', 'if', 'else', 'for', 'lambda',
                           'True', 'False', 'None', 'pi', 'xacro', 'math', 'radians',
                           'degrees', 'sin', 'cos', 'tan', 'sqrt', 'abs', 'float', 'int',
                           'str', 'len', 'min', 'max'})


@dataclass(frozen=True)
class Definition:
    """
    One ``<xacro:property|arg|macro|include>`` as written.

    :ivar kind: ``property``, ``arg``, ``macro`` or ``include``.
    :ivar name: Its ``name`` (an include's: its ``filename``).
    :ivar value: A property's ``value``, an arg's ``default``, a macro's ``params``, an
        include's ``filename``, as written; ``None`` when absent.
    :ivar path: The file it is written in, absolute.
    :ivar start: Offset of the ``<`` of its start tag.
    :ivar name_start: Offset of its name's value (of the ``<`` when it has none).
    :ivar name_end: Offset just after its name's value.
    :ivar line: The 1-based line of its ``<``.
    :ivar scope: The ``<xacro:macro>`` it is written in (``None``: the file's top level).
    :ivar end: Offset just after its element (a macro: its body and end tag).
    """

    kind: str
    name: str
    value: str | None
    path: str
    start: int
    name_start: int
    name_end: int
    line: int = 1
    scope: Definition | None = None
    end: int = 0

    @property
    def place(self) -> str:
        """``file.xacro:12``: the file's base name and the line."""
        return f'{os.path.basename(self.path)}:{self.line}'

    @property
    def params(self) -> tuple[str, ...]:
        """A macro's parameter names, without ``*``, ``:=`` defaults and ``^`` (else ``()``)."""
        if self.kind != 'macro' or not self.value:
            return ()
        return tuple(re.split(r'[:=]', word.lstrip('*'), maxsplit=1)[0].rstrip('^')
                     for word in self.value.split())

    def param_default(self, name: str) -> str | None:
        """The default a macro writes for parameter ``name`` (``name:=default``), or ``None``."""
        for word in (self.value or '').split():
            key, found, default = word.partition(':=')
            if found and key.rstrip('^') == name:
                return default.lstrip('^|')
        return None


@functools.lru_cache(maxsize=64)  # per text: each edit makes one; requests read them again
def definitions(path: str, text: str) -> tuple[Definition, ...]:
    """The xacro definitions of file ``path`` (absolute), text ``text``, in order (module doc)."""
    found: dict[int, Definition] = {}  # by id() of the element
    for element in elements_of(text):
        if not element.tag.startswith('xacro:') or element.tag[len('xacro:'):] not in KINDS:
            continue
        kind = element.tag[len('xacro:'):]
        name, value = element.attribute('filename' if kind == 'include' else 'name'), \
            element.attribute(KINDS[kind])
        scope = element.parent
        while scope is not None and scope.tag != 'xacro:macro':
            scope = scope.parent
        found[id(element)] = Definition(
            kind, name.value if name else '', value.value if value else None, path,
            element.start, name.start if name else element.start,
            name.end if name else element.start + 1, element.first_line,
            found.get(id(scope)), element.end)
    return tuple(found.values())


@functools.lru_cache(maxsize=8)  # 3 MB for tiago_dual's 205 KB: as text_index, the last 8
def elements_of(text: str) -> tuple[Element, ...]:
    """The start tags of ``text`` as :func:`tokens` reads them (half-typed text too)."""
    return tuple(item for item in tokens(text) if isinstance(item, Element))


def run_files(result: RunResult | None, path: str) -> list[str]:
    """The files whose definitions ``path`` sees: its run's files (entry first), and itself."""
    files = list(result.files) if result is not None else []
    return list(dict.fromkeys([*files, path])) if path not in files else files


def all_definitions(files: Iterable[str], read: Callable[[str], str | None]
                    ) -> list[Definition]:
    """The definitions of several files (``read`` gives each one's text, ``None``: unread)."""
    return [item for name in files if (text := read(name)) is not None
            for item in definitions(name, text)]


@dataclass(frozen=True)
class Token:
    """
    What an offset of the text stands in.

    :ivar kind: ``name`` (in ``${...}``), ``arg``, ``find`` or ``package``.
    :ivar text: The name, the package, or the whole ``package://`` URI.
    :ivar start: Offset of its first character.
    :ivar end: Offset just after it.
    """

    kind: str
    text: str
    start: int
    end: int


def token_at(text: str, offset: int) -> Token | None:
    """The xacro name, substitution or package URI at ``offset`` of ``text``, or ``None``."""
    start, end = text.rfind('\n', 0, offset) + 1, text.find('\n', offset)
    end = len(text) if end < 0 else end  # the line of offset
    for match in SUBSTITUTION.finditer(text, start, end):
        if match.start() <= offset <= match.end():
            return Token(match.group(1), match.group(2), *match.span(2))
    for match in _PACKAGE_URI.finditer(text, start, end):
        if match.start() <= offset <= match.end():
            return Token('package', match.group(0), *match.span())
    for match in EXPRESSION.finditer(text, start, end):
        for name in NAME.finditer(text, *match.span(1)) if match.start() <= offset <= \
                match.end() else ():
            before = text[match.start(1):name.start()].rstrip()
            if name.start() <= offset <= name.end() and name.group() not in _PYTHON_WORDS \
                    and not before.endswith(('.', '"', "'")):
                return Token('name', name.group(), *name.span())
    return None


def enclosing(elements: Sequence[Element] | None, offset: int) -> list[Element]:
    """The elements whose text holds ``offset``, outermost first."""
    return [item for item in elements or () if item.start <= offset < item.end]


def visible(found: Sequence[Definition], kind: str, name: str,
            here: Definition | None) -> list[Definition]:
    """
    The definitions of ``kind`` named ``name`` that a place in the macro ``here`` can mean.

    Top-level ones, and those in the body of ``here`` (:func:`macro_at`; ``None``: top level).
    """
    return [item for item in found if item.kind == kind and item.name == name
            and (item.scope is None or item.scope == here)]


def macro_at(found: Sequence[Definition], path: str, offset: int) -> Definition | None:
    """The innermost ``<xacro:macro>`` of ``path`` whose element holds ``offset``, or ``None``."""
    return next((item for item in reversed(found) if item.kind == 'macro' and item.path == path
                 and item.start <= offset < item.end), None)


def resolve_filename(written: str, base: str, locate: Callable[[str], str | None] | None
                     ) -> str | None:
    """
    The file an include's ``filename`` or a URI names.

    (:func:`~urdf_tools_ros.core.source.entries.include_target`).
    """
    if written.startswith('package://') or written.startswith('file://'):
        return resolve_resource(written, os.path.dirname(base), locate)
    return include_target(written, base, locate)


def included_file(result: RunResult | None, path: str, lines: tuple[int, int]) -> str | None:
    """The file the ``<xacro:include>`` on 1-based ``lines`` (first, last) of ``path`` read."""
    if result is None:
        return None
    for name, where in result.included_from.items():
        if isinstance(where, SourceLocation) and os.path.abspath(where.filename) == path \
                and where.line is not None and lines[0] <= where.line <= lines[1]:
            return name
    return None


def model_elements(robot: Robot | None, path: str, element: Element
                   ) -> list[Joint | Link]:
    """The model's joints or links written at a ``<joint>`` or ``<link>`` (one per expansion)."""
    if robot is None:
        return []
    items: Sequence[Joint | Link] = robot.joints if element.local_tag == 'joint' else \
        robot.links if element.local_tag == 'link' else ()
    return [item for item in items if item.location is not None and item.location.line
            is not None and os.path.abspath(item.location.filename) == path
            and element.first_line <= item.location.line <= element.last_line]


def named_reference(element: Element, offset: int) -> tuple[str, Attribute, str] | None:
    """
    The link or joint an attribute at ``offset`` names: ``(kind, the attribute, role)``.

    ``<parent|child link>``, ``<mimic joint>`` or a ``reference``; the role is the tag.
    """
    for attribute in element.attributes:
        if not attribute.start <= offset <= attribute.end:
            continue
        if element.local_tag in ('parent', 'child') and attribute.name == 'link':
            return 'link', attribute, element.local_tag
        if element.local_tag == 'mimic' and attribute.name == 'joint':
            return 'joint', attribute, 'mimic'
        if attribute.name == 'reference':
            return 'link', attribute, 'reference'
    return None


def referenced(robot: Robot | None, path: str, chain: Sequence[Element],
               reference: tuple[str, Attribute, str]) -> list[Joint | Link]:
    """
    The links or joints a :func:`named_reference` names, in the model.

    A name written with an expression is the name each expansion of the enclosing joint gave.
    """
    if robot is None:
        return []
    kind, value, role = reference[0], reference[1].value, reference[2]
    table: dict[str, Joint | Link] = {**(robot.link_map if kind == 'link' else robot.joint_map)}
    if kind == 'link' and role == 'reference' and value not in table:
        table = {**robot.joint_map, **robot.link_map}
    if '$' not in value:
        return [table[value]] if value in table else []
    joint_element = next((item for item in reversed(chain) if item.tag == 'joint'), None)
    names: list[str] = []
    for joint in model_elements(robot, path, joint_element) if joint_element else []:
        assert isinstance(joint, Joint)  # noqa: S101 - a <joint> element gives joints
        name = {'parent': joint.parent, 'child': joint.child,
                'mimic': joint.mimic.joint if joint.mimic else ''}.get(role, '')
        names.append(name)
    return [table[name] for name in dict.fromkeys(names) if name in table]
