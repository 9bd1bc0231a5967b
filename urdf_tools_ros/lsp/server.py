"""
The language server: pygls 2 on stdio, the checker behind it (see the package doc).

Each ``didOpen``, ``didSave`` (at once) and ``didChange`` (after :attr:`Server.debounce`
seconds without newer text) marks the file; the marked files' runs (:meth:`~.workspace
.IncludeGraph.runs_for`, and every earlier run that covered them) are checked in one worker
thread, so the server keeps answering; newer text cancels a check in progress
(:class:`~.checking.Cancelled`) and a new one starts after it. The run whose entry is the
changed file goes first, then the quickest; a run whose inputs did not change keeps its result.
Each changed file gets its diagnostics after every run that covers it (those found so far: the
first come after one run); then the changed files and every other file the runs cover get
their diagnostics (an empty list when it is clean): the union across the runs, each finding
once. A file whose diagnostics did not change is not sent again, unless it is one whose text
changed (the editor, and ``bench/bench_lsp.py``, learn that its new text was checked).

Hover, definition and completion answer from the last results (:meth:`Server.result_for`) and
the editor's text (:mod:`.hover`, :mod:`.definition`, :mod:`.completion`).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
import functools
import logging
import os
from pathlib import Path
import threading
import time

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from urdf_tools_ros.core.source.matrix import MatrixError
from urdf_tools_ros.core.source.packages import ament_package_locator, make_package_locator
from .actions import Action, actions_for
from .checking import (Cancelled, check_run, findings_by_file, inputs_unchanged, RunResult,
                       settle)
from .completion import complete, Item
from .definition import definition
from .diagnostics import to_diagnostic, to_range
from .documents import Buffers, path_to_uri, uri_to_path
from .hover import hover
from .ranges import text_index, TextIndex
from .settings import editor_settings, EditorSettings
from .workspace import IncludeGraph, Run
from ..core.checks.config import ConfigError, Entry, find_config
from ..core.checks.rules.loading import NOT_AN_ENTRY
from ..core.findings import Finding, Severity
from ..core.location import SourceLocation
from ..core.session import resolve, Settings
from ..core.source.discovery import find_packages, workspace_root
from ..core.source.entries import description_files, is_description, only_definitions

log = logging.getLogger(__name__)

#: Seconds without newer text before a changed file is checked.
DEBOUNCE = 0.15
#: The fix of a package not found, as an editor's user can act on it.
PACKAGE_HINT = ('source ROS in the shell that starts the editor, or set packagePath '
                '("{package}=DIR" or a folder of packages) in the server\'s settings')


class Server(LanguageServer):
    """
    ``urdf-tools lsp``: diagnostics and code actions for robot descriptions.

    :param package_paths: ``--package-path NAME=DIR`` pairs.
    :param package_folders: ``--package-path DIR`` folders.
    :param debounce: Seconds without newer text before a changed file is checked.
    """

    def __init__(self, package_paths: dict[str, str] | None = None,
                 package_folders: list[str] | None = None, debounce: float = DEBOUNCE,
                 version: str = '0') -> None:
        super().__init__('urdf-tools', version)
        self.buffers = Buffers()
        self.debounce = debounce
        self._package_paths = dict(package_paths or {})
        self._package_folders = list(package_folders or [])
        self._settings: Settings | None = None
        #: What the editor set (:mod:`.settings`); :meth:`configure` changes it.
        self.editor = EditorSettings()
        self._reset = False
        self._lensed: frozenset[str] = frozenset()  # the entries the client has lenses of
        self._graph: IncludeGraph | None = None
        self._packages: dict[str, str] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix='urdf-check')
        self._generation = 0
        self._lock = threading.Lock()
        self._dirty: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self.results: dict[Run, RunResult] = {}
        #: The last result of each run that loaded a model (hover, definition and completion
        #: keep answering while the text is half-typed).
        self.loaded: dict[Run, RunResult] = {}
        self.placed: dict[str, list[tuple[Finding, RunResult]]] = {}
        self._sent: dict[str, list[types.Diagnostic]] = {}
        #: The seconds each run's last check took (the quickest go first).
        self._seconds: dict[Run, float] = {}

    # -- workspace ------------------------------------------------------------------------------
    def configure(self, options: object) -> None:
        """
        Take the editor's settings (:mod:`.settings`) and check the open files again with them.

        :raises ConfigError: if a setting has a wrong value (the settings in use stay).
        :raises UnknownCodeError: if ``select`` or ``ignore`` names no rule.
        """
        roots = self.workspace_roots()
        editor = editor_settings(options, roots[0] if roots else os.getcwd())
        resolve(use_config=False, select=editor.select, ignore=editor.ignore,
                names=('select', 'ignore'))
        if editor != self.editor:
            self.editor = editor
            if editor.debounce is not None:
                self.debounce = editor.debounce
            self.refresh()

    def refresh(self) -> None:
        """Read the workspace again (folders, packages, settings) and check the open files."""
        with self._lock:
            self._reset = True
        for path in self.buffers.paths():
            self.mark(path, 0.0)

    def workspace_roots(self) -> list[str]:
        """The editor's workspace folders (else its root), absolute."""
        roots = [uri_to_path(folder.uri) for folder in self.workspace.folders.values()]
        return [root for root in roots if root] or \
            ([self.workspace.root_path] if self.workspace.root_path else [])

    def _setup(self, path: str) -> None:
        """The workspace's packages and include graph, read again after :meth:`refresh`."""
        with self._lock:
            reset, self._reset = self._reset, False
        if self._settings is not None and not reset:
            return
        if reset:  # new packages or settings: every run is checked again
            self.results.clear()
        folder = Path(path).parent  # no workspace: the file's package, else its folder
        roots = self.workspace_roots() or [str(next((place for place in [folder, *folder.parents]
                                                     if (place / 'package.xml').is_file()),
                                                    folder))]
        packages = self._packages = find_packages(roots)

        def locate(name: str) -> str | None:
            return packages.get(name) or ament_package_locator(name)

        pairs, folders, _ = self.package_sources()
        self._settings = resolve(use_config=False, package_paths=pairs, package_folders=folders,
                                 locator=locate, package_hint=PACKAGE_HINT)
        self._graph = IncludeGraph(
            description_files(roots), self.buffers.text_or_none,
            make_package_locator(pairs, locate, package_folders=folders))

    def package_sources(self) -> tuple[dict[str, str], list[str], dict[str, str]]:
        """
        Where the server finds packages, first asked first.

        :return: ``NAME=DIR`` pairs (the editor's ``packagePath``, then ``--package-path``), the
            folders of packages (the same), and the packages of the workspace ``{name: DIR}``.
        """
        return ({**dict(self.editor.package_paths), **self._package_paths},
                [*self.editor.package_folders, *self._package_folders], dict(self._packages))

    def _add_package_of(self, path: str) -> None:
        """The packages of the colcon workspace around a file (a client's narrow root)."""
        around = workspace_root(path)
        if around is not None:
            for name, share in find_packages([around]).items():
                self._packages.setdefault(name, share)

    def _entries(self, path: str) -> tuple[Entry, ...]:
        """The entries that apply to ``path``: the editor's, then its configuration's."""
        try:
            return (*self.editor.entries, *find_config(Path(path)).entries)
        except ConfigError:
            return self.editor.entries

    def _runs_for(self, path: str, earlier: bool = True) -> list[Run]:
        """The runs that cover ``path`` now (and, with ``earlier``, those that did)."""
        assert self._graph is not None  # noqa: S101 - set by _setup, in this thread

        def runs_of(entry: Entry) -> list[Run]:
            try:
                return [Run(str(entry.file), args) for args in entry.runs()]
            except MatrixError:  # an argument in both args and matrix: check says so
                return []

        runs = self._graph.runs_for(path, self._entries(path), runs_of)
        if earlier:
            runs += [run for run, result in self.results.items() if path in result.files]
        return list(dict.fromkeys(run for run in runs if self.buffers.get(run.file) is not None
                                  or os.path.isfile(run.file)))  # not deleted

    def _prune(self) -> set[str]:
        """
        Forget the runs that no longer cover their own entry file, and their files.

        A run of a file that is now included by another (a new entry), or that was deleted.
        """
        files: set[str] = set()
        for run in list(self.results):
            if run not in self._runs_for(os.path.abspath(run.file), earlier=False):
                files.update(self.results.pop(run).files)
                self.loaded.pop(run, None)
        return files

    def _not_an_entry(self, result: RunResult) -> RunResult:
        """
        ``result``, or for a file of macros that nothing includes, one info that says so.

        Such a file gives no links and no joints (xacro expands no macro of it), so only those
        results are looked at again.
        """
        assert self._graph is not None  # noqa: S101 - set by _setup, in this thread
        run, path = result.run, os.path.abspath(result.run.file)
        if run.args or (result.robot is not None and (result.robot.links or result.robot.joints)) \
                or self._graph.included_by.get(path) \
                or any(str(entry.file) == path for entry in self._entries(path)):
            return result
        text = self.buffers.text_or_none(path)
        root = only_definitions(text) if text is not None else None
        if root is None:
            return result
        return replace(result, robot=None, files=(path,), findings=(Finding(
            NOT_AN_ENTRY, Severity.INFO, 'robot',
            'not an entry: this file only holds definitions (macros, properties, args, '
            'materials) and no file of the workspace includes it, so it is not checked as a '
            'robot; open a file that includes it, or name one in the entries of the settings or '
            'of .urdf-tools.toml',
            SourceLocation(path, root.first_line)),))

    # -- checking -------------------------------------------------------------------------------
    def mark(self, path: str, delay: float) -> None:
        """Check ``path`` (and what includes it) after ``delay`` seconds without newer text."""
        with self._lock:
            self._generation += 1
            self._dirty.add(path)
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._check_later(delay))

    async def _check_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        with self._lock:
            generation, dirty = self._generation, set(self._dirty)
            self._dirty.clear()
        loop = asyncio.get_running_loop()
        done: set[str] | None = None
        try:
            done = await loop.run_in_executor(self._executor, self._check, dirty, generation,
                                              loop)
            if done is not None:
                self._publish(done, dirty, self.placed)
                self._refresh_lenses()
        except Exception as exc:  # a bug must not stop the server: said once, in its log
            done = set()
            log.exception('urdf-tools lsp: check failed')
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Error, f'urdf-tools: internal error: {exc!r}'))
        finally:
            if done is None:  # cancelled (newer text): its check takes these files too
                with self._lock:
                    self._dirty |= dirty

    def _refresh_lenses(self) -> None:
        """Ask the client for code lenses again when the entries that loaded changed."""
        entries = frozenset(run.file for run in self.loaded)
        workspace = self.client_capabilities.workspace
        lenses = workspace.code_lens if workspace is not None else None
        if entries != self._lensed and lenses is not None and lenses.refresh_support:
            self._lensed = entries
            self.workspace_code_lens_refresh(None)

    def _check(self, dirty: set[str], generation: int,
               loop: asyncio.AbstractEventLoop) -> set[str] | None:
        """
        Run the checks of ``dirty`` (worker thread); the files to publish, or ``None``.

        The runs go in order: those whose entry is a changed file, then the quickest last time.
        A run whose inputs are unchanged (:func:`~.checking.inputs_unchanged`) keeps its result.
        After each run but the last, the changed files it covers are published with the
        results of this check so far (later runs add to them).
        """
        self._setup(next(iter(dirty)))
        assert self._graph is not None  # noqa: S101 - set by _setup

        def cancelled() -> bool:
            return self._generation != generation

        before: set[str] = set()  # what the changed files included: its runs may be others now
        for path in dirty:
            self._add_package_of(path)
            before.update(self._graph.includes.get(path, ()))
            text = self.buffers.text_or_none(path)
            self._graph.update(path, text if text is not None else '')  # '': deleted
        pruned = self._prune()
        marked = sorted(dirty | {path for path in pruned | before
                                 if self.buffers.get(path) is not None})
        runs = sorted(dict.fromkeys(run for path in marked for run in self._runs_for(path)),
                      key=lambda run: (os.path.abspath(run.file) not in dirty,
                                       self._seconds.get(run, 0.0)))
        covered: set[str] = set(dirty) | pruned
        for number, run in enumerate(runs):
            old = self.results.get(run)
            if old is None or not inputs_unchanged(old, self.buffers):
                start = time.perf_counter()
                try:
                    result = self._not_an_entry(check_run(
                        run, self._settings or Settings(), self.buffers, cancelled, self.editor))
                except Cancelled:
                    return None
                self._seconds[run] = time.perf_counter() - start
                self._new(run, result)
            else:
                result = old
            covered.update(result.files)
            if old is not None:
                covered.update(old.files)
            shown = dirty.intersection(result.files)
            if shown and number < len(runs) - 1:
                placed = findings_by_file(self.results[done] for done in runs[:number + 1])
                loop.call_soon_threadsafe(self._publish_early, shown, generation, placed)
        if cancelled():
            return None
        self.placed = findings_by_file(self.results.values())
        # a file no run covers any more loses the diagnostics it was sent
        covered.update(path for path in map(uri_to_path, [uri for uri, sent in self._sent.items()
                                                          if sent]) if path is not None)
        return covered

    def _new(self, run: Run, result: RunResult) -> None:
        """Keep the new ``result`` of ``run`` (worker thread)."""
        result = settle(result, self.loaded.get(run), self.buffers)
        self.results[run] = result
        if result.robot is not None:
            self.loaded[run] = result
        if result.config_error:
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Warning, f'urdf-tools: {result.config_error}'))

    def _publish_early(self, paths: set[str], generation: int,
                       placed: dict[str, list[tuple[Finding, RunResult]]]) -> None:
        if generation == self._generation:  # else newer text is being checked
            self._publish(paths, paths, placed)

    def index_of(self, path: str) -> TextIndex | None:
        """A file's text (the editor's when open), indexed; ``None`` if it cannot be read."""
        text = self.buffers.text_or_none(path)
        return text_index(text) if text is not None else None

    def diagnostics(self, path: str, placed: dict[str, list[tuple[Finding, RunResult]]] | None
                    = None) -> list[types.Diagnostic]:
        """The diagnostics of ``path`` from the latest results (or from ``placed``)."""
        found = (self.placed if placed is None else placed).get(path, [])
        if not found:
            return []
        index = self.index_of(path) or TextIndex('')
        index_of = functools.lru_cache(maxsize=None)(  # each related file read once
            lambda name: self.index_of(os.path.abspath(name)))
        return [to_diagnostic(finding, result, index, index_of) for finding, result in found]

    def _publish(self, paths: set[str], changed: set[str],
                 placed: dict[str, list[tuple[Finding, RunResult]]]) -> None:
        for path in sorted(paths, key=lambda path: (path not in changed, path)):
            diagnostics = self.diagnostics(path, placed)
            uri = path_to_uri(path)
            if self._sent.get(uri) == diagnostics and path not in changed:
                continue
            self._sent[uri] = diagnostics
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    # -- code actions ---------------------------------------------------------------------------
    def actions(self, path: str, line_range: types.Range) -> list[Action]:
        """The fixes and suppressions of the findings of ``path`` on the lines of the range."""
        index = self.index_of(path)
        if index is None:
            return []
        return actions_for(self.placed.get(path, []), path, index,
                           (line_range.start.line, line_range.end.line),
                           self.buffers.read_text, self.index_of)

    # -- hover, definition, completion ----------------------------------------------------------
    def result_for(self, path: str) -> RunResult | None:
        """
        The last result of the run whose entry is ``path``, else of one that covers it.

        A run whose text cannot be loaded now gives its last result that loaded a model.
        """
        results = [result if result.robot is not None else self.loaded.get(run, result)
                   for run, result in list(self.results.items())]  # the worker adds results
        return next((result for result in results if os.path.abspath(result.run.file) == path),
                    next((result for result in results if path in result.files), None))

    def at(self, path: str, position: types.Position) -> tuple[str, int] | None:
        """The editor's text of ``path`` and the offset of an LSP position in it."""
        text = self.buffers.text_or_none(path)
        if text is None:
            return None
        return text, text_index(text).offset(position.line, position.character)


#: LSP's kind of each :class:`~.completion.Item` kind.
COMPLETION_KINDS = {'link': types.CompletionItemKind.Reference,
                    'joint': types.CompletionItemKind.Reference,
                    'macro': types.CompletionItemKind.Function,
                    'parameter': types.CompletionItemKind.Variable,
                    'property': types.CompletionItemKind.Constant,
                    'arg': types.CompletionItemKind.Variable}
#: The characters after which a client asks for completions.
TRIGGER_CHARACTERS = ['"', "'", '{', ':', ' ']


def to_completion_item(item: Item, index: TextIndex, offset: int) -> types.CompletionItem:
    """An LSP completion item of a :class:`~.completion.Item` typed up to ``offset``."""
    return types.CompletionItem(
        label=item.label, kind=COMPLETION_KINDS.get(item.kind), detail=item.detail,
        text_edit=types.TextEdit(to_range(index.span(item.start, offset)), item.label))


def to_code_action(action: Action) -> types.CodeAction:
    """An LSP quick fix of an :class:`~.actions.Action`."""
    changes: dict[str, list[types.TextEdit]] = {}
    for path, span, text in action.edits:
        changes.setdefault(path_to_uri(path), []).append(types.TextEdit(to_range(span), text))
    return types.CodeAction(title=action.title, kind=types.CodeActionKind.QuickFix,
                            edit=types.WorkspaceEdit(changes=changes),
                            is_preferred=action.preferred or None)


def core_server(**options: object) -> Server:
    """A :class:`Server` with this module's handlers (``options``: as :class:`Server` takes)."""
    server = Server(**options)  # type: ignore[arg-type]

    def check_later(uri: str, delay: float) -> None:
        """Take the editor's text of a description file and check it after ``delay`` s."""
        path = uri_to_path(uri)
        if path is None or not is_description(path):
            return
        server.buffers.set(path, server.workspace.get_text_document(uri).source)
        server.mark(path, delay)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: Server, params: types.DidOpenTextDocumentParams) -> None:
        check_later(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: Server, params: types.DidChangeTextDocumentParams) -> None:
        check_later(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: Server, params: types.DidSaveTextDocumentParams) -> None:
        check_later(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: Server, params: types.DidCloseTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is not None and is_description(path):
            ls.buffers.close(path)
            ls.mark(path, 0.0)  # back to the disk's text

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(ls: Server, params: types.CodeActionParams) -> list[types.CodeAction]:
        path = uri_to_path(params.text_document.uri)
        if path is None or not is_description(path):
            return []
        return [to_code_action(action) for action in ls.actions(path, params.range)]

    def place(document: types.TextDocumentIdentifier, position: types.Position
              ) -> tuple[str, str, int] | None:
        path = uri_to_path(document.uri)
        if path is None or not is_description(path):
            return None
        found = server.at(path, position)
        return (path, *found) if found is not None else None

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: Server, params: types.HoverParams) -> types.Hover | None:
        where = place(params.text_document, params.position)
        if where is None:
            return None
        path, text, offset = where
        shown = hover(ls.result_for(path), path, text, offset, ls.buffers.text_or_none)
        if shown is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, shown.markdown),
                           to_range(shown.span))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: Server, params: types.DefinitionParams) -> list[types.Location]:
        where = place(params.text_document, params.position)
        if where is None:
            return []
        path, text, offset = where
        return [types.Location(path_to_uri(target.path), to_range(target.span))
                for target in definition(ls.result_for(path), path, text, offset,
                                         ls.buffers.text_or_none)]

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))
    def on_completion(ls: Server, params: types.CompletionParams) -> types.CompletionList:
        where = place(params.text_document, params.position)
        if where is None:
            return types.CompletionList(is_incomplete=False, items=[])
        path, text, offset = where
        index = text_index(text)
        items = complete(ls.result_for(path), path, text, offset, ls.buffers.text_or_none)
        return types.CompletionList(is_incomplete=False, items=[
            to_completion_item(item, index, offset) for item in items])

    return server
