"""
``diff_descriptions`` on real robots: a robot against itself, and known edits of a copy.

Each expectation is computed from the edit the test makes (the 2 mm it adds, the links below
the joint read from the XML, the names it gives), never from the code under test.
"""

from __future__ import annotations

import math
from pathlib import Path
import re
import shutil

from corpus_models import MODELS, PACKAGE_PATHS
from lxml import etree
from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest

from conftest import REPO, SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.diff import diff_descriptions, Tolerance
from urdf_tools_ros.core.diff.records import ElementChange, format_sides, FrameMove, ValueChange
from urdf_tools_ros.core.source.loader import load, parse_xacro_args, RobotDescription

ROOT = ROS2_DESCRIPTIONS
CASES = list(ROS2_CASES.values())
PACKAGES = ROS2_PACKAGES
no_cases = pytest.mark.skipif(not CASES, reason=f'{ROOT} is not here')

#: Corpus arms and trees the edits are made on: (file, joint edited).
EDITED = {
    'kuka_iiwa': (REPO / 'test/corpus/pybullet_data/kuka_iiwa/model.urdf', 'lbr_iiwa_joint_4'),
    'xarm6': (REPO / 'test/corpus/pybullet_data/xarm/xarm6_with_gripper.urdf', 'joint3'),
    'pr2': (REPO / 'test/corpus/example-robot-data/robots/pr2_description/urdf/pr2.urdf',
            'torso_lift_joint'),
}


def load_case(case: dict, extra: tuple[str, ...] = ()) -> RobotDescription:
    return load(ROOT / case['entry'], xacro_args=parse_xacro_args([*case['args'], *extra]),
                package_paths=PACKAGES)


def case_named(name: str) -> dict:
    return next(case for case in CASES if case['id'] == name)


# -- a robot compared with itself ---------------------------------------------------------
@pytest.mark.parametrize('name, loaded', [
    *(pytest.param(case['id'], lambda case=case: load_case(case), marks=no_cases)
      for case in CASES),
    *(pytest.param(model.path.stem, lambda model=model: load(model.path,
                                                             package_paths=PACKAGE_PATHS))
      for model in MODELS)])
def test_a_robot_loaded_twice_is_the_same_robot(name: str, loaded: object) -> None:
    result = diff_descriptions(loaded(), loaded())  # type: ignore[operator]
    assert result.same and result.changes == () and result.notes == ()


# -- edits of a copy ------------------------------------------------------------------------
Pair = tuple[RobotDescription, RobotDescription]


def edited_copies(tmp_path: Path, source: Path, edit: object) -> Pair:
    """The file copied twice into ``tmp_path`` (same folder: same relative meshes), one edited."""
    tree = etree.parse(str(source))
    old = tmp_path / 'old.urdf'
    old.write_bytes(etree.tostring(tree))
    edit(tree.getroot())  # type: ignore[operator]
    new = tmp_path / 'new.urdf'
    new.write_bytes(etree.tostring(tree))
    return (load(old, package_paths=PACKAGE_PATHS), load(new, package_paths=PACKAGE_PATHS))


def edited(robot: str) -> tuple[Path, str, etree._Element]:
    """The corpus file of ``robot``, the joint edited and the file's XML root."""
    source, joint = EDITED[robot]
    return source, joint, etree.parse(str(source)).getroot()


def joint_element(root: etree._Element, name: str) -> etree._Element:
    return next(element for element in root.iter('joint') if element.get('name') == name)


def links_below(root: etree._Element, joint: str) -> set[str]:
    """The child link of ``joint`` and every link below it, read from the XML."""
    children: dict[str, list[str]] = {}
    for element in root.findall('joint'):
        children.setdefault(element.find('parent').get('link'), []).append(
            element.find('child').get('link'))
    found, stack = set(), [joint_element(root, joint).find('child').get('link')]
    while stack:
        link = stack.pop()
        found.add(link)
        stack.extend(children.get(link, []))
    return found


@pytest.mark.parametrize('robot', sorted(EDITED))
def test_a_joint_origin_moved_2_mm_moves_that_joint_and_every_link_below_by_2_mm(
        tmp_path: Path, robot: str) -> None:
    source, joint, root = edited(robot)
    xyz = [float(value) for value in joint_element(root, joint).find('origin').get('xyz').split()]
    below = links_below(root, joint)

    def move(element: etree._Element) -> None:
        joint_element(element, joint).find('origin').set(
            'xyz', f'{xyz[0] + 0.002!r} {xyz[1]!r} {xyz[2]!r}')

    result = diff_descriptions(*edited_copies(tmp_path, source, move))
    (change,) = result.values
    assert (change.element, change.attribute, change.unit) == \
        (f'joint:{joint}', 'origin.xyz', 'm')
    assert change.new[0] - change.old[0] == pytest.approx(0.002, abs=1e-12)
    assert change.new[1:] == change.old[1:] == tuple(xyz[1:])
    assert change.delta == 'Δ +2, 0, 0 mm'
    assert {move.link for move in result.frames} == below
    for frame in result.frames:
        assert frame.configuration == 'zero'
        assert frame.distance == pytest.approx(0.002, abs=1e-9)
        assert frame.rotation == pytest.approx(0.0, abs=1e-9)
    assert (result.elements, result.blocks, result.findings) == ((), (), ())


def test_a_move_below_the_tolerance_is_not_a_frame_move(tmp_path: Path) -> None:
    source, joint, root = edited('kuka_iiwa')
    xyz = [float(value) for value in joint_element(root, joint).find('origin').get('xyz').split()]

    def move(element: etree._Element) -> None:
        joint_element(element, joint).find('origin').set(
            'xyz', f'{xyz[0] + 0.00005!r} {xyz[1]!r} {xyz[2]!r}')  # 0.05 mm

    old, new = edited_copies(tmp_path, source, move)
    assert diff_descriptions(old, new).frames == ()
    assert len(diff_descriptions(old, new, tolerance=Tolerance(distance=1e-5)).frames) == \
        len(links_below(root, joint))


@pytest.mark.parametrize('robot', sorted(EDITED))
def test_a_changed_limit_is_that_one_value(tmp_path: Path, robot: str) -> None:
    source, joint, root = edited(robot)
    upper = float(joint_element(root, joint).find('limit').get('upper'))

    def narrow(element: etree._Element) -> None:
        joint_element(element, joint).find('limit').set('upper', repr(upper - 0.1))

    result = diff_descriptions(*edited_copies(tmp_path, source, narrow))
    unit = 'm' if joint_element(root, joint).get('type') == 'prismatic' else 'rad'
    assert result.values == (ValueChange(f'joint:{joint}', 'limit.upper', upper, upper - 0.1,
                                         unit),)
    assert (result.elements, result.frames, result.blocks) == ((), (), ())
    # pr2's torso keeps its soft upper limit, now above the hard one: the checker says so
    assert [(change.change, change.element) for change in result.findings] == (
        [('appeared', f'joint:{joint}')] if robot == 'pr2' else [])
    if unit == 'rad':
        assert result.values[0].delta == f'{-math.degrees(0.1):+.4g}°'
        # each unit once: the two numbers share rad, the change is in degrees
        assert result.values[0].text == (f'limit.upper: {upper:.6g} -> {upper - 0.1:.6g} rad '
                                         f'(Δ {-math.degrees(0.1):+.4g}°)')


@pytest.mark.parametrize('robot', sorted(EDITED))
def test_a_renamed_link_is_a_rename_not_a_removal_and_an_addition(
        tmp_path: Path, robot: str) -> None:
    source, joint = EDITED[robot]
    link = joint_element(etree.parse(str(source)).getroot(), joint).find('child').get('link')

    def rename(element: etree._Element) -> None:
        for item in element.iter():
            for attribute in ('name', 'link', 'reference'):
                if item.get(attribute) == link and item.tag in ('link', 'parent', 'child',
                                                                'gazebo'):
                    item.set(attribute, 'renamed_' + link)

    result = diff_descriptions(*edited_copies(tmp_path, source, rename))
    assert result.changes == (ElementChange('link', 'renamed', link, 'renamed_' + link),)


@pytest.mark.parametrize('robot', sorted(EDITED))
def test_a_mass_30_percent_heavier(tmp_path: Path, robot: str) -> None:
    source, joint, root = edited(robot)
    link = joint_element(root, joint).find('child').get('link')
    mass_of = next(item for item in root.iter('link') if item.get('name') == link)
    mass = float(mass_of.find('inertial/mass').get('value'))

    def heavier(element: etree._Element) -> None:
        target = next(item for item in element.iter('link') if item.get('name') == link)
        target.find('inertial/mass').set('value', repr(mass * 1.3))

    result = diff_descriptions(*edited_copies(tmp_path, source, heavier))
    assert result.values == (ValueChange(f'link:{link}', 'inertial.mass', mass, mass * 1.3,
                                         'kg'),)
    assert result.values[0].delta == '+30 %'
    assert (result.elements, result.frames, result.blocks) == ((), (), ())
    assert all(change.element == f'link:{link}' for change in result.findings)


def test_an_axis_change_shows_at_the_given_positions_not_at_zero(tmp_path: Path) -> None:
    source, joint, root = edited('kuka_iiwa')
    below = links_below(root, joint)

    def flip(element: etree._Element) -> None:
        joint_element(element, joint).find('axis').set('xyz', '0 0 -1')

    old, new = edited_copies(tmp_path, source, flip)
    at_zero = diff_descriptions(old, new)
    assert [change.attribute for change in at_zero.values] == ['axis'] and at_zero.frames == ()
    turned = diff_descriptions(old, new, positions={joint: 0.5})
    assert {move.link for move in turned.frames} == below
    # the child frame turned by 0.5 rad one way instead of the other: 1 rad apart
    child = joint_element(root, joint).find('child').get('link')
    (frame,) = [move for move in turned.frames if move.link == child]
    assert isinstance(frame, FrameMove) and frame.configuration == 'positions'
    assert frame.rotation == pytest.approx(1.0, abs=1e-9)


# -- xacro arguments of real packages ---------------------------------------------------------
@no_cases
def test_a_prefix_argument_renames_every_link_and_joint_of_the_kuka_arm() -> None:
    case = case_named('kuka_kr6_r700_sixx')
    old, new = load_case(case), load_case(case, ('prefix:=r1_',))
    result = diff_descriptions(old, new)
    renamed = {(change.kind, change.name, change.new_name) for change in result.elements}
    expected = {('link', link.name, 'r1_' + link.name) for link in old.robot.links
                if link.name != 'world'} | \
        {('joint', joint.name, 'r1_' + joint.name) for joint in old.robot.joints}
    assert renamed == expected
    assert result.values == () and result.frames == ()
    # the ros2_control block is named with the prefix too: that, and nothing else, changed
    (block,) = result.blocks
    assert (block.tag, block.key, block.change) == ('ros2_control', 'r1_kr6_r700_sixx',
                                                    'changed')
    assert [line for line in block.lines if line[:1] in '+-'] == [
        '-<ros2_control name="kr6_r700_sixx" type="system">',
        '+<ros2_control name="r1_kr6_r700_sixx" type="system">']


@no_cases
def test_the_mode_argument_changes_the_kuka_ros2_control_hardware() -> None:
    case = case_named('kuka_kr6_r700_sixx')
    result = diff_descriptions(load_case(case), load_case(case, ('mode:=hardware',)))
    assert (result.elements, result.values, result.frames) == ((), (), ())
    (block,) = result.blocks
    assert block.tag == 'ros2_control' and block.change == 'changed'
    assert '-    <plugin>kuka_mock_hardware_interface::KukaMockHardwareInterface' in block.lines
    assert '+    <plugin>kuka_rsi_driver::KukaRSIHardwareInterface' in block.lines


def test_with_extras_adds_a_planar_and_a_floating_branch_to_the_sample_robot() -> None:
    old = load(SAMPLE_ROBOT)
    new = load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true'})
    result = diff_descriptions(old, new)
    added = {(change.kind, change.name) for change in result.elements}
    new_links = set(new.robot.link_map) - set(old.robot.link_map)
    new_joints = set(new.robot.joint_map) - set(old.robot.joint_map)
    assert added == {('link', name) for name in new_links} | \
        {('joint', name) for name in new_joints}
    assert all(change.change == 'added' for change in result.elements)
    assert len(added) == 4 and result.values == () and result.frames == ()


def test_a_changed_include_moves_links_no_line_of_the_main_file_mentions(tmp_path: Path) -> None:
    """The sample robot's forearm length is a property: the wrist and all below it move."""
    folder = tmp_path / 'urdf'
    shutil.copytree(SAMPLE_ROBOT.parent, folder)
    main = folder / SAMPLE_ROBOT.name
    text = main.read_text()
    assert '<xacro:property name="forearm_x" value="0.12"/>' in text
    old = load(main)
    main.write_text(text.replace('<xacro:property name="forearm_x" value="0.12"/>',
                                 '<xacro:property name="forearm_x" value="0.125"/>'))
    new = load(main)
    result = diff_descriptions(old, new)
    root = etree.fromstring(new.xml.encode())
    moved = {move.link: move for move in result.frames}
    assert set(moved) == links_below(root, 'wrist_joint')
    assert all(move.distance == pytest.approx(0.005, abs=1e-9) for move in moved.values())


def test_a_renamed_joint_that_mimic_joints_follow_is_one_rename(tmp_path: Path) -> None:
    source, _ = EDITED['xarm6']
    root = etree.parse(str(source)).getroot()
    followers = [element.get('name') for element in root.iter('joint')
                 if element.find('mimic') is not None
                 and element.find('mimic').get('joint') == 'drive_joint']
    assert len(followers) == 5

    def rename(element: etree._Element) -> None:
        for item in element.iter('joint', 'mimic'):
            if item.get('name' if item.tag == 'joint' else 'joint') == 'drive_joint':
                item.set('name' if item.tag == 'joint' else 'joint', 'gripper_drive')

    result = diff_descriptions(*edited_copies(tmp_path, source, rename))
    assert result.changes == (ElementChange('joint', 'renamed', 'drive_joint', 'gripper_drive'),)


def test_geometry_and_material_changes_of_the_kuka_arm(tmp_path: Path) -> None:
    source, _ = EDITED['kuka_iiwa']
    root = etree.parse(str(source)).getroot()
    blue_users = [link.get('name') for link in root.iter('link')
                  if any(material.get('name') == 'Blue' for material in link.iter('material'))]
    old_rgba = tuple(float(value) for value in
                     root.find('material[@name="Blue"]/color').get('rgba').split())

    def edit(element: etree._Element) -> None:
        element.find('material[@name="Blue"]/color').set('rgba', '0.5 0.7 0.9 1')
        first, second = (next(link for link in element.iter('link') if link.get('name') == name)
                         for name in ('lbr_iiwa_link_1', 'lbr_iiwa_link_2'))
        first.find('visual/geometry/mesh').set('scale', '1.01 1.01 1.01')
        first.find('collision/origin').set('xyz', '0 0 0.001')
        geometry = second.find('collision/geometry')
        geometry.remove(geometry.find('mesh'))
        etree.SubElement(geometry, 'box', size='0.1 0.1 0.2')

    result = diff_descriptions(*edited_copies(tmp_path, source, edit))
    new_rgba = (0.5, 0.7, 0.9, 1.0)
    expected = {ValueChange('material:Blue', 'color', old_rgba, new_rgba),
                ValueChange('link:lbr_iiwa_link_1', 'visual[0].geometry.scale', (1.0, 1.0, 1.0),
                            (1.01, 1.01, 1.01)),
                ValueChange('link:lbr_iiwa_link_1', 'collision[0].origin.xyz', (0.0, 0.0, 0.0),
                            (0.0, 0.0, 0.001), 'm'),
                ValueChange('link:lbr_iiwa_link_2', 'collision[0].geometry',
                            'mesh "meshes/link_2.stl"', 'box 0.1 × 0.1 × 0.2 m')}
    expected |= {ValueChange(f'link:{name}', 'visual[0].material.color', old_rgba, new_rgba)
                 for name in blue_users}
    assert len(blue_users) >= 1
    assert set(result.values) == expected and len(result.values) == len(expected)
    origin = next(change for change in result.values if change.attribute.endswith('origin.xyz'))
    assert origin.delta == 'Δ 0, 0, +1 mm'
    assert (result.elements, result.frames, result.blocks) == ((), (), ())


def test_joint_sub_elements_of_the_sample_robot(tmp_path: Path) -> None:
    """Its expanded URDF edited: safety controller, calibration, dynamics, mimic."""
    description = load(SAMPLE_ROBOT)
    root = etree.fromstring(description.xml.encode())
    elbow, lift, finger = (joint_element(root, name) for name in
                           ('elbow_joint', 'lift_joint', 'right_finger_joint'))
    k_velocity = float(elbow.find('safety_controller').get('k_velocity'))
    rising = float(elbow.find('calibration').get('rising'))
    damping = float(lift.find('dynamics').get('damping'))
    multiplier = float(finger.find('mimic').get('multiplier'))
    old = tmp_path / 'old.urdf'
    old.write_bytes(etree.tostring(root))
    elbow.find('safety_controller').set('k_velocity', repr(k_velocity * 2))
    elbow.find('calibration').set('rising', repr(rising + 0.01))
    lift.find('dynamics').set('damping', repr(damping + 1.0))
    finger.find('mimic').set('multiplier', repr(multiplier * 0.5))
    new = tmp_path / 'new.urdf'
    new.write_bytes(etree.tostring(root))
    result = diff_descriptions(load(old), load(new))
    assert {(change.element, change.attribute, change.old, change.new, change.unit)
            for change in result.values} == {
        ('joint:elbow_joint', 'safety_controller.k_velocity', k_velocity, k_velocity * 2, ''),
        ('joint:elbow_joint', 'calibration.rising', rising, rising + 0.01, 'rad'),
        ('joint:lift_joint', 'dynamics.damping', damping, damping + 1.0, 'N·s/m'),
        ('joint:right_finger_joint', 'mimic.multiplier', multiplier, multiplier * 0.5, '')}
    assert len(result.values) == 4
    assert (result.elements, result.frames) == ((), ())


def test_positions_of_a_floating_joint_by_variable() -> None:
    old = load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true'})
    new = load(SAMPLE_ROBOT, xacro_args={'with_extras': 'true', 'prefix': 'r1_'})
    result = diff_descriptions(old, new, positions={'r1_floating_joint/x': 0.1,
                                                    'r1_planar_joint/yaw': 0.3})
    assert result.frames == () and result.notes == ()
    assert all(change.change == 'renamed' for change in result.elements)
    with pytest.raises(LookupError, match='no_such_joint'):
        diff_descriptions(old, new, positions={'no_such_joint/x': 0.1})


# -- limits by meaning, units once, moved meshes -------------------------------------------
def _continuous(root: etree._Element, joint: str) -> None:
    """``joint`` made continuous, its ``lower`` and ``upper`` left out as the spec says."""
    element = joint_element(root, joint)
    element.set('type', 'continuous')
    for name in ('lower', 'upper'):
        element.find('limit').attrib.pop(name)


def test_a_revolute_wrist_made_continuous_loses_its_range_not_to_zero(tmp_path: Path) -> None:
    """The type changes and the range goes: never 2π -> 0 on a range it does not have."""
    source = shared_model('ur5_robot')
    limit = joint_element(etree.parse(str(source)).getroot(), 'wrist_3_joint').find('limit')
    lower, upper = float(limit.get('lower')), float(limit.get('upper'))
    assert (lower, upper) == pytest.approx((-2 * math.pi, 2 * math.pi))
    revolute, continuous = edited_copies(
        tmp_path, source, lambda element: _continuous(element, 'wrist_3_joint'))
    result = diff_descriptions(revolute, continuous, findings=False)
    assert result.values == (
        ValueChange('joint:wrist_3_joint', 'joint_type', 'revolute', 'continuous'),
        ValueChange('joint:wrist_3_joint', 'limit.lower', lower, None, 'rad'),
        ValueChange('joint:wrist_3_joint', 'limit.upper', upper, None, 'rad'))
    assert result.values[1].text == \
        f'limit.lower: {lower:.6g} rad ({math.degrees(lower):.5g}°) -> (none)'


def test_the_written_range_of_a_continuous_joint_is_no_change(tmp_path: Path) -> None:
    source = shared_model('ur5_robot')

    def spin(root: etree._Element, half: str) -> None:
        element = joint_element(root, 'wrist_3_joint')
        element.set('type', 'continuous')
        element.find('limit').set('lower', '-' + half)
        element.find('limit').set('upper', half)

    old = edited_copies(tmp_path, source, lambda root: spin(root, '6.28318530718'))[1]
    other = tmp_path / 'other'
    other.mkdir()
    new = edited_copies(other, source, lambda root: spin(root, '3.14159265359'))[1]
    assert joint_element(etree.fromstring(new.xml.encode()), 'wrist_3_joint').find(
        'limit').get('upper') == '3.14159265359'
    assert diff_descriptions(old, new, findings=False).values == ()


def test_a_prismatic_joint_turned_revolute_has_its_values_in_both_units(tmp_path: Path) -> None:
    description = load(SAMPLE_ROBOT)
    lift = description.robot.joint_map['lift_joint']
    assert lift.joint_type == 'prismatic' and lift.limit is not None and lift.dynamics
    root = etree.fromstring(description.xml.encode())
    old = tmp_path / 'old.urdf'
    old.write_bytes(etree.tostring(root))
    joint_element(root, 'lift_joint').set('type', 'revolute')
    new = tmp_path / 'new.urdf'
    new.write_bytes(etree.tostring(root))
    result = diff_descriptions(load(old), load(new), findings=False)
    lift_changes = {change.attribute: change for change in result.values
                    if change.element == 'joint:lift_joint'}
    expected = {'joint_type': ('prismatic', 'revolute', '', None)}
    for attribute, value, old_unit, unit in (
            ('limit.lower', lift.limit.lower, 'm', 'rad'),
            ('limit.upper', lift.limit.upper, 'm', 'rad'),
            ('limit.effort', lift.limit.effort, 'N', 'N·m'),
            ('limit.velocity', lift.limit.velocity, 'm/s', 'rad/s'),
            ('dynamics.damping', lift.dynamics.damping, 'N·s/m', 'N·m·s/rad'),
            ('dynamics.friction', lift.dynamics.friction, 'N', 'N·m'),
            *((f'safety_controller.{name}', getattr(lift.safety_controller, name), 'm', 'rad')
              for name in ('soft_lower_limit', 'soft_upper_limit')
              if lift.safety_controller is not None)):
        if value:  # 0 is nothing in any unit
            expected[attribute] = (value, value, unit, old_unit)
    assert {attribute: (change.old, change.new, change.unit, change.old_unit)
            for attribute, change in lift_changes.items()} == expected
    assert 'limit.upper' in expected and 'limit.lower' not in expected  # 0 m -> 0 rad
    upper = lift_changes['limit.upper']
    # the same number as another quantity: no difference computed across units
    assert upper.delta == ''
    assert upper.text == (f'limit.upper: {lift.limit.upper:g} m ({lift.limit.upper * 1000:g} '
                          f'mm) -> {lift.limit.upper:g} rad '
                          f'({math.degrees(lift.limit.upper):.5g}°)')


@pytest.mark.parametrize('old, new, unit, line', [
    (1.5, 1.2, 'rad', '1.5 -> 1.2 rad (Δ -17.19°)'),
    (0.0, -2 * math.pi, 'rad', '0 -> -6.28319 rad (Δ -360°)'),
    (None, -2 * math.pi, 'rad', '(none) -> -6.28319 rad (-360°)'),
    ((0.0, 0.0, 0.3), (0.0, 0.0, 0.31), 'm', '(0, 0, 0.3) -> (0, 0, 0.31) m (Δ 0, 0, +10 mm)'),
    (0.6, 1.2, 'kg', '0.6 -> 1.2 kg (Δ +100 %)'),
    (10.0, 20.0, 'N·m', '10 -> 20 N·m'),
])
def test_a_value_line_writes_each_unit_once(old: object, new: object, unit: str,
                                            line: str) -> None:
    change = ValueChange('joint:j', 'x', old, new, unit)  # type: ignore[arg-type]
    assert change.text == f'x: {line}'
    shown = {'rad': '°', 'm': ' mm'}.get(unit)

    def units(text: str) -> int:
        return len(re.findall(rf' {re.escape(unit)}(?![\w/·²³])', text))

    assert units(change.text) == 1
    if shown is not None:
        assert change.text.count(shown) == 1
    # a table row: old, new and change, each cell with its unit once, the conversion once
    cells = format_sides(old, new, unit)  # type: ignore[arg-type]
    assert [units(cell) for cell in cells[:2]] == [0 if old is None else 1, 1]
    if shown is not None:
        assert sum(cell.count(shown) for cell in cells) == 1


KUKA_MESH = 'meshes/link_1.stl'


def _move_mesh(root: etree._Element, before: str, after: str) -> None:
    meshes = [mesh for mesh in root.iter('mesh') if mesh.get('filename') == before]
    assert meshes, before
    for mesh in meshes:
        mesh.set('filename', after)


def test_a_mesh_missing_on_both_sides_moved_is_one_change_not_a_finding_pair(
        tmp_path: Path) -> None:
    # the copies stand in tmp_path without their meshes: the mesh is a mesh-file-missing
    # finding naming its path on both sides (ur5 through the CLI: test_diff_cli)
    source = EDITED['kuka_iiwa'][0]
    after = KUKA_MESH.replace('meshes/', 'meshes/moved/', 1)
    old, new = edited_copies(tmp_path, source, lambda root: _move_mesh(root, KUKA_MESH, after))
    assert [finding for finding in check_description(old)
            if finding.code == 'mesh-file-missing' and KUKA_MESH in finding.message]
    result = diff_descriptions(old, new)
    assert [(change.element, change.attribute.rsplit('.', 1)[-1], change.old, change.new)
            for change in result.changes] == [('link:lbr_iiwa_link_1', 'filename', KUKA_MESH,
                                               after)]


def test_a_mesh_moved_to_where_no_file_is_reports_the_new_finding(tmp_path: Path) -> None:
    # the moved path does not hide a real change: the file was there, it is not any more
    source, _ = EDITED['kuka_iiwa']
    folder = tmp_path / 'robot'
    shutil.copytree(source.parent, folder)
    copy = folder / source.name
    old = load(copy)
    tree = etree.parse(str(copy))
    _move_mesh(tree.getroot(), KUKA_MESH, 'meshes/moved/link_1.stl')
    moved = folder / 'moved.urdf'
    moved.write_bytes(etree.tostring(tree))
    result = diff_descriptions(old, load(moved))
    assert [change.attribute for change in result.values] == ['collision[0].geometry.filename']
    assert [(change.change, change.code, change.element) for change in result.findings] == [
        ('appeared', 'mesh-file-missing', 'link:lbr_iiwa_link_1')]


@pytest.mark.parametrize('rpy, same_rotation, shown', [
    pytest.param((math.pi, 0.0, 0.0), True, None, id='roll-of-minus-pi-is-roll-of-pi'),
    pytest.param((0.0, 0.0, 2.0 * math.pi), True, None, id='a-whole-turn-of-yaw'),
    pytest.param((0.0, 0.0, -1.5 * math.pi), False, 90.0, id='yaw-of-minus-270-is-plus-90'),
])
def test_an_origin_rotation_is_compared_as_a_rotation(
        tmp_path: Path, rpy: tuple[float, float, float], same_rotation: bool,
        shown: float | None) -> None:
    # ur5's shoulder_pan_joint; the old side written with roll -pi where rpy is (pi, 0, 0)
    def old_rpy(root: etree._Element) -> None:
        joint_element(root, 'shoulder_pan_joint').find('origin').set(
            'rpy', '-3.141592653589793 0 0' if rpy[0] == math.pi else '0 0 0')

    def new_rpy(root: etree._Element) -> None:
        joint_element(root, 'shoulder_pan_joint').find('origin').set(
            'rpy', ' '.join(repr(value) for value in rpy))
    base = tmp_path / 'base.urdf'
    tree = etree.parse(str(shared_model('ur5_robot')))
    old_rpy(tree.getroot())
    base.write_bytes(etree.tostring(tree))
    old, new = edited_copies(tmp_path, base, new_rpy)
    result = diff_descriptions(old, new)
    changes = [change for change in result.values if change.attribute == 'origin.rpy']
    assert (changes == []) is same_rotation
    assert (list(result.frames) == []) is same_rotation
    if shown is not None:
        (change,) = changes
        assert f'Δ 0, 0, +{shown:g}°' in change.text


#: A package's robot naming its files through ``$(find)``: xacro writes each checkout's path.
FOUND = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"><visual><geometry><mesh filename="file://$(find r_description)/meshes/a.stl"/>
    </geometry></visual><collision><geometry>
    <mesh filename="$(find r_description)/meshes/gone.stl"/></geometry></collision></link>
  <link name="arm"><visual><geometry><mesh filename="file://$(find r_description)/meshes/{arm}"/>
    </geometry></visual></link>
  <joint name="j" type="fixed"><parent link="base"/><child link="arm"/><origin xyz="0 0 {z}"/>
  </joint>
  <gazebo><plugin name="p" filename="libp.so">
    <parameters>$(find r_description)/config/controllers.yaml</parameters></plugin></gazebo>
</robot>
"""


def checkout(top: Path, arm: str = 'b.stl', z: str = '1') -> RobotDescription:
    package = top / 'src' / 'r_description'
    (package / 'meshes').mkdir(parents=True)
    (package / 'urdf').mkdir()
    for mesh in ('a.stl', 'b.stl', 'c.stl'):
        (package / 'meshes' / mesh).write_bytes(b'')
    (package / 'package.xml').write_text('<package format="3"><name>r_description</name>'
                                         '</package>')
    path = package / 'urdf' / 'r.urdf.xacro'
    path.write_text(FOUND.format(arm=arm, z=z))
    return load(path, package_paths={'r_description': str(package)})


def test_two_checkouts_of_a_package_compare_their_files_by_package(tmp_path: Path) -> None:
    """``$(find)`` writes each checkout's path: only the joint and b.stl -> c.stl differ."""
    old = checkout(tmp_path / 'old')
    new = checkout(tmp_path / 'new', arm='c.stl', z='2')
    assert str(tmp_path / 'old') in old.xml and str(tmp_path / 'new') in new.xml
    result = diff_descriptions(old, new)
    assert [(change.element, change.attribute) for change in result.values] == [
        ('link:arm', 'visual[0].geometry.filename'), ('joint:j', 'origin.xyz')]
    assert result.blocks == () and result.findings == ()
    assert diff_descriptions(old, checkout(tmp_path / 'same')).same
