"""
Code actions: the mechanical fixes of ``check --fix`` as edits, and the suppression comment.

A fix is what ``check --fix --fix-inertia`` writes, offered while the text is unchanged and
named after its link or joint. It is offered only where ``check --fix`` would apply it: the
findings of the file, across the expansions of a macro and across runs, are planned together
(:func:`~urdf_tools_ros.core.fix.edits.plan_runs`), and a finding whose edit of a text differs
from another's there has no fix. The suppression comment goes right before the element (on a
line of its own when it starts one).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
import os

from urdf_tools_ros.core.checks.rules.loading import UNLOADABLE
from urdf_tools_ros.core.fix.edits import plan_fixes, plan_runs
from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.scanner import TextEdit
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


#: An edit as ``check --fix`` tells edits apart: file, span and new text.
Change = tuple[str, int, int, str]


def _change(edit: TextEdit) -> Change:
    return edit.filename, edit.start, edit.end, edit.new


def agreed_changes(found: Sequence[tuple[Finding, RunResult]], read: Callable[[str], str]
                   ) -> set[Change]:
    """
    The edits ``check --fix --fix-inertia`` would make of all of ``found`` together.

    The findings of every run are planned at once (:func:`plan_runs`): an edit of a text that
    another finding would edit differently (a macro body expanded with different values, in
    one run or in two) is not among them.
    """
    runs: dict[int, tuple[Robot, list[Finding]]] = {}
    for finding, result in found:
        if result.robot is not None:
            runs.setdefault(id(result), (result.robot, []))[1].append(finding)
    try:
        return {_change(edit) for edit in plan_runs(runs.values(), read, inertia=True).edits}
    except (OSError, ValueError):
        return set()


def fix_action(finding: Finding, result: RunResult, read: Callable[[str], str],
               index_of: Callable[[str], TextIndex | None],
               agreed: Container[Change] | None = None) -> Action | None:
    """
    The mechanical fix of ``finding`` as an action, or ``None`` when it has none.

    Its title names the finding's link or joint, the changes, and the call they edit when the
    value is a macro call's argument.

    :param read: A file's text (the editor's when open), as the edits' offsets count.
    :param index_of: A file's text, indexed, the same as ``read`` gives.
    :param agreed: The edits of all the file's findings (:func:`agreed_changes`); a fix with an
        edit not among them is not offered. ``None``: the finding alone.
    """
    if result.robot is None:
        return None
    try:
        plan = plan_fixes(result.robot, [finding], read, inertia=True)
    except (OSError, ValueError):
        return None
    if agreed is not None and not all(_change(edit) in agreed for edit in plan.edits):
        return None
    edits = []
    for edit in plan.edits:
        index = index_of(edit.filename)
        if index is None or index.text[edit.start:edit.end] != edit.old:
            return None  # the text changed since the check
        edits.append((edit.filename, index.span(edit.start, edit.end), edit.new))
    if not edits:
        return None
    change = ', '.join(f'{edit.old.strip()} -> {edit.new}' if edit.new else
                       'remove the duplicate' for edit in plan.edits)
    if len(change) > 80 or '\n' in change:
        change = f'{len(edits)} edits'
    first, location = plan.edits[0], finding.location
    calls = [*(location.calls if location is not None else ()),
             *(call for chain in finding.calls for call in chain)]
    if any((call.location.filename, call.location.line) == (first.filename, first.line)
           for call in calls):
        change += f' at the call, {os.path.basename(first.filename)}:{first.line}'
    kind, _, name = finding.element.partition(':')
    named = f' of {kind} "{name}"' if name else ''
    return Action(f'Fix {finding.code}{named}: {change}', tuple(edits), preferred=True)


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

    A fix is offered where all of ``found`` agree on it (:func:`agreed_changes`), once for
    the findings that ask for the same edits; no two fixes edit one text differently, so each
    is the preferred one of its findings.

    :param found: The findings placed in ``path``, each with its run
        (:func:`~.checking.findings_by_file`).
    :param index: The text of ``path``, indexed.
    """
    shown = []
    for finding, result in found:
        span = index.finding_span(finding)
        if span.end_line >= lines[0] and span.start_line <= lines[1]:
            shown.append((finding, result))
    agreed = agreed_changes(found, read) if shown else set()
    actions: list[Action] = []
    for finding, result in shown:
        fixed = fix_action(finding, result, read, index_of, agreed)
        if fixed is not None and all(fixed.edits != action.edits for action in actions):
            actions.append(fixed)  # one fix of a text, though several findings ask for it
        suppressed = suppress_action(finding, path, index)
        if suppressed is not None and suppressed not in actions:
            actions.append(suppressed)
    return actions
