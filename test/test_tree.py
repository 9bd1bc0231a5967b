"""The kinematic tree: order and maps; every structural problem and its finding."""

from __future__ import annotations

import pytest

from urdf_tools_ros.core.checks import CheckContext, RULES
from urdf_tools_ros.core.checks.rules.tree import check_tree
from urdf_tools_ros.core.errors import KinematicTreeError, UnknownJointError
from urdf_tools_ros.core.kinematics.tree import analyze_tree, KinematicTree
from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.loader import load_string

pytestmark = pytest.mark.portability


def robot(links: str, joints: list[tuple[str, str, str]]) -> Robot:
    """A robot of fixed joints ``(name, parent, child)``; each joint on its own line."""
    text = '<robot name="r">\n'
    text += ''.join(f'  <link name="{name}"/>\n' for name in links.split())
    for name, parent, child in joints:
        text += (f'  <joint name="{name}" type="fixed"><parent link="{parent}"/>'
                 f'<child link="{child}"/></joint>\n')
    return load_string(text + '</robot>\n').robot


#       a
#     /   \
#    b     c
#   / \     \
#  d   e     f
GOOD = robot('a b c d e f', [('ab', 'a', 'b'), ('ac', 'a', 'c'), ('bd', 'b', 'd'),
                             ('be', 'b', 'e'), ('cf', 'c', 'f')])


def test_root_order_and_maps() -> None:
    tree = KinematicTree(GOOD)
    assert tree.root == 'a'
    assert tree.links == ('a', 'b', 'd', 'e', 'c', 'f')
    assert [joint.name for joint in tree.joints] == ['ab', 'bd', 'be', 'ac', 'cf']
    assert tree.parent_link('d') == 'b'
    assert tree.parent_link('a') is None
    assert tree.parent_joint('f').name == 'cf'  # type: ignore[union-attr]
    assert tree.joint('be').child == 'e'


def test_unknown_names() -> None:
    tree = KinematicTree(GOOD)
    with pytest.raises(UnknownJointError, match='"zz"'):
        tree.joint('zz')


@pytest.mark.parametrize(('links', 'joints', 'codes'), [
    ('a b c', [('ab', 'a', 'b'), ('bc', 'b', 'c'), ('ca', 'c', 'a')],
     ['no-root-link', 'kinematic-cycle']),
    ('a b c d', [('ab', 'a', 'b'), ('cd', 'c', 'd')], ['multiple-root-links']),
    ('a b c', [('ab', 'a', 'b'), ('bc', 'b', 'c'), ('cb', 'c', 'b')],
     ['link-multiple-parents']),
    ('a b c', [('ab', 'a', 'b'), ('ac', 'a', 'c'), ('bc', 'b', 'c')], ['link-multiple-parents']),
    ('a b', [('ab', 'a', 'b'), ('xb', 'x', 'b')],
     ['joint-parent-missing', 'link-multiple-parents']),
    ('a b', [('ab', 'a', 'b'), ('ay', 'a', 'y')], ['joint-child-missing']),
    ('a b', [('ab', 'a', 'b'), ('bb', 'b', 'b')], ['joint-parent-equals-child']),
    ('a b c d', [('ab', 'a', 'b'), ('cd', 'c', 'd'), ('dc', 'd', 'c')], ['kinematic-cycle']),
    ('a b', [('ab', 'a', 'b'), ('xq', 'x', 'q')], ['joint-parent-missing', 'joint-child-missing']),
])
def test_problems(links: str, joints: list[tuple[str, str, str]], codes: list[str]) -> None:
    model = robot(links, joints)
    assert [problem.code for problem in analyze_tree(model)] == codes
    with pytest.raises(KinematicTreeError) as info:
        KinematicTree(model)
    assert info.value.finding is not None and info.value.finding.code == codes[0]


def test_cycle_reported_once_at_its_first_joint_with_its_line() -> None:
    model = robot('r a b c', [('ra', 'r', 'a'), ('bc', 'b', 'c'), ('cb', 'c', 'b')])
    problems = analyze_tree(model)
    cycles = [problem for problem in problems if problem.code == 'kinematic-cycle']
    assert len(cycles) == 1
    assert cycles[0].element == 'joint:bc'
    assert cycles[0].location is not None and cycles[0].location.line == 7
    assert '"bc"' in cycles[0].message and '"cb"' in cycles[0].message


def test_error_message_names_file_line_and_joint() -> None:
    model = robot('a b', [('ab', 'a', 'b'), ('bb', 'b', 'b')])
    with pytest.raises(KinematicTreeError, match=r'<string>:5: joint "bb"'):
        KinematicTree(model)


def test_duplicate_names_are_refused() -> None:
    model = robot('a b b', [('ab', 'a', 'b')])
    with pytest.raises(KinematicTreeError, match='link names used twice'):
        KinematicTree(model)


def test_checker_findings_carry_joint_locations_and_sources() -> None:
    model = robot('a b c', [('ab', 'a', 'b'), ('ac', 'a', 'c'), ('xb', 'x', 'b')])
    findings = list(check_tree(CheckContext(model)))
    assert [(f.code, f.element, f.location.line if f.location else None) for f in findings] == [
        ('joint-parent-missing', 'joint:xb', 7), ('link-multiple-parents', 'joint:xb', 7)]
    assert all(finding.severity.value == 'error' and finding.fix for finding in findings)
    assert RULES['joint-parent-missing'].source == 'urdfdom'
    assert RULES['multiple-root-links'].source == 'urdfdom'
    assert RULES['no-root-link'].source == 'urdfdom'
    assert RULES['kinematic-cycle'].source == 'urdf_tools_ros'
