"""
What findings say simulators do, asked of the simulators installed here.

pybullet, MuJoCo and SDFormat; Isaac Sim's behaviour is from its importer's source.
"""

from __future__ import annotations

from pathlib import Path

import oracles
import pytest

from urdf_tools_ros.core.checks import check_description, RULES
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load

BODY = ('<inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" '
        'izz="1e-3"/></inertial>')


def two_links(b: str) -> str:
    """A massive root "a" and link "b" (holding ``b``) on a continuous joint."""
    return (f'<robot name="r"><link name="a">{BODY}</link><link name="b">{b}</link>'
            '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/></joint></robot>')


def pybullet_verdict(path: Path) -> oracles.Verdict:
    verdict = oracles.pybullet(path)
    if verdict is None:
        pytest.skip('pybullet is not installed here (no wheel for this Python)')
    return verdict


def test_a_massless_moving_link_gets_1_kg_in_pybullet_and_is_dropped_by_gazebo(
        tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(two_links('<collision><geometry><box size="0.1 0.1 0.1"/></geometry>'
                              '</collision>'), encoding='utf-8')
    (finding,) = [f for f in check_description(load(path))
                  if f.code == 'inertial-missing-on-moving-link']
    # The message says what Gazebo does; the rule's catalog entry says what pybullet does.
    assert 'Gazebo drops it' in finding.message
    assert 'pybullet gives it 1 kg' in RULES[finding.code].summary
    verdict = pybullet_verdict(path)
    assert verdict.loaded, verdict.message
    assert oracles.pybullet_masses(verdict) == {'a': 1.0, 'b': 1.0}, verdict.message
    dropped = oracles.gazebo_dropped_links(path)
    if dropped is not None:
        assert dropped == ['b']


def write_mesh(directory: Path, suffix: str) -> str:
    """A real 0.1 m cube in ``suffix``'s format (written by trimesh); return its file name."""
    trimesh = pytest.importorskip('trimesh')
    name = f'cube{suffix}'
    trimesh.creation.box((0.1, 0.1, 0.1)).export(str(directory / name))
    return name


@pytest.mark.parametrize('kind', ['visual', 'collision'])
@pytest.mark.parametrize('suffix', ['.stl', '.obj', '.dae', '.ply', '.DAE'])
def test_mesh_formats_as_mujoco_and_pybullet_read_them(tmp_path: Path, suffix: str,
                                                       kind: str) -> None:
    name = write_mesh(tmp_path, suffix)
    path = tmp_path / 'robot.urdf'
    path.write_text(two_links(f'{BODY}<{kind}><geometry><mesh filename="{name}"/></geometry>'
                              f'</{kind}>'), encoding='utf-8')
    findings = check_description(load(path), 'mujoco')
    mujoco_error = any(f.severity is Severity.ERROR for f in findings)
    mujoco = oracles.mujoco(path)
    if mujoco is not None:
        assert mujoco_error is not mujoco.loaded, (findings, mujoco.message)
        if not mujoco.loaded:
            assert 'no decoder found for mesh file' in mujoco.message
    unsupported = [f for f in findings if f.code == 'mesh-extension-unsupported']
    assert bool(unsupported) is (suffix.lower() not in ('.stl', '.obj', '.dae'))
    assert all('pybullet refuses the file' in f.message for f in unsupported)
    verdict = pybullet_verdict(path)
    assert verdict.loaded is not bool(unsupported), verdict.message
