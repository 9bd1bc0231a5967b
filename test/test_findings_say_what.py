"""Findings on real robots' mistakes say what is wrong: a brace without ``$``, xacro in a .urdf."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.source.loader import load

#: Two legs of a macro whose transmission names ``{name}_HipY``: the ``$`` is missing.
LEGS = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <xacro:macro name="leg" params="name">
    <link name="${name}_thigh"/>
    <joint name="${name}_HipY" type="continuous">
      <parent link="base"/><child link="${name}_thigh"/>
    </joint>
    <transmission name="${name}_HipY_tran">
      <type>transmission_interface/SimpleTransmission</type>
      <joint name="{name}_HipY">
        <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>
      </joint>
      <actuator name="${name}_motor"><mechanicalReduction>1</mechanicalReduction></actuator>
    </transmission>
  </xacro:macro>
  <xacro:leg name="FL"/>
  <xacro:leg name="FR"/>
</robot>
"""


def test_a_brace_without_its_dollar_is_named_in_the_fix(tmp_path: Path) -> None:
    path = tmp_path / 'legs.urdf.xacro'
    path.write_text(LEGS)
    found = [f for f in check_description(load(path)) if f.code == 'transmission-joint-missing']
    assert [(f.location.line if f.location else None, f.count, f.fix) for f in found] == \
        [(11, 2, '`{name}` lacks its `$`: write `${name}_HipY`')]  # one line, two calls
    # a name without a brace keeps the plain fix
    path.write_text(LEGS.replace('{name}_HipY">', 'hip">'))
    (finding,) = [f for f in check_description(load(path))
                  if f.code == 'transmission-joint-missing']
    assert finding.fix == "name one of the robot's joints (names are case-sensitive)"


#: A .urdf whose origin urdfdom cannot read as written: ROS loads it only through xacro.
EXPRESSION = """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="${0.5 * 0.2} 0 0"/></joint>
</robot>
"""


def test_a_urdf_that_loads_only_through_xacro_says_so(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(EXPRESSION)
    done = run_cli('check', str(path), '--no-config')
    assert 'loads through xacro in: ros-humble, ros-jazzy, ros-kilted, ros-lyrical, ' \
        'ros-rolling; loads as written in: none; errors for: gazebo, mujoco, pinocchio\n' \
        in done.stdout, done.stdout
    path.write_text(EXPRESSION.replace('${0.5 * 0.2}', '0.1'))
    done = run_cli('check', str(path), '--no-config')
    assert done.stdout.startswith('loads as written in: ros-humble, ros-jazzy, ros-kilted, '
                                  'ros-lyrical, ros-rolling, mujoco, pinocchio; errors for: '
                                  'gazebo\n'), done.stdout


#: Three calls of a macro whose joint has two <origin>s: one source line.
DUPLICATE = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <xacro:macro name="leg" params="name">
    <link name="${name}_link"/>
    <joint name="${name}_joint" type="fixed">
      <parent link="base"/><child link="${name}_link"/>
      <origin xyz="0 0 1"/>
      <origin xyz="0 0 2"/>
    </joint>
  </xacro:macro>
  <xacro:leg name="fl"/>
  <xacro:leg name="fr"/>
  <xacro:leg name="rl"/>
</robot>
"""


def test_a_duplicate_in_a_macro_body_is_printed_once_with_its_calls(tmp_path: Path) -> None:
    path = tmp_path / 'legs.urdf.xacro'
    path.write_text(DUPLICATE)
    (finding,) = [f for f in check_description(load(path)) if f.code == 'element-duplicate']
    assert finding.count == 3 and [chain[0].location.line for chain in finding.calls] == \
        [12, 13, 14]
    assert finding.message.startswith('<joint> has a second <origin> (the first is at ')
    out = run_cli('check', str(path), '--no-config').stdout
    assert out.count('warning[element-duplicate]') == 1 and ' (3 times)\n' in out, out
