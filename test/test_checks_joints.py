"""Joint rules: type, limit, axis, safety controller, calibration, dynamics, mimic range."""

from __future__ import annotations

from pathlib import Path

import pytest

from rule_cases import run_family

from urdf_tools_ros.core.checks.rules import joints
from urdf_tools_ros.core.findings import Finding

CHECKS = (joints.check_type, joints.check_limit, joints.check_axis,
          joints.check_safety_controller, joints.check_calibration_and_dynamics,
          joints.check_mimic_range)

CATALOG = {
    'joint-type-unknown': ('error', 'urdfdom'),
    'joint-limit-missing': ('error', 'urdfdom'),
    'joint-limit-effort-missing': ('warning', 'urdfdom'),
    'joint-limit-velocity-missing': ('warning', 'urdfdom'),
    'joint-limit-lower-above-upper': ('warning', 'urdf_tools_ros'),
    'joint-limit-zero-range': ('warning', 'urdf_tools_ros'),
    'joint-limit-effort-negative': ('warning', 'urdf_tools_ros'),
    'joint-limit-velocity-negative': ('warning', 'urdf_tools_ros'),
    'joint-axis-zero': ('error', 'urdf_tools_ros'),
    'joint-axis-not-unit': ('warning', 'urdf_tools_ros'),
    'safety-controller-k-velocity-missing': ('warning', 'urdfdom'),
    'safety-soft-lower-above-upper': ('warning', 'urdf_tools_ros'),
    'safety-soft-limits-outside-limits': ('warning', 'urdf_tools_ros'),
    'safety-k-position-negative': ('warning', 'urdf_tools_ros'),
    'safety-k-velocity-negative': ('warning', 'urdf_tools_ros'),
    'joint-calibration-outside-limits': ('warning', 'urdf_tools_ros'),
    'joint-dynamics-negative': ('warning', 'urdf_tools_ros'),
    'mimic-range-exceeds-limits': ('warning', 'urdf_tools_ros'),
}

LIMIT = '<limit lower="-1" upper="1" effort="10" velocity="2"/>'


def joint(joint_type: str = 'revolute', inner: str = LIMIT) -> str:
    """Links a (line 2) and b (line 3), then joint "j" from a to b on line 4."""
    return ('<robot name="r">\n  <link name="a"/>\n  <link name="b"/>\n'
            f'  <joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>'
            f'{inner}</joint>\n</robot>\n')


def mimic(source_limit: str, inner: str) -> str:
    """Joint "s" (line 5, a -> b) and joint "m" mimicking it (line 6, b -> c)."""
    return ('<robot name="r">\n  <link name="a"/>\n  <link name="b"/>\n  <link name="c"/>\n'
            '  <joint name="s" type="revolute"><parent link="a"/><child link="b"/>'
            f'{source_limit}</joint>\n'
            '  <joint name="m" type="revolute"><parent link="b"/><child link="c"/>'
            f'{inner}</joint>\n</robot>\n')


def run(text: str) -> list[Finding]:
    return run_family(CHECKS, text)


def limit(lower: str = '-1', upper: str = '1', rest: str = 'effort="10" velocity="2"') -> str:
    return f'<limit lower="{lower}" upper="{upper}" {rest}/>'


def safety(attributes: str) -> str:
    return f'{LIMIT}<safety_controller {attributes}/>'


J = 'joint:j'
MIRROR = '<mimic joint="s" multiplier="-1"/>'
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('joint-type-unknown', joint('spinny', ''), J, 4, 'type="spinny"',
                 joint('fixed', ''), id='type-unknown'),
    pytest.param('joint-limit-missing', joint('revolute', ''), J, 4, 'has no <limit>',
                 joint('continuous', ''), id='limit-missing-revolute'),
    pytest.param('joint-limit-missing', joint('prismatic', ''), J, 4, '(prismatic)',
                 joint('prismatic'), id='limit-missing-prismatic'),
    pytest.param('joint-limit-effort-missing', joint('revolute', limit(rest='velocity="1"')),
                 J, 4, 'no effort', joint(), id='effort-missing'),
    pytest.param('joint-limit-effort-missing', joint('fixed', '<limit velocity="1"/>'),
                 J, 4, 'no effort', joint('fixed', '<limit effort="1" velocity="1"/>'),
                 id='effort-missing-on-fixed'),
    pytest.param('joint-limit-velocity-missing', joint('continuous', '<limit effort="1"/>'),
                 J, 4, 'no velocity', joint('continuous', '<limit effort="1" velocity="1"/>'),
                 id='velocity-missing'),
    pytest.param('joint-limit-lower-above-upper', joint('revolute', limit('1.2', '0.4')), J, 4,
                 'limit lower=1.2 > upper=0.4', joint('revolute', limit('0.4', '1.2')),
                 id='lower-above-upper'),
    pytest.param('joint-limit-zero-range', joint('prismatic', limit('0.3', '0.3')), J, 4,
                 'lower = upper = 0.3', joint('prismatic', limit('0.3', '0.4')),
                 id='zero-range'),
    pytest.param('joint-limit-zero-range',
                 joint('revolute', '<limit effort="1.7" velocity="111"/>'), J, 4,
                 'default to 0 when left out', joint('continuous',
                                                     '<limit effort="1.7" velocity="111"/>'),
                 id='zero-range-omitted'),
    pytest.param('joint-limit-effort-negative', joint('revolute', limit(rest='effort="-5" '
                                                                        'velocity="1"')),
                 J, 4, 'effort=-5', joint(), id='effort-negative'),
    pytest.param('joint-limit-velocity-negative', joint('continuous', '<limit effort="1" '
                                                        'velocity="-2.5"/>'),
                 J, 4, 'velocity=-2.5', joint('continuous', '<limit effort="1" velocity="0"/>'),
                 id='velocity-negative'),
    pytest.param('joint-axis-zero', joint('revolute', LIMIT + '<axis xyz="0 0 0"/>'), J, 4,
                 'xyz="0 0 0"', joint('fixed', '<axis xyz="0 0 0"/>'), id='axis-zero'),
    pytest.param('joint-axis-not-unit', joint('prismatic', LIMIT + '<axis xyz="0 0 2"/>'), J, 4,
                 'length 2', joint('prismatic', LIMIT + '<axis xyz="0 0.7071 0.7071"/>'),
                 id='axis-not-unit'),
    pytest.param('safety-controller-k-velocity-missing', joint('revolute', safety('')), J, 4,
                 'no k_velocity', joint('revolute', safety('k_velocity="10"')),
                 id='k-velocity-missing'),
    pytest.param('safety-soft-lower-above-upper',
                 joint('revolute', safety('k_velocity="1" soft_lower_limit="0.5" '
                                          'soft_upper_limit="-0.5"')), J, 4,
                 'soft_lower_limit=0.5 > soft_upper_limit=-0.5',
                 joint('revolute', safety('k_velocity="1" soft_lower_limit="-0.5" '
                                          'soft_upper_limit="0.5"')), id='soft-inverted'),
    pytest.param('safety-soft-limits-outside-limits',
                 joint('revolute', safety('k_velocity="1" soft_upper_limit="1.5"')), J, 4,
                 'soft_upper_limit=1.5 outside limit [-1, 1]',
                 joint('revolute', safety('k_velocity="1" soft_upper_limit="0.9"')),
                 id='soft-outside'),
    pytest.param('safety-k-position-negative',
                 joint('revolute', safety('k_velocity="1" k_position="-15"')), J, 4,
                 'k_position=-15', joint('revolute', safety('k_velocity="1" k_position="15"')),
                 id='k-position-negative'),
    pytest.param('safety-k-velocity-negative', joint('revolute', safety('k_velocity="-10"')),
                 J, 4, 'k_velocity=-10', joint('revolute', safety('k_velocity="10"')),
                 id='k-velocity-negative'),
    pytest.param('joint-calibration-outside-limits',
                 joint('revolute', LIMIT + '<calibration rising="2"/>'), J, 4,
                 'rising=2 outside limit [-1, 1]',
                 joint('revolute', LIMIT + '<calibration rising="0.5" falling="-0.5"/>'),
                 id='calibration-outside'),
    pytest.param('joint-dynamics-negative',
                 joint('revolute', LIMIT + '<dynamics damping="-0.1" friction="0.2"/>'), J, 4,
                 'damping=-0.1', joint('revolute', LIMIT + '<dynamics damping="0.1"/>'),
                 id='dynamics-negative'),
    pytest.param('mimic-range-exceeds-limits',
                 mimic(limit('0', '0.8'), limit('0', '0.8') + MIRROR),
                 'joint:m', 6, 'maps to [-0.8, 0], outside limit [0, 0.8]',
                 mimic(limit('0', '0.8'), limit('-0.8', '0') + MIRROR),
                 id='mimic-range'),
    pytest.param('mimic-range-exceeds-limits',
                 mimic(limit('0', '0.8'),
                       limit('0', '0.8') + '<mimic joint="s" multiplier="0.5" offset="0.5"/>'),
                 'joint:m', 6, 'maps to [0.5, 0.9]',
                 mimic(limit('0', '0.8'),
                       limit('0', '0.9') + '<mimic joint="s" multiplier="0.5" offset="0.5"/>'),
                 id='mimic-range-offset'),
]


@pytest.mark.parametrize('text, fix', [
    (joint('prismatic', LIMIT + '<axis xyz="0 3 4"/>'), '<axis xyz="0 0.6 0.8"/>'),
    (joint('revolute', limit('1.2', '0.4')), 'swap them: lower="0.4" upper="1.2"'),
])
def test_fixes(text: str, fix: str) -> None:
    (finding,) = run(text)
    assert finding.fix == fix


@pytest.mark.parametrize('text', [
    *(joint(joint_type, limit('1.2', '0.4') + '<axis xyz="0 0 1"/>')
      for joint_type in ('continuous', 'fixed', 'floating', 'planar')),
    # only k_velocity: urdf_parser_py would read soft limits 0, 0; we read "no soft limit"
    joint('revolute', limit('0.5', '1') + '<safety_controller k_velocity="1"/>'),
    mimic('', limit('0', '0.1') + '<mimic joint="s"/>').replace(
        'name="s" type="revolute"', 'name="s" type="continuous"'),
    mimic(limit(), limit() + '<mimic joint="nope"/>'),  # left to the mimic family
], ids=['continuous-bounds', 'fixed-bounds', 'floating-bounds', 'planar-bounds',
        'soft-limits-absent', 'mimic-of-continuous', 'mimic-of-unknown'])
def test_what_is_not_compared(text: str) -> None:
    assert run(text) == []


@pytest.mark.filterwarnings('error')
@pytest.mark.parametrize('value', ['nan', 'inf', '-inf', '1e308', '-0'])
def test_extreme_values_never_crash(value: str) -> None:
    inner = (f'<axis xyz="{value} 0 1"/><limit lower="{value}" upper="{value}" '
             f'effort="{value}" velocity="{value}"/><safety_controller soft_lower_limit='
             f'"{value}" soft_upper_limit="{value}" k_position="{value}" k_velocity="{value}"/>'
             f'<calibration rising="{value}"/><dynamics damping="{value}" friction="{value}"/>')
    text = mimic(limit(value), inner + f'<mimic joint="s" multiplier="{value}" offset="1"/>')
    findings = run(text)
    if value in ('nan', 'inf', '-inf'):  # the loader reports those; no rule repeats them
        assert findings == []


def test_findings_point_at_the_child_element_line() -> None:
    text = (Path(__file__).parent / 'urdf' / 'reader' / 'joint_lines.urdf').read_text()
    lines = {f.code: f.location.line for f in run_family(CHECKS, text) if f.location}
    assert lines['joint-limit-lower-above-upper'] == 4
    assert lines['safety-soft-lower-above-upper'] == 5
    assert lines['joint-dynamics-negative'] == 6
    assert lines['mimic-range-exceeds-limits'] == 12
