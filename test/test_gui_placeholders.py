"""
Meshes the viewer cannot draw, and texture-only materials, without a browser.

A mesh that cannot be drawn is a magenta wireframe box at the visual's origin, 0.1 m times its
``<mesh scale>``, labelled with the link and the cause; the report and the log say why. On real
robots whose meshes cannot be resolved or are not shipped, and small robots under
test/urdf/viewer; the interbotix arm's ``interbotix_black`` is a texture-only material.
"""

from __future__ import annotations

from collections.abc import Iterator
import io
import logging
import logging.handlers
import math
import os
from pathlib import Path
import subprocess
import sys

from corpus_models import PACKAGE_PATHS
import numpy as np
from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES, SHARED_MODELS
import pytest

from conftest import free_port, REPO, rpy_matrix
from urdf_tools_ros.core.model.robot import Mesh, Visual
from urdf_tools_ros.core.source.loader import load, parse_xacro_args, RobotDescription
from urdf_tools_ros.gui.page import placeholders_markdown
from urdf_tools_ros.gui.placeholders import box_edges, Cause, placeholder_size

viser = pytest.importorskip('viser')
from urdf_tools_ros.gui.scene import DEFAULT_RGBA, pose_of  # noqa: E402
from urdf_tools_ros.gui.viewer import RobotViewer  # noqa: E402

CASES = ROS2_CASES
PACKAGES = ROS2_PACKAGES
needs_descriptions = pytest.mark.skipif(not CASES, reason=f'{ROS2_DESCRIPTIONS} is not here')
VIEWER = REPO / 'test' / 'urdf' / 'viewer'
needs_models = pytest.mark.skipif(not SHARED_MODELS.is_dir(),
                                  reason=f'{SHARED_MODELS} is not here')


def visual_meshes(description: RobotDescription) -> list[tuple[str, Visual, Mesh]]:
    """Every ``<visual>`` mesh of the model: ``(link, visual, mesh)`` in file order."""
    return [(link.name, visual, visual.geometry) for link in description.robot.links
            for visual in link.visuals if isinstance(visual.geometry, Mesh)]


def assert_boxes_stand_in(viewer: RobotViewer, description: RobotDescription) -> None:
    """Each visual mesh is a placeholder box at its origin, 0.1 m x |scale|, labelled."""
    scene = viewer.scene
    assert scene is not None
    meshes = visual_meshes(description)
    assert len(scene.placeholders) == len(scene.placeholder_nodes) == len(meshes) > 0
    for (link, visual, mesh), placeholder, (box, label) in zip(
            meshes, scene.placeholders, scene.placeholder_nodes):
        assert (placeholder.link, placeholder.filename) == (link, mesh.filename)
        expected = tuple(0.1 * abs(factor) for factor in mesh.scale)
        assert placeholder.size == pytest.approx(expected)
        # drawn: 12 magenta edges of that box, under the link's frame, at the visual's origin
        assert box.name.startswith(scene.path(link) + '/')
        points = np.asarray(box.points).reshape(-1, 3)
        np.testing.assert_allclose(np.abs(points), np.broadcast_to(np.array(expected) / 2.0,
                                                                   points.shape), atol=1e-7)
        assert np.asarray(box.points).shape == (12, 2, 3)
        assert tuple(box.colors) == (255, 0, 255)
        T = pose_of(box)
        np.testing.assert_allclose(T[:3, 3], visual.origin.xyz, atol=1e-6)
        np.testing.assert_allclose(T[:3, :3], rpy_matrix(visual.origin.rpy), atol=1e-6)
        assert label.text == f'{link}: {placeholder.summary}' == placeholder.label
        assert label.name.startswith(box.name + '/')
        np.testing.assert_allclose(label.position, np.array(expected) / 2.0, atol=1e-7)


# -- the box (pure) ---------------------------------------------------------------------------
@pytest.mark.parametrize('scale, size', [
    ((1.0, 1.0, 1.0), (0.1, 0.1, 0.1)),
    ((0.001, 0.001, 0.001), (1e-4, 1e-4, 1e-4)),
    ((1.0, -1.0, 2.0), (0.1, 0.1, 0.2)),       # mirrored: by its size
    ((math.nan, 1.0, math.inf), (0.1, 0.1, 0.1)),  # not finite: unknown, 1
    ((0.0, 3.0, 1.0), (0.1, 0.3, 0.1))])       # 0 says nothing about the size either
def test_the_box_is_a_tenth_of_a_metre_times_the_scale(scale: tuple[float, float, float],
                                                       size: tuple[float, float, float]) -> None:
    assert placeholder_size(scale) == pytest.approx(size)


def test_the_box_edges_are_the_twelve_edges_of_the_box() -> None:
    size = (0.2, 0.4, 0.6)
    edges = box_edges(size)
    assert edges.shape == (12, 2, 3)
    half = np.array(size) / 2.0
    np.testing.assert_allclose(np.abs(edges), np.broadcast_to(half, edges.shape))  # corners
    along = np.abs(edges[:, 1] - edges[:, 0])
    for axis in range(3):  # 4 edges along each axis, each as long as that side
        on_axis = along[:, axis] > 0
        assert on_axis.sum() == 4
        np.testing.assert_allclose(along[on_axis, axis], size[axis])
        assert np.all(along[on_axis][:, [a for a in range(3) if a != axis]] == 0)
    corners = {tuple(point) for point in edges.reshape(-1, 3)}
    assert len(corners) == 8
    assert len({tuple(sorted(map(tuple, edge))) for edge in edges}) == 12


# -- real robots ------------------------------------------------------------------------------
class _Unpropagating(logging.Logger):
    """Like launch's ``LaunchLogger`` (set as the logger class once ``launch`` is imported)."""

    def __init__(self, name: str, level: int = logging.NOTSET) -> None:
        super().__init__(name, level)
        self.propagate = False


@pytest.fixture(params=[True, False], ids=['propagate', 'LaunchLogger'])
def logger_class(request: pytest.FixtureRequest) -> Iterator[None]:
    """
    The logger class as it is, then one like ``LaunchLogger``: its loggers propagate to no parent.

    Importing ``launch`` (launch_testing's pytest plugin does) sets ``LaunchLogger``; the package's
    loggers made before are switched here as if made after.
    """
    previous = logging.getLoggerClass()
    with pytest.MonkeyPatch.context() as patch:
        if not request.param:
            logging.setLoggerClass(_Unpropagating)
            for name, logger in list(logging.Logger.manager.loggerDict.items()):
                if name.startswith('urdf_tools_ros') and isinstance(logger, logging.Logger):
                    patch.setattr(logger, 'propagate', False)
        yield
    logging.setLoggerClass(previous)


@needs_descriptions
def test_a_description_without_its_package_path_says_the_package_is_not_found(
        logger_class: None) -> None:
    case = CASES['turtlebot3_burger']
    description = load(ROS2_DESCRIPTIONS / case['entry'],
                       xacro_args=parse_xacro_args(case['args']))
    log = logging.getLogger(RobotViewer.__module__)  # the viewer's log, whoever listens to it
    caught = logging.handlers.BufferingHandler(capacity=10_000)
    log.addHandler(caught)
    try:
        viewer = RobotViewer(description, port=free_port())
    finally:
        log.removeHandler(caught)
    with viewer:
        assert viewer.scene is not None
        assert_boxes_stand_in(viewer, description)
        placeholders = viewer.scene.placeholders
        assert {p.cause for p in placeholders} == {Cause.PACKAGE_NOT_FOUND}
        assert {p.summary for p in placeholders} == {'package "turtlebot3_description" not found'}
        assert all('package "turtlebot3_description" is not found' in p.reason
                   for p in placeholders)
        assert placeholders[0].size == pytest.approx((1e-4,) * 3)  # scale 0.001
        # the panel: cause and reason of each, and what to do
        report = '\n'.join(placeholders_markdown(placeholders))
        assert f'**{len(placeholders)} meshes cannot be drawn:**' in report
        assert report.count('**package not found**') == len(placeholders)
        assert 'Packages not found: `turtlebot3_description`' in report
        assert '--package-path NAME=DIR' in report
        # the log: one warning per box, with the link, the mesh and the reason
        assert len(caught.buffer) == len(placeholders)
        for record, placeholder in zip(caught.buffer, placeholders):
            assert record.levelno == logging.WARNING
            message = record.getMessage()
            assert f'link "{placeholder.link}"' in message and placeholder.filename in message
            assert 'wireframe box (package not found)' in message
            assert placeholder.reason in message


@needs_descriptions
def test_with_its_package_path_the_missing_mesh_files_are_named() -> None:
    """That copy of turtlebot3_description leaves its meshes out: the package is found."""
    case = CASES['turtlebot3_burger']
    description = load(ROS2_DESCRIPTIONS / case['entry'],
                       xacro_args=parse_xacro_args(case['args']), package_paths=PACKAGES)
    with RobotViewer(description, port=free_port()) as viewer:
        assert viewer.scene is not None
        assert_boxes_stand_in(viewer, description)
        for placeholder in viewer.scene.placeholders:
            package, _, rest = placeholder.filename[len('package://'):].partition('/')
            path = os.path.join(PACKAGES[package], rest)
            assert not os.path.exists(path)
            assert placeholder.cause is Cause.FILE_MISSING
            assert placeholder.reason == f'the file {path} does not exist'
            assert placeholder.summary == f'file missing: {os.path.basename(rest)}'


@needs_models
@pytest.mark.parametrize('name, package_paths, cause', [
    ('ur5_robot.urdf', None, Cause.PACKAGE_NOT_FOUND),
    ('tiago_dual.urdf', None, Cause.PACKAGE_NOT_FOUND),  # mirrored meshes: scale -1
    ('tiago_dual.urdf', PACKAGE_PATHS, Cause.FILE_MISSING),  # the corpus has no tiago meshes
    ('robotiq_2f_85_nsfix.urdf', None, Cause.FILE_MISSING)])  # relative paths, scale 0.001
def test_shared_models_without_their_meshes(name: str, package_paths: dict[str, str] | None,
                                            cause: Cause) -> None:
    description = load(SHARED_MODELS / name, package_paths=package_paths)
    with RobotViewer(description, port=free_port()) as viewer:
        assert viewer.scene is not None
        assert_boxes_stand_in(viewer, description)
        assert {p.cause for p in viewer.scene.placeholders} == {cause}
        if cause is Cause.PACKAGE_NOT_FOUND:
            assert {p.summary for p in viewer.scene.placeholders} == {
                'package "example-robot-data" not found'}
        factors = {factor for _, _, mesh in visual_meshes(description) for factor in mesh.scale}
        if name.startswith('tiago'):  # the case of mirrored meshes: boxes by |scale|
            assert -1.0 in factors
        if name.startswith('robotiq'):
            assert 0.001 in factors


def test_unreadable_and_unsupported_mesh_files_say_so() -> None:
    path = VIEWER / 'unreadable' / 'robot.urdf'  # bad.stl, part.3ds and a good tetrahedron
    description = load(path)
    with RobotViewer(description, port=free_port()) as viewer:
        assert viewer.scene is not None
        bad, other = viewer.scene.placeholders
        assert (bad.cause, bad.summary) == (Cause.UNREADABLE, 'unreadable file')
        assert bad.reason.startswith('it cannot be read: ') and 'bad.stl' in bad.reason
        assert bad.size == pytest.approx((0.2, 0.2, 0.2))
        assert (other.cause, other.summary) == (Cause.UNSUPPORTED_FORMAT,
                                                'unsupported format .3ds')
        assert 'no reader for ".3ds"' in other.reason
        assert '**1 mesh cannot be drawn:**' in '\n'.join(placeholders_markdown([bad]))
        box, label = viewer.scene.placeholder_nodes[0]
        np.testing.assert_allclose(pose_of(box)[:3, 3], (0.1, 0.2, 0.3), atol=1e-6)
        np.testing.assert_allclose(pose_of(box)[:3, :3], rpy_matrix((0.0, 0.0, math.pi / 2)),
                                   atol=1e-6)
        assert label.text == 'a: unreadable file'
        assert len(viewer.scene.visual_nodes('a')) == 3  # two boxes and the tetrahedron
        assert [f.code for f in viewer.findings].count('mesh-unreadable') == 2


def test_the_view_command_logs_why_a_mesh_is_a_box(tmp_path: Path) -> None:
    """What ``urdf-tools view`` prints on stderr, in a process of its own as a user runs it."""
    path = tmp_path / 'robot.urdf'
    path.write_text('<robot name="r"><link name="base"><visual><geometry>'
                    '<mesh filename="package://nowhere_pkg/m.stl" scale="2 1 1"/></geometry>'
                    '</visual></link></robot>')
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'view', str(path),
                           '--port', str(free_port()), '--exit-after', '0'],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        'urdf-tools view: robot.urdf: link "base": visual mesh "package://nowhere_pkg/m.stl" is '
        'drawn as a 0.2 x 0.1 x 0.1 m wireframe box (package not found): package "nowhere_pkg" '
        'is not found, so the path cannot be resolved']


# -- textures ---------------------------------------------------------------------------------
#: wood.png, 2 x 2 RGBA: two red pixels, a blue one, a transparent white one.
PIXELS = np.array([[[255, 0, 0, 255], [255, 0, 0, 255]],
                   [[0, 0, 255, 255], [255, 255, 255, 0]]], dtype=np.uint8)
#: Its mean colour, transparent pixels left out of the colour: 2/3 red, 1/3 blue, 3/4 opaque.
MEAN = (2.0 / 3.0, 0.0, 1.0 / 3.0, 0.75)


def _color(rgba: tuple[float, ...]) -> np.ndarray:
    return np.array(rgba[:3]) * 255.0


def test_a_texture_only_material_shows_its_texture() -> None:
    """wood.png on primitives, a mesh with texture coordinates and one without; gone, junk."""
    import trimesh
    textured = load(VIEWER / 'textured' / 'robot.urdf')
    with RobotViewer(textured, port=free_port()) as viewer:
        scene = viewer.scene
        assert scene is not None and not scene.placeholders
        uses = {use.link: use for use in scene.textures}
        assert set(uses) == {'box', 'cylinder', 'quad', 'tetrahedron', 'ball', 'junk'}
        # primitives and a mesh without texture coordinates: the image's mean colour
        for link in ('box', 'cylinder', 'tetrahedron'):
            assert uses[link].drawn == 'mean colour'
            assert uses[link].rgba == pytest.approx(MEAN)
            (node,) = scene.visual_nodes(link)
            np.testing.assert_allclose(node.color, _color(MEAN), atol=1.0)
            assert node.opacity == pytest.approx(MEAN[3])
        assert uses['box'].path is not None and uses['box'].path.endswith('wood.png')
        # a mesh with texture coordinates and no material of its own: the image itself
        assert uses['quad'].drawn == 'image'
        (quad,) = scene.visual_nodes('quad')
        glb = trimesh.load(io.BytesIO(quad.glb_data), file_type='glb', force='mesh')
        np.testing.assert_array_equal(np.asarray(glb.visual.material.baseColorTexture
                                                 .convert('RGBA')), PIXELS)
        assert np.asarray(glb.visual.uv).shape == (4, 2)
        # unreadable textures: the default colour, and why
        assert (uses['ball'].drawn, uses['ball'].rgba) == ('default', DEFAULT_RGBA)
        assert 'gone.png does not exist' in uses['ball'].reason
        assert (uses['junk'].drawn, uses['junk'].rgba) == ('default', DEFAULT_RGBA)
        assert uses['junk'].reason.startswith('it cannot be read as an image')
        for link in ('ball', 'junk'):
            np.testing.assert_allclose(scene.visual_nodes(link)[0].color, _color(DEFAULT_RGBA),
                                       atol=1.0)
        # a <color> beside the texture is the colour (unchanged)
        np.testing.assert_allclose(scene.visual_nodes('coloured')[0].color, (0, 255, 0))


@needs_descriptions
def test_the_interbotix_arm_is_drawn_in_its_texture_colour() -> None:
    """``interbotix_black`` is a texture-only material: the arm was drawn light grey."""
    from PIL import Image
    case = CASES['interbotix_wx250s']
    description = load(ROS2_DESCRIPTIONS / case['entry'],
                       xacro_args=parse_xacro_args(case['args']), package_paths=PACKAGES)
    png = Path(PACKAGES['interbotix_xsarm_descriptions']) / 'meshes' / 'interbotix_black.png'
    mean = np.asarray(Image.open(png).convert('RGB'), dtype=float).mean(axis=(0, 1))
    textured = [(link.name, visual) for link in description.robot.links
                for visual in link.visuals if visual.material is not None
                and description.robot.material(visual.material).texture is not None]
    assert textured
    with RobotViewer(description, port=free_port()) as viewer:
        scene = viewer.scene
        assert scene is not None and not scene.placeholders
        assert [use.link for use in scene.textures] == [link for link, _ in textured]
        for use in scene.textures:
            assert use.drawn == 'mean colour' and use.path == str(png)
            np.testing.assert_allclose(np.array(use.rgba[:3]) * 255.0, mean, atol=1e-6)
            for node in scene.visual_nodes(use.link):  # STL parts: no texture coordinates
                np.testing.assert_allclose(node.color, mean, atol=1.0)
                assert not np.allclose(node.color, _color(DEFAULT_RGBA), atol=10.0)
