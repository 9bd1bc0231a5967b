"""
Document symbols, workspace symbols, references and rename.

Symbols are the links, joints, macros, properties, args and includes of a file as written (a
macro library's too), a macro's inside its symbol; the workspace's are those of every
description file the server knows, the query a case-insensitive part of the name. References
and rename (:mod:`.rename`) search the files of the runs that use the name; a rename the
description cannot take is refused with the reason (an error, or no range for prepareRename
and a message).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
import functools
import os
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.entries import description_files, is_description
from .diagnostics import to_range
from .documents import path_to_uri, uri_to_path
from .ranges import text_index
from .rename import edits, refuse_expressions, Refused, Site, Target, target
from .symbols import elements_of

if TYPE_CHECKING:
    from .server import Server

#: The LSP kind of each symbol kind.
SYMBOL_KINDS = {'link': types.SymbolKind.Class, 'joint': types.SymbolKind.Interface,
                'macro': types.SymbolKind.Function, 'property': types.SymbolKind.Constant,
                'arg': types.SymbolKind.Variable, 'include': types.SymbolKind.File}
#: The attribute each symbol's name is written in, and the one its detail is.
_TAGS = {'link': ('link', 'name', ''), 'joint': ('joint', 'name', 'type'),
         'xacro:macro': ('macro', 'name', 'params'),
         'xacro:property': ('property', 'name', 'value'),
         'xacro:arg': ('arg', 'name', 'default'),
         'xacro:include': ('include', 'filename', '')}


@dataclass
class Symbol:
    """
    A link, joint, macro, property, arg or include as written.

    :ivar start: Offset of its ``<``; ``end`` just after its element.
    :ivar name_start: Offset of its name (of its ``<`` when it has none); ``name_end`` after it.
    :ivar children: The symbols inside a macro.
    """

    kind: str
    name: str
    detail: str
    start: int
    end: int
    name_start: int
    name_end: int
    children: list[Symbol] = field(default_factory=list)


@functools.lru_cache(maxsize=32)  # each key holds a whole text
def outline(text: str) -> tuple[Symbol, ...]:
    """The symbols of ``text`` (a half-typed text: those it has), a macro's in it; read-only."""
    top: list[Symbol] = []
    macros: dict[int, Symbol] = {}  # by id() of the <xacro:macro> element
    for element in elements_of(text):
        kind, named, described = _TAGS.get(element.tag, ('', '', ''))
        ancestors = []
        parent = element.parent
        while parent is not None:
            ancestors.append(parent)
            parent = parent.parent
        if not kind or kind == 'joint' and any(item.tag in ('ros2_control', 'transmission')
                                               for item in ancestors):
            continue
        name, detail = element.attribute(named), element.attribute(described)
        symbol = Symbol(kind, name.value if name else '', detail.value if detail else '',
                        element.start, element.end, name.start if name else element.start,
                        name.end if name else element.start + 1)
        macro = next((macros[id(item)] for item in ancestors if id(item) in macros), None)
        (macro.children if macro is not None else top).append(symbol)
        if kind == 'macro':
            macros[id(element)] = symbol
    return tuple(top)


def _document_symbol(symbol: Symbol, text: str) -> types.DocumentSymbol:
    index = text_index(text)
    return types.DocumentSymbol(
        symbol.name or f'({symbol.kind})', SYMBOL_KINDS[symbol.kind],
        to_range(index.span(symbol.start, symbol.end)),
        to_range(index.span(symbol.name_start, symbol.name_end)), detail=symbol.detail or None,
        children=[_document_symbol(child, text) for child in symbol.children] or None)


def workspace_symbols(files: Sequence[str], read: Callable[[str], str | None],
                      query: str) -> list[types.WorkspaceSymbol]:
    """The symbols of ``files`` whose name holds ``query`` (any case); a macro's its container."""
    found = []
    for path in files:
        text = read(path)
        flat: list[tuple[Symbol, str | None]] = [
            (symbol, None) for symbol in outline(text)] if text is not None else []
        flat += [(child, parent.name) for parent, _ in flat for child in parent.children]
        found += [types.WorkspaceSymbol(
            location=types.Location(path_to_uri(path), to_range(text_index(text or '').span(
                symbol.name_start, symbol.name_end))),
            name=symbol.name, kind=SYMBOL_KINDS[symbol.kind], container_name=container)
            for symbol, container in flat if query.lower() in symbol.name.lower()]
    return found


def _scope(server: Server, paths: Sequence[str]) -> tuple[list[str], list[Robot]]:
    """The files and models of the runs that use ``paths`` (of the checks and of the includes)."""
    using = set(paths)
    results = [result if result.robot is not None else server.loaded.get(run, result)
               for run, result in list(server.results.items()) if using & set(result.files)]
    files = dict.fromkeys([*paths, *(name for result in results for name in result.files)])
    graph = server._graph  # the workspace's include graph, once a file was checked
    stack = [name for path in paths for name in [path, *sorted(graph.includers(path))]] \
        if graph is not None else []
    while stack and graph is not None:  # the files each of those includes
        name = stack.pop()
        stack += [item for item in graph.includes.get(name, ()) if item not in files]
        files.setdefault(name)
    return list(files), [result.robot for result in results if result.robot is not None]


def _changes(sites: Sequence[Site], new: str | None, server: Server
             ) -> dict[str, list[types.TextEdit]]:
    """The sites as text edits (``new``) by URI."""
    changes: dict[str, list[types.TextEdit]] = {}
    for site in sites:
        index = server.index_of(site.path)
        if index is not None:
            changes.setdefault(path_to_uri(site.path), []).append(
                types.TextEdit(to_range(index.span(site.start, site.end)), new or ''))
    return changes


def register(server: Server) -> None:
    """Register this module's requests on ``server``."""

    def at(document: types.TextDocumentIdentifier, position: types.Position) -> Target | None:
        path = uri_to_path(document.uri)
        found = server.at(path, position) if path is not None and is_description(path) \
            else None
        if path is None or found is None:
            return None
        return target(path, *found, lambda paths: _scope(server, paths),
                      server.buffers.text_or_none)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_document_symbol(ls: Server, params: types.DocumentSymbolParams
                           ) -> list[types.DocumentSymbol]:
        path = uri_to_path(params.text_document.uri)
        text = ls.buffers.text_or_none(path) if path and is_description(path) else None
        return [_document_symbol(symbol, text) for symbol in outline(text)] if text else []

    @server.feature(types.WORKSPACE_SYMBOL)
    def on_workspace_symbol(ls: Server, params: types.WorkspaceSymbolParams
                            ) -> list[types.WorkspaceSymbol]:
        graph = ls._graph  # the workspace's description files, once a file was checked
        files = list(graph.includes) if graph is not None else description_files(
            [name for folder in ls.workspace.folders.values()
             if (name := uri_to_path(folder.uri))])
        files += [name for result in list(ls.results.values()) for name in result.files]
        return workspace_symbols(list(dict.fromkeys(os.path.abspath(name) for name in files)),
                                 ls.buffers.text_or_none, params.query)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: Server, params: types.ReferenceParams) -> list[types.Location]:
        try:
            named = at(params.text_document, params.position)
        except Refused:
            return []
        sites = [site for site in named.sites if params.context.include_declaration
                 or not site.definition] if named is not None else []
        return [types.Location(uri, edit.range)
                for uri, found in _changes(sites, None, ls).items() for edit in found]

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls: Server, params: types.PrepareRenameParams
                          ) -> types.PrepareRenamePlaceholder | None:
        try:
            named = at(params.text_document, params.position)
            if named is not None:
                refuse_expressions(named, ls.buffers.text_or_none)
        except Refused as exc:
            ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning,
                                                           f'urdf-tools: {exc}'))
            return None
        index = ls.index_of(named.here.path) if named is not None else None
        return None if named is None or index is None else types.PrepareRenamePlaceholder(
            to_range(index.span(named.here.start, named.here.end)), named.name)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def on_rename(ls: Server, params: types.RenameParams) -> types.WorkspaceEdit | None:
        try:
            named = at(params.text_document, params.position)
            if named is None:
                return None
            sites = edits(named, params.new_name, ls.buffers.text_or_none)
        except Refused as exc:
            raise JsonRpcException(f'urdf-tools: {exc}',
                                   code=types.LSPErrorCodes.RequestFailed) from exc
        return types.WorkspaceEdit(changes=_changes(sites, params.new_name, ls))
