"""Gazebo's fixed-joint lumping rules; SDFormat's own verdicts are in test_consumer_oracles.py."""

from __future__ import annotations

import pytest

from rule_cases import run_family

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.checks.rules import gazebo_lumping
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.source.loader import load_string

CHECKS = (gazebo_lumping.check_gazebo_lumping,)

CATALOG = {
    'gazebo-lumping-zero-mass': ('info', 'urdf_tools_ros'),
    'root-body-massless': ('info', 'urdf_tools_ros'),
}


def mass(value: str) -> str:
    return (f'<inertial><mass value="{value}"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" '
            'iyz="0" izz="1e-3"/></inertial>' if value != '0' else
            '<inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" '
            'izz="0"/></inertial>')


def chain(root: str, *links: tuple[str, str], root_name: str = 'a', extra: str = '') -> str:
    """
    Root link (line 2) and links welded one below the other, each link and joint on a line.

    ``links`` are ``(name, inertial)``; joint ``to_<name>`` joins it to the previous link.
    """
    lines = ['<robot name="r">', f'<link name="{root_name}">{root}</link>']
    parent = root_name
    for name, inertial in links:
        lines.append(f'<link name="{name}">{inertial}</link>')
        lines.append(f'<joint name="to_{name}" type="fixed"><parent link="{parent}"/>'
                     f'<child link="{name}"/></joint>')
        parent = name
    return '\n'.join(lines) + f'\n{extra}</robot>\n'


CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('gazebo-lumping-zero-mass', chain(mass('1'), ('frame', mass('0')),
                                                   ('optical', mass('0'))),
                 'joint:to_optical', 6, 'into a body of mass 0',
                 chain(mass('1'), ('frame', ''), ('optical', '')), id='massless-frames'),
    pytest.param('gazebo-lumping-zero-mass', chain(mass('1'), ('frame', ''),
                                                   ('optical', mass('0'))),
                 'joint:to_optical', 6, '"frame" (no mass so far)',
                 chain(mass('1'), ('frame', ''), ('optical', mass('1'))),
                 id='frame-without-inertial'),
    pytest.param('root-body-massless', chain('', ('base', '')), 'link:a', 2,
                 'everything attached to it',
                 chain('', ('base', mass('1')), root_name='world'), id='root-without-inertial'),
    pytest.param('root-body-massless', chain(mass('0'), ('base', '')), 'link:a', 2,
                 '(0 kg with the', chain(mass('0'), ('base', mass('1'))), id='static-base-mass-0'),
    pytest.param('root-body-massless', chain('', ('base', ''), root_name='world'), 'link:base',
                 3, 'static body', chain('', ('base', mass('1')), root_name='world'),
                 id='world-welded-massless-base'),
]


def run(text: str) -> list[Finding]:
    return run_family(CHECKS, text)


def test_a_massive_sibling_merged_first_makes_the_massless_merge_defined() -> None:
    # Children are lumped in joint-name order: "to_a_mass" before "to_frame" fills the parent.
    text = ('<robot name="r"><link name="a"/><link name="frame">' + mass('0') + '</link>'
            '<link name="heavy">' + mass('1') + '</link>'
            '<joint name="to_frame" type="fixed"><parent link="a"/><child link="frame"/></joint>'
            '<joint name="{}" type="fixed"><parent link="a"/><child link="heavy"/></joint>'
            '</robot>')
    assert run(text.format('to_a_mass')) == []
    (finding,) = run(text.format('to_z_mass'))
    assert finding.code == 'gazebo-lumping-zero-mass' and finding.element == 'joint:to_frame'


def test_a_preserved_fixed_joint_is_not_lumped() -> None:
    preserve = ('<gazebo reference="to_optical"><preserveFixedJoint>true</preserveFixedJoint>'
                '</gazebo>\n')
    text = chain(mass('1'), ('frame', mass('0')), ('optical', mass('0')), extra=preserve)
    codes = [finding.code for finding in run(text)]
    # Not merged into "frame" (no division by 0); kept as its own massless body instead.
    assert codes == ['root-body-massless']


def test_massless_moving_and_near_zero_bodies_are_left_to_the_inertial_rules() -> None:
    text = ('<robot name="r"><link name="a">' + mass('1') + '</link><link name="b"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    assert run(text) == []


@pytest.mark.parametrize('code, bad, element, line, text, good', CASES)
def test_an_error_for_gazebo_only(code: str, bad: str, element: str, line: int, text: str,
                                  good: str) -> None:
    description = load_string(bad)
    for target, severity in (('ros', Severity.INFO), ('gazebo', Severity.ERROR),
                             ('mujoco', Severity.INFO), ('pinocchio', Severity.INFO)):
        (finding,) = [f for f in check_description(description, target) if f.code == code]
        assert finding.severity is severity, target
