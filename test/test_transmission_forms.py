"""``transmission-form-invalid`` exactly where urdf_parser_py refuses a transmission."""

from __future__ import annotations

import oracles
import pytest

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load_string

ROBOT = ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="continuous">'
         '<parent link="a"/><child link="b"/></joint>{}</robot>')
HW = '<hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>'
CASES = {
    'ros1': f'<transmission name="t"><type>x</type><joint name="j">{HW}</joint>'
            '<actuator name="m"/></transmission>',
    'ros1-without-joint': '<transmission name="t"><type>x</type><actuator name="m"/>'
                          '</transmission>',
    'ros1-without-actuator': f'<transmission name="t"><type>x</type><joint name="j">{HW}'
                             '</joint></transmission>',
    'ros1-joint-without-interface': '<transmission name="t"><type>x</type><joint name="j"/>'
                                    '<actuator name="m"/></transmission>',
    'ros1-interface-in-actuator-only': '<transmission name="t"><type>x</type><joint name="j"/>'
                                       f'<actuator name="m">{HW}</actuator></transmission>',
    'pr2': '<transmission name="t" type="x"><joint name="j"/><actuator name="m"/>'
           '<mechanicalReduction>1</mechanicalReduction></transmission>',
    'pr2-without-reduction': '<transmission name="t" type="x"><joint name="j"/>'
                             '<actuator name="m"/></transmission>',
    'pr2-wrist': '<transmission name="t" type="x"><rightActuator name="m"/><flexJoint name="j"/>'
                 '</transmission>',
    'no-type-at-all': f'<transmission name="t"><joint name="j">{HW}</joint><actuator name="m"/>'
                      '</transmission>',
    'both-type-forms': f'<transmission name="t" type="y"><type>x</type><joint name="j">{HW}'
                       '</joint><actuator name="m"/></transmission>',
    'inside-ros2-control-only': '<ros2_control name="c" type="system"><hardware><plugin>p'
                                '</plugin></hardware><transmission name="t"><plugin>x</plugin>'
                                '<joint name="j" role="j"/><actuator name="m" role="m"/>'
                                '</transmission></ros2_control>',
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_finding_exactly_where_urdf_parser_py_refuses(case: str, tmp_path: object) -> None:
    text = ROBOT.format(CASES[case])
    path = tmp_path / 'robot.urdf'  # type: ignore[operator]
    path.write_text(text)
    verdict = oracles.urdf_parser_py(path)
    found = [f for f in check_description(load_string(text))
             if f.code == 'transmission-form-invalid']
    assert bool(found) is (not verdict.loaded), verdict.message
    for finding in found:
        # urdf_parser_py is on no ROS graph's path (C12): a warning that names it
        assert finding.severity is Severity.WARNING and finding.consumers == ('urdf_parser_py',)
        assert finding.location is not None and finding.location.line == 1
