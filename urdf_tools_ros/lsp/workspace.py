"""
The workspace as the language server sees it: its packages and the entry files of a xacro file.

Packages: :func:`~urdf_tools_ros.core.source.discovery.find_packages` (as colcon finds them).

Entries: a xacro file made to be included is checked through the files that include it
(:meth:`IncludeGraph.runs_for`). An include written with an expression that needs xacro's
evaluation (``${prefix}``, ``$(arg ...)``) cannot be followed here and is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import os

from .documents import is_description
from ..core.checks.config import Entry
from ..core.source.discovery import MAX_DEPTH, SKIPPED
from ..core.source.scanner import Element, SUBSTITUTION, tags_holding, tokens


@dataclass(frozen=True)
class Run:
    """One check of an entry file: the file and its xacro arguments ``(name, value)``."""

    file: str
    args: tuple[tuple[str, str], ...] = ()


def _folders(root: str) -> Iterable[tuple[str, list[str], list[str]]]:
    """``os.walk`` of ``root`` without :data:`SKIPPED` and hidden folders, to :data:`MAX_DEPTH`."""
    base = root.rstrip(os.sep).count(os.sep)
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith('.')
                               and name not in SKIPPED
                               and folder.count(os.sep) - base < MAX_DEPTH)
        yield folder, subfolders, files


def description_files(roots: Iterable[str]) -> list[str]:
    """Every ``.urdf`` and ``.xacro`` file under the workspace folders, absolute."""
    return [os.path.join(folder, name) for root in roots for folder, _, files in _folders(root)
            for name in sorted(files) if is_description(name)]


def include_target(written: str, base: str, locate: Callable[[str], str | None] | None
                   ) -> str | None:
    """
    The file an include's ``filename`` names, relative to ``base``'s folder as xacro reads it.

    ``$(find PKG)`` is ``locate(PKG)``; ``None`` when the name still holds an expression
    (``${...}``, ``$(arg ...)``) or names a package not found.
    """
    name = written
    for match in SUBSTITUTION.finditer(written):
        if match.group(1) == 'find' and match.group(3):
            name = name.replace(match.group(0), locate and locate(match.group(2)) or '$')
    return None if '$' in name else os.path.normpath(os.path.join(os.path.dirname(base), name))


def includes_of(path: str, text: str, locate: Callable[[str], str | None]) -> list[str]:
    """The files ``text`` (of ``path``) includes, absolute, as far as they can be told."""
    found = []
    for element in tags_holding(text, '<xacro:include'):
        written = element.attribute('filename') if element.tag == 'xacro:include' else None
        target = include_target(written.value, path, locate) if written is not None else None
        if target is not None:
            found.append(target)
    return found


#: What a file of definitions holds at the top of its ``<robot>``.
DEFINITIONS = frozenset({'xacro:macro', 'xacro:property', 'xacro:arg', 'xacro:include'})


def only_definitions(text: str) -> Element | None:
    """
    The root element of a xacro file that only defines (macros, properties, args, includes).

    ``None`` when its root holds anything else (a link, a joint, a macro call) or it has none.
    """
    found = [item for item in tokens(text) if isinstance(item, Element)]
    root = found[0] if found and found[0].tag == 'robot' else None
    children = [item.tag for item in found if item.parent is root] if root else []
    return root if children and DEFINITIONS.issuperset(children) else None


class IncludeGraph:
    """
    Which description files of the workspace include which: the entries a file is checked through.

    :param files: The description files (absolute).
    :param read: A file's text (the editor's when open), or ``None`` when it cannot be read.
    :param locate: A package's folder by name.
    """

    def __init__(self, files: Iterable[str], read: Callable[[str], str | None],
                 locate: Callable[[str], str | None]) -> None:
        self.includes: dict[str, list[str]] = {}
        self.included_by: dict[str, set[str]] = {}
        self._locate = locate
        for path in dict.fromkeys(os.path.abspath(name) for name in files):
            text = read(path)
            self.update(path, text if text is not None else '')

    def update(self, path: str, text: str) -> None:
        """Read the includes of ``path`` again, from ``text`` (its new text)."""
        path = os.path.abspath(path)
        for target in self.includes.get(path, ()):
            self.included_by.get(target, set()).discard(path)
        self.includes[path] = includes_of(path, text, self._locate)
        for target in self.includes[path]:
            self.included_by.setdefault(target, set()).add(path)

    def includers(self, path: str) -> set[str]:
        """Every file that includes ``path``, directly or through others."""
        seen: set[str] = set()
        stack = [os.path.abspath(path)]
        while stack:
            for parent in list(self.included_by.get(stack.pop(), ())):  # the worker adds
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen

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
