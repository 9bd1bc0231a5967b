"""
One check pipeline: the configuration resolved once, then load and check, for every caller.

Every front end passes what it was given to :func:`resolve` and hands the :class:`Settings` it
returns to :func:`run` (or :meth:`Settings.load` and :meth:`Settings.check`); none merges a
configuration itself (CONVENTIONS C15). Precedence, for each setting:

* the configuration: the nearest ``.urdf-tools.toml`` or ``pyproject.toml [tool.urdf-tools]``
  upwards from the file (:func:`~.checks.config.find_config`; the current folder for standard
  input or a string), none with ``use_config=False``;
* ``target``: the caller's, else the configuration's, else :data:`~.checks.DEFAULT_TARGET`;
* ``select``: the caller's replaces the configuration's; ``ignore``: the caller's adds to it;
* ``werror``: the caller's when given (``True`` or ``False``), else the configuration's;
* packages: the caller's ``NAME=DIR`` and folders, then ``URDF_TOOLS_PACKAGE_PATH``, then this
  package (:func:`~.source.packages.make_package_locator`), then the colcon workspace around the
  file loaded (:func:`~.source.discovery.workspace_locator`), then the caller's locator (default:
  the ament index of a sourced ROS, :func:`~.source.packages.ament_package_locator`).

Each entry of ``select`` and ``ignore`` is checked against the rules here, naming where it was
written. The files of a run are read once (:attr:`~.source.loader.RobotDescription.sources`,
shared through ``texts``). A file that cannot be loaded is one ``description-unloadable`` error
(:func:`unloadable`); whether a run fails is :func:`failing`'s answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
import os
from pathlib import Path

from . import checks
from .checks import DEFAULT_TARGET, RULES
from .checks.config import Config, find_config
from .checks.rules.loading import UNLOADABLE
from .checks.selection import codes_matching
from .errors import RobotDescriptionError
from .findings import Finding, Severity
from .location import SourceLocation
from .source import loader
from .source.discovery import workspace_locator
from .source.loader import RobotDescription
from .source.packages import ament_package_locator, hinting, PACKAGE_HINT, PackageLocator

__all__ = ['CheckResult', 'Settings', 'call_notes', 'failing', 'include_chain', 'resolve', 'run',
           'unloadable']


@dataclass(frozen=True)
class Settings:
    """
    How a run loads and checks: the configuration, environment and options resolved once.

    :ivar target: Whose verdicts are errors, a key of :data:`~.checks.TARGETS`.
    :ivar select: Codes or prefixes to report (empty: every code).
    :ivar ignore: Codes or prefixes not to report.
    :ivar werror: Whether warnings fail the check.
    :ivar config: The configuration file's values (``Config()``: none found or read).
    :ivar package_paths: ``(name, share dir)`` pairs asked first for ``package://``.
    :ivar package_folders: Folders of packages, asked next.
    :ivar locator: Asked last (default: a sourced ROS's ament index); ``None``: none.
    :ivar is_xacro: Force (``True``) or skip (``False``) xacro; ``None``: by name and content.
    :ivar cross_check: Also read the description with urdf_parser_py.
    :ivar use_cache: Whether mesh facts may come from, and go to, the on-disk cache
        (:mod:`~.meshes.cache`).
    :ivar package_hint: The fix of a package not found, ``{package}`` its name (default: the
        command line's options, :data:`~.source.packages.PACKAGE_HINT`).
    """

    target: str = DEFAULT_TARGET
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    werror: bool = False
    config: Config = field(default_factory=Config)
    package_paths: tuple[tuple[str, str], ...] = ()
    package_folders: tuple[str, ...] = ()
    locator: PackageLocator | None = field(default=ament_package_locator, compare=False)
    is_xacro: bool | None = None
    cross_check: bool = False
    use_cache: bool = True
    package_hint: str = PACKAGE_HINT

    def load(self, source: str | os.PathLike[str], xacro_args: Mapping[str, str] | None = None,
             *, text: str | None = None, texts: MutableMapping[str, str] | None = None
             ) -> RobotDescription:
        """
        Load ``source`` (a file, ``-`` for standard input; or ``text`` named ``source``).

        :param texts: The files read so far in this run (each is read once per run).
        :raises RobotDescriptionError: if it cannot be loaded (the message names file:line).
        """
        name = os.fspath(source)
        locator = self.locator if name == '-' or name.startswith('<') \
            else workspace_locator(name, self.locator)
        options = dict(xacro_args=xacro_args, package_paths=dict(self.package_paths),
                       package_folders=self.package_folders, locator=locator,
                       is_xacro=self.is_xacro, cross_check=self.cross_check, texts=texts)
        with hinting(self.package_hint):
            if text is not None:  # through the module: a test may wrap its functions
                return loader.load_string(text, name, **options)  # type: ignore[arg-type]
            return loader.load(source, **options)  # type: ignore[arg-type]

    def check(self, description: RobotDescription) -> list[Finding]:
        """
        The findings reported about ``description`` (:func:`~.checks.check_description`).

        :raises UnknownCodeError: if a suppression comment names no rule.
        """
        with hinting(self.package_hint):
            return checks.check_description(description, self.target, select=self.select,
                                            ignore=self.ignore, use_cache=self.use_cache)


def _start(start: str | os.PathLike[str] | None) -> Path:
    name = '' if start is None else os.fspath(start)
    return Path.cwd() if not name or name == '-' or name.startswith('<') else Path(name)


def resolve(start: str | os.PathLike[str] | None = None, *, select: Sequence[str] = (),
            ignore: Sequence[str] = (), target: str | None = None, werror: bool | None = None,
            use_config: bool = True, package_paths: Mapping[str, str] | None = None,
            package_folders: Sequence[str] = (),
            locator: PackageLocator | None = ament_package_locator,
            is_xacro: bool | None = None, cross_check: bool = False, use_cache: bool = True,
            names: tuple[str, str] = ('--select', '--ignore'),
            package_hint: str = PACKAGE_HINT) -> Settings:
    """
    Resolve the settings of a run once, with the precedence of the module doc.

    :param start: The (first) file checked, where the configuration is looked for upwards;
        ``None``, ``-`` or ``<...>``: the current folder.
    :param werror: The caller's choice (``None``: the configuration's).
    :param names: How the caller's ``select`` and ``ignore`` are named in errors.
    :raises ConfigError: if the configuration found cannot be read or holds a wrong key or value.
    :raises UnknownCodeError: if an entry of ``select`` or ``ignore`` names no rule.
    """
    config = find_config(_start(start)) if use_config else Config()
    chosen = list(select) or list(config.select)
    ignored = [*config.ignore, *ignore]
    for entry in chosen:
        codes_matching(entry, names[0] if select else f'{config.path}: select')
    for entry in ignored:
        codes_matching(entry, names[1] if entry in ignore else f'{config.path}: ignore')
    return Settings(target or config.target or DEFAULT_TARGET, tuple(chosen), tuple(ignored),
                    bool(config.werror if werror is None else werror), config,
                    tuple((package_paths or {}).items()), tuple(package_folders), locator,
                    is_xacro, cross_check, use_cache, package_hint)


def failing(findings: Iterable[Finding], werror: bool = False) -> list[Finding]:
    """The findings that fail a check: every error and, with ``werror``, every warning."""
    return [finding for finding in findings if finding.severity is Severity.ERROR
            or (werror and finding.severity is Severity.WARNING)]


def unloadable(filename: str, error: RobotDescriptionError) -> Finding:
    """
    The finding of a description that cannot be loaded: one ``description-unloadable`` error.

    :param filename: The file as given (the location when ``error`` names no file).
    :param error: What the loader raised: its file and line are the finding's location, its
        reason the message, its fix (a missing file has none) and notes the finding's.
    """
    location = SourceLocation(getattr(error, 'filename', None) or filename,
                              getattr(error, 'line', None))
    message = getattr(error, 'reason', None) or str(error)
    return Finding(UNLOADABLE, Severity.ERROR, 'robot', f'cannot be loaded: {message}', location,
                   getattr(error, 'fix', None),
                   RULES[UNLOADABLE].consumers if UNLOADABLE in RULES else (),
                   tuple(getattr(error, 'notes', ())))


def include_chain(location: SourceLocation | None,
                  included_from: Mapping[str, SourceLocation]) -> list[SourceLocation]:
    """The ``<xacro:include>`` elements that lead to ``location``'s file, innermost first."""
    chain: list[SourceLocation] = []
    while location is not None and location.filename in included_from \
            and len(chain) < len(included_from):
        location = included_from[location.filename]
        chain.append(location)
    return chain


def call_notes(finding: Finding) -> list[tuple[SourceLocation, str]]:
    """
    The macro calls of each expansion that gave ``finding``, as ``(location, text)`` notes.

    Each chain innermost first: ``expanded by the call <xacro:caster side="left"> [1/4]``, then
    ``inside the call <xacro:base ...> [1/4]`` for the call whose body holds that call.
    """
    total = len(finding.calls)
    notes = []
    for number, chain in enumerate(finding.calls, 1):
        mark = f' [{number}/{total}]' if total > 1 else ''
        notes += [(call.location, f'{"inside" if depth else "expanded by"} the call {call}{mark}')
                  for depth, call in enumerate(chain)]
    return notes


@dataclass(frozen=True)
class CheckResult:
    """
    One description loaded and checked, or why it could not be loaded.

    :ivar source: What was loaded (its file name, ``-``, or the name given to a string).
    :ivar description: The description; ``None`` when it could not be loaded.
    :ivar findings: The findings reported; unloaded: the one :func:`unloadable` error.
    :ivar failure: Why it could not be loaded, or ``None``.
    """

    source: str
    description: RobotDescription | None
    findings: tuple[Finding, ...] = ()
    failure: RobotDescriptionError | None = None


def run(source: str | os.PathLike[str], settings: Settings,
        xacro_args: Mapping[str, str] | None = None, *, text: str | None = None,
        texts: MutableMapping[str, str] | None = None) -> CheckResult:
    """
    Load and check one description: the pipeline of every caller.

    :param source: A file, ``-`` for standard input, or the name of ``text``.
    :param text: The description itself (a parameter's XML), named ``source``.
    :param texts: The files read so far in this run, shared by its loads (each read once).
    :return: The result; a description that cannot be loaded is a :attr:`CheckResult.failure`.
    :raises UnknownCodeError: if a suppression comment names no rule.
    """
    try:
        description = settings.load(source, xacro_args, text=text, texts=texts)
    except RobotDescriptionError as exc:
        name = os.fspath(source)
        return CheckResult(name, None, (unloadable(name, exc),), exc)
    return CheckResult(description.filename, description, tuple(settings.check(description)))
