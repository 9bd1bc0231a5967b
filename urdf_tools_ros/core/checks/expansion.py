"""
Findings in xacro macro bodies: one finding per line and message, with the calls that made it.

A body line is expanded once per call: :func:`merge_expansions` makes the findings of one code,
severity, file:line and message (but for the owner that leads it, which each call names anew)
one finding with a ``count`` and each expansion's ``calls``.
When the value a finding quotes is made from a call's argument (``filename="${mesh}"``), the
fix first names that argument at its call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
import os

from ..findings import Finding
from ..location import ArgumentUse, MacroCall

__all__ = ['argument_source', 'merge_expansions']


def argument_source(finding: Finding) -> tuple[ArgumentUse, MacroCall] | None:
    """
    The argument of a macro call that the value ``finding`` quotes (``"value"``) is made from.

    :return: ``(the attribute's use of the argument, the call that gives it)``, or ``None``.
    """
    location = finding.location
    if location is None:
        return None
    for use in location.arguments:
        if (use.attribute != 'name' and use.value and f'"{use.value}"' in finding.message
                and use.call < len(location.calls)):
            return use, location.calls[use.call]
    return None


def _where(call: MacroCall) -> str:
    """``file.xacro:12``: the call's file (its base name) and line."""
    location = call.location
    name = os.path.basename(location.filename) or location.filename
    return f'{name}:{location.line}' if location.line is not None else name


def _argument_fix(sources: Iterable[tuple[ArgumentUse, MacroCall]]) -> str | None:
    """The fix that names the argument to edit at its call(s): ``edit the argument mesh=...``."""
    items = list(dict.fromkeys(sources))
    if not items:
        return None
    texts = []
    for parameter, attribute in dict.fromkeys((use.parameter, use.attribute)
                                              for use, _ in items):
        calls = list(dict.fromkeys(call for use, call in items
                                   if (use.parameter, use.attribute) == (parameter, attribute)))
        if len(calls) == 1:
            call = calls[0]
            given = dict(call.arguments).get(parameter)
            argument = f'{parameter}="{given}"' if given is not None else parameter
            texts.append(f'edit the argument {argument} of the call <xacro:{call.macro}> at '
                         f'{_where(call)} (the value of {attribute} is made from it)')
        else:
            macros = ', '.join(dict.fromkeys(f'<xacro:{call.macro}>' for call in calls))
            texts.append(f'edit the argument {parameter} of the calls {macros} at '
                         f'{", ".join(_where(call) for call in calls)} (the value of '
                         f'{attribute} is made from it)')
    return '; '.join(texts)


def _unled(finding: Finding) -> str:
    """
    The message without the owner that leads it in a macro body (``joint "fl_joint": ``).

    The reader leads a message about a child element by its owner; each call of the macro names
    another owner for the same line, which is one finding.
    """
    kind, _, name = finding.element.partition(':')
    if finding.location is None or not finding.location.calls:
        return finding.message
    return finding.message.removeprefix(f'{kind} "{name}": ')


def merge_expansions(findings: Iterable[Finding]) -> list[Finding]:
    """
    Merge the findings of each macro body line and message; add the calls and argument fixes.

    :return: The findings, each once, in the order of their first occurrence.
    """
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding in findings:
        location = finding.location
        key = (finding.code, finding.severity,
               None if location is None else (location.filename, location.line),
               _unled(finding))
        groups.setdefault(key, []).append(finding)
    merged = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1 and (first.location is None or not first.location.calls):
            merged.append(first)
            continue
        if len({finding.message for finding in group}) > 1:  # owners of one body line
            first = replace(first, message=_unled(first))
        calls = tuple(chain for finding in group for chain in (
            finding.calls or ((finding.location.calls,) if finding.location is not None
                              and finding.location.calls else ())))
        edit = _argument_fix(source for source in map(argument_source, group)
                             if source is not None)
        fix = first.fix
        if edit is not None and not (fix or '').startswith(edit):  # merged once already
            fix = f'{edit}; {fix}' if fix else edit
        merged.append(replace(first, count=sum(finding.count for finding in group),
                              calls=calls, fix=fix))
    return merged
