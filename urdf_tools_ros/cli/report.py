"""
Check reports: for people (text, colour), CI (JUnit XML, SARIF 2.1.0) and tools (JSON).

One :class:`FileReport` per file checked (per file and combination with ``--matrix``); a file
that cannot be loaded is a report whose one finding is ``description-unloadable``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
import os
import sys

from urdf_tools_ros.core.session import call_notes, failing, include_chain
from urdf_tools_ros.core.source.matrix import Combination, label
from ..core.checks import (broken_consumers, count, counts_text, DEFAULT_TARGET, portability,
                           RULES, XACRO_IN_URDF)
from ..core.findings import Finding, Severity
from ..core.location import SourceLocation

__all__ = ['FileReport', 'GROUP_SHOWN', 'finding_dict', 'format_json', 'format_junit',
           'format_sarif', 'format_text', 'shown_path', 'summary', 'write_output']

#: How many findings of one code the text shows before it groups the rest (``-v``: all).
GROUP_SHOWN = 3

_COLOURS = {Severity.ERROR: '\033[1;31m', Severity.WARNING: '\033[1;33m',
            Severity.INFO: '\033[36m'}
_BOLD, _DIM, _RESET = '\033[1m', '\033[2m', '\033[0m'


@dataclass(frozen=True)
class FileReport:
    """
    The findings of one file.

    :ivar filename: The file as given (``-`` for standard input).
    :ivar findings: Its findings, most severe first (unloaded: ``description-unloadable``).
    :ivar loaded: Whether the file was loaded (and checked).
    :ivar included_from: ``{file: location of the <xacro:include> that read it}``, for ``-v``.
    :ivar combination: The matrix's xacro arguments this report is for; empty without one.
    :ivar werror: Whether its warnings fail it (its configuration's or ``--werror``).
    """

    filename: str
    findings: tuple[Finding, ...]
    loaded: bool = True
    included_from: Mapping[str, SourceLocation] = field(default_factory=dict)
    combination: Combination = ()
    werror: bool = False

    @property
    def title(self) -> str:
        """The file, and its combination when there is one: ``robot.urdf.xacro [prefix=a_]``."""
        return f'{self.filename} [{label(self.combination)}]' if self.combination \
            else self.filename


def summary(filename: str, findings: Sequence[Finding]) -> str:
    """One line: ``robot.urdf: 2 errors, 1 warning, 0 info`` (:func:`counts_text`)."""
    return f'{filename}: {counts_text(findings)}'


def write_output(output: str | None, text: str, wrote: str = '') -> None:
    """Write ``text`` to ``output`` and print ``wrote OUTPUT{wrote}``; ``None``, ``-``: stdout."""
    if output and output != '-':
        with open(output, 'w', encoding='utf-8') as stream:
            stream.write(text)
        print(f'wrote {output}{wrote}')
    else:
        sys.stdout.write(text)


def shown_path(name: str) -> str:
    """A file as reports write it: relative to the current directory when under it."""
    if os.path.isabs(name):
        relative = os.path.relpath(name)
        if not relative.startswith('..'):
            return relative
    return name


def _where(finding: Finding | SourceLocation) -> str:
    location = finding.location if isinstance(finding, Finding) else finding
    if location is None:
        return ''
    name = shown_path(location.filename)
    return f'{name}:{location.line}: ' if location.line is not None else f'{name}: '


def _text_lines(finding: Finding, target: str, verbose: bool, colour: bool,
                included_from: Mapping[str, SourceLocation] | None = None) -> list[str]:
    """
    ``file:line: severity[code]: message``, then its notes and fix on indented lines.

    ``verbose`` adds the include chain, the macro calls of each expansion and the consumers (those
    of ``target`` an error breaks, else those the finding concerns).
    """
    where = _where(finding)
    head = f'{where}{finding.severity.value}[{finding.code}]: '
    if colour:
        head = (f'{where}{_COLOURS[finding.severity]}{finding.severity.value}'
                f'{_RESET}[{_BOLD}{finding.code}{_RESET}]: ')
    extra = [f'    {_where(location)}note: {text}' for location, text in finding.notes]
    if verbose:
        if not finding.notes:  # a xacro failure's notes are its chain already
            extra += [f'    {_where(where)}note: included from here'
                      for where in include_chain(finding.location, included_from or {})]
        extra += [f'    {_where(where)}note: {text}' for where, text in call_notes(finding)]
        broken = broken_consumers(finding, target)
        if finding.severity is Severity.ERROR and broken:
            extra.append(f'    breaks: {", ".join(broken)}')
        elif finding.consumers:
            extra.append(f'    concerns: {", ".join(finding.consumers)}')
    if finding.fix:
        extra.append(f'    fix: {finding.fix}')
    extra = [f'{_DIM}{line}{_RESET}' if colour else line for line in extra]
    return [head + finding.message + finding.times, *extra]


def format_text(reports: Sequence[FileReport], show_info: bool = False,
                target: str = DEFAULT_TARGET, *, verbose: bool = False, colour: bool = False,
                portable: bool = True) -> str:
    """
    Findings for a terminal: one line each (the fix indented below), grouped, then summaries.

    Per file: the findings, most severe first; a code with more than :data:`GROUP_SHOWN` findings
    is shown as ``94 × mesh-file-missing (warning): first 3 shown; -v for all`` and its first
    three; then the counts by code, :func:`portability_line` (when ``portable``) and
    :func:`summary`. Several files end with a total.

    :param show_info: Include info findings (always counted).
    :param target: The target the severities were computed for (names the broken consumers).
    :param verbose: Every finding, ungrouped, with the consumers it concerns.
    :param colour: ANSI colours (a terminal, without ``NO_COLOR``).
    :param portable: Print the ``loads as written in`` line of each loaded file.
    """
    out: list[str] = []
    for report in reports:
        if report.combination:  # the findings of each combination under its name
            out.append(f'{_BOLD}{report.title}{_RESET}' if colour else report.title)
        shown = [f for f in report.findings if show_info or f.severity is not Severity.INFO
                 or not report.loaded]
        by_code = Counter(f.code for f in shown)
        printed: Counter[str] = Counter()
        for finding in shown:
            number = by_code[finding.code]
            if not verbose and number > GROUP_SHOWN:
                if printed[finding.code] == 0:
                    out.append(f'{number} × {finding.code} ({finding.severity.value}): first '
                               f'{GROUP_SHOWN} shown; -v for all')
                printed[finding.code] += 1
                if printed[finding.code] > GROUP_SHOWN:
                    continue
            out.extend(_text_lines(finding, target, verbose, colour, report.included_from))
        codes = Counter(f.code for f in report.findings)
        if len(codes) > 1:
            out.append('by code: ' + ', '.join(f'{n} {code}' for code, n in codes.most_common()))
        if portable and report.loaded:
            out.append(portability_line(report.findings))
        out.append(summary(report.title, report.findings))
    if len(reports) > 1:
        every = [f for report in reports for f in report.findings]
        out.append(f'total: {_checked(reports)}, {counts_text(every)}')
    return '\n'.join(out) + '\n'


def _checked(reports: Sequence[FileReport]) -> str:
    """
    ``3 files``; with a matrix ``4 combinations`` or ``2 files × 4 combinations``.

    Files checked a different number of times (entries of a folder): ``5 checks of 3 files``.
    """
    if not any(report.combination for report in reports):
        return f'{len(reports)} files'
    files = Counter(report.filename for report in reports)
    if len(set(files.values())) > 1:
        return f'{len(reports)} checks of {len(files)} files'
    combinations = len(reports) // len(files)
    per_file = f'{combinations} combination' + ('s' if combinations != 1 else '')
    return per_file if len(files) == 1 else f'{len(files)} files × {per_file}'


def portability_line(findings: Sequence[Finding]) -> str:
    """
    ``loads as written in: ...; errors for: ...`` (:func:`~..core.checks.portability`).

    A file not named ``.xacro`` with xacro syntax (``xacro-in-urdf``) reaches the ROS targets
    through the xacro of their launch files: ``loads through xacro in: ros-...; as written in:``.
    """
    verdicts = portability(findings)
    good = [target for target, ok in verdicts.items() if ok]
    bad = [target for target, ok in verdicts.items() if not ok]
    through = [target for target in good if target.startswith('ros-')] \
        if any(finding.code == XACRO_IN_URDF for finding in findings) else []
    written = [target for target in good if target not in through]
    return ((f'loads through xacro in: {", ".join(through)}; ' if through else '')
            + f'loads as written in: {", ".join(written) or "none"}'
            + (f'; errors for: {", ".join(bad)}' if bad else ''))


def finding_dict(finding: Finding, target: str = DEFAULT_TARGET) -> dict[str, object]:
    """
    A JSON-ready dict of one finding (``breaks``: the consumers of ``target`` it breaks).

    ``count``: how many expansions of a macro body gave it; ``calls``: each one's macro calls,
    innermost first, ``{file, line, macro, arguments}``.
    """
    location = finding.location
    return {
        'code': finding.code,
        'severity': finding.severity.value,
        'element': finding.element,
        'message': finding.message,
        'file': None if location is None else location.filename,
        'line': None if location is None else location.line,
        'fix': finding.fix,
        'notes': [{'file': where.filename, 'line': where.line, 'message': text}
                  for where, text in finding.notes],
        'count': finding.count,
        'calls': [[{'file': call.location.filename, 'line': call.location.line,
                    'macro': call.macro, 'arguments': dict(call.arguments)} for call in chain]
                  for chain in finding.calls],
        'source': RULES[finding.code].source if finding.code in RULES else None,
        'consumers': list(finding.consumers or ()),
        'breaks': list(broken_consumers(finding, target)),
    }


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    return {severity.value: n for severity, n in count(findings).items()}


def format_json(reports: Sequence[FileReport], target: str = DEFAULT_TARGET) -> str:
    """
    The report as indented JSON.

    One file: ``{"file", "target", "loaded", "counts", "findings"}``; several:
    ``{"target", "counts", "files": [one such object each]}``. A matrix's combination adds
    ``"xacro_args": {name: value}`` and ``"combination": "ur_type=ur3 prefix=left_"``.
    """
    import json
    files = [{'file': report.filename,
              **({'combination': label(report.combination),
                  'xacro_args': dict(report.combination)} if report.combination else {}),
              'target': target, 'loaded': report.loaded,
              'counts': _counts(report.findings),
              'loads_in': portability(report.findings) if report.loaded else {},
              'findings': [finding_dict(f, target) for f in report.findings]}
             for report in reports]
    if len(files) == 1:
        return json.dumps(files[0], indent=2) + '\n'
    every = [f for report in reports for f in report.findings]
    return json.dumps({'target': target, 'counts': _counts(every), 'files': files},
                      indent=2) + '\n'


def format_junit(reports: Sequence[FileReport], werror: bool = False) -> str:
    """
    The report as JUnit XML: a suite per file, a case per rule with findings, one for the rest.

    A rule with failing findings (:func:`~..core.session.failing`, with ``werror`` or the
    report's) is a failing case listing them with their notes and macro calls; its ``file`` and
    ``line`` are the first one's, its failure ``message`` (what ``colcon test-result --verbose``
    prints) their first :data:`GROUP_SHOWN` lines, ``file:line: severity[code]: ...``. Other
    rules with findings are passing cases whose ``<system-out>`` lists them; the rules without
    findings are one case, ``other rules``. A matrix's combination is a suite named
    ``file [combination]`` with ``xacro_arg:NAME`` properties.
    """
    from lxml import etree

    root = etree.Element('testsuites')
    for report in reports:
        by_code: dict[str, list[Finding]] = {}
        for finding in report.findings:
            by_code.setdefault(finding.code, []).append(finding)
        suite = etree.SubElement(root, 'testsuite', name=f'urdf-tools check {report.title}')
        if report.combination:
            properties = etree.SubElement(suite, 'properties')
            for name, value in report.combination:
                etree.SubElement(properties, 'property', name=f'xacro_arg:{name}', value=value)
        failures = 0
        for code, items in by_code.items():
            case = etree.SubElement(suite, 'testcase', classname=report.title, name=code)
            failed = failing(items, werror or report.werror)
            text = '\n'.join(str(f) + ''.join(f'\n    {where}: note: {note}' for where, note
                                              in (*f.notes, *call_notes(f))) for f in items)
            if failed:
                failures += 1
                where = failed[0].location
                if where is not None:
                    case.set('file', where.filename)
                    if where.line is not None:
                        case.set('line', str(where.line))
                more = len(failed) - GROUP_SHOWN
                message = '\n'.join([*map(str, failed[:GROUP_SHOWN]),
                                     *([f'... and {more} more'] if more > 0 else [])])
                etree.SubElement(case, 'failure', type=code, message=message).text = text
            else:
                etree.SubElement(case, 'system-out').text = text
        rest = [code for code in RULES if code not in by_code] if report.loaded else []
        if rest:
            case = etree.SubElement(suite, 'testcase', classname=report.title,
                                    name='other rules')
            etree.SubElement(case, 'system-out').text = \
                f'{len(rest)} rules without findings: {", ".join(rest)}'
        suite.set('tests', str(len(suite.findall('testcase'))))
        suite.set('failures', str(failures))
        suite.set('errors', '0')
    return etree.tostring(root, encoding='unicode', pretty_print=True,
                          doctype='<?xml version="1.0" encoding="UTF-8"?>').rstrip('\n') + '\n'


_SARIF_LEVEL = {Severity.ERROR: 'error', Severity.WARNING: 'warning', Severity.INFO: 'note'}


def _artifact(filename: str) -> dict[str, str]:
    """A SARIF artifactLocation: a path relative to the working directory when inside it."""
    absolute = os.path.abspath(filename)
    relative = os.path.relpath(absolute)
    if not relative.startswith('..') and not os.path.isabs(relative):
        return {'uri': relative.replace(os.sep, '/'), 'uriBaseId': '%SRCROOT%'}
    return {'uri': 'file://' + absolute.replace(os.sep, '/')}


def format_sarif(reports: Sequence[FileReport], version: str,
                 target: str = DEFAULT_TARGET) -> str:
    """
    SARIF 2.1.0 (OASIS), as GitHub code scanning reads it: one run of the ``urdf-tools`` driver.

    Each finding is a result with its rule id, level (``note`` for info), message (with the
    fix), file and line; its notes and macro calls are ``relatedLocations``, its expansions
    ``occurrenceCount``. The rules used are described in the driver. With a matrix, a result's
    message starts with its combination (``[ur_type=ur3] ...``), also in its ``properties``; the
    run's ``properties`` list every combination checked.

    :param version: The tool's version.
    """
    import json
    used = sorted({f.code for report in reports for f in report.findings})
    rules = []
    for code in used:
        rule = RULES.get(code)
        entry: dict[str, object] = {'id': code, 'name': code}
        if rule is not None:
            entry['shortDescription'] = {'text': rule.summary}
            entry['defaultConfiguration'] = {'level': _SARIF_LEVEL[rule.severity_for(target)]}
            entry['properties'] = {'source': rule.source, 'consumers': list(rule.consumers),
                                   'reference': rule.reference}
        rules.append(entry)
    results = []
    for report in reports:
        for finding in report.findings:
            location = finding.location
            physical: dict[str, object] = {
                'artifactLocation': _artifact(location.filename if location else
                                              report.filename)}
            if location is not None and location.line is not None and location.line >= 1:
                physical['region'] = {'startLine': location.line}
            message = finding.message + finding.times + \
                (f' (fix: {finding.fix})' if finding.fix else '')
            if report.combination:
                message = f'[{label(report.combination)}] {message}'
            result: dict[str, object] = {
                'ruleId': finding.code, 'ruleIndex': used.index(finding.code),
                'level': _SARIF_LEVEL[finding.severity], 'message': {'text': message},
                'locations': [{'physicalLocation': physical}]}
            if finding.count > 1:
                result['occurrenceCount'] = finding.count
            if report.combination:
                result['properties'] = {'combination': label(report.combination),
                                        'xacroArgs': dict(report.combination)}
            related = [*finding.notes, *call_notes(finding)]
            if related:
                result['relatedLocations'] = [
                    {'id': index, 'message': {'text': text}, 'physicalLocation': {
                        'artifactLocation': _artifact(where.filename),
                        **({'region': {'startLine': where.line}} if where.line else {})}}
                    for index, (where, text) in enumerate(related)]
            results.append(result)
    run: dict[str, object] = {'tool': {'driver': {
        'name': 'urdf-tools', 'version': version, 'rules': rules}}, 'results': results}
    checked = list(dict.fromkeys(label(report.combination) for report in reports
                                 if report.combination))
    if checked:
        run['properties'] = {'combinations': checked}
    return json.dumps({
        '$schema': 'https://json.schemastore.org/sarif-2.1.0.json',
        'version': '2.1.0',
        'runs': [run],
    }, indent=2) + '\n'
