"""Gazebo rules: a <gazebo reference> must name a link or a joint."""

from __future__ import annotations

import re

import pytest

from rule_cases import run_family

from conftest import shared_model
from urdf_tools_ros.core.checks import CheckContext
from urdf_tools_ros.core.checks.names import suggest_name
from urdf_tools_ros.core.checks.rules import gazebo
from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.source.loader import load


def robot(body: str) -> str:
    """Links a, b and joint "j" on lines 2-4, then ``body`` from line 5."""
    return ('<robot name="r">\n  <link name="base_link"/>\n  <link name="b"/>\n'
            '  <joint name="j" type="fixed"><parent link="base_link"/><child link="b"/></joint>\n'
            f'{body}</robot>\n')


CHECKS = (gazebo.check_references,)

CATALOG = {
    'gazebo-reference-missing': ('warning', 'urdf_tools_ros'),
}


def run(text: str) -> list[Finding]:
    return run_family(CHECKS, text)


CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('gazebo-reference-missing', robot('  <gazebo reference="base_lnk"/>\n'),
                 'gazebo:base_lnk', 5, 'reference="base_lnk"',
                 robot('  <gazebo reference="base_link"/>\n'), id='reference-missing'),
]


@pytest.mark.parametrize('reference', [' reference="base_link"', ' reference="j"', ''])
def test_reference_to_a_link_or_joint_or_none_passes(reference: str) -> None:
    assert run(robot(f'  <gazebo{reference}><mu1>0.5</mu1></gazebo>\n')) == []  # none: the robot


def test_reference_missing_fires_with_a_suggestion() -> None:
    (finding,) = run(robot('  <gazebo reference="base_lnk"><mu1>0.5</mu1></gazebo>\n'))
    assert (finding.code, finding.severity.value) == ('gazebo-reference-missing', 'warning')
    assert finding.element == 'gazebo:base_lnk'
    assert finding.location is not None and finding.location.line == 5
    assert 'reference="base_lnk"' in finding.message
    assert finding.fix == 'did you mean "base_link"?'
    (finding,) = run(robot('  <gazebo reference="camera_optical"><mu1>0.5</mu1></gazebo>\n'))
    assert finding.fix == 'name a link or joint of the robot'  # no name is close


def test_tiago_placeholders_get_the_missing_dollar_as_their_fix() -> None:
    """The references of TIAGo write ``{side}`` without ``$``: the fix fills in its values."""
    description = load(shared_model('tiago_dual.urdf'))
    names = set(description.robot.link_map) | set(description.robot.joint_map)
    findings = list(gazebo.check_references(CheckContext(description.robot)))
    assert len(findings) == 10 and all('{side}' in finding.element for finding in findings)
    for finding in findings:
        reference = finding.element.removeprefix('gazebo:')
        corrected = reference.replace('{side}', '${side}')
        assert finding.fix is not None and f'"{corrected}"' in finding.fix, finding
        quoted = re.findall(r'"([^"$]+)"', finding.fix.split('names the robot has:')[1])
        pattern = re.escape(reference).replace(re.escape('{side}'), '.+')
        assert quoted and all(name in names and re.fullmatch(pattern, name) for name in quoted)


@pytest.mark.parametrize('reference, names, fix', [
    ('{prefix}_wrist', ['r_wrist', 'l_wrist', 'r_elbow'], 'did you mean "${prefix}_wrist"?'),
    ('{a}_{a}', ['x_x', 'x_y'], 'did you mean "${a}_${a}"?'),
    ('${prefix}_wrist', ['r_wrist'], 'did you mean "r_wrist"?'),
    ('{side}_wrst', ['r_wrist'], None),
])
def test_missing_dollar_needs_names_it_would_give(reference: str, names: list[str],
                                                  fix: str | None) -> None:
    suggestion = suggest_name(reference, names)
    if fix is None:
        assert suggestion is None or '${' not in suggestion
    else:
        assert suggestion is not None and suggestion.startswith(fix)
    if fix is not None and '${a}' in fix:  # the same value for the same name
        assert '"x_x"' in str(suggestion) and '"x_y"' not in str(suggestion)
