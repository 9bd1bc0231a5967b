"""
A failing and a fixed URDF for each rule: what ``urdf-tools rules CODE`` shows.

Part of the rule catalog (one source): a test checks that every example's ``bad`` gives a
finding of its code and its ``good`` does not (``test/test_rule_examples.py``). Rules that
cannot be shown by a URDF alone are listed in :data:`NO_EXAMPLE` with the reason.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ['EXAMPLES', 'Example', 'NO_EXAMPLE']


class Example(NamedTuple):
    """
    A URDF with a finding of the rule (``bad``) and its fixed twin (``good``).

    :ivar files: Files the good twin names, relative to the URDF's folder (they exist there).
    """

    bad: str
    good: str
    files: tuple[str, ...] = ()


#: Rules without an example, and why.
NO_EXAMPLE: dict[str, str] = {
    'xacro-arg-unknown': 'needs a xacro file and an argument given on the command line',
    'xacro-warning': 'needs a xacro file that xacro warns about',
    'xacro-lines-unavailable': 'depends on the installed xacro, not on the file',
    'urdf-parser-py-rejects': 'only with --urdf-parser-py (the cross-check)',
    'urdf-parser-py-warning': 'only with --urdf-parser-py (the cross-check)',
    'mesh-scale-suspect': 'needs a mesh file with vertices (a CAD part exported in millimetres)',
}

EXAMPLES: dict[str, Example] = {
    'attribute-missing': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><box/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>
</robot>"""),
    'description-unloadable': Example(
        """<robot name="r">
  <link name="a">
</robot>""",
        """<robot name="r">
  <link name="a"/>
</robot>"""),
    'element-duplicate': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1"/><origin xyz="0 0 2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1"/></joint>
</robot>"""),
    'gazebo-lumping-zero-mass': Example(
        """<robot name="r">
<link name="a"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
<link name="frame"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="to_frame" type="fixed"><parent link="a"/><child link="frame"/></joint>
<link name="optical"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="to_optical" type="fixed"><parent link="frame"/><child link="optical"/></joint>
</robot>""",
        """<robot name="r">
<link name="a"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
<link name="frame"></link>
<joint name="to_frame" type="fixed"><parent link="a"/><child link="frame"/></joint>
<link name="optical"></link>
<joint name="to_optical" type="fixed"><parent link="frame"/><child link="optical"/></joint>
</robot>"""),
    'gazebo-reference-missing': Example(
        """<robot name="r">
  <link name="base"/>
  <gazebo reference="bsae"><material>Gazebo/Grey</material></gazebo>
</robot>""",
        """<robot name="r">
  <link name="base"/>
  <gazebo reference="base"><material>Gazebo/Grey</material></gazebo>
</robot>"""),
    'geometry-missing': Example(
        """<robot name="r">
  <link name="a"><visual></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><sphere radius="1"/></geometry></visual></link>
</robot>"""),
    'geometry-size-negative': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><box size="-1 1 1"/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry></visual></link>
</robot>"""),
    'geometry-size-zero': Example(
        """<robot name="r">
  <link name="a"><collision><geometry><box size="0 0 0"/></geometry></collision></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><box size="0 0 0"/></geometry></visual></link>
</robot>"""),
    'geometry-unknown': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><cone radius="1" length="1"/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><cylinder radius="1" length="1"/></geometry></visual></link>
</robot>"""),
    'inertia-implausible': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1.6e-3" ixy="0" ixz="0" iyy="1.6e-3" iyz="0" izz="1.6e-3"/></inertial><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'inertia-near-zero': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1e-9"/><inertia ixx="1e-15" ixy="0" ixz="0" iyy="1e-15" iyz="0" izz="1e-15"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1e-9"/><inertia ixx="1e-15" ixy="0" ixz="0" iyy="1e-15" iyz="0" izz="1e-15"/></inertial></link>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'inertia-not-positive-definite': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="-1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'inertia-triangle-inequality': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="3e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="2e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'inertial-incomplete': Example(
        """<robot name="r">
  <link name="a"><inertial><mass value="1"/></inertial></link>
</robot>""",
        """<robot name="r">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
</robot>"""),
    'inertial-mass-not-positive': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="-2"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="2"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'inertial-missing-on-moving-link': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="0.5"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'joint-axis-not-unit': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><axis xyz="0 0 2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><axis xyz="0 0.7071 0.7071"/></joint>
</robot>"""),
    'joint-axis-zero': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><axis xyz="0 0 0"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint>
</robot>"""),
    'joint-calibration-outside-limits': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><calibration rising="2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><calibration rising="0.5" falling="-0.5"/></joint>
</robot>"""),
    'joint-child-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'joint-duplicate': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'joint-dynamics-negative': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><dynamics damping="-0.1" friction="0.2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><dynamics damping="0.1"/></joint>
</robot>"""),
    'joint-limit-bound-missing': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'joint-limit-effort-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
</robot>"""),
    'joint-limit-effort-negative': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="-5" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
</robot>"""),
    'joint-limit-lower-above-upper': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="1.2" upper="0.4" effort="10" velocity="2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="0.4" upper="1.2" effort="10" velocity="2"/></joint>
</robot>"""),
    'joint-limit-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'joint-limit-velocity-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/><limit effort="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/><limit effort="1" velocity="1"/></joint>
</robot>"""),
    'joint-limit-velocity-negative': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/><limit effort="1" velocity="-2.5"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/><limit effort="1" velocity="0"/></joint>
</robot>"""),
    'joint-limit-zero-range': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="0.3" upper="0.3" effort="10" velocity="2"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="0.3" upper="0.4" effort="10" velocity="2"/></joint>
</robot>"""),
    'joint-parent-equals-child': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="fixed"><parent link="b"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'joint-parent-missing': Example(
        """<robot name="r">
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'joint-type-unknown': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="spinny"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'kinematic-cycle': Example(
        """<robot name="r">
  <link name="w"/><link name="a"/><link name="b"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>""",
        """<robot name="r">
  <link name="w"/><link name="a"/><link name="b"/>
  <joint name="j0" type="fixed"><parent link="w"/><child link="a"/></joint>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'limit-attribute-ignored': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1" acceleration="2"/></joint>
</robot>""",
        """<robot name="r" version="1.2">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1" acceleration="2"/></joint>
</robot>"""),
    'limit-attribute-negative': Example(
        """<robot name="r" version="1.2">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1" acceleration="-2"/></joint>
</robot>""",
        """<robot name="r" version="1.2">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1" acceleration="2"/></joint>
</robot>"""),
    'link-duplicate': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="a"/>
</robot>""",
        """<robot name="r">
  <link name="a"/>
</robot>"""),
    'link-inertia-invalid': Example(
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="c"><inertial><mass value="1e-6"/><inertia ixx="2.371e-8" ixy="6.119e-8" ixz="1.179e-8" iyy="2.833e-8" iyz="7.74e-9" izz="3.849e-8"/></inertial></link>
  <joint name="k" type="fixed"><origin xyz="0 0 0.1"/><parent link="b"/><child link="c"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="c"><inertial><mass value="1e-6"/><inertia ixx="2.371e-8" ixy="0" ixz="0" iyy="2.833e-8" iyz="0" izz="3.849e-8"/></inertial></link>
  <joint name="k" type="fixed"><origin xyz="0 0 0.1"/><parent link="b"/><child link="c"/></joint>
</robot>"""),
    'link-joint-name-shared': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="b" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="b" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'link-multiple-parents': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="fixed"><parent link="b"/><child link="c"/></joint>
  <joint name="m" type="fixed"><parent link="a"/><child link="c"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="fixed"><parent link="b"/><child link="c"/></joint>
</robot>"""),
    'material-duplicate': Example(
        """<robot name="r">
  <material name="m"><color rgba="1 0 0 1"/></material>
  <material name="m"><color rgba="1 0 0 1"/></material>
  <link name="a"/>
</robot>""",
        """<robot name="r">
  <material name="m"><color rgba="1 0 0 1"/></material>
  <material name="n"><color rgba="1 0 0 1"/></material>
  <link name="a"/>
</robot>"""),
    'material-redefined': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="m"><color rgba="0 0 1 1"/></material></visual></link>
  <material name="m"><color rgba="1 0 0 1"/></material>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="m"><color rgba="1 0 0 1"/></material></visual></link>
  <material name="m"><color rgba="1 0 0 1"/></material>
</robot>"""),
    'material-rgba-out-of-range': Example(
        """<robot name="r">
  <material name="m"><color rgba="255 0 0 1"/></material>
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="m"/></visual></link>
</robot>""",
        """<robot name="r">
  <material name="m"><color rgba="1 0 0 1"/></material>
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="m"/></visual></link>
</robot>"""),
    'material-texture-missing': Example(
        """<robot name="r">
  <material name="t"><texture filename="gone.png"/></material>
</robot>""",
        """<robot name="r">
  <material name="t"><texture filename="textures/wood.png"/></material>
</robot>""", ('textures/wood.png',)),
    'material-undefined': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="nope"/></visual></link>
</robot>""",
        """<robot name="r">
  <material name="nope"><color rgba="1 0 0 1"/></material>
  <link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="nope"/></visual></link>
</robot>"""),
    'mesh-extension-unsupported': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><mesh filename="m.ply"/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><mesh filename="M.STL"/></geometry></visual></link>
</robot>"""),
    'collision-mesh-dae': Example(
        """<robot name="r">
  <link name="a"><collision><geometry><mesh filename="meshes/base.dae"/></geometry></collision></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><mesh filename="meshes/base.dae"/></geometry></visual><collision><geometry><mesh filename="meshes/base.stl"/></geometry></collision></link>
</robot>""", ('meshes/base.dae', 'meshes/base.stl')),
    'mesh-file-missing': Example(
        """<robot name="r">
  <link name="a"><visual><geometry><mesh filename="meshes/bsae.stl"/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><geometry><mesh filename="meshes/base.stl"/></geometry></visual></link>
</robot>""", ('meshes/base.stl',)),
    'mimic-cycle': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/><mimic joint="k"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>"""),
    'mimic-fixed-joint': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>"""),
    'mimic-missing-joint': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="k" type="continuous"><parent link="a"/><child link="b"/><mimic joint="j"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="k" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'mimic-range-exceeds-limits': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="s" type="revolute"><parent link="a"/><child link="b"/><limit lower="0" upper="0.8" effort="10" velocity="2"/></joint>
  <joint name="m" type="revolute"><parent link="b"/><child link="c"/><limit lower="0" upper="0.8" effort="10" velocity="2"/><mimic joint="s" multiplier="-1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="s" type="revolute"><parent link="a"/><child link="b"/><limit lower="0" upper="0.8" effort="10" velocity="2"/></joint>
  <joint name="m" type="revolute"><parent link="b"/><child link="c"/><limit lower="-0.8" upper="0" effort="10" velocity="2"/><mimic joint="s" multiplier="-1"/></joint>
</robot>"""),
    'mimic-self': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="k" type="continuous"><parent link="a"/><child link="b"/><mimic joint="k"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="k" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'mimic-unsupported-joint': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="planar"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j"/></joint>
</robot>"""),
    'multiple-root-links': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'no-root-link': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>"""),
    'number-invalid': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1,5"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1.5"/></joint>
</robot>"""),
    'number-not-finite': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 nan"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 0"/></joint>
</robot>"""),
    'origin-quaternion-ignored': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0.7071068 0.7071068"/></joint>
</robot>""",
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0.7071068 0.7071068"/></joint>
</robot>"""),
    'origin-quaternion-invalid': Example(
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0 0"/></joint>
</robot>""",
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0 1"/></joint>
</robot>"""),
    'origin-quaternion-not-unit': Example(
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 2 2"/></joint>
</robot>""",
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0.7071068 0.7071068"/></joint>
</robot>"""),
    'origin-rpy-and-quaternion': Example(
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" rpy="0 0 1.5707963" quat_xyzw="0 0 0.7071068 0.7071068"/></joint>
</robot>""",
        """<robot name="r" version="1.1">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" quat_xyzw="0 0 0.7071068 0.7071068"/></joint>
</robot>"""),
    'robot-name-missing': Example(
        """<robot version="1.0">
  <link name="a"/>
</robot>""",
        """<robot name="r" version="1.0">
  <link name="a"/>
</robot>"""),
    'robot-no-links': Example(
        """<robot name="r">
  <material name="m"><color rgba="1 0 0 1"/></material>
</robot>""",
        """<robot name="r">
  <link name="a"/>
</robot>"""),
    'robot-version-new': Example(
        """<robot name="r" version="1.1">
  <link name="a"/>
</robot>""",
        """<robot name="r" version="1.0">
  <link name="a"/>
</robot>"""),
    'robot-version-unsupported': Example(
        """<robot name="r" version="2.0">
  <link name="a"/>
</robot>""",
        """<robot name="r" version="1.0">
  <link name="a"/>
</robot>"""),
    'root-body-massless': Example(
        """<robot name="r">
<link name="a"></link>
<link name="base"></link>
<joint name="to_base" type="fixed"><parent link="a"/><child link="base"/></joint>
</robot>""",
        """<robot name="r">
<link name="world"></link>
<link name="base"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
<joint name="to_base" type="fixed"><parent link="world"/><child link="base"/></joint>
</robot>"""),
    'root-link-inertia': Example(
        """<robot name="r">
  <link name="a"><inertial><mass value="2"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""),
    'ros2-control-joint-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <ros2_control name="c" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="wrist"><command_interface name="position"/></joint>
    <transmission name="t2"><plugin>transmission_interface/SimpleTransmission</plugin><joint name="j" role="joint1"><mechanical_reduction>50</mechanical_reduction></joint><actuator name="m2" role="actuator1"/></transmission>
  </ros2_control>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <ros2_control name="c" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j"><command_interface name="position"/></joint>
    <transmission name="t2"><plugin>transmission_interface/SimpleTransmission</plugin><joint name="j" role="joint1"><mechanical_reduction>50</mechanical_reduction></joint><actuator name="m2" role="actuator1"/></transmission>
  </ros2_control>
</robot>"""),
    'safety-controller-k-velocity-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller /></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="10"/></joint>
</robot>"""),
    'safety-k-position-negative': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" k_position="-15"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" k_position="15"/></joint>
</robot>"""),
    'safety-k-velocity-negative': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="-10"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="10"/></joint>
</robot>"""),
    'safety-soft-limits-outside-limits': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" soft_upper_limit="1.5"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" soft_upper_limit="0.9"/></joint>
</robot>"""),
    'safety-soft-lower-above-upper': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" soft_lower_limit="0.5" soft_upper_limit="-0.5"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="10" velocity="2"/><safety_controller k_velocity="1" soft_lower_limit="-0.5" soft_upper_limit="0.5"/></joint>
</robot>"""),
    'suppression-unused': Example(
        """<robot name="r">
  <!-- urdf-tools: ignore[joint-limit-missing] -->
  <link name="a"/>
</robot>""",
        """<robot name="r">
  <link name="a"/>
</robot>"""),
    'transmission-form-invalid': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><joint name="j"/></transmission>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>"""),
    'transmission-joint-missing': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="J"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>"""),
    'transmission-no-actuator': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
  </transmission>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>"""),
    'transmission-no-joint': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
</robot>"""),
    'transmission-reduction-zero': Example(
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>0</mechanicalReduction></actuator>
  </transmission>
</robot>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m"><mechanicalReduction>-1</mechanicalReduction></actuator>
  </transmission>
</robot>"""),
    'unknown-attribute': Example(
        """<robot name="r">
  <link name="a"><visual><origin xyz="0 0 0" rpi="0 0 1.57"/>
    <geometry><box size="1 1 1"/></geometry></visual></link>
</robot>""",
        """<robot name="r">
  <link name="a"><visual><origin xyz="0 0 0" rpy="0 0 1.57"/>
    <geometry><box size="1 1 1"/></geometry></visual></link>
</robot>"""),
    'unknown-element': Example(
        """<robot name="r">
  <link name="a"><sensor name="s"/></link>
</robot>""",
        """<robot name="r">
  <link name="a"/>
</robot>"""),
    'vector-size': Example(
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 1"/></joint>
</robot>""",
        """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 1 0"/></joint>
</robot>"""),
    'xml-declaration-invalid': Example(
        """
<?xml version="1.0"?>
<robot name="r">
  <link name="a"/>
</robot>""",
        """<?xml version="1.0"?>
<robot name="r">
  <link name="a"/>
</robot>"""),
    'xml-namespace-undeclared': Example(
        """<robot name="r">
  <link name="a"/>
  <sensor:camera name="c"/>
</robot>""",
        """<robot name="r" xmlns:sensor="http://playerstage.sourceforge.net/gazebo/xmlschema/#sensor">
  <link name="a"/>
  <sensor:camera name="c"/>
</robot>"""),
    'xml-trailing-content': Example(
        """<robot name="r">
  <link name="a"/>
</robot>
<link name="b"/>""",
        """<robot name="r">
  <link name="a"/>
  <link name="b"/>
</robot>"""),
}
