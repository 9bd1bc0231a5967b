"""
The packages of the colcon workspace around a file, found as colcon finds them.

A file's package is the nearest folder above it with a ``package.xml``; its workspace is ``src``
when a folder above the package is named so (colcon's ``ws/src/...``), else the package's parent
folder (its siblings).
"""

from __future__ import annotations

from collections.abc import Iterable
import os
import re

from .packages import PackageLocator

#: Folders never searched, besides hidden ones: colcon's build, install and log, caches.
SKIPPED = frozenset(('build', 'install', 'log', 'node_modules', '__pycache__'))
#: How deep below a root packages are looked for, and how many folders a scan reads at most.
MAX_DEPTH = 8
MAX_FOLDERS = 10000
_NAME = re.compile(r'<name>\s*([^<\s]+)\s*</name>')
_SCANS: dict[str, tuple[int, dict[str, str]]] = {}  # root: (its mtime in ns, {name: folder})


def _scan(root: str) -> dict[str, str]:
    packages: dict[str, str] = {}
    base = root.rstrip(os.sep).count(os.sep)
    for count, (folder, subfolders, files) in enumerate(os.walk(root)):
        if 'package.xml' not in files:
            subfolders[:] = sorted(name for name in subfolders if not name.startswith('.')
                                   and name not in SKIPPED and count < MAX_FOLDERS
                                   and folder.count(os.sep) - base < MAX_DEPTH)
            continue
        subfolders[:] = []  # as colcon: no package inside a package
        try:
            with open(os.path.join(folder, 'package.xml'), encoding='utf-8',
                      errors='replace') as stream:
                match = _NAME.search(stream.read(65536))
        except OSError:
            continue
        packages.setdefault(match.group(1) if match else os.path.basename(folder), folder)
    return packages


def find_packages(roots: Iterable[str]) -> dict[str, str]:
    """
    The packages under ``roots`` as colcon finds them: ``{name: folder}``, the first of a name.

    A folder with a ``package.xml`` is the package its ``<name>`` names (else its folder's), and
    nothing inside it is searched; nor are hidden folders, :data:`SKIPPED`, folders deeper than
    :data:`MAX_DEPTH` below a root or past the :data:`MAX_FOLDERS`-th. A root's scan is kept for
    the process while the root's modification time stays (a package added in it is seen).

    :param roots: Folders (absolute).
    """
    packages: dict[str, str] = {}
    for root in roots:
        try:
            stamp = os.stat(root).st_mtime_ns
        except OSError:
            continue
        if _SCANS.get(root, (None,))[0] != stamp:
            _SCANS[root] = (stamp, _scan(root))
        for name, folder in _SCANS[root][1].items():
            packages.setdefault(name, folder)
    return packages


def workspace_root(path: str) -> str | None:
    """The folder of the packages of the workspace around file ``path`` (module doc), or None."""
    package = os.path.dirname(os.path.abspath(path))
    while not os.path.isfile(os.path.join(package, 'package.xml')):
        if os.path.dirname(package) == package:
            return None
        package = os.path.dirname(package)
    folder = os.path.dirname(package)
    while os.path.basename(folder) != 'src' and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder if os.path.basename(folder) == 'src' else os.path.dirname(package)


def workspace_locator(path: str, fallback: PackageLocator | None = None) -> PackageLocator:
    """A locator: the workspace around file ``path`` (scanned when asked), then ``fallback``."""
    found: list[dict[str, str]] = []

    def locate(name: str) -> str | None:
        if not found:
            root = workspace_root(path)
            found.append(find_packages([root]) if root is not None else {})
        share = found[0].get(name)
        return share if share is not None or fallback is None else fallback(name)

    return locate
