"""
Real ROS 2 description packages (``../shared/ros2_descriptions/cases.json``) as launched.

Each expands to the real xacro's links and joints, each error is one ``check_urdf`` confirms,
and each finding stands at a line that holds its element.
"""

from __future__ import annotations

from pathlib import Path
import re
import tempfile

from oracles import urdfdom
from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.source.loader import load, parse_xacro_args, RobotDescription

ROOT = ROS2_DESCRIPTIONS
CASES = list(ROS2_CASES.values())
PACKAGES = ROS2_PACKAGES
#: The first element a message names after its owner (``joint "j": <origin ...>: ...``).
_TAG = re.compile(r'^(?:(?:joint|link|transmission|material) "[^"]*": )?<([A-Za-z_][\w:.-]*)')
#: Rules whose finding is about the <mesh> element itself.
_MESH_CODES = ('mesh-file-missing', 'mesh-scale-suspect', 'collision-mesh-dae')

pytestmark = pytest.mark.skipif(not CASES, reason=f'{ROOT} is not here')


@pytest.fixture(scope='module', params=CASES, ids=[case['id'] for case in CASES])
def case(request: pytest.FixtureRequest) -> tuple[dict, RobotDescription]:
    case = request.param
    return case, load(ROOT / case['entry'], xacro_args=parse_xacro_args(case['args']),
                      package_paths=PACKAGES)


def test_it_expands_to_the_links_and_joints_of_the_real_xacro(
        case: tuple[dict, RobotDescription]) -> None:
    expected, description = case
    robot = description.robot
    assert (len(robot.links), len(robot.joints)) == (expected['links'], expected['joints'])
    assert not [link.name for link in robot.links if '$' in link.name]


def test_an_error_is_one_urdfdom_confirms(case: tuple[dict, RobotDescription]) -> None:
    _, description = case
    errors = [finding for finding in check_description(description)
              if finding.severity.value == 'error']
    if not errors:
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / 'robot.urdf'
        path.write_text(description.xml)
        verdict = urdfdom(path, '3')
    if verdict is None:
        pytest.skip('urdfdom 3.0.1 check_urdf (liburdfdom-tools) is not installed')
    assert not verdict.loaded, [str(finding) for finding in errors]


def test_each_finding_stands_at_the_line_of_its_element(
        case: tuple[dict, RobotDescription]) -> None:
    _, description = case
    wrong = []
    for finding in check_description(description):
        location = finding.location
        if location is None or location.line is None:
            continue
        match = _TAG.match(finding.message)
        tag = 'mesh' if finding.code in _MESH_CODES else match.group(1) if match else None
        if tag is None:
            continue
        line = Path(location.filename).read_text().splitlines()[location.line - 1]
        if f'<{tag}' not in line:
            wrong.append(f'{location}: <{tag}> expected for {finding.code}: {line.strip()}')
    assert wrong == []
