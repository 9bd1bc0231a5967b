"""
The language server's hover, go-to-definition, completion, symbols and rename without a client.

``urdf-tools lsp`` serves what :mod:`urdf_tools_ros.lsp.hover`, :mod:`~urdf_tools_ros.lsp
.definition`, :mod:`~urdf_tools_ros.lsp.completion`, :mod:`~urdf_tools_ros.lsp.navigation` and
:mod:`~urdf_tools_ros.lsp.rename` compute from the last check's result and the editor's text;
the protocol is tested in ``test_lsp_protocol*.py``. Real packages from
``../shared/ros2_descriptions`` (their xacro source read here with lxml) and small files
written here.
"""

from __future__ import annotations

from collections.abc import Sequence
import math
import os
from pathlib import Path
import re

from lsp_client import needs_ros2
from lxml import etree
from paths import ROS2_DESCRIPTIONS
import pytest

from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.discovery import find_packages
from urdf_tools_ros.core.source.entries import description_files
from urdf_tools_ros.lsp.checking import check_run, RunResult, Settings
from urdf_tools_ros.lsp.completion import complete
from urdf_tools_ros.lsp.definition import definition
from urdf_tools_ros.lsp.documents import Buffers
from urdf_tools_ros.lsp.hover import hover
from urdf_tools_ros.lsp.navigation import outline, workspace_symbols
from urdf_tools_ros.lsp.rename import edits, refuse_expressions, Refused, Scope, Site, target
from urdf_tools_ros.lsp.workspace import Run

ROS2 = str(ROS2_DESCRIPTIONS)
MACROED = f'{ROS2}/urdf_tutorial/urdf/08-macroed.urdf.xacro'
ROBOTIQ = f'{ROS2}/robotiq_description/urdf/robotiq_2f_85_gripper.urdf.xacro'
ROBOTIQ_MACRO = f'{ROS2}/robotiq_description/urdf/robotiq_2f_85_macro.urdf.xacro'
BURGER = f'{ROS2}/turtlebot3_description/urdf/turtlebot3_burger.urdf'
KUKA = f'{ROS2}/kuka_agilus_support/urdf/kr6_r700_sixx.urdf.xacro'

#: A revolute joint turning ``b`` by 90° about z at (1, 0, 0), a prismatic joint mimicking it,
#: a property in a macro body (the macro's own) beside a top-level one.
ROBOT = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="side" default="left"/>
  <xacro:property name="size" value="0.5"/>
  <xacro:macro name="block" params="name mass:=2">
    <xacro:property name="inner" value="3"/>
    <link name="${name}"><inertial><mass value="${mass}"/>
      <inertia ixx="3" iyy="1" izz="2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  </xacro:macro>
  <link name="a"/>
  <xacro:block name="b"/>
  <xacro:block name="c_$(arg side)" mass="4"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <origin xyz="1 0 ${size}" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1.5707963267948966" upper="0.5" effort="3" velocity="2"/>
  </joint>
  <joint name="p" type="prismatic"><parent link="b"/><child link="c_$(arg side)"/>
    <limit lower="0" upper="0.25" effort="10" velocity="0.1"/>
    <mimic joint="j" multiplier="0.5"/>
  </joint>
</robot>
"""


def _xacro(path: str, kind: str) -> list[etree._Element]:
    """The ``<xacro:KIND>`` elements of a file (either xacro namespace URI), in file order."""
    return [item for item in etree.parse(path).iter() if isinstance(item.tag, str)
            and etree.QName(item).localname == kind
            and re.fullmatch(r'https?://(www\.)?(ros\.org/wiki|wiki\.ros\.org)/xacro',
                             etree.QName(item).namespace or '')]


def _read(path: str) -> str | None:
    return Buffers().text_or_none(path)


def _run(path: str, args: tuple[tuple[str, str], ...] = ()) -> RunResult:
    return check_run(Run(path, args), Settings(package_folders=[ROS2]), Buffers())


def _at(text: str, needle: str, shift: int = 0) -> int:
    """The offset of ``needle`` in ``text`` (the first), moved by ``shift``."""
    assert needle in text, needle
    return text.index(needle) + shift


def _line(text: str, offset: int) -> int:
    """The 0-based line of an offset."""
    return text.count('\n', 0, offset)


@pytest.fixture()
def small(tmp_path: Path) -> tuple[str, str, RunResult]:
    path = tmp_path / 'r.urdf.xacro'
    path.write_text(ROBOT)
    return str(path), ROBOT, check_run(Run(str(path), (('side', 'right'),)), Settings(),
                                       Buffers())


def _numbers(text: str) -> list[float]:
    return [float(value) for value in re.findall(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?', text)]


def test_a_joint_hover_gives_type_ends_axis_limits_and_mimic(
        small: tuple[str, str, RunResult]) -> None:
    path, text, result = small
    shown = hover(result, path, text, _at(text, 'name="j"', 7), _read)
    assert shown is not None and _line(text, _at(text, 'name="j"')) == shown.span.start_line
    lines = shown.markdown.split('\n')
    assert '`j` (revolute)' in lines[0] and '`a` → `b`' in lines[1]
    limits = next(line for line in lines if line.startswith('limits'))
    assert 'rad' in limits and '°' in limits
    assert _numbers(limits) == pytest.approx([-math.pi / 2, 0.5, -90, math.degrees(0.5)],
                                             rel=1e-3)
    prismatic = hover(result, path, text, _at(text, 'name="p"', 7), _read)
    assert prismatic is not None
    assert '(prismatic)' in prismatic.markdown and '`b` → `c_right`' in prismatic.markdown
    limits = next(line for line in prismatic.markdown.split('\n') if line.startswith('limits'))
    assert limits.rstrip(' ').endswith(' m') and '°' not in limits
    assert _numbers(limits) == pytest.approx([0, 0.25])
    assert 'mimic `j`' in prismatic.markdown and '0.5' in prismatic.markdown.split('mimic')[1]


def test_a_link_hover_gives_mass_centre_moments_and_pose_at_zero(
        small: tuple[str, str, RunResult]) -> None:
    path, text, result = small
    # the <child link="b"> of joint j: the link b, its pose at zero is j's origin
    shown = hover(result, path, text, _at(text, '<child link="b"', 13), _read)
    assert shown is not None
    lines = shown.markdown.split('\n')
    assert lines[0].startswith('**link** `b`')
    assert _numbers(next(line for line in lines if line.startswith('mass'))) == [2]
    moments = next(line for line in lines if line.startswith('principal moments'))
    assert _numbers(moments.split('kg')[0]) == pytest.approx([1, 2, 3])
    pose = next(line for line in lines if line.startswith('pose at zero'))
    assert '`a`' in pose
    xyz, rpy = pose.split('xyz')[1].split('rpy')
    assert _numbers(xyz) == pytest.approx([1, 0, 0.5])
    assert _numbers(rpy) == pytest.approx([0, 0, math.pi / 2], abs=1e-3)
    # the link written in the macro body: one part per call, each with its own mass
    both = hover(result, path, text, _at(text, '<link name="${name}"', 2), _read)
    assert both is not None and '`b`' in both.markdown and '`c_right`' in both.markdown
    assert 'mass 2 kg' in both.markdown and 'mass 4 kg' in both.markdown


def test_property_parameter_and_arg_hovers_give_the_written_values(
        small: tuple[str, str, RunResult]) -> None:
    path, text, result = small
    size = hover(result, path, text, _at(text, '${size}', 3), _read)
    assert size is not None and '`size` = `0.5`' in size.markdown
    written = _line(text, _at(text, '<xacro:property name="size"')) + 1
    assert f'r.urdf.xacro:{written}' in size.markdown and 'written' not in size.markdown
    parameter = hover(result, path, text, _at(text, '${mass}', 3), _read)
    assert parameter is not None
    assert 'parameter' in parameter.markdown and '`block`' in parameter.markdown
    assert 'default `2`' in parameter.markdown
    arg = hover(result, path, text, _at(text, '$(arg side)', 7), _read)
    assert arg is not None
    assert '`right` in this check' in arg.markdown and 'default `left`' in arg.markdown
    # a property of a macro body is not seen outside it
    outside = ROBOT.replace('<origin xyz="1 0 ${size}"', '<origin xyz="1 0 ${inner}"')
    assert hover(result, path, outside, _at(outside, '${inner}', 3), _read) is None


@needs_ros2
def test_real_hovers_name_the_models_joints_and_the_runs_values() -> None:
    result = _run(BURGER, (('namespace', 'tb3_'),))
    assert result.robot is not None
    text = Path(BURGER).read_text()
    tree = etree.parse(BURGER)
    for element in tree.getroot().iter('joint'):
        offset = _at(text, f'name="{element.get("name")}"', 7)
        shown = hover(result, BURGER, text, offset, _read)
        assert shown is not None
        name = element.get('name').replace('${namespace}', 'tb3_')
        joint = result.robot.joint(name)
        assert shown.markdown.startswith(f'**joint** `{name}` ({element.get("type")})')
        assert f'`{joint.parent}` → `{joint.child}`' in shown.markdown
        assert joint.parent == element.find('parent').get('link').replace(
            '${namespace}', 'tb3_')
    arg = hover(result, BURGER, text, _at(text, '$(arg namespace)', 7), _read)
    assert arg is not None and '`tb3_` in this check' in arg.markdown
    kuka = _run(KUKA)
    assert kuka.robot is not None
    macro = f'{ROS2}/kuka_agilus_support/urdf/kr6_r700_sixx_macro.xacro'
    text = Path(macro).read_text()
    limited = [element for element in etree.parse(macro).iter('joint')
               if element.get('type') == 'revolute']
    assert limited
    for element in limited:
        shown = hover(kuka, macro, text, _at(text, f'name="{element.get("name")}"', 7), _read)
        assert shown is not None
        limits = next(line for line in shown.markdown.split('\n') if line.startswith('limits'))
        limit = next(joint.limit for joint in kuka.robot.joints  # written ${radians(-170)}
                     if joint.location and joint.location.line == element.sourceline)
        lower, upper = limit.lower, limit.upper
        assert _numbers(limits) == pytest.approx(
            [lower, upper, math.degrees(lower), math.degrees(upper)], rel=1e-3)


@needs_ros2
def test_find_and_package_uris_hover_with_the_path_they_resolve_to() -> None:
    result = _run(ROBOTIQ)
    share = find_packages([ROS2])['robotiq_description']
    text = Path(ROBOTIQ_MACRO).read_text()
    found = hover(result, ROBOTIQ_MACRO, text, _at(text, '$(find robotiq_description)', 8),
                  _read)
    assert found is not None and f'`{share}`' in found.markdown
    uri = 'package://robotiq_description/meshes/visual/2f_85/robotiq_base.dae'
    mesh = hover(result, ROBOTIQ_MACRO, text, _at(text, uri, 12), _read)
    assert mesh is not None
    assert f'`{share}/meshes/visual/2f_85/robotiq_base.dae`' in mesh.markdown
    assert os.path.isfile(f'{share}/meshes/visual/2f_85/robotiq_base.dae')


@needs_ros2
def test_definitions_of_macros_properties_links_and_joints() -> None:
    result = _run(MACROED)
    text = Path(MACROED).read_text()
    leg = next(item for item in _xacro(MACROED, 'macro') if item.get('name') == 'leg')
    [target] = definition(result, MACROED, text, _at(text, '<xacro:leg prefix="right"', 3),
                          _read)
    assert (target.path, target.span.start_line + 1) == (MACROED, leg.sourceline)
    width = next(item for item in _xacro(MACROED, 'property') if item.get('name') == 'width')
    [target] = definition(result, MACROED, text, _at(text, '${width', 3), _read)
    assert target.span.start_line + 1 == width.sourceline
    line = text.splitlines()[target.span.start_line]
    assert line[target.span.start_column:target.span.end_column] == 'width'
    base = next(item for item in etree.parse(MACROED).iter('link')
                if item.get('name') == 'base_link')
    [target] = definition(result, MACROED, text, _at(text, '<parent link="base_link"', 15),
                          _read)
    assert target.span.start_line + 1 == base.sourceline
    # a name made by the macro: each expansion's link, written once in the body
    targets = definition(result, MACROED, text, _at(text, '<parent link="${prefix}_base"', 24),
                         _read)
    body = next(item for item in leg.iter('link') if item.get('name') == '${prefix}_base')
    assert [t.span.start_line + 1 for t in targets] == [body.sourceline]
    mimic_text = Path(ROBOTIQ_MACRO).read_text()
    robotiq = _run(ROBOTIQ)
    targets = definition(robotiq, ROBOTIQ_MACRO, mimic_text,
                         _at(mimic_text, '<mimic joint="${prefix}', 25), _read)
    knuckle = next(item for item in etree.parse(ROBOTIQ_MACRO).iter('joint')
                   if item.get('name') == '${prefix}robotiq_85_left_knuckle_joint')
    assert [(t.path, t.span.start_line + 1) for t in targets] == \
        [(ROBOTIQ_MACRO, knuckle.sourceline)]


@needs_ros2
def test_definitions_of_includes_and_package_uris_are_the_files() -> None:
    result = _run(ROBOTIQ)
    share = find_packages([ROS2])['robotiq_description']
    text = Path(ROBOTIQ).read_text()
    include = _xacro(ROBOTIQ, 'include')[0]
    written = include.get('filename')
    expected = written.replace('$(find robotiq_description)', share)
    for shift in (2, len(written) - 2):  # on $(find ...) and on the file's name
        [target] = definition(result, ROBOTIQ, text, _at(text, written, shift), _read)
        assert target.path == os.path.normpath(expected) and os.path.isfile(target.path)
    macro = Path(ROBOTIQ_MACRO).read_text()
    uri = 'package://robotiq_description/meshes/visual/2f_85/robotiq_base.dae'
    [target] = definition(result, ROBOTIQ_MACRO, macro, _at(macro, uri, 30), _read)
    assert target.path == f'{share}/meshes/visual/2f_85/robotiq_base.dae'
    name = next(etree.QName(item).localname for item in etree.parse(ROBOTIQ).getroot()
                if isinstance(item.tag, str) and etree.QName(item).namespace
                and etree.QName(item).localname not in ('include', 'arg', 'property'))
    targets = definition(result, ROBOTIQ, text, _at(text, f'<xacro:{name}', 3), _read)
    assert name in [item.get('name') for item in _xacro(ROBOTIQ_MACRO, 'macro')]
    written = _line(macro, _at(macro, f'<xacro:macro name="{name}"'))  # its start tag's line
    assert [(t.path, t.span.start_line) for t in targets] == [(ROBOTIQ_MACRO, written)]


@needs_ros2
def test_completion_of_links_joints_macros_and_parameters_in_half_typed_text() -> None:
    result = _run(MACROED)
    assert result.robot is not None
    text = Path(MACROED).read_text()
    end = _at(text, '  <joint name="gripper_extension"')
    macros = [item.get('name') for item in _xacro(MACROED, 'macro')]

    def at_end(typed: str) -> list[tuple[str, str, int]]:
        half = text[:end] + typed + text[end:]  # not well formed any more
        return [(item.label, item.kind, end + len(typed) - item.start)
                for item in complete(result, MACROED, half, end + len(typed), _read)]

    links = {link.name for link in result.robot.links}
    joints = {joint.name for joint in result.robot.joints}
    assert {label for label, kind, _ in at_end('<joint name="x"><parent link="ri')
            if kind == 'link'} == links
    assert all(typed == 2 for _, _, typed in at_end('<joint name="x"><child link="ri'))
    assert {label for label, _, _ in at_end('<mimic joint="')} == joints
    assert {label for label, _, _ in at_end('<gazebo reference="')} == links | joints
    assert [label for label, _, _ in at_end('<xacro:')] == macros
    wheel = next(item for item in _xacro(MACROED, 'macro') if item.get('name') == 'wheel')
    params = wheel.get('params').split()
    assert [label for label, _, _ in at_end(f'<xacro:wheel {params[0]}="a" ')] == params[1:]
    properties = [item.get('name') for item in _xacro(MACROED, 'property')
                  if item.getparent().getparent() is None]  # the top level's
    assert [label for label, _, _ in at_end('<origin xyz="${')] == properties
    assert at_end('<origin xyz="1 ') == []


#: Properties built on each other and on xacro's math, one of them a link's mass (xacro's own
#: value of it is the model's), one not arithmetic; a macro called twice with a default.
VALUES = """<?xml version="1.0"?>
<robot name="v" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="cm" value="${1/100.0}"/>
  <xacro:property name="mass" value="${6.42*cm + radians(90) - math.pi/2 + 2**-1}"/>
  <xacro:property name="label" value="${'a' + 'b'}"/>
  <xacro:macro name="part" params="name *origin size:=2">
    <link name="${name}"><inertial><mass value="${mass}"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  </xacro:macro>
  <xacro:part name="a"><origin/></xacro:part>
  <xacro:part name="b"><origin/></xacro:part>
</robot>
"""


def test_hovers_evaluate_properties_and_describe_macros(tmp_path: Path) -> None:
    path = tmp_path / 'v.urdf.xacro'
    path.write_text(VALUES)
    result = _run(str(path))
    assert result.robot is not None
    expected = result.robot.link('a').inertial.mass  # xacro's evaluation
    shown = hover(result, str(path), VALUES, _at(VALUES, '${mass}', 3), _read)
    assert shown is not None and _numbers(shown.markdown.split('`')[3]) == \
        pytest.approx([expected], rel=1e-6)
    assert 'written `${6.42*cm + radians(90) - math.pi/2 + 2**-1}`' in shown.markdown
    defined = hover(result, str(path), VALUES, _at(VALUES, 'name="cm"', 7), _read)
    assert defined is not None and '`cm` = `0.01` (v.urdf.xacro:3)' in defined.markdown
    label = hover(result, str(path), VALUES, _at(VALUES, 'name="label"', 7), _read)
    assert label is not None and '(not evaluated: ' in label.markdown
    for needle, shift in (('<xacro:part name="a"', 3), ('<xacro:macro name="part"', 20)):
        macro = hover(result, str(path), VALUES, _at(VALUES, needle, shift), _read)
        assert macro is not None
        assert macro.markdown.split('  \n') == [
            '**macro** `part` (v.urdf.xacro:6)',
            'parameters: `name`, `*origin` (block), `size` = `2`', "2 calls in the run's files"]


@needs_ros2
def test_a_real_property_shows_its_number_and_a_macro_its_calls() -> None:
    entry = f'{ROS2}/turtlebot4_description/urdf/standard/turtlebot4.urdf.xacro'
    create3 = f'{ROS2}/irobot_create_description/urdf/create3.urdf.xacro'
    result = _run(entry)
    text = Path(create3).read_text()
    written = next(item.get('value') for item in _xacro(create3, 'property')
                   if item.get('name') == 'base_link_z_offset')
    factor = float(re.fullmatch(r'\$\{([\d.]+)\*cm2m\}', written).group(1))
    shown = hover(result, create3, text, _at(text, 'name="base_link_z_offset"', 7), _read)
    assert shown is not None and f'written `{written}`' in shown.markdown
    assert _numbers(shown.markdown.split('`')[3]) == pytest.approx([factor / 100])
    leg = next(item for item in _xacro(MACROED, 'macro') if item.get('name') == 'leg')
    macroed = Path(MACROED).read_text()
    found = hover(_run(MACROED), MACROED, macroed, _at(macroed, '<xacro:leg ', 3), _read)
    calls = len(_xacro(MACROED, 'leg'))
    assert found is not None and found.markdown.split('  \n') == [
        f'**macro** `leg` (08-macroed.urdf.xacro:{leg.sourceline})',
        'parameters: ' + ', '.join(f'`{name}`' for name in leg.get('params').split()),
        f"{calls} calls in the run's files"]


@needs_ros2
def test_symbols_are_the_links_joints_and_xacro_names_as_written() -> None:
    text = Path(MACROED).read_text()
    symbols = outline(text)
    root = etree.parse(MACROED).getroot()
    top = [(etree.QName(item).localname, item.get('name')) for item in root
           if isinstance(item.tag, str) and etree.QName(item).localname in (
               'link', 'joint', 'macro', 'property')]
    assert [(symbol.kind, symbol.name) for symbol in symbols] == top
    leg = next(symbol for symbol in symbols if symbol.name == 'leg')
    body = next(item for item in _xacro(MACROED, 'macro') if item.get('name') == 'leg')
    assert [(symbol.kind, symbol.name) for symbol in leg.children] == [
        (item.tag, item.get('name')) for item in body.iter('link', 'joint')]
    assert text[leg.name_start:leg.name_end] == 'leg' and text[leg.start:leg.end].endswith(
        '</xacro:macro>')
    controlled = '<robot><joint name="j"/><ros2_control><joint name="j"/></ros2_control></robot>'
    assert [symbol.kind for symbol in outline(controlled)] == ['joint']
    files = description_files([ROS2])
    found = workspace_symbols(files, _read, 'LEG')
    assert all('leg' in item.name.lower() for item in found)
    assert ('leg', None) in [(item.name, item.container_name) for item in found
                             if item.location.uri == Path(MACROED).as_uri()]
    assert ('${prefix}_leg', 'leg') in [(item.name, item.container_name) for item in found]


def _scope(*results: RunResult) -> Scope:
    """The files and models of the runs that use some files, as the server gives them."""
    def scope(paths: Sequence[str]) -> tuple[list[str], list[Robot]]:
        using = [result for result in results if set(paths) & set(result.files)]
        return (list(dict.fromkeys([*paths, *(name for item in using for name in item.files)])),
                [item.robot for item in using if item.robot is not None])
    return scope


def _shape(robot: Robot, names: dict[str, str]) -> tuple[list[object], list[object]]:
    """The links (and visuals) and joints of a model, names mapped by ``names``."""
    def name(old: str) -> str:
        return names.get(old, old)
    return ([(name(link.name), link.visuals) for link in robot.links],
            [(name(joint.name), name(joint.parent), name(joint.child)) for joint in robot.joints])


def _apply(sites: list[Site], new: str) -> dict[str, str]:
    """The texts of the files after writing ``new`` at each site."""
    texts: dict[str, str] = {}
    for site in sorted(sites, key=lambda site: -site.start):
        text = texts.get(site.path, Path(site.path).read_text())
        texts[site.path] = text[:site.start] + new + text[site.end:]
    return texts


LIBRARY = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="size" value="0.5"/>
  <xacro:macro name="box" params="name">
    <xacro:property name="size" value="2"/>
    <link name="${name}"><visual><geometry><box size="${size} 1 1"/></geometry></visual></link>
  </xacro:macro>
</robot>
"""
MAIN = """<?xml version="1.0"?>
<robot name="m" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="side" default="left"/>
  <xacro:include filename="lib.xacro"/>
  <link name="a"><visual><geometry><box size="${size} ${size*3} 1"/></geometry></visual></link>
  <xacro:box name="b_$(arg side)"></xacro:box>
  <joint name="j" type="fixed"><parent link="a"/><child link="b_${xacro.arg('side')}"/></joint>
  <gazebo reference="a"/>
  <ros2_control name="c" type="system"><joint name="j"/></ros2_control>
</robot>
"""


def test_rename_rewrites_every_file_that_uses_a_name_and_the_model_keeps(
        tmp_path: Path) -> None:
    (tmp_path / 'lib.xacro').write_text(LIBRARY)
    main = tmp_path / 'm.urdf.xacro'
    main.write_text(MAIN)
    before = _run(str(main))
    assert before.robot is not None
    scope = _scope(before)
    for needle, shift, kind, new, count in (
            ('${size} ${size*3}', 3, 'property', 'side_length', 3),
            ('<xacro:box ', 3, 'macro', 'cube', 3), ('$(arg side)', 7, 'arg', 'hand', 3),
            ('<parent link="a"', 15, 'link', 'base', 3),
            ('<joint name="j"', 14, 'joint', 'k', 2)):
        named = target(str(main), MAIN, _at(MAIN, needle, shift), scope, _read)
        assert named is not None and named.kind == kind
        sites = edits(named, new, _read)
        assert len(sites) == count, (kind, sites)
        for name, text in _apply(sites, new).items():
            (tmp_path / Path(name).name).write_text(text)
        after = _run(str(main))
        assert after.robot is not None
        names = {'link': {'a': 'base'}, 'joint': {'j': 'k'}}.get(kind, {})
        assert _shape(after.robot, {}) == _shape(before.robot, names)
        (tmp_path / 'lib.xacro').write_text(LIBRARY)
        main.write_text(MAIN)
    inner = target(str(main), MAIN, 0, scope, _read)
    assert inner is None
    library = str(tmp_path / 'lib.xacro')
    own = target(library, LIBRARY, _at(LIBRARY, '${size} 1 1', 3), scope, _read)
    assert own is not None and own.scope is not None and [site.start for site in own.sites] \
        == [_at(LIBRARY, 'size" value="2"'), _at(LIBRARY, '${size} 1', 2)]


@needs_ros2
def test_rename_refuses_expressions_invalid_and_taken_names(tmp_path: Path) -> None:
    gripper, macro = ROBOTIQ, Path(ROBOTIQ_MACRO).read_text()
    result = _run(gripper)
    text = Path(gripper).read_text()
    world = target(gripper, text, _at(text, '<link name="world"', 13), _scope(result), _read)
    assert world is not None
    line = _line(macro, _at(macro, '<parent link="${parent}"')) + 1
    with pytest.raises(Refused, match=re.escape(
            f'`${{parent}}` at robotiq_2f_85_macro.urdf.xacro:{line}')):
        refuse_expressions(world, _read)
    with pytest.raises(Refused, match='expression'):
        target(ROBOTIQ_MACRO, macro, _at(macro, 'name="${prefix}robotiq_85_base_link"', 7),
               _scope(result), _read)
    (tmp_path / 'lib.xacro').write_text(LIBRARY)
    (tmp_path / 'm.urdf.xacro').write_text(MAIN)
    main = str(tmp_path / 'm.urdf.xacro')
    scope = _scope(_run(main))
    link = target(main, MAIN, _at(MAIN, '<link name="a"', 13), scope, _read)
    assert link is not None
    for new, reason in (('a b', 'not a valid link name'), ('b_left', 'already exists'),
                        ('a', 'already exists')):
        with pytest.raises(Refused, match=reason):
            edits(link, new, _read)
    arg = target(main, MAIN, _at(MAIN, '$(arg side)', 7), scope, _read)
    assert arg is not None
    with pytest.raises(Refused, match='not a valid arg name'):
        edits(arg, 'class', _read)
