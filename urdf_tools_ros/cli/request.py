"""What one ``urdf-tools`` command line asks, read once from its parsed arguments."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
import os
from typing import Any

from urdf_tools_ros.core.session import resolve, Settings
from urdf_tools_ros.core.source.loader import parse_xacro_args, RobotDescription
from urdf_tools_ros.core.source.packages import parse_package_path


def _entries(values: list[str] | None) -> tuple[str, ...]:
    """``--select a,b --select c`` -> ``('a', 'b', 'c')``."""
    return tuple(part.strip() for value in values or () for part in value.split(',')
                 if part.strip())


@dataclass(frozen=True)
class CheckRequest:
    """
    The options of ``check`` (``--fix``, ``--diff``) and of the commands that load one file.

    Each field is the option of its name as given (a subcommand without it: the default).

    :ivar files: The files named (``-``: standard input), the ``name:=value`` words taken out.
    :ivar xacro_args: The ``name:=value`` xacro arguments, for every file.
    :ivar select: ``--select`` codes or prefixes, one per entry (``a,b`` is two).
    :ivar ignore: ``--ignore`` codes or prefixes, as ``select``.
    :ivar werror: ``--werror`` (``False``: the configuration's choice).
    """

    files: tuple[str, ...] = ()
    xacro_args: tuple[str, ...] = ()
    package_path: tuple[str, ...] = ()
    xacro: str = 'auto'
    urdf_parser_py: bool = False
    no_cache: bool = False
    matrix: tuple[str, ...] = ()
    jobs: int = 1
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    target: str | None = None
    werror: bool = False
    no_config: bool = False
    format: str = 'text'
    color: str = 'auto'
    output: str | None = None
    verbose: bool = False
    diff: bool = False
    fix: bool = False
    fix_inertia: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace) -> CheckRequest:
        """The request of parsed arguments (``file``: one, or ``check``'s files and arguments)."""
        given = vars(args)
        several = isinstance(given['file'], list)  # check's and diff's: with name:=value
        words = given['file'] if several else [given['file']]
        names = {field.name for field in fields(cls)}
        options: dict[str, Any] = {name: tuple(value) if isinstance(value, list) else value
                                   for name, value in given.items() if name in names}
        options.update(select=_entries(given.get('select')), ignore=_entries(given.get('ignore')),
                       files=tuple(word for word in words if not several or ':=' not in word),
                       xacro_args=(*(word for word in words if several and ':=' in word),
                                   *given.get('xacro_args', ())))
        return cls(**options)

    def settings(self, *, config: bool = False, start: str | None = None) -> Settings:
        """
        The pipeline's settings, resolved by :func:`~..core.session.resolve`.

        :param config: Also the configuration and the checking options; else loading alone.
        :param start: Where the configuration is looked for (default: the first file).
        :raises argparse.ArgumentTypeError: on a malformed or missing ``--package-path``.
        :raises ConfigError: if the configuration cannot be read or is wrong.
        :raises UnknownCodeError: if ``--select``, ``--ignore`` or the configuration names no
            rule.
        """
        paths, folders = _package_paths(self.package_path)
        return resolve(start or (self.files[0] if self.files else None), select=self.select,
                       ignore=self.ignore, target=self.target,
                       werror=True if self.werror else None,
                       use_config=config and not self.no_config, package_paths=paths,
                       package_folders=folders,
                       is_xacro={'auto': None, 'yes': True, 'no': False}[self.xacro],
                       cross_check=self.urdf_parser_py, use_cache=not self.no_cache)

    def load(self) -> RobotDescription:
        """
        Load the (first) file with the loading options, through the pipeline.

        :raises DescriptionLoadError: if it cannot be loaded.
        :raises ValueError: on a malformed ``name:=value`` (reported as usage).
        :raises argparse.ArgumentTypeError: as :meth:`settings`.
        """
        return self.settings().load(self.files[0], parse_xacro_args(list(self.xacro_args)))


def _package_paths(entries: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """
    ``--package-path`` values as ``({name: share dir}, [folder of packages, ...])``.

    :raises argparse.ArgumentTypeError: on ``NAME=`` without a directory, or one not there.
    """
    try:
        pairs, folders = parse_package_path(list(entries))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f'--package-path: {exc}') from None
    for entry, directory in [*((f'{name}={folder}', folder) for name, folder in pairs.items()),
                             *((folder, folder) for folder in folders)]:
        if not os.path.isdir(directory):
            raise argparse.ArgumentTypeError(
                f'--package-path {entry!r}: {directory} is not a folder (NAME=DIR names a '
                "package's share directory, DIR a folder of packages)")
    return pairs, folders
