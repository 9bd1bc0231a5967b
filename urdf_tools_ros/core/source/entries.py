"""
The entry files of a package or workspace: the descriptions that are robots, not parts.

A file is an entry when no other file includes it and it makes a robot: its ``<robot>`` holds
more than :data:`DEFINITIONS`, or it includes a file that does. A file of macros, or of
materials, is a part, checked through the files that include it. The command line checks the
entries of a folder (:func:`find_entries`); the language server checks a file through the
entries that include it (:class:`IncludeGraph`). An include written with an expression that
needs xacro's evaluation (``${prefix}``, ``$(arg ...)``) cannot be followed here and is left
out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
import os

from .discovery import MAX_DEPTH, SKIPPED
from .scanner import Element, SUBSTITUTION, tags_holding, tokens

__all__ = ['DEFINITIONS', 'IncludeGraph', 'SUFFIXES', 'description_files', 'find_entries',
           'include_lines', 'include_target', 'includes_of', 'is_description', 'only_definitions']

#: The file name endings of robot descriptions (``.urdf.xacro`` ends with ``.xacro``).
SUFFIXES = ('.urdf', '.xacro')
#: What a part (a file of definitions) holds at the top of its ``<robot>``: xacro's definitions
#: and the elements that are about links made elsewhere.
DEFINITIONS = frozenset({'xacro:macro', 'xacro:property', 'xacro:arg', 'xacro:include',
                         'material', 'gazebo', 'transmission', 'ros2_control'})


def is_description(path: str) -> bool:
    """Whether ``path`` names a robot description file by its name (:data:`SUFFIXES`)."""
    return path.endswith(SUFFIXES)


def _folders(root: str) -> Iterable[tuple[str, list[str], list[str]]]:
    """``os.walk`` of ``root`` without :data:`SKIPPED` and hidden folders, to :data:`MAX_DEPTH`."""
    base = root.rstrip(os.sep).count(os.sep)
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith('.')
                               and name not in SKIPPED
                               and folder.count(os.sep) - base < MAX_DEPTH)
        yield folder, subfolders, files


def description_files(roots: Iterable[str]) -> list[str]:
    """Every ``.urdf`` and ``.xacro`` file under the folders ``roots``, absolute if they are."""
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


def include_lines(path: str, text: str, locate: Callable[[str], str | None]
                  ) -> list[tuple[str, int]]:
    """The files ``text`` (of ``path``) includes, absolute, each with its include's line."""
    found = []
    for element in tags_holding(text, '<xacro:include'):
        written = element.attribute('filename') if element.tag == 'xacro:include' else None
        target = include_target(written.value, path, locate) if written is not None else None
        if target is not None:
            found.append((target, element.first_line))
    return found


def includes_of(path: str, text: str, locate: Callable[[str], str | None]) -> list[str]:
    """The files ``text`` (of ``path``) includes, absolute, as far as they can be told."""
    return [target for target, _ in include_lines(path, text, locate)]


def _robot(text: str) -> Element | None:
    """The root element of ``text`` when it is a ``<robot>``, else ``None``."""
    root = next((item for item in tokens(text) if isinstance(item, Element)), None)
    return root if root is not None and root.tag == 'robot' else None


def only_definitions(text: str) -> Element | None:
    """
    The root element of a file that only defines (:data:`DEFINITIONS`: macros, materials...).

    ``None`` when its root holds anything else (a link, a joint, a macro call) or it has none.
    """
    root = _robot(text)
    children = [child.tag for child in root.children] if root is not None else []
    return root if children and DEFINITIONS.issuperset(children) else None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding='utf-8', errors='replace') as stream:
            return stream.read()
    except OSError:
        return None


class IncludeGraph:
    """
    Which description files include which.

    :param files: The description files (absolute).
    :param read: A file's text (an editor's when open), or ``None`` when it cannot be read.
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


def find_entries(root: str, locate: Callable[[str], str | None],
                 skip: Callable[[str], bool] = lambda path: False) -> list[str]:
    """
    The entry files under the folder ``root`` (module doc), absolute, sorted.

    :param locate: A package's folder by name, for ``$(find PKG)`` in includes.
    :param skip: Whether a file is no entry (it still counts as including its includes).
    """
    files = description_files([os.path.abspath(root)])
    texts = {path: _read(path) for path in files}
    graph = IncludeGraph(files, texts.get, locate)

    def makes_robot(path: str, seen: set[str]) -> bool:
        text = texts.setdefault(path, _read(path))  # an include outside root: read here
        if path in seen or text is None or _robot(text) is None:
            return False
        seen.add(path)
        targets = graph.includes.get(path) or includes_of(path, text, locate)  # read once
        return only_definitions(text) is None or any(makes_robot(target, seen)
                                                     for target in targets)

    return sorted(path for path in files if not skip(path)
                  and not graph.included_by.get(path) and makes_robot(path, set()))
