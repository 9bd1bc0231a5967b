"""
The viewer page in a real headless Chromium driven by Playwright (``scripts/setup-browser.sh``).

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
import os
from pathlib import Path
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np
import pytest

from conftest import free_port, missing, REPO, SAMPLE_ROBOT, wait_for
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.gui.viewer import RobotViewer

ARTIFACTS = REPO / 'test-artifacts'
CHROMIUM = os.environ.get('URDF_TOOLS_CHROMIUM', '/usr/bin/chromium')
#: Flags that work on a machine without network or GPU (see the machine notes).
CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update',
                 '--disable-sync']
ACTUATED = ('left_wheel_joint', 'right_wheel_joint', 'lift_joint', 'shoulder_joint',
            'elbow_joint', 'wrist_joint', 'left_finger_joint')


def _browser_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f'no Chromium at {CHROMIUM} (run scripts/setup-browser.sh)'
    reason = missing('viser', 'trimesh', 'playwright.sync_api')
    return None if reason is None else f'{reason} (run scripts/setup-browser.sh)'


BROWSER_MISSING = _browser_missing()
pytestmark = pytest.mark.skipif(BROWSER_MISSING is not None, reason=str(BROWSER_MISSING))
if BROWSER_MISSING is None:
    import playwright.sync_api as playwright_api
#: A Playwright page (typed loosely: playwright may be absent when this module is read).
Page = Any


@pytest.fixture(scope='module')
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix='urdf-tools-chromium-')
    try:
        with playwright_api.sync_playwright() as playwright:
            try:
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                    viewport={'width': 1400, 'height': 900})
            except playwright_api.Error as exc:
                pytest.skip(f'Chromium does not start under Playwright: {exc}')
            yield context
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope='module')
def viewer() -> Iterator[RobotViewer]:
    with RobotViewer(load(SAMPLE_ROBOT), port=free_port(), seed=3) as view:
        yield view


@pytest.fixture(scope='module')
def page(browser: Any, viewer: RobotViewer) -> Iterator[Page]:
    tab = browser.new_page()
    tab.goto(viewer.url)
    tab.wait_for_selector('[role=slider]', timeout=30000)
    yield tab
    tab.close()


def _beside_label(page: Page, joint: str, control: str) -> Any:
    """The ``control`` (an XPath step) in the row of a joint's label, as a person finds it."""
    return page.locator(f'xpath=//label[normalize-space(.)="{joint} [rad]" or '
                        f'normalize-space(.)="{joint} [m]"]'
                        f'/ancestor::div[.//{control}][1]//{control}')


def slider(page: Page, joint: str) -> Any:
    """The slider thumb of a joint."""
    return _beside_label(page, joint, '*[@role="slider"]')


def value_box(page: Page, joint: str) -> Any:
    """The number box beside a joint's slider (read-only for a mimic joint)."""
    return _beside_label(page, joint, 'input[@inputmode="decimal"]')


def slider_values(page: Page) -> dict[str, str | None]:
    """``{label: aria-valuenow}`` of every slider in the page, read in one round trip."""
    values: dict[str, str | None] = page.evaluate("""() => Object.fromEntries(
        Array.from(document.querySelectorAll('label')).flatMap(label => {
            const root = document.getElementById(label.htmlFor);
            const thumb = root && root.querySelector('[role=slider]');
            return thumb ? [[label.textContent.trim(), thumb.getAttribute('aria-valuenow')]]
                         : [];
        }))""")
    return values


def test_the_page_loads_with_one_slider_per_actuated_joint(page: Page,
                                                           viewer: RobotViewer) -> None:
    assert viewer.table is not None
    assert viewer.table.joint_names == ACTUATED
    assert page.locator('[role=slider]').count() == len(ACTUATED)
    values = slider_values(page)
    assert sorted(values) == sorted(spec.label for spec in viewer.specs if not spec.read_only)
    assert values['lift_joint [m]'] == '0.1'  # 0 is outside [0.005, 0.195]: the middle
    assert page.get_by_text('right_finger_joint [m]').count() == 1
    assert page.get_by_text('Mimic joints: follow their source, read-only').count() == 1
    assert page.get_by_role('button', name='Center').count() == 1
    assert page.get_by_role('button', name='Randomize').count() == 1
    assert page.get_by_text('-3.141593').count() == 0  # slider ends: 3 digits (-3.14)
    # the report's folder, at the top, titled with the counts as the terminal words them
    assert page.get_by_text(re.compile(r'^Check report: 0 errors, 0 warnings, \d+ info$')) \
        .count() == 1


def test_moving_a_slider_moves_the_joint_and_the_links(page: Page, viewer: RobotViewer) -> None:
    before = viewer.link_pose('wrist_link')
    thumb = slider(page, 'elbow_joint')
    thumb.focus()
    page.keyboard.press('End')  # the slider's upper end, 1.9 rad (soft limit)
    assert wait_for(lambda: abs(viewer.positions['elbow_joint'] - 1.9) < 1e-9), \
        viewer.positions
    assert thumb.get_attribute('aria-valuenow') == '1.9'
    positions = viewer.positions
    expected = KinematicModel(viewer.description.robot).link_poses(
        {name: positions[name] for name in ACTUATED})
    np.testing.assert_allclose(viewer.link_pose('wrist_link'), expected['wrist_link'], atol=1e-6)
    assert not np.allclose(viewer.link_pose('wrist_link'), before, atol=1e-3)
    page.keyboard.press('ArrowLeft')  # one step of 0.001 rad
    assert wait_for(lambda: abs(viewer.positions['elbow_joint'] - 1.899) < 1e-9)


def test_the_mimic_joint_follows_in_the_page(page: Page, viewer: RobotViewer) -> None:
    slider(page, 'left_finger_joint').focus()
    page.keyboard.press('End')
    assert wait_for(lambda: abs(viewer.positions['right_finger_joint'] + 0.02) < 1e-9)
    field = value_box(page, 'right_finger_joint')
    assert field.is_disabled()
    assert wait_for(lambda: field.input_value() == '-0.02'), field.input_value()


def test_center_and_randomize_buttons(page: Page, viewer: RobotViewer) -> None:
    assert viewer.table is not None
    page.get_by_role('button', name='Randomize').click()
    assert wait_for(lambda: viewer.positions['wrist_joint'] != 0.0)
    for joint in ACTUATED:
        limits = viewer.table.limits[joint]
        assert limits.slider_lower <= viewer.positions[joint] <= limits.slider_upper
    page.get_by_role('button', name='Center').click()
    assert wait_for(lambda: all(abs(viewer.positions[j] - viewer.table.defaults[j]) < 1e-12
                                for j in ACTUATED))  # type: ignore[union-attr]
    assert wait_for(lambda: slider_values(page)['lift_joint [m]'] == '0.1')


def _robot_pixels(path: Path) -> dict[str, int]:
    """Pixels near the chassis blue, wheel black and accent orange of the sample robot."""
    from PIL import Image
    image = np.asarray(Image.open(path).convert('RGB')).astype(int)
    r, g, b = image[..., 0], image[..., 1], image[..., 2]
    return {'blue': int(((b > 120) & (b > r + 60) & (b > g + 30)).sum()),
            'orange': int(((r > 180) & (g > 60) & (g < 170) & (b < 60)).sum()),
            'dark': int(((r < 40) & (g < 40) & (b < 40)).sum())}


def test_joint_state_as_yaml(page: Page, viewer: RobotViewer) -> None:
    viewer.set_positions({'shoulder_joint': 0.25})
    assert page.get_by_text('shoulder_joint: 0.25').count() == 0  # hidden until asked
    page.get_by_role('button', name='Joint state as YAML').click()
    assert wait_for(lambda: page.get_by_text('shoulder_joint: 0.25').count() == 1)
    assert page.get_by_text('right_finger_joint:').count() == 0  # the mimic joint follows
    viewer.set_positions({'shoulder_joint': -0.5})
    assert wait_for(lambda: page.get_by_text('shoulder_joint: -0.5').count() == 1)


def test_screenshot_shows_the_robot(page: Page, viewer: RobotViewer) -> None:
    viewer.set_positions({'shoulder_joint': 0.6, 'elbow_joint': 0.8, 'wrist_joint': 0.0,
                          'lift_joint': 0.15, 'left_finger_joint': 0.015,
                          'left_wheel_joint': 0.0})
    viewer.show_frames = True
    for close in page.locator('.mantine-Notification-root button').all():
        close.click()  # "software WebGL" notice
    time.sleep(2.0)  # let the canvas render the new poses
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / 'gui_sample_robot.png'
    page.screenshot(path=str(path))
    pixels = _robot_pixels(path)
    assert pixels['blue'] > 500 and pixels['orange'] > 200 and pixels['dark'] > 200, pixels


#: ``urdf-tools ARGS`` as a terminal starts it: SIGINT raises KeyboardInterrupt. A shell without
#: job control (a CI runner's ``cmd &``) starts commands with SIGINT ignored, and Python then
#: leaves it ignored in the command and in every process it starts, this test's among them.
FROM_A_TERMINAL = (
    'import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); '
    'runpy.run_module("urdf_tools_ros.cli.main", run_name="__main__", alter_sys=True)')


def test_urdf_tools_view_serves_the_page(browser: Any) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, '-c', FROM_A_TERMINAL, 'view', str(SAMPLE_ROBOT),
         'prefix:=r1_', '--port', str(port), '--exit-after', '60'],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONFAULTHANDLER='1'))  # SIGABRT prints every thread's stack
    try:
        assert process.stdout is not None
        report = [process.stdout.readline()]
        while 'serving' not in report[-1] and report[-1]:  # the report, then the address
            report.append(process.stdout.readline())
        serving = report.pop()
        assert ': 0 errors, 0 warnings,' in report[-1], report
        assert f'http://127.0.0.1:{port}' in serving, serving
        tab = browser.new_page()
        tab.goto(f'http://127.0.0.1:{port}')
        tab.wait_for_selector('[role=slider]', timeout=30000)
        assert tab.locator('[role=slider]').count() == len(ACTUATED)
        assert tab.get_by_text('r1_elbow_joint [rad]').count() == 1
        tab.close()
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # say where it hangs
            process.send_signal(signal.SIGABRT)
            out, err = process.communicate(timeout=30)
            pytest.fail(f'still running 30 s after Ctrl-C; its threads:\n{err}')
    assert process.returncode == 0, err
    assert 'Traceback' not in err


def test_a_value_typed_beyond_the_limits_is_clamped(page: Page, viewer: RobotViewer) -> None:
    assert viewer.table is not None
    limits = viewer.table.limits['elbow_joint']
    box = value_box(page, 'elbow_joint')
    for typed, expected in (('5', limits.slider_upper), ('-9', limits.slider_lower),
                            ('0.25', 0.25)):
        box.fill(typed)
        box.press('Enter')
        assert wait_for(lambda: abs(viewer.positions['elbow_joint'] - expected) < 1e-9), \
            (typed, viewer.positions['elbow_joint'])
        assert wait_for(lambda: float(box.input_value()) == pytest.approx(expected))


def test_collision_geometry_toggle(page: Page, viewer: RobotViewer) -> None:
    assert viewer.scene is not None and viewer.scene.collision_count > 0
    assert not viewer.show_collision
    page.get_by_text('Show collision geometry').click()
    assert wait_for(lambda: viewer.show_collision)
    page.get_by_text('Show collision geometry').click()
    assert wait_for(lambda: not viewer.show_collision)
