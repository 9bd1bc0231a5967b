"""
The check pipeline of ``urdf-tools check`` on the editor's text, one entry run at a time.

:func:`check_run` loads one entry file with its xacro arguments (the editor's text of every open
file, :class:`~.documents.Buffers`), checks it with the configuration that applies to it (found
upwards from the entry, as ``check`` finds it) and returns every finding, a file that cannot be
loaded as the one ``description-unloadable`` error ``check`` reports
(:func:`~urdf_tools_ros.cli.report.load_failure`), located where the text breaks.
:func:`findings_by_file` places the findings of several runs in their files, each once: a file's
diagnostics are the findings that ``urdf-tools check ENTRY`` places in it, across every entry
that includes it.

A run can be cancelled (newer text arrived): the reader of the xacro includes asks
``cancelled`` before each file and raises :class:`Cancelled`, and the run asks it between its
steps; a cancelled run returns nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
import os
from pathlib import Path

from .documents import Buffers
from .workspace import Run
from ..cli.report import load_failure
from ..core.checks import check_description, DEFAULT_TARGET
from ..core.checks.config import Config, ConfigError, find_config
from ..core.description.loader import load_string
from ..core.description.model import Robot
from ..core.description.packages import PackageLocator
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding
from ..core.location import SourceLocation


class Cancelled(Exception):
    """A run was cancelled: newer text of one of its files arrived."""


@dataclass(frozen=True)
class Settings:
    """
    How runs load and check, besides each entry's configuration.

    :ivar package_paths: ``{name: share dir}`` of ``--package-path NAME=DIR``.
    :ivar package_folders: Folders of packages, ``--package-path DIR``.
    :ivar locator: Asked after those and ``URDF_TOOLS_PACKAGE_PATH``: the workspace's packages,
        then ament_index.
    :ivar target: The target when no configuration names one.
    """

    package_paths: Mapping[str, str] = field(default_factory=dict)
    package_folders: Sequence[str] = ()
    locator: PackageLocator | None = None
    target: str = DEFAULT_TARGET


@dataclass(frozen=True)
class RunResult:
    """
    What one run found.

    :ivar run: The entry file and its arguments.
    :ivar findings: Every finding ``urdf-tools check`` reports for it.
    :ivar files: The files it covers, absolute: the entry and each include (where it failed:
        the entry and the file it failed in).
    :ivar included_from: ``{file: the <xacro:include> that read it}``, for the include chain.
    :ivar robot: The model (``None`` when it could not be loaded), for the fixes.
    :ivar config_error: The configuration's error, when it could not be read (the defaults
        were used).
    :ivar target: The target the findings' severities are for.
    """

    run: Run
    findings: tuple[Finding, ...]
    files: tuple[str, ...]
    included_from: Mapping[str, SourceLocation] = field(default_factory=dict)
    robot: Robot | None = None
    config_error: str | None = None
    target: str = DEFAULT_TARGET


def _config(path: str) -> tuple[Config, str | None]:
    try:
        return find_config(Path(path)), None
    except ConfigError as exc:
        return Config(), str(exc)


def check_run(run: Run, settings: Settings, buffers: Buffers,
              cancelled: Callable[[], bool] = lambda: False) -> RunResult:
    """
    Load and check one entry run on the editor's text.

    :raises Cancelled: if ``cancelled()`` became true meanwhile.
    """
    config, config_error = _config(run.file)
    target = config.target or settings.target

    def read(path: str) -> str:
        if cancelled():
            raise Cancelled(path)
        return buffers.read_text(path)

    entry = os.path.abspath(run.file)
    try:
        description = load_string(
            read(entry), entry, xacro_args=dict(run.args), package_paths=settings.package_paths,
            package_folders=settings.package_folders, locator=settings.locator, read_text=read)
        if cancelled():
            raise Cancelled(entry)
        findings = check_description(description, target,
                                     select=config.select, ignore=config.ignore,
                                     read=buffers.get)
    except RobotDescriptionError as exc:
        if cancelled():
            raise Cancelled(entry) from None
        failure = load_failure(entry, exc).findings
        where = failure[0].location.filename if failure[0].location else entry
        return RunResult(run, failure, tuple(dict.fromkeys((entry, os.path.abspath(where)))),
                         config_error=config_error, target=target)
    files = tuple(dict.fromkeys([entry, *(os.path.abspath(name)
                                          for name in description.dependencies)]))
    return RunResult(run, tuple(findings), files, description.included_from, description.robot,
                     config_error, target)


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
