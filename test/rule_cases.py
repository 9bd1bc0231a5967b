"""
Shared scaffolding of the rule-family tests (``test_checks_<family>.py``).

Each family module keeps its own ``CHECKS`` (the check functions of the family), ``CATALOG``
(``code -> (severity, source)``, the frozen catalog of the family) and ``CASES`` (a table of
``pytest.param(code, bad, element, line, text, good, id=...)``: a failing URDF, where and what
its one finding says, and a passing twin). The helpers here load, run and assert; the asserts
carry their own messages because pytest rewrites the asserts of test modules only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from urdf_tools_ros.core.checks import CheckContext, RULES
from urdf_tools_ros.core.description.loader import load_string, RobotDescription
from urdf_tools_ros.core.findings import Finding

#: A check function of a rule family.
Check = Callable[[CheckContext], Iterable[Finding]]
#: code -> (severity, source): the frozen catalog of a rule family.
Catalog = Mapping[str, tuple[str, str]]


def check_family(checks: Sequence[Check], description: RobotDescription) -> list[Finding]:
    """
    Apply every check of a family to a loaded description.

    :param checks: The family's check functions, applied in order.
    :param description: The loaded description; its filename resolves relative paths.
    :return: The findings of all checks, in check order.
    """
    context = CheckContext(description.robot, description.filename)
    return [finding for check in checks for finding in check(context)]


def run_family(checks: Sequence[Check], text: str, filename: str = '<string>',
               **load_kwargs: Any) -> list[Finding]:
    """
    Load a URDF string and apply every check of a family to it.

    :param checks: The family's check functions, applied in order.
    :param text: The URDF.
    :param filename: Where it came from, as for :func:`load_string`.
    :param load_kwargs: Further keyword arguments of :func:`load_string` (``package_paths``...).
    :return: The findings of all checks, in check order (loading findings are not included).
    """
    return check_family(checks, load_string(text, filename, **load_kwargs))


def assert_case(findings_bad: Sequence[Finding], findings_good: Sequence[Finding], code: str,
                catalog: Catalog, element: str, line: int, text: str) -> None:
    """
    Assert that rule ``code`` fires once on the bad twin, as described, and nothing on the good.

    :param findings_bad: Findings of the failing URDF.
    :param findings_good: Findings of its passing twin: there must be none at all.
    :param code: The rule expected to fire exactly once on the failing URDF.
    :param catalog: The family's catalog, which gives the expected severity.
    :param element: The expected ``element`` of the finding (``link:a``).
    :param line: The expected source line of the finding.
    :param text: Text the finding's message must contain.
    """
    found = [finding for finding in findings_bad if finding.code == code]
    assert len(found) == 1, found
    finding = found[0]
    severity = catalog[code][0]
    assert finding.severity.value == severity, (finding.severity.value, severity)
    assert finding.element == element, (finding.element, element)
    assert finding.location is not None and finding.location.line == line, \
        (finding.location, line)
    assert text in finding.message, finding.message
    assert list(findings_good) == [], findings_good


def assert_catalog_frozen(catalog: Catalog) -> None:
    """Assert that every rule of ``catalog`` has its severity and source, and a summary."""
    for code, (severity, source) in catalog.items():
        assert (RULES[code].severity.value, RULES[code].source) == (severity, source), code
        assert RULES[code].summary, code


def assert_every_rule_has_a_case(cases: Iterable[Any], catalog: Catalog) -> None:
    """Assert that the ``pytest.param`` table ``cases`` covers exactly the rules of ``catalog``."""
    covered = {case.values[0] for case in cases}
    assert covered == set(catalog), (sorted(covered ^ set(catalog)))
