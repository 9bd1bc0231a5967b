"""
The files a robot description references, looked up by request path: what a mesh server serves.

:class:`ResourceIndex` lists the files a description's meshes and textures name (as the viewer
resolves them) and the relative files those name in turn (``mtllib``, MTL maps, COLLADA
``<init_from>``, glTF ``uri``), by request path ``package/<pkg>/<path>`` or ``file/<path>``.
:meth:`ResourceIndex.get` answers as ``resource_retriever_interfaces/srv/GetResource`` does and
refuses a path that is no file of the description, a file whose real path leaves its package,
and a file over :data:`MAX_RESOURCE_BYTES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
import enum
import hashlib
import json
import os
import posixpath
import re
import threading
from urllib.parse import unquote

from lxml import etree

from ..model.robot import Mesh
from ..source.loader import parse_xml, RobotDescription
from ..source.packages import draw_path, PackageLocator

__all__ = ['MAX_RESOURCE_BYTES', 'ResourceFile', 'ResourceIndex', 'ResourceReply',
           'ResourceStatus', 'rewrite_urls', 'service_url']

#: Largest file served, bytes (64 MiB).
MAX_RESOURCE_BYTES = 64 * 1024 * 1024
#: Largest mesh or material file read to find the files it names, bytes.
_MAX_SCANNED_BYTES = MAX_RESOURCE_BYTES
#: Material library statements whose last word is a file (Wavefront MTL).
_MTL_MAPS = re.compile(r'^\s*(map_\w+|bump|disp|decal|refl|norm)\s+(.+?)\s*$', re.MULTILINE)
_OBJ_MTLLIB = re.compile(rb'^[ \t]*mtllib[ \t]+([^\r\n]+)', re.MULTILINE)


class ResourceStatus(enum.IntEnum):
    """``status_code`` of a GetResource response (the service's constants)."""

    ERROR = 0
    OK = 1
    NOT_MODIFIED = 2


@dataclass(frozen=True, slots=True)
class ResourceFile:
    """
    One file a description references.

    :ivar path: Request path, ``package/<pkg>/<path>`` or ``file/<absolute path>`` (no ``:``
        only where the path has none).
    :ivar url: The reference as the description's consumers write it: as in the URDF for a mesh
        or texture; for a file a mesh names, the mesh's URL with its last part replaced.
    :ivar file: Local path, lexically normalised.
    :ivar roots: Real directories the file's real path must lie in.
    """

    path: str
    url: str
    file: str
    roots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ResourceReply:
    """The answer to one request, the fields of a GetResource response."""

    status: ResourceStatus
    body: bytes = b''
    etag: str = ''
    error_reason: str = ''
    expanded_path: str = ''


def service_url(service_name: str, resource: ResourceFile) -> str | None:
    """
    The URL RViz's ``resource_retriever_service_plugin`` fetches ``resource`` from.

    :return: ``service://<service name>:<path>``; ``None`` when either holds a ``:``.
    """
    if not service_name or ':' in service_name or ':' in resource.path:
        return None
    return f'service://{service_name}:{resource.path}'


def _normalise(reference: str) -> str:
    """``reference`` with ``.``, ``..`` and doubled slashes resolved in its text (scheme kept)."""
    scheme, separator, rest = reference.partition('://')
    if not separator:
        scheme, rest = '', reference
    leading = '/' if rest.startswith('/') else ''
    parts: list[str] = []
    for part in rest.split('/'):
        if part in ('', '.'):
            continue
        if part == '..' and parts and parts[-1] != '..':
            parts.pop()
        else:
            parts.append(part)
    text = leading + '/'.join(parts)
    return f'{scheme}://{text}' if separator else text


def _package_roots(share: str) -> tuple[str, ...]:
    """The share directory and, for a symlink install, the folder ``package.xml`` really is in."""
    roots = [os.path.realpath(share)]
    manifest = os.path.join(share, 'package.xml')
    if os.path.islink(manifest):
        roots.append(os.path.dirname(os.path.realpath(manifest)))
    return tuple(dict.fromkeys(roots))


def _within(path: str, roots: Iterable[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def _side_references(file: str) -> list[str]:
    """Relative references to other files inside a mesh or material file (none if unreadable)."""
    extension = os.path.splitext(file)[1].lower()
    if extension not in ('.obj', '.mtl', '.dae', '.gltf'):
        return []
    try:
        if os.path.getsize(file) > _MAX_SCANNED_BYTES:
            return []
        with open(file, 'rb') as stream:
            data = stream.read()
    except OSError:
        return []
    found: list[str] = []
    if extension == '.obj':
        for match in _OBJ_MTLLIB.finditer(data):
            found.append(match.group(1).decode('utf-8', 'replace').strip())
    elif extension == '.mtl':
        found = [match.group(2).split()[-1]
                 for match in _MTL_MAPS.finditer(data.decode('utf-8', 'replace'))]
    elif extension == '.dae':
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                                 huge_tree=False, recover=True)
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError:
            return []
        if root is not None:
            for image in root.iter('{*}image'):  # <surface><init_from> names an image id
                for element in image.iterfind('{*}init_from'):
                    reference = element.findtext('{*}ref', element.text or '')
                    if reference.strip():
                        found.append(unquote(reference.strip()))
    else:
        try:
            gltf = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return []
        for key in ('buffers', 'images'):
            for item in gltf.get(key, ()) if isinstance(gltf, dict) else ():
                if isinstance(item, dict) and isinstance(item.get('uri'), str):
                    found.append(unquote(item['uri']))
    return [reference for reference in found
            if reference and '://' not in reference and not reference.startswith('data:')
            and not os.path.isabs(reference) and not re.match(r'^[A-Za-z]:[\\/]', reference)]


class ResourceIndex:
    """
    The files of one description, by request path and by URL as written.

    :param files: The files (:meth:`of` builds them from a description).
    """

    def __init__(self, files: Iterable[ResourceFile]) -> None:
        self._by_path: dict[str, ResourceFile] = {}
        self._by_url: dict[str, ResourceFile] = {}
        for resource in files:
            self._by_path.setdefault(resource.path, resource)
            self._by_url.setdefault(_normalise(resource.url), resource)
        #: etag by (real path, mtime ns, size, inode); a file is hashed once per change.
        self._etags: dict[tuple[str, int, int, int], str] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, description: RobotDescription) -> ResourceIndex:
        """
        Index every mesh and texture of ``description`` and the files they name.

        A reference that resolves to no local path (unknown package, ``http://``) is left out.
        """
        locate = description.locate
        references: list[tuple[str, str | None]] = []
        for link in description.robot.links:
            shapes = [visual.geometry for visual in link.visuals] + \
                [collision.geometry for collision in link.collisions]
            references += [(shape.filename, shape.resolved) for shape in shapes
                           if isinstance(shape, Mesh)]
            for visual in link.visuals:
                if visual.material is not None and visual.material.texture:
                    references.append((visual.material.texture, visual.material.texture_resolved))
        for material in description.robot.materials:
            if material.texture:
                references.append((material.texture, material.texture_resolved))
        files: dict[str, ResourceFile] = {}
        pending = [resource for reference, resolved in dict.fromkeys(references)
                   if (resource := _reference(reference, resolved, locate)) is not None]
        while pending:
            resource = pending.pop()
            if resource.path in files:
                continue
            files[resource.path] = resource
            for name in _side_references(resource.file):
                side = _beside(resource, name)
                if side is not None and side.path not in files:
                    pending.append(side)
        return cls(files.values())

    def __len__(self) -> int:
        return len(self._by_path)

    def __iter__(self) -> Iterator[ResourceFile]:
        return iter(self._by_path.values())

    def urls(self, service_name: str) -> dict[str, str]:
        """``{reference as written in the URDF: service URL}`` (see :func:`service_url`)."""
        result = {}
        for resource in self._by_path.values():
            url = service_url(service_name, resource)
            if url is not None:
                result[resource.url] = url
        return result

    def lookup(self, request: str, *, as_written: bool = False) -> ResourceFile:
        """
        The file a request names.

        :param request: A request path, or with ``as_written`` the URL as the URDF writes it
            (RViz on Kilted sends that).
        :raises LookupError: with the reason, when the request names no file of the description
            or its real path leaves its package.
        """
        key = _normalise(request)
        found = (self._by_url if as_written else self._by_path).get(key)
        if found is None:
            if '..' in request.replace('\\', '/').split('/'):
                raise LookupError(f"'..' in {request!r}: only the robot description's files "
                                  'are served')
            raise LookupError(f'{request!r} is not a file of the robot description'
                              if request else 'empty path')
        real = os.path.realpath(found.file)
        if not _within(real, found.roots):
            raise LookupError(f'{found.file} is a symbolic link to {real}, outside its package')
        return found

    def get(self, request: str, etag: str = '', *, as_written: bool = False) -> ResourceReply:
        """
        Answer one GetResource request.

        :param request: As :meth:`lookup`.
        :param etag: The etag the client holds; the same etag gets NOT_MODIFIED without a body.
        :return: OK with the file's bytes and etag (a SHA-256 of the bytes), NOT_MODIFIED, or
            ERROR with ``error_reason``. ``expanded_path`` is the reference as written.
        """
        try:
            resource = self.lookup(request, as_written=as_written)
        except LookupError as exc:
            return ResourceReply(ResourceStatus.ERROR, error_reason=str(exc.args[0]))
        try:
            with open(resource.file, 'rb') as stream:
                status = os.fstat(stream.fileno())
                if status.st_size > MAX_RESOURCE_BYTES:
                    return ResourceReply(ResourceStatus.ERROR, error_reason=(
                        f'{resource.file} is {status.st_size} bytes '
                        f'({status.st_size / 2 ** 20:.1f} MiB), over the '
                        f'{MAX_RESOURCE_BYTES // 2 ** 20} MiB limit'))
                key = (os.path.realpath(resource.file), status.st_mtime_ns, status.st_size,
                       status.st_ino)
                with self._lock:
                    known = self._etags.get(key)
                if known is not None and etag == known:
                    return ResourceReply(ResourceStatus.NOT_MODIFIED, etag=known,
                                         expanded_path=resource.url)
                body = stream.read(MAX_RESOURCE_BYTES + 1)
        except OSError as exc:
            return ResourceReply(ResourceStatus.ERROR, error_reason=(
                f'cannot read {resource.file}: {exc.strerror or exc}'))
        if len(body) > MAX_RESOURCE_BYTES:
            return ResourceReply(ResourceStatus.ERROR, error_reason=(
                f'{resource.file} grew over the {MAX_RESOURCE_BYTES // 2 ** 20} MiB limit'))
        digest = hashlib.sha256(body).hexdigest()
        with self._lock:
            self._etags[key] = digest
        if etag == digest:
            return ResourceReply(ResourceStatus.NOT_MODIFIED, etag=digest,
                                 expanded_path=resource.url)
        return ResourceReply(ResourceStatus.OK, body=body, etag=digest,
                             expanded_path=resource.url)


def _reference(reference: str, resolved: str | None,
               locate: PackageLocator | None) -> ResourceFile | None:
    """The file a URDF reference names, with its request path and roots; ``None`` if none."""
    local = draw_path(reference, resolved, locate)
    if local is None:
        return None
    local = os.path.normpath(os.path.abspath(local))
    if reference.startswith('package://') and locate is not None:
        package, _, relative = reference[len('package://'):].lstrip('/').partition('/')
        share = locate(package) if package else None
        relative = _normalise(unquote(relative))
        if share is not None and relative and not relative.startswith(('..', '/')):
            return ResourceFile(f'package/{package}/{relative}', reference, local,
                                _package_roots(share))
    return ResourceFile('file' + local.replace(os.sep, '/'), reference, local,
                        (os.path.realpath(os.path.dirname(local)),))


def _beside(resource: ResourceFile, name: str) -> ResourceFile | None:
    """The file ``name`` (relative, as a mesh writes it) beside ``resource``; ``None``: outside."""
    path = _normalise(posixpath.join(posixpath.dirname(resource.path), name.replace('\\', '/')))
    top = resource.path.split('/')[:2] if resource.path.startswith('package/') else ['file']
    if path.split('/')[:len(top)] != top or '..' in path.split('/'):
        return None
    scheme, separator, rest = resource.url.partition('://')
    url_dir = posixpath.dirname(rest if separator else resource.url)
    url = posixpath.join(url_dir, name.replace('\\', '/'))
    file = os.path.normpath(os.path.join(os.path.dirname(resource.file), name))
    return ResourceFile(path, f'{scheme}://{url}' if separator else url, file, resource.roots)


def rewrite_urls(xml: str, urls: Mapping[str, str], filename: str = '<robot_description>') -> str:
    """
    URDF ``xml`` with each mesh and texture ``filename`` replaced by its URL in ``urls``.

    Everything else is serialised as parsed (comments kept, the XML declaration dropped).

    :raises DescriptionLoadError: if ``xml`` cannot be read as XML (named ``filename``).
    """
    root, _ = parse_xml(xml, filename, any_root=True)
    for element in root.iter('mesh', 'texture'):
        filename = element.get('filename')
        if filename is not None and filename in urls:
            element.set('filename', urls[filename])
    return etree.tostring(root, encoding='unicode')
