"""
Findings in xacro macro bodies: one per line and message, with the calls of each expansion.

A small xacro written here calls a macro 4 times (twice through another macro) whose body has a
``<gazebo reference>`` written ``{side}`` for ``${side}`` and a mesh made from an argument; the
real ones are urdf_tutorial's 08-macroed (calls nested 3 deep) and TurtleBot 4's tower standoffs
(one macro called 4 times) from ``../shared/ros2_descriptions``.
"""

from __future__ import annotations

import json
from pathlib import Path
import re

from lxml import etree
from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest

from conftest import missing
from urdf_tools_ros.cli.report import (FileReport, finding_dict, format_json, format_junit,
                                       format_sarif, format_text)
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.checks.expansion import merge_expansions
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.location import SourceLocation
from urdf_tools_ros.core.source.loader import load, parse_xacro_args
from urdf_tools_ros.core.source.xacro import runner as xacro_runner

pytestmark = pytest.mark.portability

SCHEMA = Path(__file__).resolve().parent / 'data' / 'sarif-schema-2.1.0.json'

CARTS = """<?xml version="1.0"?>
<robot name="carts" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_link"/>
  <xacro:macro name="caster" params="side mesh">
    <xacro:property name="mesh_file" value="package://carts/meshes/${mesh}"/>
    <link name="caster_${side}_link">
      <visual><geometry><mesh filename="${mesh_file}"/></geometry></visual>
      <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
      </inertial>
    </link>
    <joint name="caster_${side}_joint" type="continuous">
      <parent link="base_link"/>
      <child link="caster_${side}_link"/>
    </joint>
    <gazebo reference="caster_{side}_link">
      <mu1>0.1</mu1>
    </gazebo>
  </xacro:macro>
  <xacro:macro name="pair" params="end mesh">
    <xacro:caster side="${end}_left" mesh="${mesh}"/>
    <xacro:caster side="${end}_right" mesh="caster.stl"/>
  </xacro:macro>
  <xacro:caster side="front_left" mesh="caster.stl"/>
  <xacro:caster side="front_right" mesh="castor.stl"/>
  <xacro:pair end="back" mesh="wheel.stl"/>
</robot>
"""


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the only line of ``text`` that holds ``needle``."""
    (number,) = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return number


@pytest.fixture
def carts(tmp_path: Path) -> Path:
    (tmp_path / 'meshes').mkdir()
    (tmp_path / 'meshes' / 'caster.stl').write_text('solid caster\nendsolid caster\n')
    path = tmp_path / 'carts.urdf.xacro'
    path.write_text(CARTS)
    return path


def checked(path: Path) -> list[Finding]:
    return check_description(load(path, package_paths={'carts': str(path.parent)}))


def test_a_body_line_found_in_4_expansions_is_one_finding_with_its_4_calls(carts: Path) -> None:
    findings = checked(carts)
    (gazebo,) = [f for f in findings if f.code == 'gazebo-reference-missing']
    assert gazebo.count == 4 and len(gazebo.calls) == 4
    assert gazebo.location == SourceLocation(str(carts), line_of(CARTS, 'reference='))
    innermost = sorted(chain[0].location.line for chain in gazebo.calls)
    assert innermost == sorted([line_of(CARTS, 'side="front_left"'),
                                line_of(CARTS, 'side="front_right"'),
                                line_of(CARTS, 'side="${end}_left"'),
                                line_of(CARTS, 'side="${end}_right"')])
    # the calls through <xacro:pair> carry that call too, outermost last
    nested = [chain for chain in gazebo.calls if len(chain) == 2]
    assert len(nested) == 2 and all(
        [call.macro for call in chain] == ['caster', 'pair']
        and chain[1].location.line == line_of(CARTS, '<xacro:pair end=') for chain in nested)
    assert '(4 times)' in str(gazebo)


def test_the_missing_dollar_is_the_fix_of_the_reference(carts: Path) -> None:
    (gazebo,) = [f for f in checked(carts) if f.code == 'gazebo-reference-missing']
    assert gazebo.fix is not None and '"caster_${side}_link"' in gazebo.fix
    assert 'side is a parameter of <xacro:caster>' in gazebo.fix
    assert 'caster_back_left_link' not in gazebo.fix  # not difflib's neighbour


def test_a_value_made_from_an_argument_is_fixed_at_the_call(carts: Path) -> None:
    meshes = {f.message.split('mesh "')[1].split('"')[0]: f
              for f in checked(carts) if f.code == 'mesh-file-missing'}
    # two missing files: two messages, two findings, each with its one call
    assert set(meshes) == {'package://carts/meshes/castor.stl',
                           'package://carts/meshes/wheel.stl'}
    castor = meshes['package://carts/meshes/castor.stl']
    assert castor.count == 1 and len(castor.calls) == 1
    assert castor.fix is not None and castor.fix.startswith(
        f'edit the argument mesh="castor.stl" of the call <xacro:caster> at '
        f'carts.urdf.xacro:{line_of(CARTS, "castor.stl")}')
    # passed on as mesh="${mesh}": the argument to edit is the one of the enclosing call
    wheel = meshes['package://carts/meshes/wheel.stl']
    assert wheel.fix is not None and wheel.fix.startswith(
        f'edit the argument mesh="wheel.stl" of the call <xacro:pair> at '
        f'carts.urdf.xacro:{line_of(CARTS, "wheel.stl")}')
    # a finding about an element named from an argument gets no such fix
    assert not [f for f in checked(carts) if f.fix and 'argument side' in f.fix]


def test_every_report_shows_the_count_and_the_calls(carts: Path) -> None:
    findings = checked(carts)
    (gazebo,) = [f for f in findings if f.code == 'gazebo-reference-missing']
    calls = {chain[0].location.line for chain in gazebo.calls}
    report = FileReport(str(carts), tuple(findings))

    text = format_text([report], verbose=True)
    block = text.split('warning[gazebo-reference-missing]')[1].split('\n    fix:')[0]
    assert '(4 times)' in block.splitlines()[0]
    noted = {int(m) for m in re.findall(r'carts\.urdf\.xacro:(\d+): note: expanded by the call '
                                        r'<xacro:caster ', block)}
    assert noted == calls and block.count('note: inside the call <xacro:pair') == 2
    assert 'expanded by the call' not in format_text([report])  # -v only

    record = json.loads(format_json([report]))['findings']
    (entry,) = [e for e in record if e['code'] == 'gazebo-reference-missing']
    assert entry['count'] == 4 and len(entry['calls']) == 4
    assert {chain[0]['line'] for chain in entry['calls']} == calls
    assert all(chain[0]['macro'] == 'caster' and 'side' in chain[0]['arguments']
               for chain in entry['calls'])

    sarif = json.loads(format_sarif([report], '0'))
    (result,) = [r for r in sarif['runs'][0]['results']
                 if r['ruleId'] == 'gazebo-reference-missing']
    assert result['occurrenceCount'] == 4
    related = {r['physicalLocation']['region']['startLine'] for r in result['relatedLocations']
               if 'expanded by the call' in r['message']['text']}
    assert related == calls
    if missing('jsonschema') is None:
        import jsonschema
        jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(sarif)

    junit = ''.join(etree.fromstring(format_junit([report]).encode()).itertext())
    assert all(f'{carts}:{line}: note: expanded by the call <xacro:caster' in junit
               for line in calls)


def test_default_findings_keep_todays_shape(carts: Path) -> None:
    """Outside macro bodies nothing changes: count 1, no calls, the line as before."""
    (root,) = [f for f in checked(carts) if f.code == 'root-body-massless']
    assert (root.count, root.calls) == (1, ())
    assert finding_dict(root)['count'] == 1 and finding_dict(root)['calls'] == []
    assert '(1 times)' not in str(root) and 'times)' not in str(root)


def test_merging_keeps_different_messages_and_severities_apart() -> None:
    where = SourceLocation('a.xacro', 3)
    same = Finding('mesh-file-missing', Severity.WARNING, 'link:a', 'mesh "x"', where)
    other = Finding('mesh-file-missing', Severity.WARNING, 'link:a', 'mesh "y"', where)
    worse = Finding('mesh-file-missing', Severity.ERROR, 'link:a', 'mesh "x"', where)
    merged = merge_expansions([same, other, same, worse])
    assert [(f.message, f.severity, f.count) for f in merged] == [
        ('mesh "x"', Severity.WARNING, 2), ('mesh "y"', Severity.WARNING, 1),
        ('mesh "x"', Severity.ERROR, 1)]
    assert merge_expansions(merged) == merged  # once merged, merged


def test_without_line_hooks_the_copies_are_still_one(carts: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)
    (gazebo,) = [f for f in checked(carts) if f.code == 'gazebo-reference-missing']
    assert gazebo.count == 4 and gazebo.calls == ()  # no line, no calls known


def test_block_arguments_are_not_in_the_call(tmp_path: Path) -> None:
    """An ``*origin`` block is written at the call: its element is not in the macro body."""
    text = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="a"/>
  <xacro:macro name="leaf" params="name *origin">
    <link name="${name}"/>
    <joint name="${name}_joint" type="fixed">
      <xacro:insert_block name="origin"/>
      <parent link="a"/><child link="${name}"/>
    </joint>
  </xacro:macro>
  <xacro:leaf name="b">
    <origin xyz="1 0 0" rpy="0 0 0"/>
  </xacro:leaf>
</robot>
"""
    path = tmp_path / 'leaf.urdf.xacro'
    path.write_text(text)
    robot = load(path).robot
    joint = robot.joint_map['b_joint']
    assert joint.location is not None and [c.macro for c in joint.location.calls] == ['leaf']
    origin_location = getattr(joint.origin, 'location', None)
    if origin_location is not None:
        assert origin_location.line == line_of(text, '<origin') and not origin_location.calls


CASES = ROS2_CASES
PACKAGES = ROS2_PACKAGES


def real(case_id: str) -> list[Finding]:
    if case_id not in CASES:
        pytest.skip(f'{ROS2_DESCRIPTIONS} is not here')
    case = CASES[case_id]
    return check_description(load(ROS2_DESCRIPTIONS / case['entry'],
                                  xacro_args=parse_xacro_args(case['args']),
                                  package_paths=PACKAGES))


def written(location: SourceLocation) -> str:
    assert location.line is not None
    return Path(location.filename).read_text().splitlines()[location.line - 1]


def test_each_call_of_a_real_chain_stands_at_its_call() -> None:
    """08-macroed: default_inertial in leg, in wheel in leg; each call's line holds that call."""
    findings = [f for f in real('urdf_tutorial_08_macroed') if f.calls]
    assert findings
    for finding in findings:
        for chain in finding.calls:
            for call in chain:
                assert f'<xacro:{call.macro}' in written(call.location), (str(finding), call)
    depths = {len(chain) for finding in findings for chain in finding.calls}
    assert {1, 2} <= depths
    case = CASES['urdf_tutorial_08_macroed']
    inertial = load(ROS2_DESCRIPTIONS / case['entry']).robot.link_map['right_front_wheel'].inertial
    assert inertial is not None and inertial.location is not None
    assert [call.macro for call in inertial.location.calls] == ['default_inertial', 'wheel', 'leg']
    assert [written(call.location).strip()[:len(f'<xacro:{call.macro}')]
            for call in inertial.location.calls] == [
        '<xacro:default_inertial', '<xacro:wheel', '<xacro:leg']


def test_turtlebot4_tower_standoffs_name_their_4_calls() -> None:
    """One macro, 4 calls; the mesh file is absent from the copy: one finding, the 4 calls."""
    standoffs = [f for f in real('turtlebot4_standard') if f.code == 'mesh-file-missing'
                 and f.location is not None and 'tower_standoff' in f.location.filename]
    if not standoffs:
        pytest.skip('the tower standoff mesh is present in this copy')
    calls = {chain[0].location.line for f in standoffs for chain in f.calls}
    assert len(calls) == 4 and len(standoffs) == 1 and standoffs[0].count == 4
    assert all('<xacro:tower_standoff' in written(chain[0].location)
               for f in standoffs for chain in f.calls)


def test_the_missing_dollar_knows_defaults_and_dynamic_calls(tmp_path: Path) -> None:
    """A parameter with a default, not given at the call, and ``<xacro:call macro=...>``."""
    text = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="a"/>
  <xacro:macro name="m" params="name side:=left">
    <link name="${name}_${side}"/>
    <joint name="${name}_joint" type="fixed"><parent link="a"/><child link="${name}_${side}"/>
    </joint>
    <gazebo reference="{name}_{side}"/>
  </xacro:macro>
  <xacro:m name="x"/>
  <xacro:call macro="m" name="y"/>
</robot>
"""
    path = tmp_path / 'defaults.urdf.xacro'
    path.write_text(text)
    (gazebo,) = [f for f in check_description(load(path))
                 if f.code == 'gazebo-reference-missing']
    assert gazebo.count == 2
    assert sorted(chain[0].location.line for chain in gazebo.calls) == [
        line_of(text, '<xacro:m name="x"'), line_of(text, '<xacro:call')]
    assert gazebo.fix is not None and gazebo.fix.startswith('did you mean "${name}_${side}"?')
    assert 'name, side are parameters of <xacro:m>' in gazebo.fix


PARTS = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="part" params="name arm_id pkg">
    <link name="${name}"><visual><geometry>
      <mesh filename="package://${pkg}/meshes/${arm_id}/${name}.stl"/></geometry></visual></link>
  </xacro:macro>
  <xacro:macro name="one" params="name mesh">
    <link name="${name}"><collision><geometry>
      <mesh filename="package://${pkg}/meshes/${mesh}"/></geometry></collision>
    <visual><geometry><mesh filename="package://${pkg}/meshes/${mesh}"/></geometry></visual></link>
  </xacro:macro>
  <xacro:property name="pkg" value="parts"/>
  <link name="base"/>
  <xacro:part name="l0" arm_id="fr3" pkg="parts"/>
  <xacro:one name="l1" mesh="x.stl"/>
  <joint name="j0" type="fixed"><parent link="base"/><child link="l0"/></joint>
  <joint name="j1" type="fixed"><parent link="base"/><child link="l1"/></joint>
</robot>
"""


def test_a_value_made_of_several_arguments_names_none_of_them(tmp_path: Path) -> None:
    # franka's link meshes are package://${description_pkg}/meshes/${arm_id}/${name}.dae:
    # editing name (or any one argument) is no fix; a value whose one variable part is one
    # argument (package://parts/meshes/${mesh}) names it
    path = tmp_path / 'parts.urdf.xacro'
    path.write_text(PARTS)
    findings = check_description(load(path, package_paths={'parts': str(tmp_path)}))
    missing = {f.element: f for f in findings if f.code == 'mesh-file-missing'}
    assert set(missing) == {'link:l0', 'link:l1'}
    assert 'edit the argument' not in (missing['link:l0'].fix or '')
    assert (missing['link:l1'].fix or '').startswith(
        'edit the argument mesh="x.stl" of the call <xacro:one>')
    # one finding for the file of l1's collision and visual: MuJoCo refuses it for the collision
    assert 'MuJoCo refuses the file' in missing['link:l1'].message
    assert missing['link:l1'].consumers == ('mujoco',)
