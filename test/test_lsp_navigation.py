"""
The language server's hover, go-to-definition and completion without a client.

``urdf-tools lsp`` serves what :mod:`urdf_tools_ros.lsp.hover`, :mod:`~urdf_tools_ros.lsp
.definition` and :mod:`~urdf_tools_ros.lsp.completion` compute from the last check's result and
the editor's text; the protocol is tested in ``test_lsp_protocol.py``. Real packages from
``../shared/ros2_descriptions`` (their xacro source read here with lxml) and small files
written here.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
import re

from lxml import etree
from paths import ROS2_DESCRIPTIONS
import pytest

from urdf_tools_ros.lsp.checking import check_run, RunResult, Settings
from urdf_tools_ros.lsp.completion import complete
from urdf_tools_ros.lsp.definition import definition
from urdf_tools_ros.lsp.documents import Buffers
from urdf_tools_ros.lsp.hover import hover
from urdf_tools_ros.lsp.workspace import find_packages, Run

ROS2 = str(ROS2_DESCRIPTIONS)
needs_ros2 = pytest.mark.skipif(not ROS2_DESCRIPTIONS.is_dir(),
                                reason=f'{ROS2_DESCRIPTIONS} is not here')
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
    assert f'r.urdf.xacro:{written}' in size.markdown
    assert 'as written' in size.markdown
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
