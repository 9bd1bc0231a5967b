"""
Xacro syntax in text: whether a file needs xacro, and where its first xacro construct stands.

A file not named ``.xacro`` that holds xacro syntax (pybullet's ``husky.urdf``: ``$(optenv
...)``) has two readings: xacro's expansion, which the loader checks, and the text as written,
which check_urdf, pinocchio, MuJoCo and Gazebo read; :class:`AsWritten` keeps the second for
``xacro-in-urdf``.
"""

from __future__ import annotations

from dataclasses import dataclass
import re

from .scanner import tags_holding, without_comments
from ..findings import Finding
from ..model.robot import Robot

#: xacro's namespace (``xmlns:x="http://www.ros.org/wiki/xacro"`` binds ``x`` to it).
_XACRO_URI = re.compile(r'https?://(?:www\.)?ros\.org/wiki/xacro/?')
#: ``${...}`` or ``$(...)``, up to the end of its line.
_CONSTRUCT = re.compile(r'\$\{[^}\n]*\}?|\$\([^)\n]*\)?')


@dataclass(frozen=True, slots=True)
class AsWritten:
    """
    A file with xacro syntax read as written, without xacro.

    :ivar line: 1-based line of its first xacro construct outside comments.
    :ivar construct: That construct's text, e.g. ``$(optenv HUSKY_IMU_RPY 0 -1.5708 3.1416)``.
    :ivar robot: The model the text gives as written; ``None`` when it is no URDF at all.
    :ivar findings: What reading the text as written found (syntax level).
    :ivar error: Why the text as written cannot be read at all, or ``None``.
    """

    line: int
    construct: str
    robot: Robot | None = None
    findings: tuple[Finding, ...] = ()
    error: str | None = None


def _prefixes(body: str) -> set[str]:
    """``xacro`` and the prefixes the start tags of ``body`` bind to xacro's namespace."""
    return {'xacro', *(attribute.name[len('xmlns:'):] for element in tags_holding(body, 'xmlns:')
                       for attribute in element.attributes if attribute.name.startswith('xmlns:')
                       and _XACRO_URI.fullmatch(attribute.value))}


def first_xacro_construct(text: str) -> tuple[int, str] | None:
    """
    The 1-based line and text of the first xacro construct outside comments, or ``None``.

    ``${...}``, ``$(...)``, or an element in xacro's namespace (as xacro's ``eval_text``).
    """
    body = without_comments(text)
    found = [(match.start(), match.group()) for match in [_CONSTRUCT.search(body)] if match]
    for prefix in _prefixes(body) if 'xacro' in body else ():
        found += [(element.start, element.tag) for element in tags_holding(body, f'<{prefix}:')
                  if element.tag.startswith(f'{prefix}:')][:1]
    if not found:
        return None
    start, construct = min(found)
    return text.count('\n', 0, start) + 1, construct


def looks_like_xacro(filename: str, text: str) -> bool:
    """
    Whether input needs xacro: a ``.xacro`` name, or a :func:`first_xacro_construct`.

    A namespace declaration alone does not count: xacro's output keeps it.
    """
    return filename.endswith('.xacro') or first_xacro_construct(text) is not None
