"""Structure rules: version, duplicates, a robot without links, a robot without a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import shared_model
from urdf_tools_ros.core.checks import CheckContext, RULES, structure
from urdf_tools_ros.core.description import load, load_string
from urdf_tools_ros.core.findings import Finding

CHECKS = (structure.check_name, structure.check_version, structure.check_links_present,
          structure.check_duplicates)

#: code -> (severity, source): the frozen catalog of this family.
CATALOG = {
    'robot-name-missing': ('error', 'urdfdom'),
    'robot-version-unsupported': ('error', 'urdfdom'),
    'robot-no-links': ('error', 'urdfdom'),
    'link-duplicate': ('error', 'urdfdom'),
    'joint-duplicate': ('error', 'urdfdom'),
    'material-duplicate': ('error', 'urdfdom'),
}

JOINT = '  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>\n'


def robot(body: str, attributes: str = 'name="r"') -> str:
    """A ``<robot>`` on line 1 around ``body`` (which starts on line 2)."""
    return f'<robot {attributes}>\n{body}</robot>\n'


def run(text: str) -> list[Finding]:
    description = load_string(text)
    context = CheckContext(description.robot, description.filename)
    return [finding for check in CHECKS for finding in check(context)]


CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('robot-name-missing', robot('  <link name="a"/>\n', 'version="1.0"'), 'robot',
                 1, 'no name', robot('  <link name="a"/>\n', 'name="r" version="1.0"'),
                 id='name-missing'),
    pytest.param('robot-version-unsupported',
                 robot('  <link name="a"/>\n', 'name="r" version="2.0"'), 'robot', 1,
                 'version="2.0"', robot('  <link name="a"/>\n', 'name="r" version="1.0"'),
                 id='version-2.0'),
    pytest.param('robot-version-unsupported',
                 robot('  <link name="a"/>\n', 'name="r" version="1.1"'), 'robot', 1,
                 'Humble and Jazzy do not', robot('  <link name="a"/>\n', 'name="r"'),
                 id='version-1.1'),
    pytest.param('robot-version-unsupported',
                 robot('  <link name="a"/>\n', 'name="r" version="1"'), 'robot', 1,
                 'major.minor', robot('  <link name="a"/>\n', 'name="r" version=" 1.0"'),
                 id='version-syntax'),
    pytest.param('robot-no-links', robot('  <material name="m"><color rgba="1 0 0 1"/>'
                                         '</material>\n'), 'robot', 1, 'robot "r" has no',
                 robot('  <link name="a"/>\n'), id='no-links'),
    pytest.param('link-duplicate', robot('  <link name="a"/>\n  <link name="a"/>\n'),
                 'link:a', 3, 'first one is at <string>:2', robot('  <link name="a"/>\n'),
                 id='link-duplicate'),
    pytest.param('joint-duplicate',
                 robot('  <link name="a"/>\n  <link name="b"/>\n' + JOINT + JOINT),
                 'joint:j', 5, 'joint "j" is defined again',
                 robot('  <link name="a"/>\n  <link name="b"/>\n' + JOINT), id='joint-duplicate'),
    pytest.param('material-duplicate',
                 robot('  <material name="m"><color rgba="1 0 0 1"/></material>\n'
                       '  <material name="m"><color rgba="1 0 0 1"/></material>\n'
                       '  <link name="a"/>\n'),
                 'material:m', 3, 'identically',
                 robot('  <material name="m"><color rgba="1 0 0 1"/></material>\n'
                       '  <material name="n"><color rgba="1 0 0 1"/></material>\n'
                       '  <link name="a"/>\n'), id='material-duplicate-identical'),
]


@pytest.mark.parametrize('code, bad, element, line, text, good', CASES)
def test_rule_fires_on_the_bad_twin_only(code: str, bad: str, element: str, line: int,
                                         text: str, good: str) -> None:
    found = [finding for finding in run(bad) if finding.code == code]
    assert len(found) == 1, found
    finding = found[0]
    assert finding.severity.value == CATALOG[code][0]
    assert finding.element == element
    assert finding.location is not None and finding.location.line == line
    assert text in finding.message
    assert run(good) == []


def test_catalog_is_frozen() -> None:
    for code, (severity, source) in CATALOG.items():
        assert (RULES[code].severity.value, RULES[code].source) == (severity, source), code
        assert RULES[code].summary


def test_every_rule_has_a_case() -> None:
    covered = {case.values[0] for case in CASES}
    assert covered == set(CATALOG)


def test_every_duplicate_is_reported() -> None:
    findings = run(robot('  <link name="a"/>\n' * 3))
    assert [finding.location.line for finding in findings if finding.location] == [3, 4]


def test_different_duplicate_materials_are_reported_without_identically() -> None:
    (finding,) = run(robot('  <material name="m"><color rgba="1 0 0 1"/></material>\n'
                           '  <material name="m"><color rgba="0 0 1 1"/></material>\n'
                           '  <link name="a"/>\n'))
    assert finding.code == 'material-duplicate' and 'identically' not in finding.message


def test_real_robots_have_no_structure_findings(shared_urdf: Path) -> None:
    description = load(shared_urdf)
    context = CheckContext(description.robot, description.filename)
    assert [finding for check in CHECKS for finding in check(context)] == []


def test_robotiq_with_undeclared_prefix_has_no_structure_findings() -> None:
    description = load(shared_model('robotiq_2f_85.urdf'))
    context = CheckContext(description.robot, description.filename)
    assert [finding for check in CHECKS for finding in check(context)] == []
