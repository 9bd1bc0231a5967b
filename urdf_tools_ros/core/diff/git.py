"""
A description as of a git revision: the repository's tree at that revision in a folder.

For ``urdf-tools diff --git REV FILE``: :func:`materialise` writes ``git archive REV`` of the
repository holding FILE into a folder (includes and meshes as of REV), :func:`package_folders`
finds the ROS packages in it, :func:`package_uri` names a file by its package (two checkouts
alike). git runs as a subprocess; the repository is not changed.
"""

from __future__ import annotations

from dataclasses import dataclass
import functools
import os
from pathlib import Path, PurePosixPath
import shutil
import subprocess
import tarfile
import tempfile
from typing import IO

from lxml import etree

from ..errors import DescriptionLoadError

#: Folders never searched for ``package.xml`` (build spaces, VCS and tool folders).
_SKIPPED = {'build', 'install', 'log', 'node_modules', '__pycache__'}


@dataclass(frozen=True)
class Revision:
    """
    A file of a repository and where its revision's tree was written.

    :ivar top: The repository's top folder (its work tree), absolute.
    :ivar path: The file's path relative to ``top``, POSIX.
    """

    top: str
    path: str
    revision: str
    folder: str

    @property
    def file(self) -> str:
        """The file inside :attr:`folder`."""
        return os.path.join(self.folder, *PurePosixPath(self.path).parts)

    @property
    def label(self) -> str:
        """How reports name it: ``REV:path``."""
        return f'{self.revision}:{self.path}'


def _git(arguments: list[str], cwd: str, stdout: int | IO[bytes] = subprocess.PIPE
         ) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(['git', *arguments], cwd=cwd, stdout=stdout,
                              stderr=subprocess.PIPE, check=False)
    except OSError as exc:
        raise DescriptionLoadError(f'cannot run git: {exc.strerror or exc}', cwd) from exc


def _safe_members(archive: tarfile.TarFile, folder: str) -> list[tarfile.TarInfo]:
    """The members to extract: files, folders and links that stay inside ``folder``."""
    base = os.path.realpath(folder)
    members = []
    for member in archive.getmembers():
        target = os.path.realpath(os.path.join(base, member.name))
        if os.path.commonpath([base, target]) != base:
            continue
        if member.issym() or member.islnk():
            pointed = os.path.realpath(os.path.join(os.path.dirname(target), member.linkname)) \
                if member.issym() else os.path.realpath(os.path.join(base, member.linkname))
            if os.path.commonpath([base, pointed]) != base:
                continue
        elif not (member.isfile() or member.isdir()):
            continue
        members.append(member)
    return members


def materialise(file: str | os.PathLike[str], revision: str, folder: str) -> Revision:
    """
    Write the tree of ``revision`` of the repository holding ``file`` into ``folder``.

    :param file: A file inside a git work tree (it need not exist there any more).
    :param revision: Anything ``git archive`` takes.
    :param folder: An existing, empty folder.
    :raises DescriptionLoadError: if ``file`` is in no git repository, git is missing, or
        ``revision`` is not a revision of it.
    """
    path = Path(os.path.abspath(file))
    start = str(path.parent if path.parent.is_dir() else Path.cwd())
    found = _git(['rev-parse', '--show-toplevel'], start)
    if found.returncode != 0:
        raise DescriptionLoadError('--git: not inside a git repository (git rev-parse: '
                                   f'{found.stderr.decode(errors="replace").strip()})', str(file))
    top = found.stdout.decode().strip()
    relative = Path(os.path.relpath(path, os.path.realpath(top)))
    if relative.parts and relative.parts[0] == '..':
        relative = Path(os.path.relpath(path, top))
    with tempfile.TemporaryFile() as stream:
        done = _git(['archive', '--format=tar', revision], top, stdout=stream)
        if done.returncode != 0:
            message = done.stderr.decode(errors='replace').strip().splitlines()
            raise DescriptionLoadError(f'--git {revision}: git archive failed: '
                                       f'{message[-1] if message else done.returncode}',
                                       str(file))
        stream.seek(0)
        with tarfile.open(fileobj=stream) as archive:
            archive.extractall(folder, members=_safe_members(archive, folder))
    return Revision(top, relative.as_posix(), revision, folder)


def _package_name(manifest: Path) -> str | None:
    try:
        root = etree.parse(str(manifest), etree.XMLParser(resolve_entities=False,
                                                          no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError):
        return None
    name = root.findtext('name')
    return name.strip() if name and name.strip() else None


def package_folders(top: str | os.PathLike[str]) -> dict[str, str]:
    """
    The ROS packages inside a folder tree: ``{name: folder}``.

    A package is a folder with a ``package.xml``, named by its ``<name>`` (else the folder's).
    Hidden folders, build spaces and the inside of a package are not searched.
    """
    found: dict[str, str] = {}
    for current, folders, files in os.walk(top):
        if 'package.xml' in files:
            manifest = Path(current) / 'package.xml'
            found.setdefault(_package_name(manifest) or Path(current).name, current)
            folders[:] = []
            continue
        folders[:] = sorted(name for name in folders
                            if not name.startswith('.') and name not in _SKIPPED)
    return found


@functools.lru_cache(maxsize=1024)
def _package_at(folder: str) -> tuple[str, str] | None:
    """The nearest package at or above ``folder``: ``(name, its folder)``, or ``None``."""
    for candidate in (Path(folder), *Path(folder).parents):
        manifest = candidate / 'package.xml'
        if manifest.is_file():
            return _package_name(manifest) or candidate.name, str(candidate)
    return None


def package_uri(path: str) -> str:
    """
    ``path`` as ``package://NAME/REST`` when it is a file of a ROS package, else unchanged.

    What xacro's ``$(find pkg)`` writes (``file:///ws/src/pkg/meshes/a.stl``, ``/tmp/x/pkg/...``)
    differs between two checkouts of a package; its place in the package does not. The package
    is the nearest folder above holding a ``package.xml``; the file itself need not exist.
    """
    local = path.removeprefix('file://')
    if not os.path.isabs(local):
        return path
    found = _package_at(os.path.dirname(local))
    if found is None:
        return path
    name, folder = found
    return f'package://{name}/{Path(os.path.relpath(local, folder)).as_posix()}'


def remove(folder: str) -> None:
    """Delete a folder :func:`materialise` wrote (errors ignored: it is a temporary copy)."""
    shutil.rmtree(folder, ignore_errors=True)
