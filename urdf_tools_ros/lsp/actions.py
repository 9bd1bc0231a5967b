"""
Code actions: the mechanical fixes of ``check --fix`` as edits, and the suppression comment.

A fix is what ``check --fix --fix-inertia`` writes, offered while the text is unchanged; the
suppression comment goes right before the element (on a line of its own when it starts one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from urdf_tools_ros.core.checks.rules.loading import UNLOADABLE
from urdf_tools_ros.core.fix.edits import plan_fixes
from .checking import RunResult
from .ranges import Span, TextIndex
from ..core.checks.selection import SUPPRESSION_UNUSED
from ..core.findings import Finding


@dataclass(frozen=True)
class Action:
    """
    A code action: its title and its edits ``(file, range, new text)``.

    :ivar preferred: Whether it is the fix of the finding (a client may apply it at once).
    """

    title: str
    edits: tuple[tuple[str, Span, str], ...]
    preferred: bool = False


def fix_action(finding: Finding, result: RunResult, read: Callable[[str], str],
               index_of: Callable[[str], TextIndex | None]) -> Action | None:
    """
    The mechanical fix of ``finding`` as an action, or ``None`` when it has none.

    :param read: A file's text (the editor's when open), as the edits' offsets count.
    :param index_of: A file's text, indexed, the same as ``read`` gives.
    """
    if result.robot is None:
        return None
    try:
        plan = plan_fixes(result.robot, [finding], read, inertia=True)
    except (OSError, ValueError):
        return None
    edits = []
    for edit in plan.edits:
        index = index_of(edit.filename)
        if index is None or index.text[edit.start:edit.end] != edit.old:
            return None  # the text changed since the check
        edits.append((edit.filename, index.span(edit.start, edit.end), edit.new))
    if not edits:
        return None
    first = plan.edits[0]
    change = f'{first.old.strip()} -> {first.new}' if first.new else \
        f'remove the duplicate {first.element}'
    if len(change) > 80 or '\n' in change:
        change = f'{len(edits)} edit(s)'
    return Action(f'Fix {finding.code}: {change}', tuple(edits), preferred=True)


def suppress_action(finding: Finding, path: str, index: TextIndex) -> Action | None:
    """The action that writes a suppression comment for ``finding`` in ``path``, or ``None``."""
    if finding.code in (UNLOADABLE, SUPPRESSION_UNUSED) or finding.location is None \
            or finding.location.line is None:
        return None
    element = index.element_at(finding.location.line, finding.element)
    if element is None:
        return None
    comment = f'<!-- urdf-tools: ignore[{finding.code}] -->'
    line_start = index.text.rfind('\n', 0, element.start) + 1
    before = index.text[line_start:element.start]
    if before.strip():
        where, text = element.start, comment
    else:
        where, text = line_start, f'{before}{comment}\n'
    span = index.span(where, where)
    return Action(f'Suppress {finding.code} here', ((path, span, text),))


def actions_for(found: Sequence[tuple[Finding, RunResult]], path: str, index: TextIndex,
                lines: tuple[int, int], read: Callable[[str], str],
                index_of: Callable[[str], TextIndex | None]) -> list[Action]:
    """
    The fixes and suppressions of the findings of ``path`` on ``lines`` (first, last; 0-based).

    :param found: The findings placed in ``path``, each with its run
        (:func:`~.checking.findings_by_file`).
    :param index: The text of ``path``, indexed.
    """
    actions: list[Action] = []
    for finding, result in found:
        span = index.finding_span(finding)
        if span.end_line < lines[0] or span.start_line > lines[1]:
            continue
        fixed = fix_action(finding, result, read, index_of)
        if fixed is not None and fixed not in actions:
            actions.append(fixed)
        suppressed = suppress_action(finding, path, index)
        if suppressed is not None and suppressed not in actions:
            actions.append(suppressed)
    return actions
