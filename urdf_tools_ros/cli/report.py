"""Format check findings for people (compiler style), CI (JUnit XML) and tools (JSON)."""

from __future__ import annotations

from collections.abc import Sequence
import json

from ..core.checks import broken_consumers, count, counts_text, DEFAULT_TARGET, RULES
from ..core.findings import Finding, Severity


def summary(filename: str, findings: Sequence[Finding]) -> str:
    """One line: ``robot.urdf: 2 errors, 1 warning, 0 info`` (:func:`counts_text`)."""
    return f'{filename}: {counts_text(findings)}'


def line(finding: Finding, target: str = DEFAULT_TARGET) -> str:
    """
    One compiler-style line; an error ends with the consumers of ``target`` it breaks.

    ``file:line: severity[code]: element: message (fix: ...) [breaks: urdfdom, ...]``.
    """
    text = str(finding)
    broken = broken_consumers(finding, target)
    if finding.severity is Severity.ERROR and broken:
        text += f' [breaks: {", ".join(broken)}]'
    return text


def format_text(filename: str, findings: Sequence[Finding], show_info: bool = False,
                target: str = DEFAULT_TARGET) -> str:
    """
    Compiler-style lines (:func:`line`), then the summary.

    :param show_info: Include info findings (they are always counted in the summary).
    :param target: The target the severities were computed for (names the broken consumers).
    """
    lines = [line(f, target) for f in findings if show_info or f.severity is not Severity.INFO]
    lines.append(summary(filename, findings))
    return '\n'.join(lines) + '\n'


def finding_dict(finding: Finding, target: str = DEFAULT_TARGET) -> dict[str, object]:
    """A JSON-ready dict of one finding (``breaks``: the consumers of ``target`` it breaks)."""
    location = finding.location
    return {
        'code': finding.code,
        'severity': finding.severity.value,
        'element': finding.element,
        'message': finding.message,
        'file': None if location is None else location.filename,
        'line': None if location is None else location.line,
        'fix': finding.fix,
        'source': RULES[finding.code].source if finding.code in RULES else None,
        'consumers': list(finding.consumers or ()),
        'breaks': list(broken_consumers(finding, target)),
    }


def format_json(filename: str, findings: Sequence[Finding],
                target: str = DEFAULT_TARGET) -> str:
    """``{"file", "target", "counts", "findings": [...]}`` as indented JSON."""
    counts = count(findings)
    return json.dumps({
        'file': filename,
        'target': target,
        'counts': {severity.value: n for severity, n in counts.items()},
        'findings': [finding_dict(f, target) for f in findings],
    }, indent=2) + '\n'


def format_junit(filename: str, findings: Sequence[Finding], werror: bool = False) -> str:
    """
    Format findings as JUnit XML, one test case per rule of the catalog.

    A rule with errors (or warnings under ``werror``) fails, listing its findings; CI systems
    show the file as a test report.
    """
    from xml.sax.saxutils import escape, quoteattr  # here: it imports urllib (~40 ms)

    by_code: dict[str, list[Finding]] = {code: [] for code in RULES}
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    cases = []
    failures = 0
    for code, items in by_code.items():
        failing = [f for f in items if f.severity is Severity.ERROR
                   or (werror and f.severity is Severity.WARNING)]
        body = ''
        if failing:
            failures += 1
            text = escape('\n'.join(str(f) for f in failing))
            body = (f'<failure message={quoteattr(f"{len(failing)} finding(s)")} '
                    f'type={quoteattr(code)}>{text}</failure>')
        cases.append(f'    <testcase classname={quoteattr(filename)} name={quoteattr(code)}>'
                     f'{body}</testcase>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuites><testsuite name={quoteattr("urdf-tools check " + filename)} '
            f'tests="{len(cases)}" failures="{failures}" errors="0">\n'
            + '\n'.join(cases) + '\n</testsuite></testsuites>\n')
