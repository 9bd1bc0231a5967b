"""
The checker's defaults from a configuration file, found upwards from the file checked.

The first ``.urdf-tools.toml`` or ``pyproject.toml`` (``[tool.urdf-tools]``) up from the file.
Keys: ``select``, ``ignore``, ``target``, ``werror``, ``entries`` (paths, or tables) and
``exclude`` (globs of files that are no entries)::

    exclude = ["test/*"]

    [[entries]]
    file = "urdf/robot.urdf.xacro"
    args = {prefix = "r1_"}
    matrix = {use_gripper = ["true", "false"]}

What a package's check covers is :func:`package_runs`: its entries when the configuration names
some in it, else the entries found in it (:func:`~..source.entries.find_entries`) less
``exclude``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatch
import os
from pathlib import Path
import sys
from typing import Any

from .registry import TARGETS
from ..errors import RobotDescriptionError
from ..source.discovery import workspace_locator
from ..source.entries import find_entries
from ..source.matrix import Combination, combinations, MatrixError
from ..source.packages import ament_package_locator

__all__ = ['Config', 'ConfigError', 'Entry', 'find_config', 'package_runs', 'read_config']

#: The keys a configuration may hold, with their types.
KEYS: dict[str, type] = {'select': list, 'ignore': list, 'target': str, 'werror': bool,
                         'entries': list, 'exclude': list}


class ConfigError(RobotDescriptionError, ValueError):
    """A configuration file that cannot be read, does not parse, or holds a wrong key or value."""


@dataclass(frozen=True)
class Entry:
    """
    One robot description the configuration names (its ``entries``).

    :ivar file: Its path, absolute (written relative to the configuration's folder).
    :ivar args: Its xacro arguments ``(name, value)``.
    :ivar matrix: Values of further xacro arguments ``(name, (value, ...))``, one check per
        combination.
    """

    file: Path
    args: tuple[tuple[str, str], ...] = ()
    matrix: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def runs(self) -> list[Combination]:
        """
        Its xacro arguments once per matrix combination: ``args`` then the combination's.

        :raises MatrixError: if the matrix names an argument ``args`` gives too.
        """
        twice = {name for name, _ in self.args} & {name for name, _ in self.matrix}
        if twice:
            raise MatrixError(f'entry {self.file}: {", ".join(sorted(twice))} in both args and '
                              'matrix')
        return [self.args + combination for combination in combinations(dict(self.matrix))]


@dataclass(frozen=True)
class Config:
    """
    Checker defaults.

    :ivar path: The file they come from (``None``: no file found).
    :ivar select: Codes or prefixes to report (empty: every rule).
    :ivar ignore: Codes or prefixes not to report.
    :ivar target: The ``--target`` default, or ``None``.
    :ivar werror: Whether warnings fail the check.
    :ivar entries: The project's robot descriptions (:class:`Entry`), in order.
    :ivar exclude: Globs of files that are no entries, relative to the file's folder (``*``
        also matches ``/``; a glob that matches a folder excludes what it holds).
    """

    path: Path | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    target: str | None = None
    werror: bool = False
    entries: tuple[Entry, ...] = ()
    exclude: tuple[str, ...] = ()

    def excluded(self, path: str) -> bool:
        """Whether ``exclude`` names the file ``path`` or a folder above it."""
        if self.path is None or not self.exclude:
            return False
        relative = Path(os.path.relpath(path, self.path.parent.resolve()))
        return any(fnmatch(part.as_posix(), glob) for part in [relative, *relative.parents]
                   for glob in self.exclude)


def _entry(path: Path, value: Any) -> Entry:
    """One item of ``entries``: a path, or a table of ``file``, ``args`` and ``matrix``."""
    table = {'file': value} if isinstance(value, str) else value
    if not isinstance(table, dict) or not isinstance(table.get('file'), str) \
            or set(table) - {'file', 'args', 'matrix'}:
        raise ConfigError(f'{path}: each of entries must be a file name or a table of file, '
                          f'args and matrix, not {value!r}')
    args, matrix = table.get('args', {}), table.get('matrix', {})
    if not isinstance(args, dict) or not all(isinstance(v, str) for v in args.values()):
        raise ConfigError(f'{path}: entries: args of {table["file"]} must be a table of '
                          f'strings, not {args!r}')
    if not isinstance(matrix, dict) or not all(
            isinstance(v, list) and v and all(isinstance(x, str) for x in v)
            for v in matrix.values()):
        raise ConfigError(f'{path}: entries: matrix of {table["file"]} must be a table of '
                          f'lists of strings, not {matrix!r}')
    return Entry(path.parent.resolve() / table['file'], tuple(args.items()),
                 tuple((name, tuple(values)) for name, values in matrix.items()))


def _toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 (Humble), where ROS has no rosdep key for tomli
        try:
            import tomli as tomllib  # type: ignore[import-not-found]
        except ImportError:
            raise ConfigError(f'{path}: reading it needs tomli on Python 3.10 '
                              '(pip install tomli), or --no-config') from None
    try:
        with open(path, 'rb') as stream:
            data: dict[str, Any] = tomllib.load(stream)
    except OSError as exc:
        raise ConfigError(f'{path}: cannot read: {exc.strerror or exc}') from None
    except tomllib.TOMLDecodeError as exc:  # its message names the line and column
        raise ConfigError(f'{path}: not valid TOML: {exc}') from None
    return data


def read_config(path: Path, table: dict[str, Any] | None = None) -> Config:
    """The configuration in ``path`` (or ``table``); :exc:`ConfigError` for a bad key or value."""
    data = _toml(path) if table is None else table
    for key, value in data.items():
        if key not in KEYS:
            raise ConfigError(f'{path}: unknown key {key!r} (known: {", ".join(KEYS)})')
        if KEYS[key] is list and isinstance(value, str):
            value = [value]
        wrong = not isinstance(value, KEYS[key]) or (
            isinstance(value, list) and key != 'entries'
            and not all(isinstance(v, str) for v in value))
        if wrong:
            kind = {'entries': 'a list of files', 'exclude': 'a list of globs'}.get(
                key, 'a list of rule codes' if KEYS[key] is list else KEYS[key].__name__)
            raise ConfigError(f'{path}: {key} must be {kind}, not {value!r}')
        if key == 'target' and value not in TARGETS:
            raise ConfigError(f'{path}: target {value!r} is not one of {", ".join(TARGETS)}')
        data = {**data, key: value}
    return Config(path, tuple(data.get('select', ())), tuple(data.get('ignore', ())),
                  data.get('target'), bool(data.get('werror', False)),
                  tuple(_entry(path, item) for item in data.get('entries', ())),
                  tuple(data.get('exclude', ())))


def find_config(start: Path) -> Config:
    """The configuration for files in ``start``; :exc:`ConfigError` as :func:`read_config`."""
    folder = start if start.is_dir() else start.parent
    for place in [folder.resolve(), *folder.resolve().parents]:
        dotfile = place / '.urdf-tools.toml'
        if dotfile.is_file():
            return read_config(dotfile)
        pyproject = place / 'pyproject.toml'
        if pyproject.is_file():
            table = _toml(pyproject).get('tool', {}).get('urdf-tools')
            if table is not None:
                if not isinstance(table, dict):
                    raise ConfigError(f'{pyproject}: [tool.urdf-tools] must be a table')
                return read_config(pyproject, table)
    return Config()


def package_runs(folder: Path, config: Config) -> list[tuple[str, Combination]]:
    """
    What a check of the package (or folder) ``folder`` covers: ``(file, xacro arguments)``.

    The entries of ``config`` (the configuration found from ``folder``) in ``folder``, each
    once per combination (:meth:`Entry.runs`); none: every entry found in it
    (:func:`~..source.entries.find_entries`, includes followed through the packages of its
    workspace and the ament index) that its ``exclude`` does not name.

    :raises MatrixError: if an entry gives an argument in both ``args`` and ``matrix``.
    """
    folder = folder.resolve()
    inside = [entry for entry in config.entries if folder in entry.file.parents]
    if inside:
        return [(str(entry.file), run) for entry in inside for run in entry.runs()]
    locate = workspace_locator(str(folder / 'package.xml'), ament_package_locator)
    return [(path, ()) for path in find_entries(str(folder), locate, config.excluded)]
