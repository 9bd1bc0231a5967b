"""Mimic resolution: chains folded onto the source, every refusal with its code, findings."""

from __future__ import annotations

import pytest

from conftest import shared_model
from urdf_tools_ros.core.checks import CheckContext, RULES
from urdf_tools_ros.core.checks.rules.mimic import check_mimic
from urdf_tools_ros.core.errors import MimicError
from urdf_tools_ros.core.kinematics.mimic import analyze_mimic, resolve_mimic
from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.loader import load, load_string

pytestmark = pytest.mark.portability


def robot(*joints: tuple[str, str, str | None, float, float]) -> Robot:
    """A serial chain of joints ``(name, type, mimic source or None, multiplier, offset)``."""
    text = '<robot name="r">\n  <link name="l0"/>\n'
    for index, (name, joint_type, source, multiplier, offset) in enumerate(joints, start=1):
        mimic = '' if source is None else \
            f'<mimic joint="{source}" multiplier="{multiplier}" offset="{offset}"/>'
        limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' \
            if joint_type in ('revolute', 'prismatic') else ''
        text += (f'  <link name="l{index}"/>\n  <joint name="{name}" type="{joint_type}">'
                 f'<parent link="l{index - 1}"/><child link="l{index}"/>{limit}{mimic}'
                 '</joint>\n')
    return load_string(text + '</robot>\n').robot


def test_chain_is_folded_onto_the_actuated_source() -> None:
    model = robot(('a', 'revolute', None, 1, 0), ('b', 'revolute', 'a', 2.0, 0.5),
                  ('c', 'prismatic', 'b', -3.0, 0.25), ('d', 'continuous', 'c', 0.5, 0.0))
    resolved = resolve_mimic(model)
    assert list(resolved) == ['b', 'c', 'd']
    c = resolved['c']
    assert (c.source, c.chain) == ('a', ('c', 'b', 'a'))
    # q_c = -3 (2 q_a + 0.5) + 0.25 = -6 q_a - 1.25
    assert c.multiplier == pytest.approx(-6.0)
    assert c.offset == pytest.approx(-1.25)
    assert c.position(0.1) == pytest.approx(-1.85)
    assert c.velocity(2.0) == pytest.approx(-12.0)
    assert c.effort(7.0) == 7.0
    d = resolved['d']
    assert (d.multiplier, d.offset) == (pytest.approx(-3.0), pytest.approx(-0.625))


def test_mimic_on_a_fixed_joint_is_ignored() -> None:
    model = robot(('a', 'revolute', None, 1, 0), ('f', 'fixed', 'a', 1, 0))
    assert resolve_mimic(model) == {}
    assert analyze_mimic(model) == []


@pytest.mark.parametrize(('joints', 'code', 'joint'), [
    ([('a', 'revolute', None, 1, 0), ('b', 'revolute', 'nope', 1, 0)],
     'mimic-missing-joint', 'b'),
    ([('a', 'revolute', 'a', 1, 0)], 'mimic-self', 'a'),
    ([('f', 'fixed', None, 1, 0), ('b', 'revolute', 'f', 1, 0)], 'mimic-fixed-joint', 'b'),
    ([('f', 'floating', None, 1, 0), ('b', 'revolute', 'f', 1, 0)],
     'mimic-unsupported-joint', 'b'),
    ([('a', 'revolute', None, 1, 0), ('p', 'planar', 'a', 1, 0)],
     'mimic-unsupported-joint', 'p'),
    ([('a', 'revolute', 'c', 1, 0), ('b', 'revolute', 'a', 1, 0), ('c', 'revolute', 'b', 1, 0)],
     'mimic-cycle', 'a'),
])
def test_refusals(joints: list[tuple[str, str, str | None, float, float]], code: str,
                  joint: str) -> None:
    model = robot(*joints)
    problems = analyze_mimic(model)
    assert [(problem.code, problem.element) for problem in problems] == [(code, f'joint:{joint}')]
    with pytest.raises(MimicError) as info:
        resolve_mimic(model)
    assert info.value.code == code
    assert info.value.finding is not None and info.value.finding.code == code
    assert f'"{joint}"' in str(info.value)
    assert str(info.value).startswith('<string>:')


def test_joints_leading_into_a_cycle_or_a_broken_source_are_not_reported_again() -> None:
    model = robot(('a', 'revolute', 'b', 1, 0), ('b', 'revolute', 'a', 1, 0),
                  ('c', 'revolute', 'a', 1, 0), ('d', 'revolute', 'x', 1, 0),
                  ('e', 'revolute', 'd', 1, 0))
    assert [(problem.code, problem.element) for problem in analyze_mimic(model)] == [
        ('mimic-missing-joint', 'joint:d'), ('mimic-cycle', 'joint:a')]


def test_checker_findings() -> None:
    model = robot(('a', 'revolute', None, 1, 0), ('b', 'revolute', 'nope', 1, 0))
    findings = list(check_mimic(CheckContext(model)))
    assert [(f.code, f.element) for f in findings] == [('mimic-missing-joint', 'joint:b')]
    assert findings[0].location is not None and findings[0].location.line == 6
    assert findings[0].fix
    for code in ('mimic-missing-joint', 'mimic-self', 'mimic-fixed-joint',
                 'mimic-unsupported-joint', 'mimic-cycle'):
        assert RULES[code].severity.value == 'error'


@pytest.mark.parametrize(('name', 'count', 'sources'), [
    ('panda', 1, {'panda_finger_joint1'}),
    ('robotiq_2f_85_nsfix', 5, {'finger_joint'}),
    ('talos_full_v2', 12, {'gripper_left_joint', 'gripper_right_joint'}),
])
def test_shared_models(name: str, count: int, sources: set[str]) -> None:
    resolved = resolve_mimic(load(shared_model(name)).robot)
    assert len(resolved) == count
    assert {mimic.source for mimic in resolved.values()} == sources
