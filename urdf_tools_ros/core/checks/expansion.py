"""
Findings in xacro macro bodies: one finding per line and message, with the calls that made it.

A macro body line is expanded once per call, and a check finds the same problem in each
expansion: :func:`merge_expansions` makes the findings with the same code, severity, file:line
and message one :class:`~urdf_tools_ros.core.findings.Finding` with a ``count`` and, for each
expansion, its chain of macro calls (``calls``, each chain innermost first, from the element's
:attr:`~urdf_tools_ros.core.location.SourceLocation.calls`). Findings from one line with different
messages (one per mesh file of a macro called with 14 of them) stay apart.

When the value a finding quotes (``mesh "..."``, ``reference="..."``) is an attribute made from
an argument of a call (:attr:`~urdf_tools_ros.core.location.SourceLocation.arguments`:
``filename="${mesh}"``, or a property built from ``mesh``), the fix says which argument of which
call to edit, before the rule's own fix: the body line is shared, the argument is the user's.
:func:`~urdf_tools_ros.core.checks.check_description` applies both, so the command line, the
nodes, the viewer and the pytest plugin show the same.
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
    The argument of a macro call the value ``finding`` quotes is made from, if any.

    The value is an attribute of the finding's element (other than its ``name``: a message
    names its element by it) that the message quotes, ``"value"``, and that
    :attr:`~urdf_tools_ros.core.location.SourceLocation.arguments` says is made from an argument.

    :return: ``(the attribute's use of the argument, the call that gives the argument)``.
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
    """
    The fix that names the argument to edit at its call, or calls.

    ``edit the argument mesh="castor.stl" of <xacro:caster> at robot.xacro:22 (the value of
    filename is made from it)``; for several calls, ``of the calls <xacro:caster> at
    robot.xacro:22, robot.xacro:23``.
    """
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


def merge_expansions(findings: Iterable[Finding]) -> list[Finding]:
    """
    Merge the findings of each macro body line and message; add the calls and argument fixes.

    Findings with the same code, severity, location (file and line) and message become the
    first of them with ``count`` their total and ``calls`` the chain of calls of each (those
    whose location has one). The fix of one whose quoted value is made from a call's argument
    (:func:`argument_source`) starts with the argument to edit at each call. A finding outside
    every macro body, found once, is returned as it is.

    :return: The findings, each once, in the order of their first occurrence.
    """
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding in findings:
        location = finding.location
        key = (finding.code, finding.severity,
               None if location is None else (location.filename, location.line),
               finding.message)
        groups.setdefault(key, []).append(finding)
    merged = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1 and (first.location is None or not first.location.calls):
            merged.append(first)
            continue
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
