"""
Watching the files a description was made from: the model and every xacro include.

A :class:`WatchedFiles` is the state of each file when it was taken: its path, modification time
(ns) and size, a missing or unreadable file as ``-1, -1``. :meth:`WatchedFiles.changed` takes the
state again and returns it when any file differs (edited, replaced, removed or made again), else
``None``; the caller polls it (the robot description node, every ``watch_period`` s of steady
time) and keeps what it returns. The files are those of
:attr:`~urdf_tools_ros.core.source.loader.RobotDescription.dependencies`.

An edit that keeps both the modification time and the size is not seen; an editor that writes
in the same nanosecond tick the same number of bytes is the only such case on the file systems
in use.
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
        """
        The files' states now if any differs from when they were taken, else ``None``.

        :return: A new :class:`WatchedFiles` of the same paths, to keep for the next poll.
        """
        now = WatchedFiles.of(self.paths)
        return None if now == self else now
