"""
The check pipeline of ``urdf-tools check`` on the editor's text, one entry run at a time.

:func:`check_run` loads one entry file with its xacro arguments (the editor's text of every open
file, :class:`~.documents.Buffers`), checks it with the configuration that applies to it (found
upwards from the entry, as ``check`` finds it) and returns every finding, a file that cannot be
loaded as the one ``description-unloadable`` error ``check`` reports
(:func:`~urdf_tools_ros.core.session.unloadable`), located where the text breaks, and each
include or call in another file that leads there (:func:`chain_errors`). While a file is
half-typed, :func:`settle` keeps the last findings the edit did not touch, on their new lines.
:func:`findings_by_file` places the findings of several runs in their files, each once: a file's
diagnostics are the findings that ``urdf-tools check ENTRY`` places in it, across every entry
that includes it.

A run can be cancelled (newer text arrived): the reader of the xacro includes asks
``cancelled`` before each file and raises :class:`Cancelled`, and the run asks it between its
steps; a cancelled run returns nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
import os
from pathlib import Path

from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.session import resolve, Settings, unloadable
from urdf_tools_ros.core.source.loader import read_source
from urdf_tools_ros.core.source.packages import make_package_locator, PackageLocator
from .documents import Buffers
from .settings import EditorSettings
from .workspace import Run
from ..core.checks import DEFAULT_TARGET
from ..core.checks.config import ConfigError, find_config
from ..core.checks.selection import UnknownCodeError
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding
from ..core.location import SourceLocation
from ..core.source.entries import include_lines

#: The message of the error of text that is not well-formed XML (half-typed).
_MALFORMED = 'cannot be loaded: malformed XML'


class Cancelled(Exception):
    """A run was cancelled: newer text of one of its files arrived."""


@dataclass(frozen=True)
class RunResult:
    """
    What one run found.

    :ivar run: The entry file and its arguments.
    :ivar findings: Every finding ``urdf-tools check`` reports for it.
    :ivar files: The files it covers, absolute: the entry and each include (where it failed:
        the entry, the file it failed in and those of the includes on the way).
    :ivar included_from: ``{file: the <xacro:include> that read it}``, for the include chain.
    :ivar robot: The model (``None`` when it could not be loaded), for the fixes.
    :ivar config_error: The configuration's error, when it could not be read (the defaults
        were used).
    :ivar target: The target the findings' severities are for.
    :ivar locate: The package locator the run resolved ``$(find)`` and ``package://`` with
        (:attr:`~..core.source.loader.RobotDescription.locate`), for hover and definition.
    :ivar inputs: ``(path, text)`` of every file the run read, then of its configuration file
        (:func:`configuration_of`), for :func:`inputs_unchanged`.
    """

    run: Run
    findings: tuple[Finding, ...]
    files: tuple[str, ...]
    included_from: Mapping[str, SourceLocation] = field(default_factory=dict)
    robot: Robot | None = None
    config_error: str | None = None
    target: str = DEFAULT_TARGET
    locate: PackageLocator | None = field(default=None, compare=False, repr=False)
    inputs: tuple[tuple[str, str | None], ...] = field(default=(), compare=False, repr=False)


def _text_now(path: str, buffers: Buffers) -> str | None:
    """The text of ``path`` a run reads now, as it keeps it (:func:`read_source`), or ``None``."""
    text = buffers.get(path)
    if text is not None:
        return text
    read: dict[str, str] = {}
    try:
        read_source(path, read)
    except RobotDescriptionError:
        return None
    return read.get(os.path.abspath(path))


def configuration_of(entry: str, buffers: Buffers) -> tuple[str, str | None]:
    """
    ``(path, text)`` of the configuration file that applies to ``entry`` now.

    ``('', None)`` when there is none, ``('', the error)`` when it cannot be read.
    """
    try:
        path = find_config(Path(entry)).path
    except ConfigError as exc:
        return '', str(exc)
    if path is None:
        return '', None
    return os.path.abspath(path), _text_now(os.path.abspath(path), buffers)


def inputs_unchanged(result: RunResult, buffers: Buffers) -> bool:
    """
    Whether a run would read the same texts now as when it gave ``result``.

    The files it read (the editor's text of the open ones) and its configuration file; the
    meshes and ``package.xml`` files are not compared. A result without inputs is never
    unchanged.
    """
    if not result.inputs or configuration_of(result.run.file, buffers) != result.inputs[-1]:
        return False
    return all(_text_now(path, buffers) == text for path, text in result.inputs[:-1])


class _EditorTexts(dict[str, str]):
    """
    The files of one run, the pipeline's ``texts``.

    The editor's unsaved text where a file is open, else what the loader reads from disk;
    asking for one raises :class:`Cancelled` once ``cancelled()`` is true, so a check stops at
    its next file when newer text arrives.
    """

    def __init__(self, buffers: Buffers, cancelled: Callable[[], bool]) -> None:
        super().__init__()
        self._buffers, self._cancelled = buffers, cancelled

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        if self._cancelled():
            raise Cancelled(key)
        if key not in self:
            text = self._buffers.get(key)
            if text is None:
                return default
            self[key] = text
        return self[key]


def check_run(run: Run, settings: Settings, buffers: Buffers,
              cancelled: Callable[[], bool] = lambda: False,
              editor: EditorSettings = EditorSettings()) -> RunResult:
    """
    Load and check one entry run on the editor's text, through the check pipeline.

    The configuration is resolved as for ``urdf-tools check ENTRY``
    (:func:`~urdf_tools_ros.core.session.resolve`: the ``.urdf-tools.toml`` or
    ``[tool.urdf-tools]`` found upwards from the entry; without it when it cannot be read).

    :param settings: The server's, without a configuration: its packages (``--package-path``,
        then the workspace's packages and ament_index).
    :param editor: The editor's settings: its ``select``, ``ignore`` and ``target`` come before
        the configuration's, as ``check``'s options do.
    :raises Cancelled: if ``cancelled()`` became true meanwhile.
    """
    entry = os.path.abspath(run.file)
    try:
        pipeline, config_error = resolve(
            entry, select=editor.select, ignore=editor.ignore, target=editor.target,
            package_paths=dict(settings.package_paths), package_folders=settings.package_folders,
            locator=settings.locator, package_hint=settings.package_hint,
            names=('select', 'ignore')), None
    except (ConfigError, UnknownCodeError) as exc:
        pipeline, config_error = settings, str(exc)  # the server's: no configuration
    target = pipeline.target
    texts = _EditorTexts(buffers, cancelled)
    configuration = configuration_of(entry, buffers)

    def inputs() -> tuple[tuple[str, str | None], ...]:
        return (*texts.items(), configuration)

    try:
        description = pipeline.load(entry, dict(run.args), texts=texts)
        if cancelled():
            raise Cancelled(entry)
        findings = pipeline.check(description)
    except RobotDescriptionError as exc:
        if cancelled():
            raise Cancelled(entry) from None
        failure = unloadable(entry, exc)
        found = (failure, *chain_errors(failure, entry, dict(texts), make_package_locator(
            dict(pipeline.package_paths), pipeline.locator,
            package_folders=pipeline.package_folders)))
        covered = [entry, *(os.path.abspath(f.location.filename) for f in found if f.location)]
        return RunResult(run, found, tuple(dict.fromkeys(covered)), config_error=config_error,
                         target=target, inputs=inputs())
    files = tuple(dict.fromkeys([entry, *(os.path.abspath(name)
                                          for name in description.dependencies)]))
    return RunResult(run, tuple(findings), files, description.included_from, description.robot,
                     config_error, target, description.locate, inputs())


def _include_path(texts: Mapping[str, str], entry: str, target: str,
                  locate: PackageLocator) -> list[SourceLocation]:
    """The ``<xacro:include>`` elements from ``entry`` to ``target`` in ``texts``, fewest."""
    ways: dict[str, list[SourceLocation]] = {entry: []}
    queue = [entry]
    for path in queue:
        for included, line in include_lines(path, texts.get(path, ''), locate):
            if included not in ways:
                ways[included] = [*ways[path], SourceLocation(path, line)]
                queue.append(included)
    return ways.get(target, [])


def chain_errors(failure: Finding, entry: str, texts: Mapping[str, str],
                 locate: PackageLocator) -> list[Finding]:
    """
    The places in other files that lead to where ``entry`` cannot be loaded, each an error.

    The ``<xacro:include>`` elements and macro calls the failure notes (each once: a cycle
    notes them again and again), else the includes from ``entry`` to the failure's file
    through ``texts`` (a malformed file stops xacro before it notes them). Each error names
    the failure's place and reason, and notes the failure (its related information).

    :param failure: The :func:`~urdf_tools_ros.core.session.unloadable` error.
    :param texts: The files the run read, by absolute path.
    :param locate: Resolves ``$(find PKG)`` in the includes.
    """
    where = failure.location
    if where is None:
        return []
    root = os.path.abspath(where.filename)
    chain = [place for place, _ in failure.notes] or \
        (_include_path(texts, entry, root, locate) if root != entry else [])
    reason = failure.message.removeprefix('cannot be loaded: ')
    return [replace(failure, message=f'cannot be loaded: {os.path.basename(root)}'
                                     f'{f":{where.line}" if where.line else ""}: {reason}',
                    location=place, notes=((where, failure.message),))
            for place in dict.fromkeys(chain) if os.path.abspath(place.filename) != root]


def _line_map(old: str, new: str) -> dict[int, int]:
    """``{1-based line of old: its line in new}`` of the lines an edit left as they were."""
    before, after = old.splitlines(), new.splitlines()
    head = tail = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    moved = {line: line for line in range(1, head + 1)}
    moved.update((len(before) - k, len(after) - k) for k in range(tail))
    middle = SequenceMatcher(None, before[head:len(before) - tail],
                             after[head:len(after) - tail], autojunk=False)
    for first, second, size in middle.get_matching_blocks():
        moved.update((head + first + k + 1, head + second + k + 1) for k in range(size))
    return moved


def settle(result: RunResult, last_loaded: RunResult | None, buffers: Buffers) -> RunResult:
    """
    The result of a run to publish, given its last result that loaded a model.

    While a file the editor has open is not well-formed XML (half-typed), the parse error
    beside the findings of ``last_loaded``, each on its line in the text now, without those on
    the lines the edits changed (:class:`difflib.SequenceMatcher` on the lines); else
    ``result``. The settled result keeps ``result``'s model (none: no fixes are offered) and
    inputs (the texts now, :func:`inputs_unchanged`).

    :param result: What the run found now.
    :param last_loaded: Its last result that loaded a model, or ``None``.
    :param buffers: The editor's texts now.
    """
    failure = result.findings[0] if result.robot is None and result.findings else None
    if last_loaded is None or failure is None or failure.location is None or \
            not failure.message.startswith(_MALFORMED) or \
            buffers.get(failure.location.filename) is None:
        return result
    now = dict(result.inputs[:-1])
    maps = {path: _line_map(old, now.get(path) or buffers.get(path) or old)
            for path, old in last_loaded.inputs[:-1] if old is not None}

    def moved(place: SourceLocation | None) -> SourceLocation | None:
        lines = maps.get(os.path.abspath(place.filename)) if place is not None else None
        if lines is None or place is None or place.line is None:
            return place
        return replace(place, line=lines[place.line]) if place.line in lines else None

    carried = [replace(finding, location=moved(finding.location), notes=tuple(
        (note, text) for where, text in finding.notes for note in [moved(where)] if note),
        calls=tuple(tuple(replace(call, location=moved(call.location) or call.location)
                          for call in chain) for chain in finding.calls))
        for finding in last_loaded.findings  # not those on an edited line
        if finding.location is None or moved(finding.location) is not None]
    included_from = {name: place for name, where in last_loaded.included_from.items()
                     for place in [moved(where)] if place is not None}
    return replace(result, findings=(*result.findings, *carried),
                   files=tuple(dict.fromkeys((*result.files, *last_loaded.files))),
                   included_from=included_from)


def finding_file(finding: Finding, result: RunResult) -> str:
    """The absolute path of the file a finding of ``result`` stands in (the entry's if none)."""
    location = finding.location
    if location is None or location.filename.startswith('<'):
        return os.path.abspath(result.run.file)
    return os.path.abspath(location.filename)


def findings_by_file(results: Iterable[RunResult]
                     ) -> dict[str, list[tuple[Finding, RunResult]]]:
    """
    ``{file: [(finding, its run), ...]}`` of every file the runs cover, each finding once.

    A finding found by several runs (one included file, several entries) is kept once: the same
    code, severity, element, line and message. Every covered file has an entry (empty: clean).
    """
    placed: dict[str, list[tuple[Finding, RunResult]]] = {}
    seen: set[tuple[object, ...]] = set()
    for result in results:
        for name in result.files:
            placed.setdefault(name, [])
        for finding in result.findings:
            name = finding_file(finding, result)
            key = (name, finding.code, finding.severity, finding.element,
                   finding.location.line if finding.location else None, finding.message)
            if key in seen:
                continue
            seen.add(key)
            placed.setdefault(name, []).append((finding, result))
    return placed
