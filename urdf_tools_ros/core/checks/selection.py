"""
Choosing which findings a run reports: ``--select``/``--ignore`` and suppression comments.

As in ruff and flake8: ``select`` keeps only findings whose code matches one of its entries,
``ignore`` drops those matching one; an entry is a rule code (``root-link-inertia``) or a prefix
(``mesh-``). A suppression is an XML comment right before the element a finding is about::

    <!-- urdf-tools: ignore[root-link-inertia] -->
    <link name="base_link"> ...

It drops the findings of those codes (comma-separated, prefixes allowed) on the line of the next
element, in the same file; one that drops nothing is ``suppression-unused``. Every entry must
name a known rule. :func:`~urdf_tools_ros.core.checks.check_description` applies both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
import re
from typing import TYPE_CHECKING

from .registry import rule, RULES
from .rules.loading import UNLOADABLE
from ..errors import RobotDescriptionError
from ..findings import Finding, Severity
from ..location import SourceLocation
from ..source.scanner import Comment, Element, tokens

if TYPE_CHECKING:
    from ..source.loader import RobotDescription

__all__ = ['SUPPRESSION_UNUSED', 'Suppression', 'UnknownCodeError', 'codes_matching',
           'description_sources', 'description_suppressions', 'find_suppressions',
           'select_findings', 'suppress', 'wanted_codes']

SUPPRESSION_UNUSED = rule(
    'suppression-unused', Severity.WARNING,
    'a <!-- urdf-tools: ignore[...] --> comment suppresses nothing (the finding is gone, or the '
    'comment is not right before the element)',
    reference='as ruff RUF100 and flake8 noqa report')

#: A suppression comment's text between ``<!--`` and ``-->``.
_SUPPRESSION = re.compile(r'\s*urdf-tools:\s*ignore\[([^\]]*)\]\s*')


class UnknownCodeError(RobotDescriptionError, ValueError):
    """A code or prefix in a selection, a suppression or a config names no rule."""


def codes_matching(entry: str, origin: str) -> set[str]:
    """
    The rule codes an entry names: the code itself, or every code it is a prefix of.

    :param entry: ``root-link-inertia`` or ``mesh-``.
    :param origin: Where the entry was written, for the error (``--select``, a file:line).
    :raises UnknownCodeError: if it names no rule.
    """
    entry = entry.strip()
    found = {code for code in RULES if code == entry or code.startswith(entry)} if entry \
        else set()
    if not found:
        raise UnknownCodeError(f'{origin}: unknown rule code {entry!r} (urdf-tools rules lists '
                               'them)')
    return found


def _codes(entries: Iterable[str], origin: str) -> set[str]:
    return {code for entry in entries for code in codes_matching(entry, origin)}


def select_findings(findings: Iterable[Finding], select: Sequence[str] = (),
                    ignore: Sequence[str] = (), origin: str = 'selection') -> list[Finding]:
    """
    The findings ``select`` keeps (empty: all) and ``ignore`` does not drop; a load failure stays.

    :raises UnknownCodeError: if an entry names no rule.
    """
    kept = _codes(select, f'{origin} select') if select else None
    dropped = _codes(ignore, f'{origin} ignore')
    return [f for f in findings if f.code == UNLOADABLE or
            ((kept is None or f.code in kept) and f.code not in dropped)]


def wanted_codes(select: Sequence[str] = (), ignore: Sequence[str] = (),
                 origin: str = 'selection') -> frozenset[str] | None:
    """
    The rule codes ``select`` keeps and ``ignore`` does not drop; ``None``: every code.

    :raises UnknownCodeError: if an entry names no rule.
    """
    if not select and not ignore:
        return None
    kept = _codes(select, f'{origin} select') if select else set(RULES)
    return frozenset(kept - _codes(ignore, f'{origin} ignore'))


@dataclass(frozen=True)
class Suppression:
    """
    One ``<!-- urdf-tools: ignore[...] -->`` comment.

    :ivar location: The comment's file and line.
    :ivar line: The line of the element right after it (the one it is about).
    :ivar codes: The rule codes it names (prefixes expanded).
    """

    location: SourceLocation
    line: int
    codes: frozenset[str]


def find_suppressions(text: str, filename: str) -> list[Suppression]:
    """
    The suppression comments of one file's text.

    :raises UnknownCodeError: if a comment names an unknown code (its file and line named).
    """
    found: list[Suppression] = []
    waiting: list[tuple[int, set[str]]] = []  # comments before the next element
    for token in tokens(text) if 'urdf-tools:' in text else ():
        if isinstance(token, Element):
            found += [Suppression(SourceLocation(filename, line), token.first_line,
                                  frozenset(codes)) for line, codes in waiting]
            waiting = []
        elif isinstance(token, Comment) and (match := _SUPPRESSION.fullmatch(token.body)):
            origin = f'{filename}:{token.line}: suppression'
            waiting.append((token.line, _codes([part for part in match.group(1).split(',')
                                                if part.strip()] or [''], origin)))
    return found


def description_sources(description: RobotDescription) -> list[tuple[str, str]]:
    """
    ``(file, text)`` of the files a description was made from: itself and its xacro includes.

    The texts the loader read (:attr:`~..source.loader.RobotDescription.sources`), else read
    here (a file that cannot be read is left out); no files (a string): its own text.
    """
    from ..source.loader import MAX_DESCRIPTION_BYTES  # here: the checks need no lxml
    sources = []
    for path in description.dependencies or ():
        text = description.sources.get(path)  # as the loader read it: not read again
        if text is None:  # a description the loader did not read (xacro's public API)
            try:
                with open(path, encoding='utf-8', errors='replace') as stream:
                    text = stream.read(MAX_DESCRIPTION_BYTES)
            except OSError:
                continue
        sources.append((path, text))
    if not sources:
        sources.append((description.filename, description.xml))
    return sources


def description_suppressions(description: RobotDescription) -> list[Suppression]:
    """
    The suppression comments of every file a description was made from.

    :raises UnknownCodeError: if a comment names an unknown code (its file and line named).
    """
    return [found for path, text in description_sources(description)
            for found in find_suppressions(text, path)]


def suppress(findings: Iterable[Finding], suppressions: Sequence[Suppression]
             ) -> list[Finding]:
    """Drop the suppressed findings; add a ``suppression-unused`` warning for each idle comment."""
    used: set[int] = set()
    kept = []
    for finding in findings:
        location = finding.location
        hit = None
        if location is not None and location.line is not None:
            hit = next((index for index, item in enumerate(suppressions)
                        if item.line == location.line and finding.code in item.codes
                        and item.location.filename == location.filename), None)
        if hit is None:
            kept.append(finding)
        else:
            used.add(hit)
    for index, item in enumerate(suppressions):
        if index not in used:
            kept.append(Finding(
                SUPPRESSION_UNUSED, Severity.WARNING, 'robot',
                f'suppression of {", ".join(sorted(item.codes))} suppresses nothing on line '
                f'{item.line}', item.location, 'remove the comment, or put it right before the '
                'element the finding is about', ()))
    return kept
