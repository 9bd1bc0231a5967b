"""
The editor's settings of ``urdf-tools lsp``.

They come in ``initializationOptions`` and the ``urdf-tools`` section of
``workspace/configuration``: one object, its keys as in ``.urdf-tools.toml`` where the role
is the same::

    {"packagePath": ["DIR", "NAME=DIR"], "entries": [{"file": "urdf/robot.urdf.xacro",
     "args": {"prefix": "r1_"}, "matrix": {"use_gripper": ["true", "false"]}}],
     "target": "ros-jazzy", "select": ["joint-"], "ignore": [], "debounce": 150}

``entries``, ``target``, ``select`` and ``ignore`` are read as the configuration file's keys
(:func:`~urdf_tools_ros.core.checks.config.read_config`), entry files relative to the first
workspace folder; they come before the configuration file's, as ``check``'s options do.
``debounce`` is in ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.checks.config import ConfigError, Entry, read_config
from ..core.source.packages import parse_package_path

#: The section of ``workspace/configuration`` the server asks for.
SECTION = 'urdf-tools'
#: The keys the server reads, and the configuration file's name of each.
KEYS = {'packagePath': None, 'entries': 'entries', 'target': 'target', 'select': 'select',
        'ignore': 'ignore', 'debounce': None}


@dataclass(frozen=True)
class EditorSettings:
    """
    What the editor set.

    :ivar package_paths: ``NAME=DIR`` of ``packagePath``.
    :ivar package_folders: The folders of packages of ``packagePath``.
    :ivar entries: The entries, files absolute.
    :ivar target: The target, or ``None`` (the configuration's, else the default).
    :ivar select: Codes or prefixes to report (empty: the configuration's).
    :ivar ignore: Codes or prefixes not to report, beside the configuration's.
    :ivar debounce: Seconds without newer text before a check, or ``None`` (the server's).
    """

    package_paths: tuple[tuple[str, str], ...] = ()
    package_folders: tuple[str, ...] = ()
    entries: tuple[Entry, ...] = ()
    target: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    debounce: float | None = None


def editor_settings(options: Any, root: str) -> EditorSettings:
    """
    Read the editor's settings object.

    :param options: The object (``None`` or an empty one: nothing set); keys it does not know
        are left alone (an editor sends its own).
    :param root: The folder entry files and relative package folders are relative to.
    :raises ConfigError: if a known key has a wrong value; the message names it.
    """
    if options is None:
        return EditorSettings()
    if not isinstance(options, dict):
        raise ConfigError(f'settings: expected an object, not {options!r}')
    where = Path(root) / 'settings'
    table = {str(KEYS[key]): value for key, value in options.items()
             if KEYS.get(key) is not None and value is not None}
    config = read_config(where, table)
    paths = options.get('packagePath') or []
    if isinstance(paths, str):
        paths = [paths]
    if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
        raise ConfigError(f'settings: packagePath must be a list of DIR or NAME=DIR, '
                          f'not {paths!r}')
    try:
        pairs, folders = parse_package_path(paths)
    except ValueError as exc:
        raise ConfigError(f'settings: {exc}') from None
    debounce = options.get('debounce')
    if debounce is not None and (isinstance(debounce, bool) or not isinstance(
            debounce, (int, float)) or not 0 <= debounce <= 10000):
        raise ConfigError(f'settings: debounce must be a number of ms (0 to 10000), '
                          f'not {debounce!r}')
    absolute = Path(root).resolve()
    return EditorSettings(
        tuple((name, str(absolute / folder)) for name, folder in pairs.items()),
        tuple(str(absolute / folder) for folder in folders), config.entries, config.target,
        config.select, config.ignore, None if debounce is None else debounce / 1000)
