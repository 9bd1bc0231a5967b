"""
A failing and a fixed URDF for each rule: what ``urdf-tools rules CODE`` shows.

``test/test_rule_examples.py`` checks that ``bad`` gives a finding of its code and ``good`` does
not; rules no URDF alone can show are in :data:`NO_EXAMPLE`.
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
    **dict.fromkeys(('collision-mesh-stl-ascii', 'collision-mesh-stl-triangles',
                     'collision-mesh-not-finite', 'collision-mesh-flat',
                     'collision-mesh-volume-tiny',
                     'collision-mesh-concave', 'collision-mesh-heavy'),
                    'needs a collision mesh file with triangles (test/test_collision_meshes.py '
                    'writes them)'),
    'description-not-an-entry': "the language server's, for a xacro file of a workspace",
}


def _attributes(values: dict[str, str | None]) -> str:
    """`` a="1" b="2"`` for the values that are not ``None``."""
    return ''.join(f' {name}="{value}"' for name, value in values.items() if value is not None)


def robot(*elements: str, **attributes: str | None) -> str:
    """``<robot name="r">`` holding ``elements``, each on its own lines, indented by two."""
    head = f'<robot{_attributes({"name": "r", **attributes})}>'
    body = [f'  {line}' for element in elements for line in element.splitlines()]
    return '\n'.join((head, *body, '</robot>'))


def link(name: str, body: str = '') -> str:
    """``<link name="...">`` holding ``body``."""
    return f'<link name="{name}">{body}</link>' if body else f'<link name="{name}"/>'


def joint(joint_type: str = 'fixed', body: str = '', name: str = 'j', parent: str = 'a',
          child: str = 'b') -> str:
    """``<joint>`` from ``parent`` to ``child`` holding ``body``."""
    return (f'<joint name="{name}" type="{joint_type}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{body}</joint>')


def limit(**attributes: str | None) -> str:
    """``<limit lower="-1" upper="1" effort="10" velocity="2"/>`` with ``attributes`` changed."""
    values = {'lower': '-1', 'upper': '1', 'effort': '10', 'velocity': '2', **attributes}
    return f'<limit{_attributes(values)}/>'


def inertial(mass: str = '1', ixx: str = '1e-3', iyy: str = '1e-3', izz: str = '1e-3',
             ixy: str = '0', ixz: str = '0', iyz: str = '0') -> str:
    """``<inertial>`` of ``mass`` (kg) and inertia (kg m^2) about the link origin."""
    return (f'<inertial><mass value="{mass}"/><inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" '
            f'iyy="{iyy}" iyz="{iyz}" izz="{izz}"/></inertial>')


def visual(geometry: str, material: str = '') -> str:
    """``<visual>`` of one ``<geometry>``."""
    return f'<visual><geometry>{geometry}</geometry>{material}</visual>'


def collision(geometry: str) -> str:
    """``<collision>`` of one ``<geometry>``."""
    return f'<collision><geometry>{geometry}</geometry></collision>'


def material(name: str, rgba: str = '') -> str:
    """``<material>``: a definition with a ``<color>`` or, without ``rgba``, a reference."""
    return f'<material name="{name}"><color rgba="{rgba}"/></material>' if rgba \
        else f'<material name="{name}"/>'


def transmission(joint_name: str | None = 'j', reduction: str | None = '1') -> str:
    """A ROS 1 ``<transmission>`` (``SimpleTransmission``); ``None`` leaves a part out."""
    lines = ['<transmission name="t"><type>transmission_interface/SimpleTransmission</type>']
    if joint_name is not None:
        lines.append(f'  <joint name="{joint_name}"><hardwareInterface>'
                     'hardware_interface/EffortJointInterface</hardwareInterface></joint>')
    if reduction is not None:
        lines.append(f'  <actuator name="m"><mechanicalReduction>{reduction}'
                     '</mechanicalReduction></actuator>')
    return '\n'.join((*lines, '</transmission>'))


A = link('a')
AB = '<link name="a"/><link name="b"/>'
ABC = '<link name="a"/><link name="b"/><link name="c"/>'
BOX = '<box size="1 1 1"/>'
RED = '1 0 0 1'
ZERO_INERTIAL = inertial('0', '0', '0', '0')
Q90 = '0 0 0.7071068 0.7071068'


def _moving(body: str = '', joint_type: str = 'revolute') -> tuple[str, ...]:
    """Link ``b`` holding ``body`` on joint ``j`` (with a limit) below the root link ``a``."""
    return (A, link('b', body), joint(joint_type, limit()))


def _lumped(body: str) -> str:
    """Link ``a`` with mass and two links holding ``body`` fixed below it."""
    return robot(link('a', inertial()), link('frame', body), joint(name='to_frame', child='frame'),
                 link('optical', body),
                 joint(name='to_optical', parent='frame', child='optical'))


def _mimicked(source_type: str, source_body: str = '') -> str:
    """Joint ``k`` mimics joint ``j`` of ``source_type``."""
    return robot(ABC, joint(source_type, source_body),
                 joint('continuous', '<mimic joint="j"/>', name='k', parent='b', child='c'))


def _quaternion(quat_xyzw: str, version: str | None = '1.1', rpy: str = '') -> str:
    """Joint ``j`` whose ``<origin>`` has ``quat_xyzw`` (and ``rpy`` when given)."""
    rpy = f' rpy="{rpy}"' if rpy else ''
    return robot(AB, joint(body=f'<origin xyz="0 0 1"{rpy} quat_xyzw="{quat_xyzw}"/>'),
                 version=version)


def _safety(attributes: str) -> str:
    """A revolute joint with ``<safety_controller {attributes}/>``."""
    return robot(AB, joint('revolute', f'{limit()}<safety_controller {attributes}/>'))


def _control(*children: str, attributes: str = 'name="c" type="system"',
             plugin: str = '<hardware><plugin>mock_components/GenericSystem</plugin></hardware>'
             ) -> str:
    """A ``<ros2_control>`` block holding ``plugin`` and ``children``."""
    return '\n'.join((f'<ros2_control {attributes}>', *(f'  {line}' for line in (
        plugin, *children) if line), '</ros2_control>'))


def _joint(body: str = '<command_interface name="position"/>', name: str = 'j') -> str:
    """A ``<ros2_control>`` joint ``name`` with ``body`` (its interfaces)."""
    return f'<joint name="{name}">{body}</joint>'


READ = '<state_interface name="position"/>'


def _controlled(*elements: str, joint_type: str = 'continuous') -> str:
    """Links a, b, joint ``j`` of ``joint_type`` and ``elements``."""
    return robot(AB, joint(joint_type), *elements)


def _gripper(*control: str, urdf_mimic: bool = False) -> str:
    """Joints ``j`` (a to b) and ``m`` (b to c, mimicking j when ``urdf_mimic``), a block."""
    mimic = '<mimic joint="j"/>' if urdf_mimic else ''
    return robot(ABC, joint('continuous'), joint('continuous', mimic, 'm', 'b', 'c'),
                 _control(_joint(), *control))


def _transmitted(**parts: str | None) -> str:
    """A continuous joint ``j`` and a :func:`transmission` of ``parts``."""
    return robot(AB, joint('continuous'), transmission(**parts))


EXAMPLES: dict[str, Example] = {
    'attribute-empty': Example(
        robot(A, '<ros2_control name="" type="system"><hardware><plugin>p</plugin></hardware>'
                 '</ros2_control>'),
        robot(A, '<ros2_control name="c" type="system"><hardware><plugin>p</plugin></hardware>'
                 '</ros2_control>')),
    'attribute-missing': Example(
        robot(link('a', visual('<box/>'))),
        robot(link('a', visual('<box size="0.1 0.1 0.1"/>')))),
    'description-unloadable': Example(
        '<robot name="r">\n  <link name="a">\n</robot>',
        robot(A)),
    'element-duplicate': Example(
        robot(AB, joint(body='<origin xyz="0 0 1"/><origin xyz="0 0 2"/>')),
        robot(AB, joint(body='<origin xyz="0 0 1"/>'))),
    'gazebo-lumping-zero-mass': Example(_lumped(ZERO_INERTIAL), _lumped('')),
    'gazebo-reference-missing': Example(
        robot(link('base'), '<gazebo reference="bsae"><material>Gazebo/Grey</material></gazebo>'),
        robot(link('base'), '<gazebo reference="base"><material>Gazebo/Grey</material></gazebo>')),
    'geometry-missing': Example(
        robot(link('a', '<visual></visual>')),
        robot(link('a', visual('<sphere radius="1"/>')))),
    'geometry-size-negative': Example(
        robot(link('a', visual('<box size="-1 1 1"/>'))),
        robot(link('a', visual(BOX)))),
    'geometry-size-zero': Example(
        robot(link('a', collision('<box size="0 0 0"/>'))),
        robot(link('a', visual('<box size="0 0 0"/>')))),
    'geometry-unknown': Example(
        robot(link('a', visual('<cone radius="1" length="1"/>'))),
        robot(link('a', visual('<cylinder radius="1" length="1"/>')))),
    'inertia-implausible': Example(
        robot(*_moving(inertial('1', '1', '1', '1') + collision('<box size="0.1 0.1 0.1"/>'))),
        robot(*_moving(inertial('1', '1.6e-3', '1.6e-3', '1.6e-3')
                       + collision('<box size="0.1 0.1 0.1"/>')))),
    'inertia-near-zero': Example(
        robot(*_moving(inertial('1e-9', '1e-15', '1e-15', '1e-15'))),
        robot(*_moving(inertial('1e-9', '1e-15', '1e-15', '1e-15'), 'fixed'))),
    'inertia-not-positive-definite': Example(
        robot(*_moving(inertial(ixx='-1e-3'))),
        robot(*_moving(inertial()))),
    'inertia-triangle-inequality': Example(
        robot(*_moving(inertial(izz='3e-3'))),
        robot(*_moving(inertial(izz='2e-3')))),
    'inertial-incomplete': Example(
        robot(link('a', '<inertial><mass value="1"/></inertial>')),
        robot(link('a', inertial('1', '0.1', '0.1', '0.1')))),
    'inertial-mass-not-positive': Example(
        robot(*_moving(inertial('-2'))),
        robot(*_moving(inertial('2')))),
    'inertial-missing-on-moving-link': Example(
        robot(*_moving()),
        robot(*_moving(inertial('0.5')))),
    'joint-axis-not-unit': Example(
        robot(AB, joint('prismatic', limit() + '<axis xyz="0 0 2"/>')),
        robot(AB, joint('prismatic', limit() + '<axis xyz="0 0.7071 0.7071"/>'))),
    'joint-axis-zero': Example(
        robot(AB, joint('revolute', limit() + '<axis xyz="0 0 0"/>')),
        robot(AB, joint('fixed', '<axis xyz="0 0 0"/>'))),
    'joint-calibration-outside-limits': Example(
        robot(AB, joint('revolute', limit() + '<calibration rising="2"/>')),
        robot(AB, joint('revolute', limit() + '<calibration rising="0.5" falling="-0.5"/>'))),
    'joint-child-missing': Example(
        robot(A, joint()),
        robot(AB, joint())),
    'joint-duplicate': Example(
        robot(AB, joint(), joint()),
        robot(AB, joint())),
    'joint-dynamics-negative': Example(
        robot(AB, joint('revolute', limit() + '<dynamics damping="-0.1" friction="0.2"/>')),
        robot(AB, joint('revolute', limit() + '<dynamics damping="0.1"/>'))),
    'joint-limit-bound-missing': Example(
        robot(AB, joint('revolute', limit(lower=None))),
        robot(AB, joint('revolute', limit()))),
    'joint-limit-effort-missing': Example(
        robot(AB, joint('revolute', limit(effort=None))),
        robot(AB, joint('revolute', limit()))),
    'joint-limit-effort-negative': Example(
        robot(AB, joint('revolute', limit(effort='-5'))),
        robot(AB, joint('revolute', limit()))),
    'joint-limit-lower-above-upper': Example(
        robot(AB, joint('revolute', limit(lower='1.2', upper='0.4'))),
        robot(AB, joint('revolute', limit(lower='0.4', upper='1.2')))),
    'joint-limit-missing': Example(
        robot(AB, joint('revolute')),
        robot(AB, joint('continuous'))),
    'joint-limit-velocity-missing': Example(
        robot(AB, joint('continuous', '<limit effort="1"/>')),
        robot(AB, joint('continuous', '<limit effort="1" velocity="1"/>'))),
    'joint-limit-velocity-negative': Example(
        robot(AB, joint('continuous', '<limit effort="1" velocity="-2.5"/>')),
        robot(AB, joint('continuous', '<limit effort="1" velocity="2.5"/>'))),
    'joint-limit-zero-actuated': Example(
        robot(AB, joint('continuous', '<limit effort="10" velocity="0"/>'),
              _control(_joint('<command_interface name="velocity"/>'))),
        robot(AB, joint('continuous', '<limit effort="10" velocity="2"/>'),
              _control(_joint('<command_interface name="velocity"/>')))),
    'joint-limit-zero-range': Example(
        robot(AB, joint('prismatic', limit(lower='0.3', upper='0.3'))),
        robot(AB, joint('prismatic', limit(lower='0.3', upper='0.4')))),
    'joint-parent-equals-child': Example(
        robot(AB, joint(), joint(name='k', parent='b')),
        robot(AB, joint())),
    'joint-parent-missing': Example(
        robot(link('b'), joint()),
        robot(AB, joint())),
    'joint-type-unknown': Example(
        robot(AB, joint('spinny')),
        robot(AB, joint())),
    'kinematic-cycle': Example(
        robot(link('w') + AB, joint(name='j1'), joint(name='j2', parent='b', child='a')),
        robot(link('w') + AB, joint(name='j0', parent='w', child='a'), joint(name='j1'))),
    'limit-attribute-ignored': Example(
        robot(AB, joint('revolute', limit(acceleration='2'))),
        robot(AB, joint('revolute', limit(acceleration='2')), version='1.2')),
    'limit-attribute-negative': Example(
        robot(AB, joint('revolute', limit(acceleration='-2')), version='1.2'),
        robot(AB, joint('revolute', limit(acceleration='2')), version='1.2')),
    'link-duplicate': Example(
        robot(A, A),
        robot(A)),
    'link-inertia-invalid': Example(
        robot(*_moving(inertial()), link('c', inertial(
            '1e-6', '2.371e-8', '2.833e-8', '3.849e-8', ixy='6.119e-8', ixz='1.179e-8',
            iyz='7.74e-9')), joint(body='<origin xyz="0 0 0.1"/>', name='k', parent='b', child='c')),
        robot(*_moving(inertial()), link('c', inertial('1e-6', '2.371e-8', '2.833e-8', '3.849e-8')),
              joint(body='<origin xyz="0 0 0.1"/>', name='k', parent='b', child='c'))),
    'link-joint-name-shared': Example(
        robot(AB, joint('continuous', name='b')),
        robot(AB, joint(name='b'))),
    'link-multiple-parents': Example(
        robot(ABC, joint(), joint(name='k', parent='b', child='c'), joint(name='m', child='c')),
        robot(ABC, joint(), joint(name='k', parent='b', child='c'))),
    'material-duplicate': Example(
        robot(material('m', RED), material('m', RED), A),
        robot(material('m', RED), material('n', RED), A)),
    'material-redefined': Example(
        robot(link('a', visual(BOX, material('m', '0 0 1 1'))), material('m', RED)),
        robot(link('a', visual(BOX, material('m', RED))), material('m', RED))),
    'material-rgba-out-of-range': Example(
        robot(material('m', '255 0 0 1'), link('a', visual(BOX, material('m')))),
        robot(material('m', RED), link('a', visual(BOX, material('m'))))),
    'material-texture-missing': Example(
        robot('<material name="t"><texture filename="gone.png"/></material>'),
        robot('<material name="t"><texture filename="textures/wood.png"/></material>'),
        ('textures/wood.png',)),
    'material-undefined': Example(
        robot(link('a', visual(BOX, material('nope')))),
        robot(material('nope', RED), link('a', visual(BOX, material('nope'))))),
    'mesh-extension-unsupported': Example(
        robot(link('a', visual('<mesh filename="m.ply"/>'))),
        robot(link('a', visual('<mesh filename="M.STL"/>')))),
    'collision-mesh-dae': Example(
        robot(link('a', collision('<mesh filename="meshes/base.dae"/>'))),
        robot(link('a', visual('<mesh filename="meshes/base.dae"/>')
                   + collision('<mesh filename="meshes/base.stl"/>'))),
        ('meshes/base.dae', 'meshes/base.stl')),
    'mesh-file-missing': Example(
        robot(link('a', visual('<mesh filename="meshes/bsae.stl"/>'))),
        robot(link('a', visual('<mesh filename="meshes/base.stl"/>'))),
        ('meshes/base.stl',)),
    'mimic-cycle': Example(
        _mimicked('continuous', '<mimic joint="k"/>'),
        _mimicked('continuous')),
    'mimic-fixed-joint': Example(
        _mimicked('fixed'),
        _mimicked('continuous')),
    'mimic-missing-joint': Example(
        robot(AB, joint('continuous', '<mimic joint="j"/>', name='k')),
        robot(AB, joint('continuous', name='k'))),
    'xacro-in-urdf': Example(
        robot(AB, joint(body='<origin xyz="${0.5 * 0.2} 0 0"/>')),
        robot(AB, joint(body='<origin xyz="0.1 0 0"/>'))),
    'geometry-capsule-not-drawn': Example(
        robot(link('a', '<visual><geometry><capsule radius="0.1" length="0.5"/></geometry>'
                        '</visual>'), version='1.1'),
        robot(link('a', '<visual><geometry><cylinder radius="0.1" length="0.5"/></geometry>'
                        '</visual>'), version='1.1')),
    'urdf-parser-py-version': Example(robot(A, version='1.1'), robot(A, version='1.0')),
    'mimic-mujoco-version': Example(
        robot(AB, link('c'), joint('continuous', name='k'),
              joint('continuous', '<mimic joint="k"/>', name='m', parent='b', child='c')),
        robot(AB, link('c'), joint('continuous', name='k'),
              joint('continuous', name='m', parent='b', child='c'))),
    'mimic-range-exceeds-limits': Example(
        robot(ABC, joint('revolute', limit(lower='0', upper='0.8'), name='s'),
              joint('revolute', limit(lower='0', upper='0.8') + '<mimic joint="s" multiplier="-1"/>',
                    name='m', parent='b', child='c')),
        robot(ABC, joint('revolute', limit(lower='0', upper='0.8'), name='s'),
              joint('revolute', limit(lower='-0.8', upper='0') + '<mimic joint="s" multiplier="-1"/>',
                    name='m', parent='b', child='c'))),
    'mimic-self': Example(
        robot(AB, joint('continuous', '<mimic joint="k"/>', name='k')),
        robot(AB, joint('continuous', name='k'))),
    'mimic-unsupported-joint': Example(
        _mimicked('planar'),
        _mimicked('continuous')),
    'multiple-root-links': Example(
        robot(AB),
        robot(AB, joint())),
    'no-root-link': Example(
        robot(AB, joint(), joint(name='k', parent='b', child='a')),
        robot(AB, joint())),
    'number-invalid': Example(
        robot(AB, joint(body='<origin xyz="0 0 1,5"/>')),
        robot(AB, joint(body='<origin xyz="0 0 1.5"/>'))),
    'number-not-finite': Example(
        robot(AB, joint(body='<origin xyz="0 0 nan"/>')),
        robot(AB, joint(body='<origin xyz="0 0 0"/>'))),
    'origin-quaternion-ignored': Example(
        _quaternion(Q90, version=None),
        _quaternion(Q90)),
    'origin-quaternion-invalid': Example(
        _quaternion('0 0 0 0'),
        _quaternion('0 0 0 1')),
    'origin-quaternion-not-unit': Example(
        _quaternion('0 0 2 2'),
        _quaternion(Q90)),
    'origin-rpy-and-quaternion': Example(
        _quaternion(Q90, rpy='0 0 1.5707963'),
        _quaternion(Q90)),
    'robot-name-missing': Example(
        robot(A, name=None, version='1.0'),
        robot(A, version='1.0')),
    'robot-no-links': Example(
        robot(material('m', RED)),
        robot(A)),
    'robot-version-new': Example(
        robot(A, version='1.1'),
        robot(A, version='1.0')),
    'robot-version-unsupported': Example(
        robot(A, version='2.0'),
        robot(A, version='1.0')),
    'root-body-massless': Example(
        robot(A, link('base'), joint(name='to_base', child='base')),
        robot(link('world'), link('base', inertial()),
              joint(name='to_base', parent='world', child='base'))),
    'root-link-inertia': Example(
        robot(link('a', inertial('2')), link('b', inertial()), joint('revolute', limit())),
        robot(link('a', ZERO_INERTIAL), link('b', inertial()), joint('revolute', limit()))),
    'ros2-control-element-unknown': Example(
        _controlled(_control(_joint(), plugin='<hardwarert><plugin>p</plugin></hardwarert>')),
        _controlled(_control(_joint()))),
    'ros2-control-hardware-duplicate': Example(
        _controlled(_control(_joint()), _control(attributes='name="c" type="sensor"')),
        _controlled(_control(_joint()), _control(attributes='name="d" type="sensor"'))),
    'ros2-control-interface-duplicate': Example(
        _controlled(_control(_joint(READ)), _control(_joint(READ), attributes='name="d" '
                                                                              'type="system"')),
        _controlled(_control(_joint(READ)))),
    'ros2-control-joint-fixed': Example(
        _controlled(_control(_joint()), joint_type='fixed'),
        _controlled(_control(_joint()))),
    'ros2-control-joint-missing': Example(_controlled(_control(_joint(name='wrist'))),
                                          _controlled(_control(_joint()))),
    'ros2-control-limits-ignored': Example(
        _controlled(_control(_joint('<command_interface name="position"><param name="max">'
                                    '90deg</param></command_interface>'))),
        _controlled(_control(_joint('<command_interface name="position"><param name="max">'
                                    '1.57</param></command_interface>')))),
    'ros2-control-mimic-invalid': Example(
        _gripper('<joint name="m"><command_interface name="position"/></joint>',
                 urdf_mimic=True),
        _gripper('<joint name="m" mimic="true"><state_interface name="position"/></joint>',
                 urdf_mimic=True)),
    'ros2-control-mimic-param': Example(
        _gripper('<joint name="m"><param name="mimic">j</param>'
                 '<state_interface name="position"/></joint>'),
        _gripper('<joint name="m" mimic="true"><state_interface name="position"/></joint>',
                 urdf_mimic=True)),
    'ros2-control-not-found': Example(
        _controlled(f'<gazebo>{_control(_joint())}</gazebo>'),
        _controlled(_control(_joint()))),
    'ros2-control-plugin-missing': Example(
        _controlled(_control(_joint(), plugin='<hardware><param name="port">1</param>'
                                              '</hardware>')),
        _controlled(_control(_joint()))),
    'ros2-control-transmission-invalid': Example(
        _controlled(_control(_joint(), '<transmission name="t"><plugin>transmission_interface/'
                                       'SimpleTransmission</plugin><joint name="k" role="joint1"/>'
                                       '<actuator name="m" role="actuator1"/></transmission>')),
        _controlled(_control(_joint(), '<transmission name="t"><plugin>transmission_interface/'
                                       'SimpleTransmission</plugin><joint name="j" role="joint1"/>'
                                       '<actuator name="m" role="actuator1"/></transmission>'))),
    'ros2-control-type-unknown': Example(
        _controlled(_control(_joint(), attributes='name="c" type="System"')),
        _controlled(_control(_joint()))),
    'ros2-control-value-invalid': Example(
        _controlled(_control(_joint(), '<gpio name="io"><command_interface name="out" '
                                       'data_type="bool" size="-4"/></gpio>')),
        _controlled(_control(_joint(), '<gpio name="io"><command_interface name="out" '
                                       'data_type="bool" size="4"/></gpio>'))),
    'safety-controller-applied': Example(
        robot(AB, joint('revolute', limit() + '<safety_controller k_velocity="10" k_position="15" '
                                              'soft_lower_limit="-0.9" soft_upper_limit="0.9"/>'),
              _control(_joint())),
        robot(AB, joint('revolute', limit()), _control(_joint()))),
    'safety-controller-k-velocity-missing': Example(
        _safety(''),
        _safety('k_velocity="10"')),
    'safety-k-position-negative': Example(
        _safety('k_velocity="1" k_position="-15"'),
        _safety('k_velocity="1" k_position="15"')),
    'safety-k-velocity-negative': Example(
        _safety('k_velocity="-10"'),
        _safety('k_velocity="10"')),
    'safety-soft-limits-outside-limits': Example(
        _safety('k_velocity="1" soft_upper_limit="1.5"'),
        _safety('k_velocity="1" soft_upper_limit="0.9"')),
    'safety-soft-lower-above-upper': Example(
        _safety('k_velocity="1" soft_lower_limit="0.5" soft_upper_limit="-0.5"'),
        _safety('k_velocity="1" soft_lower_limit="-0.5" soft_upper_limit="0.5"')),
    'suppression-unused': Example(
        robot('<!-- urdf-tools: ignore[joint-limit-missing] -->', A),
        robot(A)),
    'transmission-form-invalid': Example(
        robot(AB, joint('continuous'), '<transmission name="t"><joint name="j"/></transmission>'),
        _transmitted()),
    'transmission-joint-missing': Example(_transmitted(joint_name='J'), _transmitted()),
    'transmission-no-actuator': Example(_transmitted(reduction=None), _transmitted()),
    'transmission-no-joint': Example(_transmitted(joint_name=None), _transmitted()),
    'transmission-reduction-zero': Example(
        _transmitted(reduction='0'),
        _transmitted(reduction='-1')),
    'unknown-attribute': Example(
        robot(link('a', f'<visual><origin xyz="0 0 0" rpi="0 0 1.57"/><geometry>{BOX}</geometry>'
                        '</visual>')),
        robot(link('a', f'<visual><origin xyz="0 0 0" rpy="0 0 1.57"/><geometry>{BOX}</geometry>'
                        '</visual>'))),
    'unknown-element': Example(
        robot(link('a', '<sensor name="s"/>')),
        robot(A)),
    'vector-size': Example(
        robot(AB, joint(body='<origin xyz="0 1"/>')),
        robot(AB, joint(body='<origin xyz="0 1 0"/>'))),
    'xml-declaration-invalid': Example(
        '\n<?xml version="1.0"?>\n' + robot(A),
        '<?xml version="1.0"?>\n' + robot(A)),
    'xml-namespace-undeclared': Example(
        robot(A, '<sensor:camera name="c"/>'),
        robot(A, '<sensor:camera name="c"/>', **{
            'xmlns:sensor': 'http://playerstage.sourceforge.net/gazebo/xmlschema/#sensor'})),
    'xml-trailing-content': Example(
        robot(A) + '\n<link name="b"/>',
        robot(A, link('b'))),
}
