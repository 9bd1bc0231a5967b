"""Transmission rules: ROS 1 transmissions and those of ros2_control blocks."""

from __future__ import annotations

import pytest

from rule_cases import run_family

from urdf_tools_ros.core.checks.rules import transmissions
from urdf_tools_ros.core.findings import Finding

CHECKS = (transmissions.check_transmissions,)

CATALOG = {
    'transmission-joint-missing': ('warning', 'urdf_tools_ros'),
    'transmission-reduction-zero': ('warning', 'urdf_tools_ros'),
    'transmission-no-joint': ('warning', 'urdf_tools_ros'),
    'transmission-no-actuator': ('warning', 'urdf_tools_ros'),
}

TYPE = '<type>transmission_interface/SimpleTransmission</type>'
IFACE = '<hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>'


def ros1(joint: str | None = 'j', reduction: str = '1', actuator: bool = True) -> str:
    """A ROS 1 transmission "t" on line 5; its <joint> on line 6."""
    parts = ['  <transmission name="t">' + TYPE + '\n']
    if joint is not None:
        parts.append(f'    <joint name="{joint}">{IFACE}</joint>\n')
    if actuator:
        parts.append(f'    <actuator name="m"><mechanicalReduction>{reduction}'
                     '</mechanicalReduction></actuator>\n')
    parts.append('  </transmission>\n')
    return ''.join(parts)


def ros2(driven: str = 'j', reduction: str = '50') -> str:
    """A ros2_control block "c" on line 5 with joint "j", its transmission of ``driven`` on 8."""
    return ('  <ros2_control name="c" type="system">\n'
            '    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>\n'
            '    <joint name="j"><command_interface name="position"/></joint>\n'
            '    <transmission name="t2"><plugin>transmission_interface/SimpleTransmission'
            f'</plugin><joint name="{driven}" role="joint1"><mechanical_reduction>{reduction}'
            '</mechanical_reduction></joint><actuator name="m2" role="actuator1"/>'
            '</transmission>\n'
            '  </ros2_control>\n')


def robot(body: str) -> str:
    """Links a, b and the continuous joint "j" on lines 2-4, then ``body``."""
    return ('<robot name="r">\n  <link name="a"/>\n  <link name="b"/>\n'
            '  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>\n'
            f'{body}</robot>\n')


def run(text: str) -> list[Finding]:
    return run_family(CHECKS, text)


T = 'transmission:t'
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('transmission-joint-missing', robot(ros1('J')), T, 6, 'joint "J" is not in',
                 robot(ros1('j')), id='ros1-joint-missing'),
    pytest.param('transmission-joint-missing',
                 robot(ros2(driven='elbow')), 'transmission:t2', 8,
                 '(in ros2_control "c"): joint "elbow"', robot(ros2()),
                 id='ros2-transmission-joint-missing'),
    pytest.param('transmission-reduction-zero', robot(ros1(reduction='0')), T, 7,
                 'actuator "m" has mechanical reduction 0', robot(ros1(reduction='-1')),
                 id='reduction-zero-ros1'),
    pytest.param('transmission-reduction-zero', robot(ros2(reduction='0.0')), 'transmission:t2',
                 8, 'joint "j" has mechanical reduction 0', robot(ros2()),
                 id='reduction-zero-ros2'),
    pytest.param('transmission-no-joint', robot(ros1(None)), T, 5, 'has no <joint>',
                 robot(ros1()), id='no-joint'),
    pytest.param('transmission-no-actuator', robot(ros1(actuator=False)), T, 5,
                 'has no <actuator>', robot(ros1()), id='no-actuator'),
]
