"""
Run xacro on a description: through its public API, with source lines where xacro allows.

xacro (``import xacro``, the ROS package on PyPI) is imported here only when a xacro file is
loaded, never when the core is imported: xacro 2.0.x imports ``ament_index_python`` at import
time, and the core stays importable without ROS (``../shared/CONVENTIONS.md`` C7).

Two ways to run it, chosen per call by :func:`line_hooks_missing`, which inspects the installed
xacro (detected, not assumed; the answer is cached per xacro module):

* **With source lines** (every xacro 2.0.x and 2.1.x so far): while one document is processed,
  eight of xacro's module attributes are replaced, under a process-wide lock, and restored
  afterwards: ``xacro.parse`` (our parser: entity-free as :mod:`.xml_safety` words it, the
  same as for URDF, bounded, and it tags each element with its file and line, so that each
  URDF element keeps the ``.xacro`` file:line it came from, the macro body for macro output:
  minidom user data, kept on clones, read off the output document in element order,
  :attr:`XacroRun.sources`), ``xacro.eval_all``, ``xacro.handle_macro_call``,
  ``xacro.process_include`` and ``xacro.grab_property`` (wrapped, to know the element an
  error happened in and the calls and includes around it, :mod:`.xacro_errors` words it; and,
  for each expansion of a macro body, the chain of calls that made each element and the
  attributes made from a call's argument: see :data:`Expansion`), ``xacro.warning`` (to
  collect warnings as findings), ``xacro.verbosity`` (0) and ``xacro.substitution_args._eval_find``
  (``$(find pkg)`` through the package locator, so ``--package-path`` works). Each is checked
  first: present, callable with the arguments used;
  ``xacro.root_dir`` (2.1 only) is read if present.
* **Public API only**, when a hook point is missing or :data:`USE_LINE_HOOKS` is false:
  ``xacro.process_file(path, mappings=..., verbosity=0)``. Elements then carry the location of
  the top-level file only, and :func:`run_xacro` says so (``lines`` false; the loader adds one
  ``xacro-lines-unavailable`` info finding). ``$(find pkg)`` goes through ament_index, which xacro
  reads: the packages the locator knows (from ``--package-path``, those named by
  ``$(find ...)`` in the top-level file) are put in a temporary ament index prepended to
  ``AMENT_PREFIX_PATH`` for the run. xacro's warnings (printed on stderr) are collected.
  Includes are read by xacro itself, so the size bound, and the refusal of entities and of a
  ``<!DOCTYPE>``, apply to the top-level file (and the output) only.

xacro files are programs (``${...}`` is Python): process only xacro you trust.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
import contextlib
from dataclasses import dataclass, field
import functools
import importlib.util
import inspect
import io
import os
import re
import threading
from types import ModuleType
from typing import Any
import xml.parsers.expat

from defusedxml import DefusedXmlException
from defusedxml.expatbuilder import DefusedExpatBuilderNS

from .errors import explain, PackageNotFound
from ..packages import PackageLocator
from ..scanner import ARG_CALL, EXPRESSION, NAME, SUBSTITUTION, tags_holding
from ..xml_safety import entity_refusal, malformed, refused_entity
from ...errors import DescriptionLoadError, DescriptionTooLargeError
from ...location import ArgumentUse, MacroCall, SourceLocation

__all__ = ['Expansion', 'USE_LINE_HOOKS', 'XACRO_LOCK', 'XacroRun', 'line_hooks_missing',
           'run_xacro']

#: Held while xacro runs (its state is module-global) and while urdf_parser_py's hook is set.
XACRO_LOCK = threading.Lock()
#: Use the line hooks when the installed xacro has them; false: the public API only (tests).
USE_LINE_HOOKS = True
#: How many properties and calls deep :meth:`_Session.source` follows a value.
_DEPTH = 16
_MISSING: dict[int, str | None] = {}

ReadText = Callable[[str], str]
#: One expansion of a macro body element: the calls that made it, innermost first, and its
#: attributes made from their arguments (:attr:`SourceLocation.calls`, ``.arguments``).
Expansion = tuple[tuple[MacroCall, ...], tuple[ArgumentUse, ...]]


@dataclass
class XacroRun:
    """
    What one xacro run produced.

    :ivar xml: The URDF XML xacro wrote.
    :ivar lines: Whether :attr:`sources` gives the elements' source locations.
    :ivar table: Source locations, indexed by :attr:`sources`.
    :ivar files: Absolute paths of the files read (the file and its includes), in order.
    :ivar warnings: xacro's warnings, one text each.
    :ivar arguments: Names of the xacro arguments the documents declare or use.
    :ivar missing: Why the line hooks were not used (``''`` when they were).
    :ivar included_from: ``{file: location of the <xacro:include> that first read it}``, the
        names as the elements' locations give them (with line hooks only).
    :ivar expansions: What an element a macro call made carries (:data:`Expansion`), indexed by
        :attr:`sources` (with line hooks only).
    :ivar sources: ``(index in table, index in expansions)`` of each element of :attr:`xml`, in
        document order, ``None`` where it has none (with line hooks only).
    """

    xml: str
    lines: bool
    table: list[SourceLocation] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    arguments: set[str] = field(default_factory=set)
    missing: str = ''
    included_from: dict[str, SourceLocation] = field(default_factory=dict)
    expansions: list[Expansion] = field(default_factory=list)
    sources: list[tuple[int | None, int | None]] = field(default_factory=list)


def _xacro(filename: str = '<string>') -> ModuleType:
    """
    Import xacro (lazily: see the module doc).

    :param filename: The file being loaded, for the error.
    :raises DescriptionLoadError: xacro is not installed, or cannot be imported (xacro 2.0.x
        imports ``ament_index_python``, which a pip-only environment may lack).
    """
    try:
        import xacro
        import xacro.substitution_args  # noqa: F401 - its attribute is a hook point
    except ImportError as exc:
        hint = ('install it (ROS, or pip install ros-jazzy-ament-index-python)'
                if exc.name == 'ament_index_python' else 'pip install xacro')
        raise DescriptionLoadError(f'xacro cannot be imported ({exc}): a .xacro file needs '
                                   f'it; {hint}', filename) from None
    return xacro


def _takes(function: Any, *args: Any, **kwargs: Any) -> bool:
    """Whether ``function`` is callable with ``args`` and ``kwargs`` (by its signature)."""
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return False
    return True


def line_hooks_missing(xacro: ModuleType | None = None) -> str | None:
    """
    Why the line hooks cannot be used with the installed xacro, or ``None`` when they can.

    Checks each hook point of the module doc: ``parse(inp, filename)``,
    ``eval_all(node, macros, symbols)``, ``handle_macro_call(node, macros, symbols)``,
    ``process_include(elt, macros, symbols, func)``, ``grab_property(elt, table)``,
    ``warning(...)``, ``verbosity``, ``filestack``,
    ``init_stacks(file)``, ``process_doc(doc, mappings=...)``, ``XacroException`` and
    ``substitution_args._eval_find(pkg)``. Also ``'disabled'`` when :data:`USE_LINE_HOOKS` is
    false.
    """
    if not USE_LINE_HOOKS:
        return 'disabled'
    module = _xacro() if xacro is None else xacro
    key = id(module)
    if key not in _MISSING:
        substitution = getattr(module, 'substitution_args', None)
        checks = {
            'xacro.parse(inp, filename)': _takes(getattr(module, 'parse', None), None, 'f'),
            'xacro.eval_all(node, macros, symbols)':
                _takes(getattr(module, 'eval_all', None), None, None, None),
            'xacro.handle_macro_call(node, macros, symbols)':
                _takes(getattr(module, 'handle_macro_call', None), None, None, None),
            'xacro.process_include(elt, macros, symbols, func)':
                _takes(getattr(module, 'process_include', None), None, None, None, None),
            'xacro.grab_property(elt, table)':
                _takes(getattr(module, 'grab_property', None), None, None),
            'xacro.warning': callable(getattr(module, 'warning', None)),
            'xacro.verbosity': isinstance(getattr(module, 'verbosity', None), int),
            'xacro.filestack': hasattr(module, 'filestack'),
            'xacro.init_stacks(file)': _takes(getattr(module, 'init_stacks', None), None),
            'xacro.process_doc(doc, mappings=...)':
                _takes(getattr(module, 'process_doc', None), None, mappings={}),
            'xacro.XacroException': isinstance(getattr(module, 'XacroException', None), type),
            'xacro.substitution_args._eval_find(pkg)':
                _takes(getattr(substitution, '_eval_find', None), 'p'),
        }
        missing = [name for name, present in checks.items() if not present]
        _MISSING[key] = ', '.join(missing) or None
    return _MISSING[key]


def run_xacro(text: str, filename: str, args: Mapping[str, str], locate: PackageLocator,
              read_text: ReadText, limit: int) -> XacroRun:
    """
    Run xacro on ``text`` (from ``filename``) with ``args``; see the module doc for the two ways.

    :param text: The top-level document.
    :param filename: Its path (relative includes resolve from its directory when it is a file).
    :param args: xacro arguments ``{name: value}``.
    :param locate: Package locator for ``$(find pkg)``.
    :param read_text: Reads an included file (bounded, decoded); raises DescriptionLoadError.
    :param limit: Largest output, in characters.
    :raises DescriptionLoadError: malformed XML, a xacro error (with file and line when known),
        an entity declaration.
    :raises DescriptionTooLargeError: if the output is larger than ``limit``.
    """
    xacro = _xacro(filename)
    missing = line_hooks_missing(xacro)
    if missing is None:
        run = _with_lines(xacro, text, filename, args, locate, read_text)
    else:
        run = _public(xacro, text, filename, args, locate)
        run.missing = missing
    if len(run.xml) > limit:
        raise DescriptionTooLargeError('xacro output is larger than the limit', filename)
    return run


# -- with source lines ------------------------------------------------------------------------
class _AnnotatingBuilder(DefusedExpatBuilderNS):
    """minidom builder that refuses entities and tags each element with its file:line."""

    def __init__(self, filename: str, table: list[SourceLocation],
                 written: dict[int, dict[str, str]]) -> None:
        super().__init__(forbid_dtd=False, forbid_entities=True, forbid_external=True)
        self._filename = filename
        self._table = table
        self._written = written

    def start_element_handler(self, name: str, attributes: Any) -> None:
        super().start_element_handler(name, attributes)
        node = self.curNode
        location = SourceLocation(self._filename, self._parser.CurrentLineNumber)
        if node.tagName.startswith('xacro:'):
            node.setUserData(_LOCATION, location, _KEEP_ON_CLONE)
        else:
            self._table.append(location)
            # expat's attributes: [name, value, ...] (minidom asks for them ordered)
            if any('${' in value for value in attributes[1::2]):
                self._written[len(self._table) - 1] = {
                    key: value for key, value in node.attributes.items() if '${' in value}
            node.setUserData(_INDEX, len(self._table) - 1, _KEEP_ON_CLONE)

    def line(self) -> int | None:
        """The line the parser is at (where it stopped, after an error), or ``None``."""
        parser = self._parser
        return None if parser is None else int(parser.CurrentLineNumber)


class _KeepOnClone:
    """minidom user-data handler: a clone (xacro's macro expansion) keeps the location."""

    def handle(self, operation: int, key: str, data: Any, src: Any, dst: Any) -> None:
        if dst is not None:
            dst.setUserData(key, data, self)


#: User-data keys (kept on clones): a xacro element's location, another element's index in
#: :attr:`XacroRun.table` and, once a macro call made it, in :attr:`XacroRun.expansions`
#: (:func:`_sources`). Not attributes: one would be a xacro element's macro parameter, and
#: xacro evaluates, clones and sets again every attribute (a quarter of a large run).
_LOCATION = 'urdf_tools_ros.location'
_INDEX = 'urdf_tools_ros.index'
_CALLS = 'urdf_tools_ros.calls'
_KEEP_ON_CLONE = _KeepOnClone()
#: xacro elements on the evaluation stack that are not macro calls.
_NOT_CALLS = ('xacro:macro', 'xacro:if', 'xacro:unless', 'xacro:element', 'xacro:attribute',
              'xacro:property')


@functools.lru_cache(maxsize=64)
def _arguments_of(text: str) -> frozenset[str]:
    """The xacro arguments ``text`` declares (``<xacro:arg name>``) or uses (``$(arg x)``)."""
    names = [element.attribute('name') for element in tags_holding(text, '<xacro:arg')
             if element.tag == 'xacro:arg']
    return frozenset({name for kind, name, closed in SUBSTITUTION.findall(text)
                      if kind == 'arg' and closed} | set(ARG_CALL.findall(text))
                     | {name.value for name in names if name and name.value})


@functools.lru_cache(maxsize=4096)
def _references(text: str) -> tuple[str, ...]:
    """The names the ``${...}`` expressions of ``text`` refer to, in order, each once."""
    return tuple(dict.fromkeys(name for expression in EXPRESSION.findall(text)
                               for name in NAME.findall(expression)))


def _parameters(macros: Any, name: str) -> tuple[str, ...] | None:
    """The parameter names of macro ``name`` in xacro's macro table, or ``None``."""
    table = macros
    try:
        if name not in table and '.' in name:  # a namespaced macro: ns.name
            *spaces, name = name.split('.')
            for space in spaces:
                table = table[space]
        params = getattr(table[name], 'params', None)
    except (KeyError, TypeError, AttributeError):
        return None
    if not isinstance(params, list):
        return None
    return tuple(str(param).lstrip('*') for param in params)


@dataclass
class _Frame:
    """A macro call being expanded: the call, and the properties its body defined so far."""

    call: MacroCall
    properties: dict[str, str] = field(default_factory=dict)


class _Session:
    """The hooks installed into the xacro module while one document is processed."""

    def __init__(self, xacro: ModuleType, locate: PackageLocator, read_text: ReadText) -> None:
        self.xacro = xacro
        self.run = XacroRun('', True)
        self.nodes: list[Any] = []
        self.frames: list[_Frame] = []
        #: The attributes with ``${...}`` of each element read, by its table index, as written.
        self.written: dict[int, dict[str, str]] = {}
        self._expansions: dict[Expansion, int] = {}
        self._locate = locate
        self._read_text = read_text

    def parse(self, inp: Any, filename: str | None = None) -> Any:
        xacro = self.xacro
        name = filename or '<string>'
        if inp is None:
            path = os.path.join(getattr(xacro, 'root_dir', os.curdir), filename or '')
            try:
                text = self._read_text(path)
            except DescriptionTooLargeError:
                raise
            except DescriptionLoadError as exc:
                xacro.filestack.pop()
                raise xacro.XacroException(f'{exc.reason}: {path}', exc=exc) from None
            self.run.files.append(os.path.abspath(path))
            include = self.located(self.nodes[-1]) if self.nodes else None
            if include is not None:
                self.run.included_from.setdefault(name, include)
        elif isinstance(inp, str):
            text = inp
        else:
            return inp
        self.run.arguments |= _arguments_of(text)
        refusal = entity_refusal(text, name)
        if refusal is not None:
            raise refusal
        builder = _AnnotatingBuilder(name, self.run.table, self.written)
        try:
            return builder.parseString(text.encode('utf-8'))
        except DefusedXmlException as exc:  # what entity_refusal did not see: named the same
            raise refused_entity(
                str(getattr(exc, 'name', '') or type(exc).__name__), name,
                builder.line(), system=getattr(exc, 'system_id', None)
                or getattr(exc, 'public_id', None)) from None
        except xml.parsers.expat.ExpatError as exc:
            raise malformed(f'{xml.parsers.expat.ErrorString(exc.code)} (column '
                            f'{exc.offset + 1})', name, exc.lineno) from None

    def eval_find(self, package: str) -> str:
        share = self._locate(package)
        if share is None:
            raise PackageNotFound(package)
        return share

    def located(self, node: Any) -> SourceLocation | None:
        """Where ``node`` was written, or ``None`` (text, or an element xacro made)."""
        if getattr(node, 'nodeType', None) != getattr(node, 'ELEMENT_NODE', 1):
            return None
        index = node.getUserData(_INDEX)
        return self.run.table[index] if index is not None else node.getUserData(_LOCATION)

    def enter(self, node: Any, macros: Any) -> _Frame | None:
        """
        Start a macro call's frame, or return ``None`` when ``node`` is no macro call.

        ``xacro:call`` is left to the call it turns into (xacro renames the node and calls
        ``handle_macro_call`` again).
        """
        tag = node.tagName
        if not tag.startswith('xacro:') or tag == 'xacro:call' or tag in _NOT_CALLS:
            return None
        location = node.getUserData(_LOCATION)
        if not isinstance(location, SourceLocation):
            return None
        arguments = tuple((str(key), str(value)) for key, value in node.attributes.items())
        macro = tag[len('xacro:'):]
        parameters = _parameters(macros, macro)
        call = MacroCall(location, macro, arguments,
                         tuple(key for key, _ in arguments) if parameters is None else parameters)
        frame = _Frame(call)
        self.frames.append(frame)
        return frame

    def source(self, text: str, level: int = 0, depth: int = 0) -> tuple[str, int] | None:
        """
        The argument ``text`` (written in the body of call ``level``) is made from, if any.

        The names ``text`` refers to that the call (``self.frames[-1 - level]``) gives as
        arguments, or that name a property its body defined made from one, are its variable
        parts; names of other properties are constants. Only a ``text`` with one variable part
        (``${mesh}``, ``package://${pkg}/meshes/${mesh}`` with ``pkg`` a global property) is
        made from an argument: a value made of several (``.../${arm_id}/${name}.dae``) is not
        the argument of any one of them, and editing one would not fix it. When that argument
        is itself made from an argument of the enclosing call, that one, and so on outwards.

        :return: ``(parameter, level of the call that gives it)``, 0 for the innermost.
        """
        if depth > _DEPTH or level >= len(self.frames):
            return None
        frame = self.frames[-1 - level]
        given = dict(frame.call.arguments)
        found = []
        for name in _references(text):
            if name in given:
                found.append(self.source(given[name], level + 1, depth + 1) or (name, level))
            elif name in frame.properties:
                made = self.source(frame.properties[name], level, depth + 1)
                if made is not None:
                    found.append(made)
        return found[0] if len(found) == 1 else None

    def mark(self, nodes: list[Any], call: MacroCall, blocks: set[int]) -> None:
        """
        Add ``call`` to the calls of every element of its expansion ``nodes``.

        An element straight from the macro body also gets its attributes made from an
        argument (:meth:`source`); elements of a ``*block`` argument (``blocks``: their
        indices in :attr:`XacroRun.table`) are written at the call and left as they are.
        """
        stack = list(reversed(nodes))
        while stack:
            node = stack.pop()
            if getattr(node, 'nodeType', None) != node.ELEMENT_NODE:
                continue
            index = node.getUserData(_INDEX)
            if index in blocks:
                continue
            stack.extend(reversed(node.childNodes))
            if index is None:
                continue
            known = node.getUserData(_CALLS)
            calls, uses = self.run.expansions[known] if known is not None else ((), ())
            if not calls:
                found = []
                for attribute, text in self.written.get(index, {}).items():
                    source = self.source(text)
                    if source is not None:
                        found.append(ArgumentUse(attribute, node.getAttribute(attribute),
                                                 *source))
                uses = tuple(found)
            expansion = ((*calls, call), uses)
            number = self._expansions.setdefault(expansion, len(self.run.expansions))
            if number == len(self.run.expansions):
                self.run.expansions.append(expansion)
            node.setUserData(_CALLS, number, _KEEP_ON_CLONE)

    def failure(self) -> tuple[SourceLocation | None, tuple[tuple[SourceLocation, str], ...]]:
        """
        Where processing stopped, and the macro calls and includes it stood in.

        :return: The innermost element with a location on the stack of elements xacro was
            evaluating, and ``(location, text)`` of each enclosing ``<xacro:include>`` and macro
            call, innermost first.
        """
        stack = [(node, self.located(node)) for node in self.nodes]
        stack = [(node, location) for node, location in stack if location is not None]
        if not stack:
            return None, ()
        notes: list[tuple[SourceLocation, str]] = []
        for node, location in reversed(stack[:-1]):
            tag = node.tagName
            if tag in ('xacro:include', 'include'):
                notes.append((location, f'included from here: <{tag} '
                                        f'filename="{node.getAttribute("filename")}">'))
            elif tag.startswith('xacro:') and tag not in _NOT_CALLS:
                notes.append((location, f'in the call <{tag}> here'))
        return stack[-1][1], tuple(notes)


@contextlib.contextmanager
def _hooks(session: _Session) -> Iterator[None]:
    xacro: Any = session.xacro
    original_eval_all = xacro.eval_all

    def eval_all(node: Any, macros: Any, symbols: Any) -> Any:
        session.nodes.append(node)  # left on the stack by an exception: where it happened
        result = original_eval_all(node, macros, symbols)
        session.nodes.pop()
        return result

    original_call = xacro.handle_macro_call

    def handle_macro_call(node: Any, macros: Any, symbols: Any) -> Any:
        session.nodes.append(node)
        frame = session.enter(node, macros)
        if frame is None:
            result = original_call(node, macros, symbols)
            session.nodes.pop()
            return result
        parent = node.parentNode
        # the expansion replaces the call between its element siblings, which stay (xacro
        # removes comments before a call and moves a blank text node, never an element)
        first, last = _element_sibling(node, 'previousSibling'), _element_sibling(
            node, 'nextSibling')
        blocks = {element.getUserData(_INDEX)
                  for element in node.getElementsByTagName('*')} - {None}
        result = original_call(node, macros, symbols)
        session.nodes.pop()
        if result and parent is not None:
            session.mark(_between(parent, first, last), frame.call, blocks)
        session.frames.pop()
        return result

    original_property = xacro.grab_property

    def grab_property(elt: Any, table: Any) -> Any:
        if session.frames and elt.hasAttribute('name'):  # a property of a macro body
            session.frames[-1].properties[elt.getAttribute('name')] = \
                elt.getAttribute('value') or elt.getAttribute('default')
        session.nodes.append(elt)  # a property evaluated now (scope="parent", lazy_eval="false")
        result = original_property(elt, table)
        session.nodes.pop()
        return result

    original_include = xacro.process_include

    def process_include(elt: Any, macros: Any, symbols: Any, func: Any) -> Any:
        session.nodes.append(elt)
        result = original_include(elt, macros, symbols, func)
        session.nodes.pop()
        return result

    substitution = xacro.substitution_args
    saved = (xacro.parse, xacro.eval_all, xacro.handle_macro_call, xacro.process_include,
             xacro.grab_property, xacro.warning, xacro.verbosity, substitution._eval_find)
    xacro.parse = session.parse
    xacro.eval_all = eval_all
    xacro.handle_macro_call = handle_macro_call
    xacro.process_include = process_include
    xacro.grab_property = grab_property
    xacro.warning = lambda *args, **_: session.run.warnings.append(' '.join(map(str, args)))
    xacro.verbosity = 0
    substitution._eval_find = session.eval_find
    try:
        yield
    finally:
        (xacro.parse, xacro.eval_all, xacro.handle_macro_call, xacro.process_include,
         xacro.grab_property, xacro.warning, xacro.verbosity, substitution._eval_find) = saved


def _sources(doc: Any) -> list[tuple[int | None, int | None]]:
    """:attr:`XacroRun.sources`: the user data of each element of ``doc``, in document order."""
    sources = []
    stack = [doc.documentElement]
    while stack:
        node = stack.pop()
        if node.nodeType == node.ELEMENT_NODE:
            sources.append((node.getUserData(_INDEX), node.getUserData(_CALLS)))
            stack.extend(reversed(node.childNodes))
    return sources


def _element_sibling(node: Any, direction: str) -> Any:
    """The nearest element before (``previousSibling``) or after ``node``, or ``None``."""
    sibling = getattr(node, direction)
    while sibling is not None and sibling.nodeType != sibling.ELEMENT_NODE:
        sibling = getattr(sibling, direction)
    return sibling


def _between(parent: Any, first: Any, last: Any) -> list[Any]:
    """The children of ``parent`` after ``first`` (else from the start) and before ``last``."""
    child = parent.firstChild if first is None else first.nextSibling
    nodes = []
    while child is not None and child is not last:
        nodes.append(child)
        child = child.nextSibling
    return nodes


def _where(xacro: ModuleType, filename: str) -> str:
    stack = getattr(xacro, 'filestack', None)
    return stack[-1] if stack and stack[-1] else filename


def _with_lines(xacro: ModuleType, text: str, filename: str, args: Mapping[str, str],
                locate: PackageLocator, read_text: ReadText) -> XacroRun:
    session = _Session(xacro, locate, read_text)
    with XACRO_LOCK, _hooks(session):
        real = filename if os.path.isfile(filename) else None
        xacro.init_stacks(real)
        if real is not None:
            session.run.files.append(os.path.abspath(real))
        try:
            doc = session.parse(text, filename)
            xacro.process_doc(doc, mappings=dict(args))
            session.run.sources = _sources(doc)
            session.run.xml = doc.toxml()
            doc.unlink()  # its cycles freed now, not by a later collection
        except DescriptionLoadError:
            raise
        except Exception as exc:  # xacro raises XacroException, NameError, TypeError, ...
            location, notes = session.failure()
            where = location.filename if location else _where(xacro, filename)
            message, fix = explain(exc, xacro)
            raise DescriptionLoadError(f'xacro: {message}', where,
                                       location.line if location else None, fix=fix,
                                       notes=notes) from None
        finally:
            xacro.init_stacks(None)
    return session.run


# -- public API only --------------------------------------------------------------------------
@contextlib.contextmanager
def _ament_index(packages: Mapping[str, str]) -> Iterator[str | None]:
    """
    A temporary ament index holding ``packages`` ``{name: share dir}``, first on the path.

    :return: (yields) Its prefix (``<prefix>/share/<name>`` links to each share dir), or
        ``None`` when there are no packages.
    """
    if not packages:
        yield None
        return
    import tempfile  # this fallback only: it imports shutil, random, bz2, lzma (~3 ms)
    with tempfile.TemporaryDirectory(prefix='urdf_tools_ament_') as prefix:
        markers = os.path.join(prefix, 'share', 'ament_index', 'resource_index', 'packages')
        os.makedirs(markers)
        for name, share in packages.items():
            open(os.path.join(markers, name), 'w').close()
            os.symlink(os.path.abspath(share), os.path.join(prefix, 'share', name))
        saved = os.environ.get('AMENT_PREFIX_PATH')
        os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(
            part for part in (prefix, saved) if part)
        try:
            yield prefix
        finally:
            if saved is None:
                os.environ.pop('AMENT_PREFIX_PATH', None)
            else:
                os.environ['AMENT_PREFIX_PATH'] = saved


def _outside_index(text: str, index: str | None, packages: Mapping[str, str]) -> str:
    """
    ``text`` with each temporary index's ``<index>/share/<name>`` made that share dir.

    ``text`` is an included file's path or the URDF: ``$(find)`` gave paths into the index,
    which is gone once xacro ran.
    """
    if index is not None:
        for name, share in packages.items():
            text = re.sub(re.escape(os.path.join(index, 'share', name)) + r'(?![\w.-])',
                          lambda _: os.path.abspath(share), text)  # at once: this share
    return text


class _MissingPackage(Exception):
    """xacro's ``$(find NAME)`` found no package ``NAME`` in the ament index it was given."""

    def __init__(self, name: str, error: BaseException) -> None:
        super().__init__(name)
        self.name, self.error = name, error


#: How many packages the public API's temporary index may grow to.
_MAX_PACKAGES = 256
#: ament_index_python's PackageNotFoundError message.
_NOT_FOUND = re.compile(r"package '([^']+)' not found")


def _missing_package(exc: BaseException) -> str | None:
    """The package name of an ament_index ``PackageNotFoundError`` in ``exc``'s chain."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        error = stack.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        if type(error).__name__ == 'PackageNotFoundError':
            match = _NOT_FOUND.search(str(error))
            return match.group(1) if match else None
        inner = getattr(error, 'exc', None)  # XacroException wraps the error it adds to
        stack.extend([inner if isinstance(inner, BaseException) else None,
                      error.__cause__, error.__context__])
    return None


def _process_public(xacro: ModuleType, text: str, filename: str, args: Mapping[str, str],
                    packages: Mapping[str, str], errors: io.StringIO) -> tuple[str, list[str]]:
    """
    ``xacro.process_file`` with ``packages`` in a temporary ament index.

    :return: The URDF, with every path into the temporary index made the share dir's, and the
        files xacro included.
    :raises _MissingPackage: ``$(find NAME)`` of a package not in ``packages``.
    :raises DescriptionLoadError: any other error of xacro's.
    """
    with contextlib.ExitStack() as stack:
        stack.enter_context(XACRO_LOCK)
        if os.path.isfile(filename):
            path = filename
        else:  # text without a file: xacro reads files only
            import tempfile
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix='urdf_tools_xacro_'))
            path = os.path.join(folder, 'robot.urdf.xacro')
            with open(path, 'w', encoding='utf-8') as stream:
                stream.write(text)
        index = stack.enter_context(_ament_index(packages))
        stack.enter_context(contextlib.redirect_stderr(errors))
        # xacro appends every include it reads to this list and never clears it: take ours
        first = len(getattr(xacro, 'all_includes', ()))
        try:
            doc = xacro.process_file(path, mappings=dict(args), verbosity=0)
            output = doc.toxml()
        except xml.parsers.expat.ExpatError as exc:
            raise malformed(f'{xml.parsers.expat.ErrorString(exc.code)} (column '
                            f'{exc.offset + 1})', filename, exc.lineno) from None
        except Exception as exc:  # xacro raises XacroException, NameError, TypeError, ...
            name = _missing_package(exc)
            if name is not None:
                raise _MissingPackage(name, exc) from None
            message, fix = explain(exc, xacro)
            raise DescriptionLoadError(f'xacro: {message}', filename, fix=fix) from None
        included = [_outside_index(os.path.abspath(name), index, packages)
                    for name in list(getattr(xacro, 'all_includes', ()))[first:]]
    return _outside_index(output, index, packages), included


def _public(xacro: ModuleType, text: str, filename: str, args: Mapping[str, str],
            locate: PackageLocator) -> XacroRun:
    refusal = entity_refusal(text, filename)
    if refusal is not None:
        raise refusal
    doctype = text.find('<!DOCTYPE')
    if doctype >= 0:  # xacro's own parser would read what a DTD declares
        raise DescriptionLoadError(
            '<!DOCTYPE> refused: without line hooks xacro parses the file with its own parser, '
            'which reads what a DTD declares', filename, text.count('\n', 0, doctype) + 1,
            fix='remove the <!DOCTYPE ...>: a robot description needs none')
    packages: dict[str, str] = {}
    for name in dict.fromkeys(name for kind, name, closed in SUBSTITUTION.findall(text)
                              if kind == 'find' and closed):
        share = locate(name)
        if share is None:
            message, fix = explain(PackageNotFound(name), xacro)
            raise DescriptionLoadError(f'xacro: {message}', filename, fix=fix)
        packages[name] = share
    if packages and importlib.util.find_spec('ament_index_python') is None:
        raise DescriptionLoadError(
            f'xacro: $(find {next(iter(packages))}): without line hooks, xacro '
            'resolves $(find) only through ament_index_python, which is not installed here; '
            'install it (ROS, or pip: ros-jazzy-ament-index-python)', filename)
    while True:  # each package xacro looks for beyond the file's own $(find)s: once more
        errors = io.StringIO()
        try:
            output, included = _process_public(xacro, text, filename, args, packages, errors)
            break
        except _MissingPackage as missing:
            share = locate(missing.name) if len(packages) < _MAX_PACKAGES else None
            if share is None or missing.name in packages:
                message, fix = explain(missing.error, xacro)
                raise DescriptionLoadError(f'xacro: {message}', filename, fix=fix) from None
            packages[missing.name] = share
    files = ([os.path.abspath(filename)] if os.path.isfile(filename) else []) + included
    arguments = set(_arguments_of(text))
    for name in included:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            with open(name, encoding='utf-8') as stream:
                arguments |= _arguments_of(stream.read())
    warnings = [line.strip() for line in errors.getvalue().splitlines() if line.strip()]
    return XacroRun(output, False, [], list(dict.fromkeys(files)), warnings, arguments)
