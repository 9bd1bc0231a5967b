"""
What a position of a description's text names, and the xacro definitions of a run's files.

Hover, definition and completion share two readings of the text:

* :func:`definitions`: the ``<xacro:property>``, ``<xacro:arg>``, ``<xacro:macro>`` and
  ``<xacro:include>`` start tags of a file as written, with their attributes and offsets. The
  start tags are matched one by one (comments left out), so a half-typed file still gives the
  definitions it has. Values are the written text: a property's ``value`` and an arg's
  ``default`` are not evaluated (xacro evaluates them when the run loads).
* :func:`token_at`: the xacro expression or package reference a character offset stands in:
  a name in ``${...}``, ``$(arg NAME)``, ``$(find PKG)``, a ``package://PKG/...`` URI.

Resolving a package uses the locator the run used (:attr:`~.checking.RunResult.locate`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import os
import re

from urdf_tools_ros.core.model.robot import Joint, Link, Robot
from urdf_tools_ros.core.source.packages import resolve_resource
from urdf_tools_ros.core.source.scanner import Element
from .checking import RunResult
from ..core.location import SourceLocation

#: The xacro elements that define a name, and the attribute each one's value is written in.
KINDS = {'property': 'value', 'arg': 'default', 'macro': 'params', 'include': 'filename'}
_TAG = re.compile(r'<xacro:(property|arg|macro|include)\b((?:[^<>"\']|"[^"]*"|\'[^\']*\')*)')
_ATTRIBUTE = re.compile(r'([\w:.-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')
_COMMENT = re.compile(r'<!--.*?(?:-->|$)', re.DOTALL)
_EXPRESSION = re.compile(r'\$\{([^{}]*)\}?')
_NAME = re.compile(r'[A-Za-z_][\w.]*')
_SUBSTITUTION = re.compile(r'\$\((arg|find)\s+([^\s()]+)\s*\)?')
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
        include's ``filename``, as written; ``None`` when absent (a block property, an arg
        without a default).
    :ivar path: The file it is written in, absolute.
    :ivar start: Offset of the ``<`` of its start tag.
    :ivar name_start: Offset of its name's value (of the ``<`` when it has none).
    :ivar name_end: Offset just after its name's value.
    :ivar line: The 1-based line of its ``<``.
    :ivar scope: The ``<xacro:macro>`` it is written in (``None``: the file's top level).
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


def _blank_comments(text: str) -> str:
    """``text`` with each comment replaced by spaces (offsets kept)."""
    return _COMMENT.sub(lambda match: re.sub(r'[^\n]', ' ', match.group(0)), text)


def definitions(path: str, text: str) -> list[Definition]:
    """
    The xacro definitions written in one file, in file order (see the module doc).

    :param path: The file, absolute.
    :param text: Its text (the editor's when it is open).
    """
    found: list[Definition] = []
    blanked = _blank_comments(text)
    macros: list[tuple[Definition, int]] = []  # a macro and the end of its body
    line, counted = 1, 0
    for match in _TAG.finditer(blanked):
        line, counted = line + blanked.count('\n', counted, match.start()), match.start()
        kind, body = match.group(1), match.group(2)
        attributes = {item.group(1): (item.group(2) if item.group(2) is not None
                                      else item.group(3), match.start(2) + item.start(
                                          2 if item.group(2) is not None else 3))
                      for item in _ATTRIBUTE.finditer(body)}
        key = 'filename' if kind == 'include' else 'name'
        name, name_start = attributes.get(key, ('', match.start()))
        value = attributes.get(KINDS[kind], (None, 0))[0]
        scope = next((macro for macro, end in reversed(macros)
                      if macro.start < match.start() < end), None)
        definition = Definition(kind, name, value, path, match.start(), name_start,
                                name_start + len(name) if name else match.start() + 1, line,
                                scope)
        found.append(definition)
        if kind == 'macro' and not body.rstrip().endswith('/'):
            close = blanked.find('</xacro:macro>', match.end())
            macros.append((definition, len(blanked) if close < 0 else close))
    return found


def run_files(result: RunResult | None, path: str) -> list[str]:
    """The files whose definitions ``path`` sees: its run's files (entry first), and itself."""
    files = list(result.files) if result is not None else []
    return list(dict.fromkeys([*files, path])) if path not in files else files


def all_definitions(files: Iterable[str], read: Callable[[str], str | None]
                    ) -> list[Definition]:
    """The definitions of several files (``read`` gives each one's text, ``None``: unread)."""
    found: list[Definition] = []
    for name in files:
        text = read(name)
        if text is not None:
            found.extend(definitions(name, text))
    return found


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
    line_start = text.rfind('\n', 0, offset) + 1
    line_end = text.find('\n', offset)
    line = text[line_start:len(text) if line_end < 0 else line_end]
    column = offset - line_start
    for match in _SUBSTITUTION.finditer(line):
        if match.start() <= column <= match.end():
            return Token(match.group(1), match.group(2), line_start + match.start(2),
                         line_start + match.end(2))
    for match in _PACKAGE_URI.finditer(line):
        if match.start() <= column <= match.end():
            return Token('package', match.group(0), line_start + match.start(),
                         line_start + match.end())
    for match in _EXPRESSION.finditer(line):
        if not match.start() <= column <= match.end():
            continue
        for name in _NAME.finditer(match.group(1)):
            start = match.start(1) + name.start()
            word = name.group(0).split('.')[0]
            before = match.group(1)[:name.start()].rstrip()
            if start <= column <= start + len(word) and word not in _PYTHON_WORDS \
                    and not before.endswith('.') and not before.endswith(('"', "'")):
                return Token('name', word, line_start + start, line_start + start + len(word))
    return None


def enclosing(elements: Sequence[Element] | None, offset: int) -> list[Element]:
    """The elements whose text holds ``offset``, outermost first."""
    return [item for item in elements or () if item.start <= offset < item.end]


def visible(found: Sequence[Definition], kind: str, name: str,
            here: Definition | None) -> list[Definition]:
    """
    The definitions of ``kind`` named ``name`` that a place in the macro ``here`` can mean.

    Top-level ones of every file of the run, and those written in the body of ``here`` (the
    macro the place stands in, :func:`macro_at`; ``None``: the top level). A property written
    in another macro's body is that macro's own.
    """
    return [item for item in found if item.kind == kind and item.name == name
            and (item.scope is None or item.scope == here)]


def macro_at(found: Sequence[Definition], path: str, offset: int, text: str
             ) -> Definition | None:
    """The ``<xacro:macro>`` of ``path`` whose body holds ``offset``, or ``None``."""
    blanked = None
    for item in reversed(found):
        if item.kind != 'macro' or item.path != path or item.start > offset:
            continue
        blanked = blanked or _blank_comments(text)
        close = blanked.find('</xacro:macro>', item.start)
        if close < 0 or offset < close:
            return item
    return None


def resolve_filename(written: str, base: str, locate: Callable[[str], str | None] | None
                     ) -> str | None:
    """
    The file an include's ``filename`` or a ``package://`` URI names, or ``None``.

    ``$(find PKG)`` is the package's folder (the run's locator), a relative name is relative
    to the including file's folder (as xacro resolves it); a name that still holds an
    expression (``${...}``, ``$(arg ...)``) cannot be resolved here.
    """
    if written.startswith('package://') or written.startswith('file://'):
        return resolve_resource(written, os.path.dirname(base), locate)
    name = written
    for match in list(re.finditer(r'\$\(find\s+([^\s()]+)\s*\)', written)):
        share = locate(match.group(1)) if locate is not None else None
        if share is None:
            return None
        name = name.replace(match.group(0), share)
    if '$' in name:
        return None
    return os.path.normpath(os.path.join(os.path.dirname(base), name))


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
    """
    The model's joints or links written at a ``<joint>`` or ``<link>`` element of ``path``.

    One per expansion: a macro body's element stands for every call's joint or link (the
    model's :class:`~..core.location.SourceLocation` gives the line it was written at).
    """
    if robot is None:
        return []
    items: Sequence[Joint | Link] = robot.joints if element.local_tag == 'joint' else \
        robot.links if element.local_tag == 'link' else ()
    return [item for item in items if item.location is not None and item.location.line
            is not None and os.path.abspath(item.location.filename) == path
            and element.first_line <= item.location.line <= element.last_line]


def named_reference(element: Element, offset: int) -> tuple[str, str, str] | None:
    """
    The link or joint an attribute at ``offset`` names: ``(kind, value as written, role)``.

    ``<parent link>``, ``<child link>``, ``<mimic joint>`` and a ``reference`` (``<gazebo>``:
    a link, or a joint) name one; the role is the element's tag (``parent``).
    """
    for attribute in element.attributes:
        if not attribute.start <= offset <= attribute.end:
            continue
        if element.local_tag in ('parent', 'child') and attribute.name == 'link':
            return 'link', attribute.value, element.local_tag
        if element.local_tag == 'mimic' and attribute.name == 'joint':
            return 'joint', attribute.value, 'mimic'
        if attribute.name == 'reference':
            return 'link', attribute.value, 'reference'
    return None


def referenced(robot: Robot | None, path: str, chain: Sequence[Element],
               reference: tuple[str, str, str]) -> list[Joint | Link]:
    """
    The links or joints a :func:`named_reference` names, in the model.

    A plain name is looked up; one written with an expression (``${prefix}base``) is the
    name each expansion of the enclosing joint gave it.
    """
    if robot is None:
        return []
    kind, value, role = reference
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
