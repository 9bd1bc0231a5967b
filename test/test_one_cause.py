"""One cause, one finding: what follows from a missing name or link is not reported again."""

from __future__ import annotations

from pathlib import Path

import pytest

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.source.loader import load_string

SKELETONS = {
    'nameless-link-and-joint':
        '<robot name="r">\n  <link>\n  </link>\n  <joint>\n  </joint>\n</robot>\n',
    'joint-without-child':
        '<robot name="r">\n  <link name="base"/>\n  <link>\n  </link>\n  <joint>\n'
        '    <parent link="base"/><child/>\n  </joint>\n</robot>\n',
    'two-nameless-links':
        '<robot name="r">\n  <link/>\n  <link/>\n  <link name="base"/>\n</robot>\n',
}


@pytest.mark.parametrize('text', SKELETONS.values(), ids=SKELETONS.keys())
def test_a_missing_name_is_reported_once(text: str) -> None:
    findings = check_description(load_string(text, 'skeleton.urdf'))
    follow_ups = [finding for finding in findings if finding.code != 'attribute-missing'
                  and ('""' in finding.message or finding.element.endswith(':'))]
    assert follow_ups == []
    assert {finding.code for finding in findings if finding.severity.value == 'error'} == \
        {'attribute-missing'}


def test_a_missing_parent_link_is_not_also_a_missing_root() -> None:
    text = ('<robot name="r">\n  <link name="b"/>\n  <joint name="j" type="fixed">\n'
            '    <parent link="a"/><child link="b"/>\n  </joint>\n</robot>\n')
    codes = [finding.code for finding in check_description(load_string(text, 'r.urdf'))
             if finding.severity.value == 'error']
    assert codes == ['joint-parent-missing']


def test_a_robot_whose_links_are_all_children_still_has_no_root() -> None:
    text = ('<robot name="r">\n  <link name="a"/>\n  <link name="b"/>\n'
            '  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
            '  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>\n'
            '</robot>\n')
    codes = {finding.code for finding in check_description(load_string(text, 'r.urdf'))}
    assert 'no-root-link' in codes


#: A transmission in the PR2 form, <mechanicalReduction> 79.2.
PR2_TRANSMISSION = (Path(__file__).parent / 'urdf/reader/pr2_transmission.urdf').read_text()


def test_the_pr2_forms_reduction_is_part_of_the_transmission() -> None:
    # transmission-form-invalid names <mechanicalReduction> as part of the PR2 form: the reader
    # does not call it an unknown element, and reads it as the number urdf_parser_py reads.
    good = check_description(load_string(PR2_TRANSMISSION, 'r.urdf'))
    assert not [finding for finding in good if 'mechanicalReduction' in finding.message]
    bad = check_description(load_string(PR2_TRANSMISSION.replace('79.2', 'fast'), 'r.urdf'))
    assert [finding.code for finding in bad if 'mechanicalReduction' in finding.message] == \
        ['number-invalid']
