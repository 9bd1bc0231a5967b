"""
The workspace as the language server sees it: the runs that check a file.

Packages: :func:`~urdf_tools_ros.core.source.discovery.find_packages` (as colcon finds them).
Entries and includes: :mod:`urdf_tools_ros.core.source.entries`, as ``urdf-tools check DIR``
finds them; a xacro file made to be included is checked through the files that include it
(:meth:`IncludeGraph.runs_for`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
import os

from ..core.checks.config import Entry
from ..core.source import entries


@dataclass(frozen=True)
class Run:
    """One check of an entry file: the file and its xacro arguments ``(name, value)``."""

    file: str
    args: tuple[tuple[str, str], ...] = ()


class IncludeGraph(entries.IncludeGraph):
    """The include graph of the workspace's description files, and the runs of each file."""

    def runs_for(self, path: str, entries: Sequence[Entry] = (),
                 runs_of: Callable[[Entry], list[Run]] | None = None) -> list[Run]:
        """
        The checks that cover ``path``.

        Those of the configured entries that are it or include it, else of the topmost files
        that include it, else of ``path`` alone.

        :param entries: The configured entries.
        :param runs_of: The runs of an entry (its arguments, once per matrix combination);
            default one run with its ``args``.
        """
        path = os.path.abspath(path)
        includers = self.includers(path) | {path}
        runs: list[Run] = []
        for entry in entries:
            if str(entry.file) in includers:
                runs += runs_of(entry) if runs_of is not None else [Run(str(entry.file),
                                                                        entry.args)]
        if runs:
            return runs
        tops = sorted(name for name in includers - {path} if not self.included_by.get(name))
        return [Run(name) for name in tops] or [Run(path)]
