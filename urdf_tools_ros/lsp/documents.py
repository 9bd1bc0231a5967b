"""
The files the language server checks, and the editor's text of those it has open.

A file is a robot description by its name (:func:`~urdf_tools_ros.core.source.entries
.is_description`); :meth:`Buffers.read_text`
gives an open file's editor text, any other file's disk text.
"""

from __future__ import annotations

import os
from pathlib import Path
import threading
from urllib.parse import unquote, urlparse

from urdf_tools_ros.core.source.loader import MAX_DESCRIPTION_BYTES, read_file
from ..core.errors import DescriptionLoadError, DescriptionTooLargeError


def uri_to_path(uri: str) -> str | None:
    """The absolute path of a ``file:`` URI, or ``None`` for another scheme (``untitled:``)."""
    parsed = urlparse(uri)
    if parsed.scheme != 'file':
        return None
    return os.path.normpath(unquote(parsed.path))


def path_to_uri(path: str) -> str:
    """The ``file:`` URI of an absolute path."""
    return Path(os.path.abspath(path)).as_uri()


class Buffers:
    """The text of the files the editor has open, by absolute path; thread-safe."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._lock = threading.Lock()

    def set(self, path: str, text: str) -> None:
        """Store the editor's text of ``path``."""
        with self._lock:
            self._texts[os.path.abspath(path)] = text

    def close(self, path: str) -> None:
        """Forget ``path``: its text is the disk's again."""
        with self._lock:
            self._texts.pop(os.path.abspath(path), None)

    def get(self, path: str) -> str | None:
        """The editor's text of ``path``, or ``None`` when it is not open."""
        with self._lock:
            return self._texts.get(os.path.abspath(path))

    def paths(self) -> list[str]:
        """The files the editor has open, absolute."""
        with self._lock:
            return list(self._texts)

    def read_text(self, path: str) -> str:
        """
        The text of ``path``: the editor's when it is open, else the file's on disk.

        :raises DescriptionLoadError: if it is not open and cannot be read, is not UTF-8 text,
            or is larger than :data:`~..core.source.loader.MAX_DESCRIPTION_BYTES`.
        """
        text = self.get(path)
        if text is not None:
            if len(text) > MAX_DESCRIPTION_BYTES:
                raise DescriptionTooLargeError('larger than the limit', path)
            return text
        data = read_file(path)
        try:
            return data.decode('utf-8-sig')
        except UnicodeDecodeError as exc:
            raise DescriptionLoadError(f'not UTF-8 text (byte {exc.start})', path) from exc

    def text_or_none(self, path: str) -> str | None:
        """:meth:`read_text`, or ``None`` when the file cannot be read."""
        try:
            return self.read_text(path)
        except DescriptionLoadError:
            return None
