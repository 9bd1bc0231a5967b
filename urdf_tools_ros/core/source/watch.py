"""
Watching the files a description was made from: the model and every xacro include.

A file's state is its modification time (ns) and size (``-1, -1`` when missing); the caller
polls :meth:`WatchedFiles.changed`. An edit that keeps both is not seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
import os

__all__ = ['FileState', 'WatchedFiles']


@dataclass(frozen=True)
class FileState:
    """
    One file as it was when taken.

    :ivar path: Its path, as given.
    :ivar mtime_ns: Its modification time, ns since the epoch; ``-1``: missing or unreadable.
    :ivar size: Its size, bytes; ``-1``: missing or unreadable.
    """

    path: str
    mtime_ns: int = -1
    size: int = -1

    @classmethod
    def of(cls, path: str) -> FileState:
        """The state of file ``path`` now (``-1, -1`` when it cannot be read with ``stat``)."""
        try:
            status = os.stat(path)
        except OSError:
            return cls(path)
        return cls(path, status.st_mtime_ns, status.st_size)


@dataclass(frozen=True)
class WatchedFiles:
    """
    The files watched and their states when taken.

    :ivar states: One per file, in the order given; each path once.
    """

    states: tuple[FileState, ...] = ()

    @classmethod
    def of(cls, paths: Iterable[str]) -> WatchedFiles:
        """Take the state of each of ``paths`` now (a path given twice is watched once)."""
        return cls(tuple(FileState.of(path) for path in dict.fromkeys(paths)))

    @property
    def paths(self) -> tuple[str, ...]:
        """The files watched."""
        return tuple(state.path for state in self.states)

    def changed(self) -> WatchedFiles | None:
        """The files' states now (a new :class:`WatchedFiles`) if any differs, else ``None``."""
        now = WatchedFiles.of(self.paths)
        return None if now == self else now
