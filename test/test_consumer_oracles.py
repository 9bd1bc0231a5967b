"""
The severity policy against the real consumers: every error names a tool that really breaks.

On every rule family's failing case and test_check_consistency's joints, each error under a
target is confirmed by a consumer of that target it names (``consumer_breaks``); every refusal
of urdfdom is an error under ``ros``. Absent consumers skip their part.
"""

from __future__ import annotations

from pathlib import Path

from consumer_breaks import ASK, gazebo_breaks
import oracles
import pytest
import test_check_consistency
import test_checks_geometry
from test_checks_inertial import inertia

from urdf_tools_ros.core.checks import check_description, TARGETS
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.source.loader import load

#: Not in the default run: CI runs this matrix as a job of its own (``pytest -m oracle``).
pytestmark = pytest.mark.oracle

LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def arm(b: str, joint_type: str = 'revolute', c: str | None = None) -> str:
    """A massive root a, link b on joint j, optionally c welded to b: Gazebo keeps a."""
    welded = '' if c is None else (f'<link name="c">{c}</link><joint name="k" type="fixed">'
                                   '<origin xyz="0 0 0.1"/><parent link="b"/><child link="c"/>'
                                   '</joint>')
    return (f'<robot name="r"><link name="a">{inertia()}</link><link name="b">{b}</link>'
            f'<joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>'
            f'<axis xyz="0 0 1"/>{LIMIT}</joint>{welded}</robot>')


#: Inertia cases where Gazebo and MuJoCo can tell (the root has mass, unlike the rule cases).
PHYSICS = {
    'moving-triangle': arm(inertia('1', '1e-3 0 0 1e-3 0 3e-3')),
    'moving-not-pd': arm(inertia('1', '1e-3 2e-3 0 1e-3 0 1e-3')),
    'moving-negative-mass': arm(inertia('-1')),
    'moving-massless': arm(''),
    'moving-point-mass': arm(inertia('1', '0 0 0 0 0 0')),
    'welded-triangle-lumped-valid': arm(inertia(), c=inertia('1', '1e-3 0 0 1e-3 0 3e-3')),
    'root-singular': arm(inertia()).replace(
        f'<link name="a">{inertia()}</link>',
        '<link name="a">' + inertia('1', '1e-6 1e-6 1e-6 1e-6 1e-6 1e-6') + '</link>'),
    'rounding-noise-root': arm(inertia()).replace(
        f'<link name="a">{inertia()}</link>',
        '<link name="a">' + inertia('1', '1e-19 1e-20 0 1e-19 0 1e-19') + '</link>'),
}

ZERO = inertia('0', '0 0 0 0 0 0')


def welded(*links: tuple[str, str], root: str = inertia()) -> str:
    """A root a with the links ``(name, inertial)`` welded in a chain below it."""
    xml = f'<robot name="r"><link name="a">{root}</link>'
    parent = 'a'
    for name, inertial in links:
        xml += (f'<link name="{name}">{inertial}</link><joint name="to_{name}" type="fixed">'
                f'<parent link="{parent}"/><child link="{name}"/></joint>')
        parent = name
    return xml + '</robot>'


#: Gazebo's fixed-joint lumping (checks/gazebo_lumping.py): what it drops or refuses.
LUMPING = {
    'root-massless-arm': arm(inertia()).replace(f'<link name="a">{inertia()}</link>',
                                                '<link name="a"/>'),
    'root-mass-zero-static-object': '<robot name="r"><link name="a">' + inertia('0') +
                                    '</link></robot>',
    'world-root-massless-base': welded(('base', ''), ('top', '')).replace(
        f'<link name="a">{inertia()}</link>', '<link name="a"/>').replace('"a"', '"world"'),
    'massless-frames-welded': welded(('frame', ZERO), ('optical', ZERO)),
    'frame-without-inertial-then-massless': welded(('frame', ''), ('optical', ZERO)),
    'massless-frame-on-massive-link': welded(('frame', ZERO)),
    'world-root-massive-base': welded(('base', inertia())).replace('"a"', '"world"').replace(
        f'<link name="world">{inertia()}</link>', '<link name="world"/>'),
    'moving-massless-carrying-a-mass': arm('', c=inertia()).replace(
        'type="fixed"', 'type="revolute"').replace(
        '<child link="c"/>', f'<child link="c"/><axis xyz="0 0 1"/>{LIMIT}'),
}

CASES = {**test_check_consistency.CASES, **PHYSICS, **LUMPING}


def errors(path: Path, target: str) -> list[Finding] | None:
    try:
        description = load(path)
    except DescriptionLoadError:
        return None
    return [f for f in check_description(description, target) if f.severity is Severity.ERROR]


@pytest.fixture(params=sorted(CASES))
def case_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """
    The case as a file, beside the geometry cases' mesh files.

    Real meshes (a 0.1 m cube, so that MuJoCo decodes them) where trimesh is installed; else
    empty STL text, which only the mesh cases' MuJoCo verdicts need more than.
    """
    try:
        import trimesh
    except ImportError:
        trimesh = None
    for name in test_checks_geometry.FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if trimesh is None:
            (tmp_path / name).write_bytes(b'solid x\nendsolid x\n')
        else:
            trimesh.creation.box((0.1, 0.1, 0.1)).export(
                str(tmp_path / name), file_type=Path(name).suffix[1:].lower())
    path = tmp_path / f'{request.param}.urdf'
    path.write_text(CASES[request.param])
    return path


@pytest.mark.slow
@pytest.mark.parametrize('target', sorted(TARGETS))
def test_each_error_is_a_real_consumers_refusal(case_file: Path, target: str) -> None:
    found = errors(case_file, target)
    if not found:
        return
    answers: dict[str, bool | None] = {}
    for finding in found:
        named = [name for name in finding.consumers if name in TARGETS[target]]
        assert named, f'an error that names no consumer of {target}: {finding}'
        for name in named:
            if name not in answers:
                answers[name] = ASK[name](case_file) if name in ASK else None
        confirmed = [name for name in named if answers[name]]
        unknown = [name for name in named if answers[name] is None]
        if not confirmed and unknown:
            pytest.skip(f'{", ".join(unknown)} not available here to confirm {finding.code}')
        assert confirmed, (f'{target}: {finding.code} names {named}, none of which refuses '
                           f'the file: {finding}')


@pytest.mark.slow
def test_each_urdfdom_refusal_is_an_error_for_ros(case_file: Path) -> None:
    verdicts = [oracles.urdfdom(case_file, version) for version in ('3', '6')]
    if all(verdict is None for verdict in verdicts):
        pytest.skip('no check_urdf installed')
    if all(verdict is None or verdict.loaded for verdict in verdicts):
        return
    found = errors(case_file, 'ros')
    assert found is None or found, 'urdfdom refuses it but it checks clean under ros'
    assert errors(case_file, 'gazebo') != [], 'gazebo'  # SDFormat reads URDF 1.0 as urdfdom 3
    new = verdicts[1]
    if new is not None and not new.loaded:  # pinocchio reads URDF through urdfdom 6.0
        assert errors(case_file, 'pinocchio') != [], 'pinocchio'


@pytest.mark.parametrize('case', ['moving-triangle', 'moving-not-pd'])
def test_invalid_moving_body_is_a_warning_for_ros_and_an_error_for_simulators(
        case: str, tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(PHYSICS[case])
    assert errors(path, 'ros') == []
    assert errors(path, 'pinocchio') == []
    for target in ('gazebo', 'mujoco'):
        (finding,) = errors(path, target) or [None]
        assert finding is not None and finding.element == 'link:b', target


@pytest.mark.parametrize('case', ['root-singular', 'rounding-noise-root',
                                  'welded-triangle-lumped-valid'])
def test_static_or_lumped_valid_inertia_is_no_ros_finding_above_info(case: str,
                                                                     tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(PHYSICS[case])
    findings = check_description(load(path))
    assert [f for f in findings if f.severity is not Severity.INFO] == []


@pytest.mark.slow
def test_each_gazebo_refusal_or_drop_is_an_error_for_gazebo(case_file: Path) -> None:
    if oracles.gazebo(case_file) is None:
        pytest.skip('the SDFormat probe is not built (scripts/setup-oracles.sh)')
    if not gazebo_breaks(case_file):
        return
    found = errors(case_file, 'gazebo')
    assert found is None or found, 'Gazebo refuses it or drops a link; it checks clean'
