"""
Real robots with real meshes (``test/corpus``, one per mesh format) drawn in headless Chromium.

Every mesh is drawn, the drawn box matches pinocchio's geometry (mm/m mix-ups, misplaced
meshes), the robot stands on the floor in view beside the panel. Pictures go to
``test-artifacts/gui_<robot>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
import time
from typing import Any

from corpus_models import CORPUS_DIR, PACKAGE_PATHS
import numpy as np
import pytest
from test_gui_browser import ARTIFACTS, browser, BROWSER_MISSING, wait_for  # noqa: F401

from conftest import free_port, missing
from urdf_tools_ros.core.model.robot import Mesh
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.gui.viewer import RobotViewer

pytestmark = pytest.mark.skipif(BROWSER_MISSING is not None, reason=str(BROWSER_MISSING))

_ERD = CORPUS_DIR / 'example-robot-data' / 'robots'
#: ``{name: (URDF, what its meshes are)}``
ROBOTS: dict[str, tuple[Path, str]] = {
    'laikago': (_ERD / 'laikago_description' / 'urdf' / 'laikago.urdf', 'OBJ with .mtl'),
    'hyq': (_ERD / 'hyq_description' / 'robots' / 'hyq_no_sensors.urdf', 'COLLADA'),
    'solo12': (_ERD / 'solo_description' / 'robots' / 'solo12.urdf', 'STL'),
    'quadrotor': (_ERD / 'hector_description' / 'robots' / 'quadrotor_base.urdf',
                  'COLLADA visual, STL collision'),
}


def pinocchio_bounds(path: Path, positions: dict[str, float],
                     kind: str) -> tuple[np.ndarray, np.ndarray]:
    """
    The box around pinocchio's visual or collision geometry of ``path`` at ``positions``.

    pinocchio loads the meshes itself (assimp through coal) and poses them by its own forward
    kinematics; the root link is at the origin, as in the viewer. Meshes count with every
    vertex, primitives with the corners of their local bounding box.
    """
    import pinocchio
    model, collision, visual = pinocchio.buildModelsFromUrdf(
        str(path), package_dirs=[str(CORPUS_DIR)])
    geometry = collision if kind == 'collision' else visual
    q = pinocchio.neutral(model)
    for name, value in positions.items():
        if model.existJointName(name):
            joint = model.joints[model.getJointId(name)]
            if joint.nq == 1:
                q[joint.idx_q] = value
            elif joint.nq == 2:  # continuous: cos, sin
                q[joint.idx_q:joint.idx_q + 2] = (np.cos(value), np.sin(value))
    data, geometry_data = model.createData(), geometry.createData()
    pinocchio.updateGeometryPlacements(model, data, geometry, geometry_data, q)
    points = []
    for index, item in enumerate(geometry.geometryObjects):
        shape = item.geometry
        if hasattr(shape, 'num_vertices'):
            local = np.asarray(shape.vertices())
        else:
            shape.computeLocalAABB()
            low, high = np.asarray(shape.aabb_local.min_), np.asarray(shape.aabb_local.max_)
            local = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1])
                              for z in (low[2], high[2])])
        placement = geometry_data.oMg[index]
        points.append(local @ np.asarray(placement.rotation).T + np.asarray(placement.translation))
    stacked = np.vstack(points)
    return stacked.min(axis=0), stacked.max(axis=0)


#: What :func:`shown` gives: the robot's name, the viewer, its page, the robot's pixels.
Shown = tuple[str, RobotViewer, Any, np.ndarray]


@pytest.fixture(params=sorted(ROBOTS), scope='module')
def shown(request: pytest.FixtureRequest, browser: Any  # noqa: F811
          ) -> Iterator[Shown]:
    """A robot in the viewer, its page, and the pixels the robot covers in a screenshot."""
    name = request.param
    path, _ = ROBOTS[name]
    with RobotViewer(load(path, package_paths=PACKAGE_PATHS), port=free_port()) as viewer:
        page = browser.new_page()
        page.goto(viewer.url)
        page.wait_for_selector('text=Check report', timeout=60000)
        # the page reports its camera: wait until it is the initial one (under load the first
        # frames can still show the default view)
        expected = np.asarray(viewer.server.initial_camera.position)
        assert wait_for(lambda: any(
            np.allclose(client.camera.position, expected, atol=1e-3)
            for client in viewer.server.get_clients().values()), timeout=60.0)
        assert viewer.scene is not None
        # the robot's pixels: what hiding its frames changes. Shown, hidden, shown again until
        # the two shown pictures agree (CI once saw the view change between shots, which put
        # grid lines into the difference)
        for _ in range(5):
            with_robot = screenshot_pixels(page)  # once the meshes arrived and rendered
            for frame in viewer.scene.frames.values():
                frame.visible = False
            without = screenshot_pixels(page)
            for frame in viewer.scene.frames.values():
                frame.visible = True
            again = screenshot_pixels(page)
            if np.abs(with_robot - again).max() <= 24:
                break
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f'gui_{name}.png'))
        robot = np.abs(with_robot - without).max(axis=2) > 24  # where the robot is drawn
        yield name, viewer, page, robot
        page.close()


def screenshot_pixels(page: Any, timeout: float = 30.0) -> np.ndarray:
    """The page as an (H, W, 3) int array, once two screenshots 0.5 s apart are the same."""
    import io

    from PIL import Image
    deadline = time.monotonic() + timeout
    previous = None
    while True:
        time.sleep(0.5)
        pixels = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert('RGB')).astype(int)
        if previous is not None and (np.array_equal(pixels, previous)
                                     or time.monotonic() > deadline):
            return pixels
        previous = pixels


def test_every_mesh_is_drawn_and_matches_pinocchio(shown: Shown) -> None:
    if missing('pinocchio') is not None:
        pytest.skip(str(missing('pinocchio')))
    name, viewer, _page, _robot = shown
    assert viewer.scene is not None and viewer.scene.placeholders == []
    assert not [f for f in viewer.findings if f.code in ('mesh-file-missing', 'mesh-unreadable')]
    bounds = viewer.scene.drawn_bounds()
    assert bounds is not None
    lower, upper = bounds
    diagonal = float(np.linalg.norm(upper - lower))
    assert diagonal > 0.1  # metres: a mm/m mix-up is a factor of 1000 either way
    for kind, tolerance in (('visual', 0.01), ('collision', 0.05)):
        low, high = pinocchio_bounds(ROBOTS[name][0], viewer.positions, kind)
        deviation = max(np.abs(lower - low).max(), np.abs(upper - high).max()) / diagonal
        assert deviation <= tolerance, (kind, lower, upper, low, high)


def test_the_robot_stands_on_the_floor_in_view_beside_the_panel(shown: Shown) -> None:
    name, viewer, page, robot = shown
    assert viewer.scene is not None
    bounds = viewer.scene.drawn_bounds()
    assert bounds is not None and viewer.floor_height == pytest.approx(bounds[0][2])
    assert page.title() == viewer.description.robot.name
    rows, columns = np.nonzero(robot)
    height, width = robot.shape
    assert len(rows) > 0.01 * height * width, f'{name}: the robot covers {len(rows)} pixels'
    panel = page.locator('text=Check report').first.bounding_box()
    assert panel is not None
    # the whole robot is in the picture (not cut by its edges) and left of the panel
    assert rows.min() > 2 and rows.max() < height - 3 and columns.min() > 2, name
    assert columns.max() < panel['x'], (name, columns.max(), panel['x'])


def test_labels_stay_on_one_line_and_sliders_align(shown: Shown) -> None:
    _name, viewer, page, _robot = shown
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('label'))
        .filter(label => label.textContent.endsWith(']'))
        .map(label => {
            const row = label.closest('.mantine-Flex-root');
            const slider = row && row.querySelector('.mantine-Slider-root');
            return [label.getBoundingClientRect().height,
                    parseFloat(getComputedStyle(label).lineHeight),
                    slider ? slider.getBoundingClientRect().left : null];
        })""")
    sliders = [spec for spec in viewer.specs if not spec.read_only]
    if not sliders:
        pytest.skip('no movable joint')
    assert len(boxes) == len(viewer.specs)
    for height, line, _left in boxes:
        assert height <= line * 1.2, boxes  # one line: no break inside a joint name
    lefts = {round(left) for _h, _l, left in boxes if left is not None}
    assert len(lefts) == 1, lefts  # every slider starts at the same x


def test_package_with_three_slashes_is_drawn_from_the_package(tmp_path: Path,
                                                              browser: Any) -> None:  # noqa: F811
    """``package:///pkg/...`` names no package: ROS finds nothing, the viewer draws from pkg."""
    source = ROBOTS['solo12'][0]
    text = source.read_text().replace('package://example-robot-data/',
                                      'package:///example-robot-data/')
    copy = tmp_path / 'solo12_three_slashes.urdf'
    copy.write_text(text)
    description = load(copy, package_paths=PACKAGE_PATHS)
    with RobotViewer(description, port=free_port()) as viewer:
        assert viewer.scene is not None
        assert viewer.scene.placeholders == []
        meshes = sum(isinstance(visual.geometry, Mesh) for link in description.robot.links
                     for visual in link.visuals)
        assert len(viewer.scene.guessed) == meshes > 0
        assert any(f.code == 'mesh-file-missing' for f in viewer.findings)  # the finding stays
        page = browser.new_page()
        page.goto(viewer.url)
        page.wait_for_selector('[role=slider]', timeout=60000)
        # in the report (folded or not: its text is in the page either way)
        page.wait_for_function('() => document.body.textContent.includes('
                               '"drawn from where RViz will not look")', timeout=60000)
        page.close()
