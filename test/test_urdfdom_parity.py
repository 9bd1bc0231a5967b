"""
Differential tests against the real urdfdom (``check_urdf``).

What it rejects is an error here with the matching rule; on what it accepts no error names it.
"""

from __future__ import annotations

from pathlib import Path
import shutil
import subprocess

import pytest

from conftest import shared_model
from urdf_tools_ros.core.checks import check_description, RULES
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load

CHECK_URDF = shutil.which('check_urdf')
pytestmark = pytest.mark.skipif(CHECK_URDF is None, reason='check_urdf (urdfdom) not installed')

LINKS = '<link name="a"/><link name="b"/>'
FIXED = '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'


def revolute(inner: str) -> str:
    return (f'{LINKS}<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            f'{inner}</joint>')


LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'

#: (id, robot body or whole document, the rule urdfdom's refusal corresponds to)
REJECTED = [
    ('not-a-robot', '<launch/>', None),
    ('robot-name-missing', '<robot><link name="a"/></robot>', 'robot-name-missing'),
    ('robot-version', '<robot name="r" version="2.0"><link name="a"/></robot>',
     'robot-version-unsupported'),
    ('link-duplicate', '<link name="a"/><link name="a"/>', 'link-duplicate'),
    ('joint-duplicate', f'{LINKS}<link name="c"/>{FIXED}'
     '<joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>',
     'joint-duplicate'),
    ('material-duplicate', '<material name="m"><color rgba="1 0 0 1"/></material>'
     '<material name="m"><color rgba="0 1 0 1"/></material><link name="a"/>',
     'material-duplicate'),
    ('no-links', '', 'robot-no-links'),
    ('joint-type-unknown', f'{LINKS}<joint name="j" type="hinge"><parent link="a"/>'
     '<child link="b"/></joint>', 'joint-type-unknown'),
    ('revolute-without-limit', revolute(''), 'joint-limit-missing'),
    ('limit-without-effort', revolute('<limit lower="-1" upper="1" velocity="1"/>'),
     'joint-limit-effort-missing'),
    ('limit-without-velocity', revolute('<limit lower="-1" upper="1" effort="1"/>'),
     'joint-limit-velocity-missing'),
    ('safety-without-k-velocity', revolute(LIMIT + '<safety_controller k_position="1"/>'),
     'safety-controller-k-velocity-missing'),
    ('mimic-without-joint', revolute(LIMIT + '<mimic multiplier="2"/>'), 'attribute-missing'),
    ('origin-two-numbers', f'{LINKS}<joint name="j" type="fixed"><parent link="a"/>'
     '<child link="b"/><origin xyz="1 2"/></joint>', 'vector-size'),
    ('joint-without-parent', f'{LINKS}<joint name="j" type="fixed"><child link="b"/></joint>',
     'attribute-missing'),
    ('parent-link-missing', f'{LINKS}<joint name="j" type="fixed"><parent link="x"/>'
     '<child link="b"/></joint>', 'joint-parent-missing'),
    ('two-roots', LINKS, 'multiple-root-links'),
    ('number-invalid', f'{LINKS}<joint name="j" type="fixed"><parent link="a"/>'
     '<child link="b"/><origin xyz="1 2 x"/></joint>', 'number-invalid'),
]


#: What urdfdom accepts (it drops the element after a log line) but is broken all the same.
STRICTER = [
    ('inertial-no-mass', '<link name="a"><inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" '
     'iyz="0" izz="1"/></inertial></link>', 'inertial-incomplete'),
    ('box-no-size', '<link name="a"><visual><geometry><box/></geometry></visual></link>',
     'attribute-missing'),
]


def as_document(body: str) -> str:
    return body if body.startswith('<robot') or body.startswith('<launch') \
        else f'<robot name="r">{body}</robot>'


def urdfdom_accepts(path: Path) -> bool:
    assert CHECK_URDF is not None
    result = subprocess.run([CHECK_URDF, str(path)], capture_output=True, text=True,
                            timeout=60)
    return result.returncode == 0


@pytest.mark.parametrize('case_id, body, code', REJECTED, ids=[c[0] for c in REJECTED])
def test_what_urdfdom_rejects_is_an_error_here(tmp_path: Path, case_id: str, body: str,
                                               code: str | None) -> None:
    path = tmp_path / f'{case_id}.urdf'
    path.write_text(as_document(body))
    if urdfdom_accepts(path):
        pytest.skip(f'the installed urdfdom accepts {case_id} (older releases check less)')
    if code is None:
        with pytest.raises(DescriptionLoadError):
            load(path)
        return
    findings = check_description(load(path))
    errors = {f.code for f in findings if f.severity is Severity.ERROR}
    assert code in errors, findings
    assert RULES[code].severity_for('ros') is Severity.ERROR


@pytest.mark.parametrize('name', ['ur5_robot', 'panda', 'talos_full_v2', 'tiago_dual',
                                  'robotiq_2f_85_nsfix', 'cookie'])
def test_what_urdfdom_accepts_has_no_urdfdom_error_here(name: str) -> None:
    """An error on a file urdfdom reads names another consumer (cookie: joint_state_publisher)."""
    path = shared_model(name)
    assert urdfdom_accepts(path)
    errors = [f for f in check_description(load(path)) if f.severity is Severity.ERROR]
    assert [f for f in errors if 'urdfdom' in f.consumers] == []
    assert all(f.consumers for f in errors)
    for target, own in (('gazebo', 'gazebo'), ('pinocchio', 'pinocchio')):
        # urdfdom-based: an error there is one of the simulator's own (talos' massless optical
        # frames make Gazebo's lumping divide by 0: test_consumer_oracles confirms the class).
        for finding in check_description(load(path), target):
            if finding.severity is Severity.ERROR:
                assert finding.consumers == (own,), finding


@pytest.mark.parametrize('case_id, body, code', STRICTER, ids=[c[0] for c in STRICTER])
def test_stricter_than_urdfdom(tmp_path: Path, case_id: str, body: str, code: str) -> None:
    path = tmp_path / f'{case_id}.urdf'
    path.write_text(as_document(body))
    if not urdfdom_accepts(path):
        pytest.skip(f'the installed urdfdom rejects {case_id} too')
    errors = {f.code for f in check_description(load(path)) if f.severity is Severity.ERROR}
    assert code in errors
