"""Inertial rules: mass, validity, plausibility, near-zero, root link, missing inertial."""

from __future__ import annotations

import numpy as np
import pytest

from rule_cases import check_family, run_family

from conftest import shared_model
from urdf_tools_ros.core.checks.rules import inertial
from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.kinematics.inertia import principal_moments
from urdf_tools_ros.core.model.robot import Inertia
from urdf_tools_ros.core.source.loader import load, load_string

CHECKS = (inertial.check_link_inertials, inertial.check_bodies, inertial.check_plausibility,
          inertial.check_root_inertia)

CATALOG = {
    'inertial-mass-not-positive': ('warning', 'urdf_tools_ros'),
    'inertia-not-positive-definite': ('warning', 'urdf_tools_ros'),
    'inertia-triangle-inequality': ('warning', 'urdf_tools_ros'),
    'link-inertia-invalid': ('info', 'urdf_tools_ros'),
    'inertia-implausible': ('warning', 'urdf_tools_ros'),
    'inertia-near-zero': ('warning', 'urdf_tools_ros'),
    'root-link-inertia': ('info', 'urdf_tools_ros'),
    'inertial-missing-on-moving-link': ('warning', 'urdf_tools_ros'),
}

GOOD = '1e-3 0 0 1e-3 0 1e-3'


def inertia(mass: str = '1', moments: str = GOOD, origin: str = '') -> str:
    ixx, ixy, ixz, iyy, iyz, izz = moments.split()
    return (f'<inertial>{origin}<mass value="{mass}"/><inertia ixx="{ixx}" ixy="{ixy}" '
            f'ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"/></inertial>')


def box(size: str, origin: str = '') -> str:
    return f'<collision>{origin}<geometry><box size="{size}"/></geometry></collision>'


def robot(b: str = inertia(), joint_type: str = 'revolute', a: str = '',
          c: str | None = None) -> str:
    """Root link a (line 2), link b (line 3), joint j from a to b (line 4), link c (line 5)."""
    limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
    welded = '' if c is None else (
        f'  <link name="c">{c}</link>\n'
        '  <joint name="k" type="fixed"><origin xyz="0 0 0.1"/><parent link="b"/>'
        '<child link="c"/></joint>\n')
    return ('<robot name="r">\n'
            f'  <link name="a">{a}</link>\n'
            f'  <link name="b">{b}</link>\n'
            f'  <joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>{limit}'
            f'</joint>\n{welded}</robot>\n')


def run(text: str) -> list[Finding]:
    return run_family(CHECKS, text)


B = 'link:b'
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('inertial-mass-not-positive', robot(inertia('-2')), B, 3, 'mass=-2 kg',
                 robot(inertia('2')), id='mass-negative'),
    pytest.param('inertial-mass-not-positive', robot(inertia('0')), B, 3,
                 'a body without mass has no inertia',
                 robot(inertia('0', '0 0 0 0 0 0'), 'fixed'), id='mass-zero-with-inertia'),
    pytest.param('inertia-not-positive-definite', robot(inertia('1', '-1e-3 0 0 1e-3 0 1e-3')),
                 B, 3, 'not all > 0', robot(), id='not-pd-negative-moment'),
    pytest.param('inertia-not-positive-definite', robot(inertia('1', '1e-3 2e-3 0 1e-3 0 1e-3')),
                 B, 3, 'ixy=0.002', robot(inertia('1', '1e-3 5e-4 0 1e-3 0 1e-3')),
                 id='not-pd-product'),
    pytest.param('inertia-triangle-inequality', robot(inertia('1', '1e-3 0 0 1e-3 0 3e-3')),
                 B, 3, '0.001 + 0.001 < 0.003', robot(inertia('1', '1e-3 0 0 1e-3 0 2e-3')),
                 id='triangle'),
    pytest.param('link-inertia-invalid',
                 robot(c=inertia('1e-6', '2.371e-8 6.119e-8 1.179e-8 2.833e-8 7.74e-9 3.849e-8')),
                 'link:c', 5, 'welded by a fixed joint',
                 robot(c=inertia('1e-6', '2.371e-8 0 0 2.833e-8 0 3.849e-8')),
                 id='invalid-on-welded-link'),
    pytest.param('inertia-implausible', robot(inertia('1', '1 0 0 1 0 1') + box('0.1 0.1 0.1')),
                 B, 3, 'a solid 0.1 × 0.1 × 0.1 m box of 1 kg',
                 robot(inertia('1', '1.6e-3 0 0 1.6e-3 0 1.6e-3') + box('0.1 0.1 0.1')),
                 id='implausible-identity'),
    pytest.param('inertia-implausible', robot(inertia('5', '1e-9 0 0 1e-9 0 1e-9') + box('1 1 1')),
                 B, 3, '1/', robot(inertia('5', '1e-9 0 0 1e-9 0 1e-9')),
                 id='implausible-tiny'),
    pytest.param('inertia-near-zero', robot(inertia('1e-9', '1e-15 0 0 1e-15 0 1e-15')), B, 3,
                 'mass=1e-09 kg', robot(inertia('1e-9', '1e-15 0 0 1e-15 0 1e-15'), 'fixed'),
                 id='near-zero-mass'),
    pytest.param('inertia-near-zero', robot(inertia('0.1', '0 0 0 0 0 0')), B, 3,
                 'largest principal moment 0', robot(inertia('0.1', '0 0 0 0 0 0'), 'fixed'),
                 id='near-zero-point-mass'),
    pytest.param('root-link-inertia', robot(a=inertia('2')), 'link:a', 2, 'mass=2 kg',
                 robot(a=inertia('0', '0 0 0 0 0 0')), id='root-inertia'),
    pytest.param('inertial-missing-on-moving-link', robot(''), B, 3,
                 'no link of it has an <inertial>', robot('', 'fixed'), id='missing-on-moving'),
]


def test_implausible_fix_gives_the_solid_box_numbers() -> None:
    (finding,) = run(robot(inertia('0.6', '1 0 0 1 0 1') + box('0.1 0.1 0.2')))
    assert finding.fix is not None
    assert finding.fix.startswith('a solid 0.1 × 0.1 × 0.2 m box of 0.6 kg (its collision '
                                  'geometry, about the centre of mass) has ixx=0.0025, '
                                  'iyy=0.0025, izz=0.001')
    assert '<inertia ixx="0.0025" ixy="0" ixz="0" iyy="0.0025" iyz="0" izz="0.001"/>' \
        in finding.fix


def test_implausible_compares_about_the_centre_of_mass() -> None:
    # A 1 m rod along x whose centre is 2 m from the centre of mass: the tensor is about the
    # centre of mass, so the rod is compared as if centred there (m L^2 / 12), never inflated
    # by the parallel axis theorem (m d^2 = 4 would make a valid tensor look 50x too small).
    rod = box('1 0.01 0.01', '<origin xyz="2 0 0"/>')
    centred = '1.67e-5 0 0 0.0833 0 0.0833'  # m L^2 / 12 about the rod's centre
    shifted = '1.67e-5 0 0 4.0833 0 4.0833'  # + m d^2: what the old comparison asked for
    assert run(robot(inertia('1', centred) + rod)) == []
    assert run(robot(inertia('1', centred, '<origin xyz="2 0 0"/>') + rod)) == []
    (finding,) = run(robot(inertia('1', shifted) + rod))
    assert finding.code == 'inertia-implausible'
    assert finding.fix is not None and 'ixx=1.667e-05, iyy=0.08334, izz=0.08334' in finding.fix
    # the same rod standing along z (pitch 90 deg): the fix has the small moment on z
    standing = box('1 0.01 0.01', '<origin rpy="0 1.5707963267948966 0"/>')
    (finding,) = run(robot(inertia('1', '1 0 0 1 0 1') + standing))
    assert finding.fix is not None and 'ixx=0.08334, iyy=0.08334, izz=1.667e-05' in finding.fix


@pytest.mark.parametrize('text', [
    # the plausibility needs a single primitive collision: two boxes or a mesh say nothing
    robot(inertia('1', '1 0 0 1 0 1') + box('0.1 0.1 0.1') * 2),
    robot(inertia('1', '1 0 0 1 0 1') + '<collision><geometry><mesh filename="m.stl"/>'
          '</geometry></collision>'),
    # a massless frame and a point mass on fixed links are accepted
    robot(inertia('0', '0 0 0 0 0 0'), 'fixed'), robot(inertia('0.1', '0 0 0 0 0 0'), 'fixed'),
], ids=['two-boxes', 'mesh', 'massless-frame', 'point-mass'])
def test_nothing_to_report(text: str) -> None:
    assert run(text) == []


@pytest.mark.parametrize('moments', [GOOD, '2e-3 1e-4 -3e-4 5e-3 2e-4 4e-3'])
@pytest.mark.parametrize('c', [None, '', inertia('0.5', GOOD, '<origin rpy="0.3 0 0"/>')])
def test_a_body_of_one_unrotated_inertial_is_that_inertial(moments: str, c: str | None) -> None:
    # Link b's <inertial> alone in its body (c welded to b: none, massless, or with mass)
    # is the body as written; turned by 1e-300 rad it goes through the lumping sum, which
    # must agree with it to rounding.
    def body(rpy: str) -> inertial.Body:
        text = robot(inertia('1.5', moments, f'<origin xyz="0.1 -0.2 0.3" rpy="{rpy}"/>'),
                     c=c)
        found = inertial.bodies(load_string(text, 'r.urdf').robot)
        assert found is not None
        return next(body for body in found if body.anchor == 'b')

    plain, turned = body('0 0 0'), body('0 0 1e-300')
    assert plain.links == turned.links and plain.moving and plain.has_inertial
    assert plain.mass == pytest.approx(turned.mass, rel=1e-15)
    if not c:  # no mass welded to b: the body is b's <inertial> as written
        assert plain.mass == 1.5
        assert plain.inertia == Inertia(*(float(value) for value in moments.split()))
    for name in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'):
        assert getattr(plain.inertia, name) == pytest.approx(getattr(turned.inertia, name),
                                                             rel=1e-12, abs=1e-15)
    # a real turn of the inertial frame turns the tensor, principal moments kept
    rolled = body('0.3 0 0')
    if c is None:
        assert rolled.inertia != plain.inertia
        np.testing.assert_allclose(principal_moments(rolled.inertia),
                                   principal_moments(plain.inertia), rtol=1e-12)


def test_tiago_antenna_inertia_is_invalid_but_lumped() -> None:
    found = {finding.element
             for finding in check_family(CHECKS, load(shared_model('tiago_dual.urdf')))
             if finding.code == 'link-inertia-invalid'}
    assert found == {'link:base_antenna_left_link', 'link:base_antenna_right_link'}


@pytest.mark.filterwarnings('error')
@pytest.mark.parametrize('value', ['nan', 'inf', '-inf', '1e308', '-0', '1e-320'])
def test_extreme_values_never_crash_or_warn(value: str) -> None:
    origin = f'<origin xyz="{value} 0 0" rpy="0 {value} 0"/>'
    b = (inertia(value, f'{value} 0 0 1 0 1', origin) +
         box(f'{value} 1 1', f'<origin xyz="0 {value} 0" rpy="{value} 0 0"/>'))
    for text in (robot(b), robot(b, 'fixed', inertia(value))):
        for finding in run(text):
            assert finding.code in CATALOG


def test_implausible_ratio_that_underflows_is_reported_not_raised() -> None:
    findings = run(robot(inertia('1e60', '1e-301 0 0 1e-301 0 1e-301') + box('0.1 0.1 0.2')))
    (finding,) = [f for f in findings if f.code == 'inertia-implausible']
    assert ' is 1/' in finding.message and ' of that of ' in finding.message


def test_a_capsule_collision_implies_the_solid_capsule_inertia() -> None:
    # URDF 1.1: a 0.2 m capsule of radius 0.05 and 2 kg. The solid capsule's tensor
    # (capsule_inertia, checked against the hand formula in test_cli's inertia table) is
    # plausible; the same link with an identity tensor is not; the fix gives its numbers.
    from urdf_tools_ros.core.kinematics.inertia import capsule_inertia
    solid = capsule_inertia(2.0, 0.05, 0.2)
    capsule = '<collision><geometry><capsule radius="0.05" length="0.2"/></geometry></collision>'
    moments = f'{solid.ixx!r} 0 0 {solid.iyy!r} 0 {solid.izz!r}'

    def versioned(text: str) -> str:
        return text.replace('<robot name="r">', '<robot name="r" version="1.1">')

    assert run(versioned(robot(inertia('2', moments) + capsule))) == []
    (finding,) = run(versioned(robot(inertia('2', '1 0 0 1 0 1') + capsule)))
    assert finding.code == 'inertia-implausible'
    assert finding.fix is not None and 'r=0.05 m × 0.2 m capsule of 2 kg' in finding.fix
    assert (f'<inertia ixx="{solid.ixx:.6g}" ixy="0" ixz="0" iyy="{solid.iyy:.6g}" iyz="0" '
            f'izz="{solid.izz:.6g}"/>') in finding.fix
