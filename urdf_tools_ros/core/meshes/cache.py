"""
Mesh facts kept on disk between runs: a file is measured once per version, not once per check.

An sqlite3 database in :func:`cache_directory`, keyed by the file's real path, size and
modification time (ns), bounded to :data:`MAX_ENTRIES` (least recently used go first); facts
measured without manifold3d (no convex hulls) are kept in a file of their own. A cache that
cannot be used is never an error: a damaged file is made again, else meshes are read without
it. One connection per process and thread.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import sqlite3
import threading
import time
from typing import cast

from . import facts as _reading
from . import solids
from .facts import MeshFacts

__all__ = ['FILENAME', 'FILENAME_NO_HULLS', 'MAX_ENTRIES', 'MeshFactsCache', 'cache_directory',
           'mesh_facts', 'run_facts']

#: Most entries the cache keeps; beyond, the least recently used are removed.
MAX_ENTRIES = 20000
#: The cache file's name in :func:`cache_directory`; its schema version is in the name.
FILENAME = 'mesh-facts-2.sqlite3'
#: The name of the file of facts measured without manifold3d.
FILENAME_NO_HULLS = 'mesh-facts-2-no-hulls.sqlite3'
#: Seconds a process waits for another one's write before it goes on without the cache.
_TIMEOUT = 5.0
#: The formats whose failures are kept (read without a library; pycollada may be installed).
_OWN_FORMATS = ('stl', 'obj')
#: Seconds after which a use refreshes an entry's ``used`` time (for the eviction order).
_REFRESH = 86400.0
_SCHEMA = ('CREATE TABLE IF NOT EXISTS facts (path TEXT NOT NULL, size INTEGER NOT NULL, '
           'mtime_ns INTEGER NOT NULL, facts TEXT NOT NULL, used REAL NOT NULL, '
           'PRIMARY KEY (path, size, mtime_ns))')


def cache_directory() -> Path:
    """``$XDG_CACHE_HOME/urdf-tools``, or ``~/.cache/urdf-tools`` (XDG Base Directory spec)."""
    base = os.environ.get('XDG_CACHE_HOME', '')
    root = Path(base) if os.path.isabs(base) else Path.home() / '.cache'
    return root / 'urdf-tools'


def _key(path: str) -> tuple[str, int, int]:
    """``(real path, size in bytes, modification time in ns)``; raises :exc:`OSError`."""
    real = os.path.realpath(path)
    status = os.stat(real)
    return real, status.st_size, status.st_mtime_ns


def _encode(facts: MeshFacts) -> str:
    return json.dumps([facts.format, facts.lower, facts.upper, facts.triangles, facts.problem,
                       facts.ascii, facts.solid])


def _decode(text: str) -> MeshFacts:
    """:raises ValueError: if ``text`` is not what :func:`_encode` writes."""
    try:
        kind, lower, upper, triangles, problem, ascii, solid = json.loads(text)
        box = [None if corner is None else (float(corner[0]), float(corner[1]), float(corner[2]))
               for corner in (lower, upper)]
        if solid is not None:
            watertight, volume, pyramid, thickness, hull = solid
            solid = solids.Solid(watertight, float(volume), float(pyramid), float(thickness),
                                 None if hull is None else float(hull))
    except (TypeError, IndexError, KeyError, ValueError) as exc:
        raise ValueError(f'not a mesh facts entry: {text!r}') from exc
    if not isinstance(kind, str) or type(triangles) is not int or not (
            problem is None or isinstance(problem, str)) or not isinstance(ascii, bool) or not (
            solid is None or isinstance(solid.watertight, bool)):
        raise ValueError(f'not a mesh facts entry: {text!r}')
    return MeshFacts(kind, box[0], box[1], triangles, problem, ascii, solid)


class MeshFactsCache:
    """
    The on-disk cache of mesh facts, opened on first use and shared by every check of a process.

    :param directory: Where the cache file is; default :func:`cache_directory`.
    """

    def __init__(self, directory: Path | None = None, max_entries: int = MAX_ENTRIES) -> None:
        self.path = (directory or cache_directory()) / (
            FILENAME if solids.hulls_measured() else FILENAME_NO_HULLS)
        self.max_entries = max_entries
        self._connection: sqlite3.Connection | None = None
        self._broken = False

    def facts(self, path: str, solid: bool = False) -> MeshFacts:
        """
        The facts of the mesh file at ``path``, cached; :exc:`OSError` if it cannot be read.

        :param solid: Whether its solid is wanted: a kept entry without one is measured again.
        """
        key = _key(path)
        kept = self._lookup(key)
        if kept is not None and (kept.solid is not None or not solid or not kept.readable):
            return kept
        facts = _reading.read_mesh_facts(path, solid)
        if facts.readable or facts.format in _OWN_FORMATS:
            self._store(key, facts)
        return facts

    def _connect(self) -> sqlite3.Connection | None:
        """The open database, or ``None`` when there is no usable cache."""
        if self._connection is not None or self._broken:
            return self._connection
        for attempt in range(2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(str(self.path), timeout=_TIMEOUT,
                                             isolation_level=None)
                try:
                    connection.execute('PRAGMA synchronous = OFF')
                    connection.execute(_SCHEMA)
                except sqlite3.Error:
                    connection.close()
                    raise
                self._connection = connection
                return connection
            except (sqlite3.Error, OSError) as exc:
                if attempt or not _is_corrupt(exc):
                    break
                _remove(self.path)  # not a database: made again, once
        self._broken = True
        return None

    def _lookup(self, key: tuple[str, int, int]) -> MeshFacts | None:
        connection = self._connect()
        if connection is None:
            return None
        try:
            row = connection.execute('SELECT facts, used FROM facts WHERE path = ? AND size = ? '
                                     'AND mtime_ns = ?', key).fetchone()
            if row is None:
                return None
            facts = _decode(row[0])
            now = time.time()
            if not now - _REFRESH < row[1] <= now:
                connection.execute('UPDATE facts SET used = ? WHERE path = ? AND size = ? '
                                   'AND mtime_ns = ?', (now, *key))
            return facts
        except ValueError:
            return None  # an entry that is not ours: replaced when the file is read again
        except sqlite3.Error as exc:
            self._give_up(exc)
            return None

    def _store(self, key: tuple[str, int, int], facts: MeshFacts) -> None:
        connection = self._connect()
        if connection is None:
            return
        try:
            # one transaction: the entry replaces the path's other versions, then the bound
            connection.execute('BEGIN IMMEDIATE')
            try:
                connection.execute('DELETE FROM facts WHERE path = ?', (key[0],))
                connection.execute('INSERT INTO facts VALUES (?, ?, ?, ?, ?)',
                                   (*key, _encode(facts), time.time()))
                count = connection.execute('SELECT COUNT(*) FROM facts').fetchone()[0]
                if count > self.max_entries:
                    connection.execute('DELETE FROM facts WHERE rowid IN (SELECT rowid FROM '
                                       'facts ORDER BY used LIMIT ?)',
                                       (count - self.max_entries,))
                connection.execute('COMMIT')
            except BaseException:
                connection.execute('ROLLBACK')
                raise
        except sqlite3.Error as exc:
            self._give_up(exc)

    def _give_up(self, exc: sqlite3.Error) -> None:
        """Stop using the cache in this process; remove a file that is no database."""
        self.close()
        self._broken = True
        if _is_corrupt(exc):
            _remove(self.path)

    def close(self) -> None:
        """Close the database (it is opened again on the next use unless it failed)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _is_corrupt(exc: BaseException) -> bool:
    """Whether sqlite3 says the file is no database (or a damaged one)."""
    text = str(exc).lower()
    return 'not a database' in text or 'malformed' in text or 'corrupt' in text


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


#: The cache of each directory, process and thread (a sqlite3 connection is used in one only).
_SHARED: dict[tuple[Path, int, int], MeshFactsCache] = {}


def mesh_facts(path: str, use_cache: bool = True, solid: bool = False) -> MeshFacts:
    """
    The facts of a mesh file, kept on disk between runs (:class:`MeshFactsCache`).

    :param use_cache: ``False`` reads the file without the cache (``--no-cache``).
    :param solid: Whether its solid (:attr:`MeshFacts.solid`) is wanted.
    :raises OSError: if the file does not exist or cannot be read.
    """
    if not use_cache:
        return _reading.read_mesh_facts(path, solid)
    where = (cache_directory(), os.getpid(), threading.get_ident())
    cache = _SHARED.get(where)
    if cache is None:
        cache = _SHARED[where] = MeshFactsCache(where[0])
    return cache.facts(path, solid)


def run_facts(memo: dict[str, object], path: str, use_cache: bool = True,
              solid: bool = False) -> MeshFacts | None:
    """
    The facts of a mesh file, read at most once per check run (:func:`mesh_facts`).

    :param memo: The run's scratch dictionary (``CheckContext.cache``); the facts are kept in it.
    :param solid: Whether its solid is wanted; the first caller of a run asks for it where any
        caller will (a collision mesh's), or the file is read again.
    :return: The facts, or ``None`` when the file does not exist or cannot be read.
    """
    seen = cast('dict[str, MeshFacts | None]', memo.setdefault('mesh-facts', {}))
    kept = seen.get(path)
    if path not in seen or solid and kept is not None and kept.readable and kept.solid is None:
        try:
            seen[path] = mesh_facts(path, use_cache, solid)
        except OSError:
            seen[path] = None
    return seen[path]
