"""
Resolving ``package://``, ``$(find pkg)``, ``file://`` and relative resource paths.

A caller passes a *package locator*, ``name -> share directory or None`` (the core does not
import ``ament_index_python``); :func:`make_package_locator` builds one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
import contextlib
from contextvars import ContextVar
import os
from pathlib import Path
import re
import sys
from urllib.parse import unquote, urlparse

#: A callable that maps a ROS package name to its share directory, or ``None`` if unknown.
PackageLocator = Callable[[str], 'str | None']

#: Environment variable with extra package locations, ``os.pathsep``-separated. Each entry is
#: ``NAME=DIR`` (DIR is the package's share directory) or a folder of packages
#: (:func:`package_in_folders`); relative directories are relative to the current directory.
PACKAGE_PATH_ENV = 'URDF_TOOLS_PACKAGE_PATH'

#: The fix of a package not found by ``$(find)`` or ``package://``, ``{package}`` its name: the
#: command line's; a front end gives its own (``Settings.package_hint``, :func:`hinting`).
PACKAGE_HINT = ('give --package-path {package}=DIR (its share directory) or --package-path DIR '
                '(a folder of packages), set URDF_TOOLS_PACKAGE_PATH, or source the ROS '
                'installation or workspace that has it')
_HINT: ContextVar[str] = ContextVar('package_hint', default=PACKAGE_HINT)
#: A package name (REP 127 with its exemptions, as ament_index_python checks it).
_PACKAGE_NAME = re.compile(r'[a-zA-Z0-9][a-zA-Z0-9_-]+', re.ASCII)
_THIS_PACKAGE = 'urdf_tools_ros'


def parse_package_path(entries: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """
    Split ``NAME=DIR`` and ``DIR`` entries into ``({name: dir}, [folder of packages, ...])``.

    :raises ValueError: if a ``NAME=DIR`` entry has an empty name or directory.
    """
    pairs: dict[str, str] = {}
    search: list[str] = []
    for entry in entries:
        if not entry:
            continue
        if '=' in entry:
            name, _, directory = entry.partition('=')
            if not name or not directory:
                raise ValueError(f'package path {entry!r}: expected NAME=DIR')
            pairs[name] = directory
        else:
            search.append(entry)
    return pairs, search


def package_in_folders(name: str, folders: Iterable[str]) -> str | None:
    """
    The first ``<folder>/<name>`` that is a folder (its share directory), or ``None``.

    A folder of packages holds one folder per package (an install prefix's ``share/``).
    """
    for folder in folders:
        candidate = os.path.join(folder, name)
        if os.path.isdir(candidate):
            return candidate
    return None


def this_package_share() -> str | None:
    """Return the share directory of urdf_tools_ros (a source checkout or install), or ``None``."""
    source_root = Path(__file__).resolve().parents[3]
    if (source_root / 'package.xml').is_file() and (source_root / 'urdf').is_dir():
        return str(source_root)
    installed = Path(sys.prefix) / 'share' / _THIS_PACKAGE
    if installed.is_dir():
        return str(installed)
    return None


def ament_package_locator(name: str) -> str | None:
    """
    The share directory of ROS package ``name`` in the ament index of a sourced ROS, or ``None``.

    ``<prefix>/share/<name>`` of the first prefix of ``AMENT_PREFIX_PATH`` whose index has
    ``share/ament_index/resource_index/packages/<name>``, as ament_index_python reads it.
    """
    if _PACKAGE_NAME.fullmatch(name) is None:
        return None
    for prefix in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        if prefix and os.path.exists(os.path.join(prefix, 'share', 'ament_index',
                                                  'resource_index', 'packages', name)):
            return os.path.join(prefix, 'share', name)
    return None


def package_fix(package: str) -> str:
    """The fix of ``package`` not found: the run's hint (:func:`hinting`) naming it."""
    return _HINT.get().replace('{package}', package)


@contextlib.contextmanager
def hinting(hint: str) -> Iterator[None]:
    """Make :func:`package_fix` say ``hint`` within the block, in this thread or task only."""
    token = _HINT.set(hint)
    try:
        yield
    finally:
        _HINT.reset(token)


def make_package_locator(package_paths: Mapping[str, str] | None = None,
                         fallback: PackageLocator | None = None,
                         environ: Mapping[str, str] | None = None,
                         package_folders: Iterable[str] = ()) -> PackageLocator:
    """
    A locator ``name -> absolute share dir or None``.

    Order: ``package_paths`` (share directories by name), ``package_folders``, the pairs and
    folders of :data:`PACKAGE_PATH_ENV` (in ``environ``, default ``os.environ``), urdf_tools_ros
    itself, ``fallback`` (e.g. ament_index). Directories are made absolute here.
    """
    env = os.environ if environ is None else environ
    env_pairs, env_folders = parse_package_path(env.get(PACKAGE_PATH_ENV, '').split(os.pathsep))
    pairs = [{name: os.path.abspath(directory) for name, directory in given.items()}
             for given in (package_paths or {}, env_pairs)]
    folders = [[os.path.abspath(folder) for folder in given]
               for given in (package_folders, env_folders)]

    def locate(name: str) -> str | None:
        for named, searched in zip(pairs, folders):
            share = named.get(name) or package_in_folders(name, searched)
            if share is not None:
                return share
        if name == _THIS_PACKAGE:
            own = this_package_share()
            if own is not None:
                return own
        if fallback is not None:
            try:
                return fallback(name)
            except (LookupError, ValueError, OSError):
                return None
        return None

    return locate


def resolve_resource(filename: str, base_dir: str | None,
                     locate: PackageLocator | None) -> str | None:
    """
    Map a URDF resource reference (mesh or texture filename) to a local path.

    ``package://pkg/rest`` -> ``<share of pkg>/rest``; ``file:///abs`` -> ``/abs``; a relative
    path -> under ``base_dir``; a ``service://`` URL of a served description -> the file it was
    made from. Whether the file exists is not checked.

    :param base_dir: Directory of the description file, or ``None`` for a string input.
    :param locate: Package locator, or ``None`` to leave ``package://`` unresolved.
    :return: A local path, or ``None`` (unknown package, ``http://`` and other schemes).
    """
    if filename.startswith('service://'):
        path = filename[len('service://'):].partition(':')[2]
        if path.startswith('package/'):
            return resolve_resource('package://' + path[len('package/'):], base_dir, locate)
        return '/' + path[len('file/'):] if path.startswith('file/') else None
    if filename.startswith('package://'):
        rest = filename[len('package://'):]
        package, _, relative = rest.partition('/')
        if not package or locate is None:
            return None
        share = locate(package)
        if share is None:
            return None
        return os.path.join(share, unquote(relative))
    if filename.startswith('file://'):
        return unquote(urlparse(filename).path) or None
    if '://' in filename:
        return None
    if os.path.isabs(filename):
        return filename
    if base_dir is None:
        return None
    return os.path.join(base_dir, filename)


def draw_path(filename: str, resolved: str | None, locate: PackageLocator | None) -> str | None:
    """
    The local file a viewer can draw a resource from: ``resolved``, or where a slip points.

    ``package:///pkg/rest`` (three slashes) names no package for ROS, but when ``locate`` knows
    ``pkg`` this gives ``<share of pkg>/rest``, what the author meant.

    :param resolved: What :func:`resolve_resource` gave for ``filename``.
    :return: A local path (whether the file exists is not checked), or ``None``.
    """
    if resolved is not None:
        return resolved
    if not filename.startswith('package:///') or locate is None:
        return None
    package, _, relative = filename[len('package:///'):].partition('/')
    share = locate(package) if package else None
    return None if share is None else os.path.join(share, unquote(relative))
