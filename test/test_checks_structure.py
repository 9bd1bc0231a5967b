"""Structure rules: version, duplicates, a robot without links, a robot without a name."""

from __future__ import annotations

import pytest

from rule_cases import run_family

from urdf_tools_ros.core.checks.rules import structure
from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.source.loader import load_string

CHECKS = (structure.check_version, structure.check_links_present,
          structure.check_duplicates, structure.check_shared_names)

#: code -> (severity, source): the frozen catalog of this family.
CATALOG = {
    'robot-name-missing': ('warning', 'urdfdom'),
    'robot-version-unsupported': ('warning', 'urdfdom'),
    'robot-version-new': ('warning', 'urdfdom'),
    'robot-no-links': ('error', 'urdfdom'),
    'link-duplicate': ('warning', 'urdfdom'),
    'joint-duplicate': ('warning', 'urdfdom'),
    'material-duplicate': ('warning', 'urdfdom'),
    'link-joint-name-shared': ('warning', 'urdf_tools_ros'),
}

JOINT = '  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>\n'


def robot(body: str, attributes: str = 'name="r"') -> str:
    """A ``<robot>`` on line 1 around ``body`` (which starts on line 2)."""
    return f'<robot {attributes}>\n{body}</robot>\n'


def run(text: str) -> list[Finding]:
    """The family's findings; a robot's name is read (absent or empty) by the reader."""
    names = [finding for finding in load_string(text).findings
             if finding.code == 'robot-name-missing' or finding.element == 'robot']
    return names + run_family(CHECKS, text)


#: How test_rule_cases runs this family's cases (the name is the reader's).
run_case = run


MOVING = ('  <link name="a"/><link name="b"/>\n'
          '  <joint name="{}" type="{}"><parent link="a"/><child link="b"/></joint>\n')
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('link-joint-name-shared', robot(MOVING.format('b', 'continuous')), 'joint:b',
                 3, 'has the name of a link', robot(MOVING.format('b', 'fixed')),
                 id='name-shared'),
    pytest.param('robot-name-missing', robot('  <link name="a"/>\n', 'version="1.0"'), 'robot',
                 1, 'no name', robot('  <link name="a"/>\n', 'name="r" version="1.0"'),
                 id='name-missing'),
    pytest.param('robot-version-unsupported',
                 robot('  <link name="a"/>\n', 'name="r" version="2.0"'), 'robot', 1,
                 'version="2.0"', robot('  <link name="a"/>\n', 'name="r" version="1.0"'),
                 id='version-2.0'),
    pytest.param('robot-version-new',
                 robot('  <link name="a"/>\n', 'name="r" version="1.1"'), 'robot', 1,
                 'Humble, Jazzy and Kilted refuse', robot('  <link name="a"/>\n', 'name="r"'),
                 id='version-1.1'),
    pytest.param('robot-version-unsupported',
                 robot('  <link name="a"/>\n', 'name="r" version="1"'), 'robot', 1,
                 "form 'x.y'", robot('  <link name="a"/>\n', 'name="r" version=" 1.0"'),
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


def test_every_duplicate_is_reported() -> None:
    findings = run(robot('  <link name="a"/>\n' * 3))
    assert [finding.location.line for finding in findings if finding.location] == [3, 4]


def test_different_duplicate_materials_are_reported_without_identically() -> None:
    (finding,) = run(robot('  <material name="m"><color rgba="1 0 0 1"/></material>\n'
                           '  <material name="m"><color rgba="0 0 1 1"/></material>\n'
                           '  <link name="a"/>\n'))
    assert finding.code == 'material-duplicate' and 'identically' not in finding.message
