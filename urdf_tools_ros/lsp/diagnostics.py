"""
A finding as an LSP diagnostic: range, code, severity, message, fix and related information.

The message is the finding's, then its fix and the consumers an error breaks (else those it
concerns), each on a line; the related information is what ``urdf-tools check -v`` notes.
"""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types

from .checking import RunResult
from .documents import path_to_uri
from .ranges import Span, TextIndex
from ..core.checks import broken_consumers
from ..core.findings import Finding, Severity
from ..core.location import SourceLocation
from ..core.session import call_notes, include_chain

SOURCE = 'urdf-tools'
_SEVERITIES = {Severity.ERROR: types.DiagnosticSeverity.Error,
               Severity.WARNING: types.DiagnosticSeverity.Warning,
               Severity.INFO: types.DiagnosticSeverity.Information}


def to_range(span: Span) -> types.Range:
    """An LSP range of a :class:`~.ranges.Span`."""
    return types.Range(types.Position(span.start_line, span.start_column),
                       types.Position(span.end_line, span.end_column))


def message(finding: Finding, target: str) -> str:
    """The diagnostic text: the finding's, its fix and its consumers (module doc)."""
    text = f'{finding.element}: {finding.message}{finding.times}'
    if finding.fix:
        text += f'\nfix: {finding.fix}'
    broken = broken_consumers(finding, target)
    if finding.severity is Severity.ERROR and broken:
        text += f'\nbreaks: {", ".join(broken)}'
    elif finding.consumers:
        text += f'\nconcerns: {", ".join(finding.consumers)}'
    return text


def related(finding: Finding, result: RunResult) -> list[tuple[SourceLocation, str]]:
    """
    The related places of a finding, ``(location, text)``, as ``check -v`` notes them, each once.

    An include cycle notes its includes again and again until xacro gives up.
    """
    chain = [] if finding.notes else include_chain(finding.location, result.included_from)
    return list(dict.fromkeys([*finding.notes, *((where, 'included from here') for where in chain),
                               *call_notes(finding)]))


def to_diagnostic(finding: Finding, result: RunResult, index: TextIndex,
                  index_of: Callable[[str], TextIndex | None]) -> types.Diagnostic:
    """
    The diagnostic of ``finding`` in the file ``index`` holds.

    :param index_of: The text of another file (a related place), or ``None``.
    """
    information = []
    for where, text in related(finding, result):
        if where.filename.startswith('<'):
            continue
        other = index_of(where.filename)
        span = other.line_span(where.line or 1) if other is not None else \
            Span((where.line or 1) - 1, 0, (where.line or 1) - 1, 0)
        information.append(types.DiagnosticRelatedInformation(
            types.Location(path_to_uri(where.filename), to_range(span)), text))
    line = finding.location.line if finding.location is not None else None
    return types.Diagnostic(
        range=to_range(index.finding_span(finding)), message=message(finding, result.target),
        severity=_SEVERITIES[finding.severity], code=finding.code, source=SOURCE,
        related_information=information or None,
        data={'code': finding.code, 'element': finding.element, 'line': line})
