"""The viewer's logic without a browser: slider ranges, mimic joints, buttons, external states."""

from __future__ import annotations

from collections.abc import Iterator
import itertools
import math
from pathlib import Path
import re
import struct

import numpy as np
import pytest

from conftest import free_port, missing, REPO, SAMPLE_ROBOT
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.joint_state.table import JointStateTable
from urdf_tools_ros.core.kinematics.limits import effective_limits
from urdf_tools_ros.core.kinematics.mimic import resolve_mimic
from urdf_tools_ros.core.model.robot import Joint, Limit, SafetyController
from urdf_tools_ros.core.source.loader import load, RobotDescription
from urdf_tools_ros.gui.page import camera_for, report_markdown
from urdf_tools_ros.gui.sliders import mimic_spec, panel_specs, slider_spec, slider_step

if missing('viser') is None:
    from urdf_tools_ros.gui.viewer import RobotViewer
needs_viser = pytest.mark.skipif(missing('viser') is not None, reason=str(missing('viser')))
VIEWER = REPO / 'test' / 'urdf' / 'viewer'
ACTUATED = ('left_wheel_joint', 'right_wheel_joint', 'lift_joint', 'shoulder_joint',
            'elbow_joint', 'wrist_joint', 'left_finger_joint')


@pytest.fixture(scope='module')
def sample() -> RobotDescription:
    return load(SAMPLE_ROBOT)


# -- slider specs (pure) ------------------------------------------------------------------------
@pytest.mark.parametrize('lower, upper, step', [
    (-math.pi, math.pi, 1e-3), (0.0, 0.2, 1e-4), (0.0, 0.02, 1e-5), (-1.9, 1.9, 1e-3),
    (0.0, 0.0, 1e-3), (0.0, 5000.0, 1.0)])
def test_slider_step_is_a_round_thousandth(lower: float, upper: float, step: float) -> None:
    assert slider_step(lower, upper) == pytest.approx(step)


def test_slider_ranges_are_the_effective_limits(sample: RobotDescription) -> None:
    robot = sample.robot
    specs = {name: slider_spec(robot.joint(name).joint_type,
                               effective_limits(robot.joint(name), True)) for name in ACTUATED}
    assert (specs['lift_joint'].lower, specs['lift_joint'].upper) == pytest.approx((0.005, 0.195))
    assert (specs['elbow_joint'].lower, specs['elbow_joint'].upper) == pytest.approx((-1.9, 1.9))
    assert (specs['shoulder_joint'].lower, specs['shoulder_joint'].upper) == \
        pytest.approx((-math.pi / 2, math.pi / 2))
    wheel = specs['left_wheel_joint']
    assert (wheel.lower, wheel.upper, wheel.continuous) == (-math.pi, math.pi, True)
    assert specs['lift_joint'].label == 'lift_joint [m]'
    assert specs['elbow_joint'].label == 'elbow_joint [rad]'
    assert not any(spec.read_only for spec in specs.values())


def test_without_smallest_limits_the_hard_limits_are_the_range(sample: RobotDescription) -> None:
    joint = sample.robot.joint('lift_joint')
    spec = slider_spec(joint.joint_type, effective_limits(joint, False))
    assert (spec.lower, spec.upper) == (0.0, pytest.approx(0.2))


def test_mimic_control_is_read_only_over_the_image_of_its_source_range() -> None:
    source = Joint('src', 'revolute', 'a', 'b', limit=Limit(-1.0, 2.0, 1.0, 1.0),
                   safety_controller=SafetyController(-0.5, None, 1.0, 1.0))
    spec = slider_spec('revolute', effective_limits(source))
    assert (spec.lower, spec.upper) == (-0.5, 2.0)
    robot_mimic = resolve_mimic(load(VIEWER / 'mimic.urdf').robot)['follower']  # -2 * src + 0.1
    follower = mimic_spec('revolute', robot_mimic, spec)
    assert follower.read_only and follower.mimic is robot_mimic
    assert (follower.lower, follower.upper) == pytest.approx((-3.9, 1.1))
    assert 'mimic: -2 * src + 0.1' in follower.hint


def test_panel_specs_follow_the_table(sample: RobotDescription) -> None:
    specs = panel_specs(sample.robot, JointStateTable(sample.robot))
    assert tuple(spec.joint for spec in specs) == ACTUATED + ('right_finger_joint',)
    finger = specs[-1]
    assert finger.read_only and finger.unit == 'm'
    assert (finger.lower, finger.upper) == pytest.approx((-0.02, 0.0))
    plain = panel_specs(sample.robot, JointStateTable(sample.robot, use_mimic_tags=False))
    assert not any(spec.read_only for spec in plain) and len(plain) == 8


def test_displayed_value_wraps_continuous_and_clamps_others() -> None:
    wheel = slider_spec('continuous', effective_limits(Joint('w', 'continuous', 'a', 'b')))
    assert wheel.displayed(2 * math.pi + 0.5) == pytest.approx(0.5)
    # wrapped, then shown to the step's decimals (0.001 rad): 2.2831853... shows as 2.283
    assert wheel.step == 0.001 and wheel.displayed(-4.0) == 2.283
    assert wheel.displayed(math.pi) == math.pi  # the right end stays the right end
    lift = slider_spec('prismatic', effective_limits(
        Joint('l', 'prismatic', 'a', 'b', limit=Limit(0.0, 0.2, 1.0, 1.0))))
    assert lift.displayed(0.5) == 0.2 and lift.displayed(-1.0) == 0.0
    assert lift.readout(0.01) == '0.0100 m'
    assert wheel.readout(math.pi / 2) == '1.5708 rad (90.00°)'
    # slider ends: three significant digits, not viser's six decimals (-3.141593)
    assert wheel.mark(-math.pi) == '-3.14' and lift.mark(0.005) == '0.005'


def test_report_markdown_groups_by_severity_with_fixes_and_the_terminals_counts() -> None:
    """Issue 13: grouped by severity, fix hints, counted as ``urdf-tools check`` counts."""
    from urdf_tools_ros.cli.report import summary

    findings = [Finding('b-rule', Severity.WARNING, 'link:l', 'mesh missing', fix='ship it'),
                Finding('a-rule', Severity.ERROR, 'joint:j', 'bad_limit lower > upper'),
                Finding('c-rule', Severity.INFO, 'robot', 'just saying')]
    text = report_markdown('/x/robot.urdf', findings, ['kinematics: cycle'])
    terminal = summary('robot.urdf', findings)  # robot.urdf: 1 error, 1 warning, 1 info
    assert terminal == 'robot.urdf: 1 error, 1 warning, 1 info'
    assert f'`robot.urdf`: {terminal.split(": ", 1)[1]}' in text
    errors, warnings, info = (text.index('**Errors (1)**'), text.index('**Warnings (1)**'),
                              text.index('**Info (1)**'))
    assert errors < text.index('`a-rule`') < warnings < text.index('`b-rule`') < info < \
        text.index('`c-rule`')
    assert 'bad\\_limit' in text and '*Fix:* ship it' in text
    assert 'Cannot pose the robot:** kinematics: cycle' in text


def test_camera_frames_the_box_beside_the_panel() -> None:
    lower, upper = np.array([0.0, -0.5, 0.0]), np.array([1.0, 0.5, 1.0])
    position, look_at = camera_for(lower, upper)
    center = (lower + upper) / 2.0
    radius = np.linalg.norm(upper - lower) / 2.0
    view = np.subtract(look_at, position)
    distance = np.linalg.norm(view)
    # every corner is in viser's view (75° vertical field of view, a 1400 x 900 page) and left
    # of the panel, which floats over the right 30 % of it
    forward = view / distance
    right = np.cross(forward, (0.0, 0.0, 1.0))
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    half_height = np.tan(np.radians(37.5))
    half_width = half_height * 1400 / 900
    for corner in itertools.product(*zip(lower, upper)):
        towards = np.subtract(corner, position)
        depth = towards @ forward
        x, y = towards @ right / depth / half_width, towards @ up / depth / half_height
        assert -1.0 < x < 1.0 - 2 * 0.3 and -1.0 < y < 1.0, (corner, x, y)
    # the target sits to the right of the box's middle (as seen), so the box is drawn left
    assert np.dot(np.subtract(look_at, center), right) > 0.1 * radius
    no_panel = camera_for(lower, upper, panel_share=0.0)
    assert no_panel[1] == pytest.approx(tuple(center))


# -- meshes ---------------------------------------------------------------------------------------
def test_meshes_load_scaled_with_their_own_colours() -> None:
    pytest.importorskip('trimesh')
    from urdf_tools_ros.gui.meshes import load_mesh
    meshes = SAMPLE_ROBOT.parent / 'meshes'
    (beacon,) = load_mesh(str(meshes / 'beacon.stl'), (2.0, 1.0, 1.0))
    assert beacon.vertices.max(axis=0) == pytest.approx((0.04, 0.02, 0.03))
    assert beacon.rgba is None  # STL: coloured by the URDF material
    (bumper,) = load_mesh(str(meshes / 'bumper.dae'))
    assert bumper.rgba is not None and bumper.rgba[:3] == pytest.approx((1.0, 0.5, 0.0),
                                                                        abs=0.01)
    (palm,) = load_mesh(str(meshes / 'gripper_palm.obj'), (1.0, 1.0, -1.0))
    assert palm.faces.shape == (12, 3)
    normal = np.cross(*(palm.vertices[palm.faces[:, 1:]] - palm.vertices[palm.faces[:, :1]])
                      .transpose(1, 0, 2))
    outward = np.einsum('ij,ij->i', normal, palm.vertices[palm.faces].mean(axis=1))
    assert (outward > 0).all()  # mirrored, and still facing outward
    with pytest.raises(FileNotFoundError):
        load_mesh('/nonexistent/x.stl')


def test_a_collada_unit_scales_the_drawn_mesh_as_rviz_does(tmp_path: Path) -> None:
    # rviz_rendering's mesh loader rescales COLLADA by <asset><unit meter> (getMeshUnitRescale);
    # trimesh alone does not
    pytest.importorskip('trimesh')
    from urdf_tools_ros.gui.meshes import load_mesh
    source = SAMPLE_ROBOT.parent / 'meshes' / 'bumper.dae'
    (metres,) = load_mesh(str(source), (2.0, 1.0, 1.0))
    inches = tmp_path / 'inches.dae'
    inches.write_text(re.sub(r'<unit[^>]*/>', '<unit name="inch" meter="0.0254"/>',
                             source.read_text(encoding='utf-8')), encoding='utf-8')
    assert '0.0254' in inches.read_text(encoding='utf-8')
    (small,) = load_mesh(str(inches), (2.0, 1.0, 1.0))
    np.testing.assert_allclose(small.vertices, metres.vertices * 0.0254, rtol=1e-6)


def test_corrupt_mesh_is_a_load_error(tmp_path: Path) -> None:
    pytest.importorskip('trimesh')
    from urdf_tools_ros.gui.meshes import load_mesh, MeshLoadError
    bad = tmp_path / 'bad.stl'
    bad.write_bytes(b'\x00' * 80 + struct.pack('<I', 1000))
    with pytest.raises(MeshLoadError):
        load_mesh(str(bad))


# -- the viewer with a real viser server, no browser ----------------------------------------------
@pytest.fixture
def viewer(sample: RobotDescription) -> Iterator[RobotViewer]:
    changes: list[dict[str, float]] = []
    with RobotViewer(sample, port=free_port(), seed=1, on_change=changes.append) as view:
        view.changes = changes  # type: ignore[attr-defined]
        yield view


@needs_viser
def test_center_and_randomize(viewer: RobotViewer) -> None:
    assert viewer.table is not None
    table = viewer.table
    for _ in range(20):
        viewer.randomize()
        for name in ACTUATED:
            limits = table.limits[name]
            assert limits.slider_lower <= viewer.positions[name] <= limits.slider_upper
            assert viewer.panel is not None
            step = viewer.panel.specs[name].step  # shown to the step's decimals
            assert viewer.panel.sliders[name].value == \
                pytest.approx(viewer.positions[name], abs=step / 2)
        assert viewer.positions['right_finger_joint'] == \
            pytest.approx(-viewer.positions['left_finger_joint'])
    viewer.center()
    assert {name: viewer.positions[name] for name in ACTUATED} == pytest.approx(table.defaults)
    assert len(viewer.changes) == 21  # type: ignore[attr-defined]


@needs_viser
def test_external_states_move_the_sliders_without_echo(viewer: RobotViewer) -> None:
    assert viewer.panel is not None
    refusals = viewer.set_positions({'shoulder_joint': 0.5, 'left_wheel_joint': 7.0,
                                     'right_finger_joint': 1.0, 'nope': 1.0,
                                     'wrist_joint': math.nan})
    assert sorted(r.element for r in refusals) == ['joint:nope', 'joint:right_finger_joint',
                                                   'joint:wrist_joint']
    assert viewer.panel.sliders['shoulder_joint'].value == pytest.approx(0.5)
    assert viewer.positions['left_wheel_joint'] == 7.0  # the state keeps the angle,
    assert viewer.panel.sliders['left_wheel_joint'].value == \
        pytest.approx(7.0 - 2 * math.pi, abs=0.0005)  # the slider shows it wrapped
    assert viewer.changes == []  # type: ignore[attr-defined]


@needs_viser
def test_frames_toggle_and_link_poses_from_outside(viewer: RobotViewer) -> None:
    assert viewer.scene is not None
    assert viewer.panel is not None
    viewer.panel.frames_checkbox.value = True
    assert viewer.show_frames and all(f.show_axes for f in viewer.scene.frames.values())
    viewer.follow_kinematics = False
    T = np.eye(4)
    T[:3, 3] = (1.0, 2.0, 3.0)
    viewer.set_link_poses({'mast_link': T})
    viewer.move_joint('lift_joint', 0.15)
    np.testing.assert_allclose(viewer.link_pose('mast_link'), T, atol=1e-6)


@needs_viser
def test_new_description_rebuilds_and_keeps_shared_joints(viewer: RobotViewer) -> None:
    viewer.move_joint('elbow_joint', 0.7)
    viewer.set_description(load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true'}))
    assert viewer.panel is not None and viewer.scene is not None
    assert tuple(viewer.panel.sliders) == ACTUATED  # planar and floating joints: no slider
    assert 'planar_puck_link' in viewer.scene.frames
    assert viewer.positions['elbow_joint'] == pytest.approx(0.7)


@needs_viser
def test_a_table_passed_in_is_driven_and_keeps_its_state(sample: RobotDescription) -> None:
    table = JointStateTable(sample.robot, zeros={'wrist_joint': 0.3})
    with RobotViewer(sample, table, port=free_port(), findings=[]) as view:
        assert view.table is table and view.positions['wrist_joint'] == 0.3
        view.move_joint('elbow_joint', -0.4)
        assert table.value('elbow_joint') == -0.4
        table.update('elbow_joint', position=0.25)
        view.set_description(sample, table, findings=[])
        assert view.panel is not None
        assert view.panel.sliders['elbow_joint'].value == pytest.approx(0.25)


@needs_viser
def test_a_broken_model_is_drawn_at_identity_with_its_errors() -> None:
    """Meshes missing or unreadable, and a kinematic cycle."""
    with RobotViewer(load(VIEWER / 'broken.urdf'), port=free_port()) as view:
        assert view.kinematics is None and view.scene is not None
        assert sorted(view.scene.frames) == ['a', 'b', 'c']
        for link in 'abc':
            np.testing.assert_allclose(view.link_pose(link), np.eye(4), atol=1e-9)
        assert [(p.filename, p.cause.value) for p in view.scene.placeholders] == [
            ('meshes/missing.stl', 'file missing'), ('bad.stl', 'unreadable')]
        assert view.scene.placeholders[1].size == pytest.approx((0.2, 0.2, 0.2))  # scale 2
        codes = {finding.code for finding in view.findings}
        assert {'kinematic-cycle', 'mesh-file-missing', 'mesh-unreadable'} <= codes
        assert view.panel is not None and tuple(view.panel.sliders) == ('j1', 'j2')
        view.move_joint('j1', 0.5)  # the joint state still works; the links stay put
        np.testing.assert_allclose(view.link_pose('c'), np.eye(4), atol=1e-9)


@needs_viser
def test_non_finite_sizes_are_not_drawn_and_a_non_finite_scale_is_a_placeholder() -> None:
    # NaN/inf sizes would put NaN into the drawn box and the camera that frames it.
    with RobotViewer(load(VIEWER / 'not_finite.urdf'), port=free_port()) as view:
        assert view.scene is not None
        assert [(p.link, p.filename, p.reason, p.size) for p in view.scene.placeholders] == [
            ('b', 'part.stl', 'its scale is not finite', pytest.approx((0.1, 0.1, 0.1)))]
        assert view.scene.visual_count == 2  # the sphere and the placeholder; no NaN box
        bounds = view.scene.drawn_bounds()
        assert bounds is not None
        np.testing.assert_allclose(bounds, ([-0.1] * 3, [0.1] * 3))  # the sphere alone


@needs_viser
def test_view_command_prints_the_report_then_the_url(
        capsys: pytest.CaptureFixture[str]) -> None:
    from urdf_tools_ros.cli.main import run
    port = free_port()
    assert run(['view', str(SAMPLE_ROBOT), 'prefix:=r1_', '--port', str(port),
                '--exit-after', '0']) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.search(r': 0 errors, 0 warnings, \d+ info$', out[-2]), out  # the report's end
    assert out[-1] == f"urdf-tools view: serving 'sample_robot' at http://127.0.0.1:{port} " \
        '(Ctrl-C to stop)'
    assert run(['view', '/nonexistent.urdf', '--exit-after', '0']) == 2
    assert 'nonexistent.urdf' in capsys.readouterr().err


def test_zeros_yaml_is_a_joint_state_publisher_zeros_block(sample: RobotDescription) -> None:
    """The page's "Joint state as YAML": actuated joints only, readable by a YAML loader."""
    import yaml

    from urdf_tools_ros.gui.sliders import zeros_yaml

    table = JointStateTable(sample.robot)
    specs = panel_specs(sample.robot, table)
    positions = dict(table.positions())
    positions.update(elbow_joint=0.123456789, right_finger_joint=-0.01)
    parsed = yaml.safe_load(zeros_yaml(specs, positions))
    assert list(parsed) == ['zeros']
    assert set(parsed['zeros']) == set(table.joint_names)  # the mimic finger is left out
    assert parsed['zeros']['elbow_joint'] == 0.123457
    assert parsed['zeros']['lift_joint'] == pytest.approx(positions['lift_joint'])
