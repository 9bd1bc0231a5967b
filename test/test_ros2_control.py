"""
``<ros2_control>``: the model read from a block, each distro's verdict on what its parser refuses.

:data:`PARSER_CASES` restates, as small URDFs of our own, the cases of hardware_interface's
``test/test_component_parser.cpp`` (branches humble and jazzy) and of the resource manager's
tests: which the parser throws on, per branch, and which it accepts. Each row gives the code we
report and its severity for ``ros-humble`` (ros2_control 2.x) and ``ros-jazzy`` (4.x).
"""

from __future__ import annotations

import pytest

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.source.loader import load_string

LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
#: Links base, l1, l2, tool, rf, lf; joint1 and joint2 revolute, tool_joint fixed, the fingers
#: prismatic, left_finger_joint mimicking right_finger_joint (x2 + 1).
URDF = ''.join([
    '<robot name="r">',
    *(f'<link name="{name}"/>' for name in ('base', 'l1', 'l2', 'tool', 'rf', 'lf')),
    f'<joint name="joint1" type="revolute"><parent link="base"/><child link="l1"/>{LIMIT}</joint>',
    f'<joint name="joint2" type="revolute"><parent link="l1"/><child link="l2"/>{LIMIT}</joint>',
    '<joint name="tool_joint" type="fixed"><parent link="l2"/><child link="tool"/></joint>',
    '<joint name="right_finger_joint" type="prismatic"><parent link="l2"/><child link="rf"/>'
    f'{LIMIT}</joint>',
    '<joint name="left_finger_joint" type="prismatic"><parent link="l2"/><child link="lf"/>'
    f'{LIMIT}<mimic joint="right_finger_joint" multiplier="2" offset="1"/></joint>',
    '{blocks}</robot>'])
HARDWARE = '<hardware><plugin>mock_components/GenericSystem</plugin></hardware>'


def block(*children: str, attributes: str = 'name="hw" type="system"',
          hardware: str = HARDWARE) -> str:
    return f'<ros2_control {attributes}>{hardware}{"".join(children)}</ros2_control>'


def joint(name: str = 'joint1', body: str = '<command_interface name="position"/>',
          attributes: str = '') -> str:
    return f'<joint name="{name}"{attributes}>{body}</joint>'


STATE = '<state_interface name="position"/>'
FINGERS = joint('right_finger_joint', '<command_interface name="effort"/>' + STATE)
E, W, N = 'error', 'warning', 'info'  # N: a note (info)

#: name -> (blocks, code, severity for ros-humble, for ros-jazzy); code None: no ros2_control
#: finding at all (the parser accepts it on both branches).
PARSER_CASES: dict[str, tuple[str, str | None, str | None, str | None]] = {
    # thrown on both branches (test_component_parser.cpp, humble and jazzy)
    'unknown child of the block': (
        block(hardware='<hardwarert><plugin>p</plugin></hardwarert>'),
        'ros2-control-element-unknown', E, E),
    'block without name': (block(attributes='type="system"'), 'attribute-missing', E, E),
    'block without type': (block(attributes='name="hw"'), 'attribute-missing', E, E),
    'hardware param without name': (
        block(hardware='<hardware><plugin>p</plugin><param>2</param></hardware>'),
        'attribute-missing', E, E),
    'state interface without name': (
        block(joint(body='<state_interface></state_interface>')), 'attribute-missing', E, E),
    'command interface without name, a param inside': (
        block(joint(body='<command_interface><param name="min">-1</param></command_interface>')),
        'attribute-missing', E, E),
    'interface param without name': (
        block(joint(body='<command_interface name="position"><param>1.0</param>'
                         '</command_interface>')), 'attribute-missing', E, E),
    'negative GPIO size': (
        block('<gpio name="io"><command_interface name="out" data_type="bool" size="-4"/></gpio>'),
        'ros2-control-value-invalid', E, E),
    'GPIO size that is not an integer': (
        block('<gpio name="io"><command_interface name="out" size="ILLEGAL"/></gpio>'),
        'ros2-control-value-invalid', E, E),
    'transmission of a joint the actuator lacks': (
        block(joint(body='<command_interface name="velocity"/>'),
              '<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>'
              '<joint name="joint31415" role="joint1"/></transmission>',
              attributes='name="hw" type="actuator"'),
        'ros2-control-transmission-invalid', E, E),
    'actuator transmission with two joints': (
        block(joint(body='<command_interface name="velocity"/>'), joint('joint2', STATE),
              '<transmission name="t"><plugin>transmission_interface/SimpleTransmission</plugin>'
              '<joint name="joint1" role="joint1"/><joint name="joint2" role="joint2"/>'
              '</transmission>', attributes='name="hw" type="actuator"'),
        'ros2-control-transmission-invalid', E, E),
    'transmission joint without role': (
        block(joint(), '<transmission name="t"><plugin>p</plugin><joint name="joint1"/>'
                       '</transmission>'), 'attribute-missing', E, E),
    'transmission without plugin': (
        block(joint(), '<transmission name="t"><type>p</type><joint name="joint1" role="j"/>'
                       '</transmission>'), 'ros2-control-plugin-missing', E, E),
    'hardware without plugin': (
        block(joint(), hardware='<hardware><param name="some_param">1.0</param></hardware>'),
        'ros2-control-plugin-missing', E, E),
    # thrown by ros2_control 4.x only (jazzy), which reads more and checks the URDF
    'fixed joint with a command interface': (
        block(joint('tool_joint')), 'ros2-control-joint-fixed', W, E),
    'joint the URDF lacks': (block(joint('joint3')), 'ros2-control-joint-missing', W, E),
    'mimic="true" on a joint without URDF mimic': (
        block(FINGERS, joint('joint1', STATE, ' mimic="true"')),
        'ros2-control-mimic-invalid', W, E),
    'URDF mimic joint, mimic="true", with a command interface': (
        block(FINGERS, joint('left_finger_joint', '<command_interface name="effort"/>' + STATE,
                             ' mimic="true"')), 'ros2-control-mimic-invalid', W, E),
    'URDF mimic joint whose source the block lacks': (
        block(joint('left_finger_joint', STATE)), 'ros2-control-mimic-invalid', W, E),
    'async block with a negative thread priority': (
        block(attributes='name="hw" type="actuator" is_async="true" thread_priority="-30"'),
        'ros2-control-value-invalid', W, E),
    'negative rw_rate': (block(attributes='name="hw" type="system" rw_rate="-50"'),
                         'ros2-control-value-invalid', W, E),
    'rw_rate with text': (block(attributes='name="hw" type="system" rw_rate="d 50"'),
                          'ros2-control-value-invalid', W, E),
    'rw_rate out of range': (block(attributes='name="hw" type="system" rw_rate="12345678901"'),
                             'ros2-control-value-invalid', W, E),
    'mimic attribute that is no boolean': (
        block(FINGERS, joint('left_finger_joint', STATE, ' mimic="yes"')),
        'ros2-control-value-invalid', W, E),
    '<limits> without enable': (
        block(joint(body='<limits/><command_interface name="position"/>')),
        'attribute-missing', W, E),
    'unknown data_type': (
        block('<gpio name="io"><state_interface name="image" data_type="cv::Mat"/></gpio>'),
        'ros2-control-value-invalid', W, E),
    'initial_value a double cannot hold': (
        block(joint(body='<state_interface name="position"><param name="initial_value">zero'
                         '</param></state_interface>')), 'ros2-control-value-invalid', W, E),
    # refused by 2.x only: <properties> came with 4.x (an info for the others)
    '<properties> of an async block': (
        block(joint(), '<properties><async thread_priority="50"/></properties>'),
        'ros2-control-element-unknown', E, N),
    # the resource manager (load_urdf)
    'two blocks of the same name': (
        block(joint()) + block(joint('joint2')), 'ros2-control-hardware-duplicate', E, E),
    'an interface in two blocks': (
        block(joint(body=STATE)) + block(joint(body=STATE), attributes='name="hw2" type="sensor"'),
        'ros2-control-interface-duplicate', W, E),
    'type none of system, actuator, sensor': (
        block(joint(), attributes='name="hw" type="System"'), 'ros2-control-type-unknown', E, E),
    # never read: only a <ros2_control> child of <robot> is (ros2_control#1602)
    'block inside <gazebo>': (f'<gazebo>{block(joint())}</gazebo>', 'ros2-control-not-found',
                              E, E),
    # mock_components 2.x read <param name="mimic">; 4.x follows the URDF <mimic> only
    'pre-Jazzy mimic param without URDF mimic': (
        block(joint('joint1'), joint('joint2', '<param name="mimic">joint1</param>' + STATE)),
        'ros2-control-mimic-param', N, E),
    # accepted on both branches (the parser's successful cases)
    'URDF mimic joint with state interfaces only': (
        block(FINGERS, joint('left_finger_joint', STATE, ' mimic="true"')), None, None, None),
    'URDF mimic joint, no mimic attribute, state interfaces only': (
        block(FINGERS, joint('left_finger_joint', STATE)), None, None, None),
    'URDF mimic joint with mimic="false" and a command interface': (
        block(FINGERS, joint('left_finger_joint', '<command_interface name="effort"/>',
                             ' mimic="false"')), None, None, None),
    'GPIO of bools, size 4': (
        block('<gpio name="io"><command_interface name="out" data_type="bool" size="4">'
              '<param name="initial_value">True</param></command_interface></gpio>'),
        None, None, None),
    'empty parameter': (block(joint(), hardware='<hardware><plugin>p</plugin><param name="x">'
                                                '</param></hardware>'), None, None, None),
    'rw_rate and disabled limits': (
        block(joint(body='<limits enable="false"/><command_interface name="position">'
                         '<param name="min">-1</param></command_interface>'),
              attributes='name="hw" type="system" rw_rate="50"'), None, None, None),
}


@pytest.mark.parametrize('name', list(PARSER_CASES))
def test_each_parser_case_has_its_code_and_severity_per_distro(name: str) -> None:
    blocks, code, humble, jazzy = PARSER_CASES[name]
    description = load_string(URDF.format(blocks=blocks), '/tmp/robot.urdf')
    for target, expected in (('ros-humble', humble), ('ros-jazzy', jazzy)):
        found = [finding for finding in check_description(description, target)
                 if finding.code.startswith('ros2-control') or finding.code.startswith(
                     'attribute-')]
        if code is None:
            assert found == [], (target, [str(finding) for finding in found])
            continue
        severities = {finding.severity.value for finding in found if finding.code == code}
        assert severities == ({expected} if expected else set()), (target, found)


def test_the_targets_differ_as_the_distros_do() -> None:
    description = load_string(URDF.format(blocks=block(joint('joint3'))), '/tmp/robot.urdf')
    verdicts = {target: [finding.severity.value for finding in check_description(
        description, target) if finding.code == 'ros2-control-joint-missing']
        for target in ('ros-humble', 'ros-jazzy', 'ros-kilted', 'ros-lyrical', 'ros-rolling')}
    assert verdicts == {'ros-humble': [W], 'ros-jazzy': [E], 'ros-kilted': [E],
                        'ros-lyrical': [E], 'ros-rolling': [E]}
    (finding,) = [f for f in check_description(description, 'ros-jazzy')
                  if f.code == 'ros2-control-joint-missing']
    assert "Joint 'joint3' not found in URDF" in finding.message


# -- the model ------------------------------------------------------------------------------
MODEL = """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <ros2_control name="hw" type="system" rw_rate="10" is_async="true">
    <hardware>
      <plugin> mock_components/GenericSystem </plugin>
      <param name="port">/dev/tty0</param>
    </hardware>
    <properties><async thread_priority="60"/></properties>
    <joint name="j" mimic="false">
      <limits enable="false"/>
      <command_interface name="position">
        <param name="min">-1</param>
        <param name="min">-2</param>
      </command_interface>
      <state_interface name="position" data_type="double" size="1"/>
    </joint>
    <sensor name="ft"><state_interface name="force.x"/></sensor>
    <gpio name="io"><command_interface name="out" data_type="bool" size="4"/></gpio>
    <transmission name="t">
      <plugin>transmission_interface/SimpleTransmission</plugin>
      <param name="p">2</param>
      <joint name="j" role="joint1" read_only="true"/>
      <actuator name="m" role="actuator1"/>
    </transmission>
  </ros2_control>
  <gazebo><ros2_control name="lost" type=""><joint/></ros2_control></gazebo>
</robot>
"""


def test_a_block_is_read_completely_with_each_line() -> None:
    description = load_string(MODEL, '/tmp/robot.urdf')
    control, lost = description.robot.ros2_control
    assert (control.name, control.control_type, control.rw_rate, control.is_async,
            control.thread_priority, control.parent, control.is_read) == (
        'hw', 'system', '10', 'true', None, 'robot', True)
    assert control.location is not None and control.location.line == 4
    hardware = control.hardware
    assert hardware is not None and hardware.plugin == 'mock_components/GenericSystem'
    assert [(p.name, p.value, p.location.line if p.location else None)
            for p in hardware.parameters] == [('port', '/dev/tty0', 7)]
    assert control.properties is not None \
        and control.properties.async_attribute('thread_priority') == '60'
    (joint,) = control.joints
    assert (joint.name, joint.component_type, joint.mimic) == ('j', 'joint', 'false')
    assert joint.limits is not None and joint.limits.enable == 'false'
    (command,) = joint.command_interfaces
    min_ = command.param('min')
    assert min_ is not None and min_.value == '-2' and min_.location is not None \
        and min_.location.line == 14  # the parser's map keeps the last
    (state,) = joint.state_interfaces
    assert (state.name, state.data_type, state.size) == ('position', 'double', '1')
    assert [(c.name, c.component_type) for c in control.sensors + control.gpios] == [
        ('ft', 'sensor'), ('io', 'gpio')]
    assert control.gpios[0].command_interfaces[0].size == '4'
    (transmission,) = control.transmissions
    assert transmission.plugin == 'transmission_interface/SimpleTransmission'
    assert [p.name for p in transmission.parameters] == ['p']
    assert (transmission.joints[0].role, transmission.joints[0].read_only) == ('joint1', 'true')
    lines = {element: thing.location.line for element, thing in (
        ('joint', joint), ('command', command), ('state', state),
        ('sensor', control.sensors[0]), ('transmission', transmission),
        ('transmission joint', transmission.joints[0]), ('lost', lost))
        if thing.location is not None}
    assert lines == {'joint': 10, 'command': 12, 'state': 16, 'sensor': 18, 'transmission': 20,
                     'transmission joint': 23, 'lost': 27}
    assert (lost.name, lost.control_type, lost.parent, lost.is_read) == (
        'lost', '', 'gazebo', False)
    assert description.robot.ros2_control_read == (control,)


def test_absent_and_empty_are_kept_apart() -> None:
    description = load_string(MODEL.replace('type="system" rw_rate', 'rw_rate'),
                              '/tmp/robot.urdf')
    control = description.robot.ros2_control[0]
    assert control.control_type is None
    (missing,) = [f for f in description.findings if f.code == 'attribute-missing']
    assert missing.location is not None and missing.location.line == 4
    assert missing.consumers == ('ros2_control-humble', 'ros2_control')
    # the nested block's empty name and type: no finding of the reader, the block is not read
    assert [f.code for f in check_description(load_string(MODEL, '/tmp/robot.urdf'),
                                              'ros-jazzy') if f.severity.value == E] == [
        'ros2-control-not-found']
