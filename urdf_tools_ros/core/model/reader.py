"""
The one URDF reader: a parsed ``<robot>`` element tree into the typed model, with every line.

It keeps each element's file and line (the ``.xacro`` one for xacro input), collects every
problem, keeps what urdf_parser_py drops (``<gazebo>``, ``<ros2_control>``, unknown elements;
an absent ``soft_lower_limit`` or ``effort`` as ``None``) and reads the first of a repeated
element as urdfdom does. Each syntax-level problem becomes a finding of the ``loading`` family
(:mod:`urdf_tools_ros.core.checks.rules.loading`). Sources: URDF spec
(http://wiki.ros.org/urdf/XML), ros_control's transmission parser, ros2_control's parser
(:mod:`.ros2_control_reader`), Gazebo's URDF extension; known names and number parsing are in
:mod:`.values`.
"""

from __future__ import annotations

from collections.abc import Iterable
import math

from .robot import (Box, Calibration, Capsule, Collision, Cylinder, Dynamics, Gazebo, Geometry,
                    Inertia, Inertial, Joint, Limit, Link, Material, Mesh, Mimic, Origin, Robot,
                    SafetyController, Sphere, Vector3, Visual, XmlData)
from .ros2_control import (EVERY_ROS2_CONTROL, Ros2Control, Transmission, TransmissionActuator,
                           TransmissionJoint)
from .ros2_control_reader import Ros2ControlReader
from .values import (all_finite, Element, KNOWN_ATTRIBUTES, KNOWN_JOINT_CHILDREN,
                     KNOWN_TRANSMISSION_PART_CHILDREN, local_name, Locate, parse_number,
                     parse_numbers, Resolve, ros_distros, urdf_version)
from ..findings import Finding, Severity

__all__ = ['UrdfReader']

_ZERO: Vector3 = (0.0, 0.0, 0.0)
_ONE: Vector3 = (1.0, 1.0, 1.0)
_IDENTITY = Origin()

#: ``{(parent tag, tag): (consumers refusing an absent name, consumers refusing name="")}``.
#: Measured with check_urdf 3.0.1 and 6.0.0, urdf_parser_py, pinocchio, MuJoCo and SDFormat
#: (``test/test_consumer_oracles.py``); ros2_control from component_parser.cpp
#: (``get_attribute_value``).
NAME_VERDICTS: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ('robot', 'link'): (('urdfdom', 'urdf_parser_py'), ('urdfdom', 'urdf_tools_ros')),
    ('robot', 'joint'): (('urdfdom', 'urdf_parser_py'), ()),
    ('robot', 'transmission'): (('urdf_parser_py',), ()),
    ('transmission', 'joint'): (('urdf_parser_py',), ()),
    ('transmission', 'actuator'): (('urdf_parser_py',), ()),
    **{('ros2_control', tag): (EVERY_ROS2_CONTROL, ()) for tag in (
        'ros2_control', 'joint', 'sensor', 'gpio', 'command_interface', 'state_interface', 'param',
        'transmission', 'actuator')},
}


class UrdfReader(Ros2ControlReader):
    """
    Turn a ``<robot>`` element into a :class:`~urdf_tools_ros.core.model.robot.Robot`.

    One reader per document: :meth:`robot` reads it, :attr:`findings` then holds every loading
    finding.

    :param locate: Maps an element to its :class:`SourceLocation` (original xacro file:line).
    :param resolve: Maps a mesh/texture reference to a local path or ``None``.
    :ivar findings: Loading findings collected while reading.
    """

    def __init__(self, locate: Locate, resolve: Resolve) -> None:
        self._locate = locate
        self._resolve = resolve
        self.findings: list[Finding] = []
        #: The file's URDF version (1.0 when absent or malformed).
        self.version: tuple[int, int] = (1, 0)

    # -- findings -------------------------------------------------------------------------
    def _report(self, code: str, severity: Severity, element: str, message: str,
                node: Element, fix: str | None = None,
                consumers: tuple[str, ...] | None = None) -> None:
        """Add a loading finding; a message about ``<child ...>`` is led by its named owner."""
        kind, _, name = element.partition(':')
        if name and name != '?' and message.startswith('<'):  # '?': an element without a name
            message = f'{kind} "{name}": {message}'
        self.findings.append(Finding(code, severity, element, message, self._locate(node), fix,
                                     consumers))

    def _first_children(self, node: Element, tags: tuple[str, ...],
                        owner: str) -> list[Element | None]:
        """The first child of each tag in ``tags`` (as urdfdom); each repeat is reported."""
        found: dict[str, Element] = {}
        for child in node:
            tag = child.tag
            if tag not in tags:
                continue
            first = found.setdefault(tag, child)
            if first is not child:
                self._report_duplicate(child, first, tag, node, owner)
        return [found.get(tag) for tag in tags]

    def _report_duplicate(self, child: Element, first: Element, tag: str, parent: Element,
                          owner: str) -> None:
        consumers: tuple[str, ...] = ('mujoco',)
        ignored = ''
        if tag in ('mimic', 'safety_controller'):
            consumers = ('mujoco', 'joint_state_publisher')
            ignored = ('; joint_state_publisher ignores a <' + tag + '> that is not alone')
        self._report('element-duplicate', Severity.WARNING, owner,
                     f'<{local_name(parent.tag)}> has a second <{tag}> (the first is at '
                     f'{self._locate(first)}); urdfdom and urdf_parser_py read the first, '
                     f'MuJoCo refuses the file{ignored}', child,
                     f'remove the second <{tag}>', consumers)

    # -- values ---------------------------------------------------------------------------
    def _number(self, node: Element, attribute: str, owner: str, default: float | None,
                required: bool = False) -> float | None:
        text = node.get(attribute)
        if text is None:
            if required:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<{local_name(node.tag)}> has no {attribute}', node)
            return default
        try:
            value = parse_number(text)
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not a number', node)
            return default
        if not math.isfinite(value):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not finite', node)
        return value

    def _float(self, node: Element, attribute: str, owner: str, default: float,
               required: bool = False) -> float:
        value = self._number(node, attribute, owner, default, required)
        return default if value is None else value

    def _numbers(self, node: Element, attribute: str, owner: str, default: tuple[float, ...],
                 required: bool = False) -> tuple[float, ...]:
        text = node.get(attribute)
        if text is None:
            if required:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<{local_name(node.tag)}> has no {attribute}', node)
            return default
        try:
            values = parse_numbers(text)
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not numbers', node)
            return default
        if len(values) != len(default):
            self._report('vector-size', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: expected '
                         f'{len(default)} numbers, got {len(values)}', node)
            return default
        if not all_finite(values):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not finite', node)
        return values

    def _vector3(self, node: Element, attribute: str, owner: str, default: Vector3,
                 required: bool = False) -> Vector3:
        x, y, z = self._numbers(node, attribute, owner, default, required)
        return (x, y, z)

    def _name(self, node: Element, kind: str, owner: str, within: str = 'robot') -> str:
        """Read the ``name`` of a ``<kind>``, reporting an absent or empty one (NAME_VERDICTS)."""
        name = node.get('name')
        if name:
            return str(name)
        missing, empty = NAME_VERDICTS.get((within, kind), ((), ()))
        if name is None:
            self._report('attribute-missing', Severity.ERROR, owner,
                         f'<{kind}> has no name', node, consumers=missing)
        else:
            self._report('attribute-empty', Severity.WARNING, owner,
                         f'<{kind} name="">: the name is empty', node,
                         f'give the <{kind}> a name', consumers=empty)
        return ''

    # -- attributes and elements URDF does not define ---------------------------------------
    def _limit_1_2(self, node: Element, owner: str) -> tuple[float | None, ...]:
        """URDF 1.2 ``acceleration``, ``deceleration``, ``jerk``; ignored, reported before 1.2."""
        given = [name for name in ('acceleration', 'deceleration', 'jerk')
                 if node.get(name) is not None]
        if not given:
            return (None, None, None)
        if self.version < (1, 2):
            self._report('limit-attribute-ignored', Severity.WARNING, owner,
                         f'<limit {"/".join(given)}> needs URDF 1.2 but the file is '
                         f'{self.version[0]}.{self.version[1]}: urdfdom ignores it', node,
                         f'add version="1.2" to <robot> (read by {ros_distros((1, 2))} only) '
                         'if the limits matter')
            return (None, None, None)
        values = []
        for name in ('acceleration', 'deceleration', 'jerk'):
            value = self._number(node, name, owner, None)
            if value is not None and value < 0.0:
                self._report('limit-attribute-negative', Severity.ERROR, owner,
                             f'<limit {name}="{node.get(name)}"> is negative; urdfdom 6 refuses '
                             'the limit, so the joint', node, f'{name} is a magnitude: >= 0',
                             ('urdfdom',))
                value = None
            values.append(value)
        return tuple(values)

    def _check_attributes(self, node: Element, tag: str, owner: str) -> None:
        """Report attributes of ``node`` (local tag ``tag``) that URDF does not define."""
        known = KNOWN_ATTRIBUTES.get(tag)
        if known is None:
            return
        for attribute in node.keys():
            if attribute not in known:
                self._report('unknown-attribute', Severity.INFO, owner,
                             f'<{tag}> attribute "{attribute}" is not part of URDF (ignored)',
                             node)

    def _unknown(self, node: Element, owner: str, where: str) -> None:
        self._report('unknown-element', Severity.INFO, owner,
                     f'<{node.tag}> is not part of URDF {where} (kept, ignored)', node)

    # -- elements -------------------------------------------------------------------------
    def _origin(self, node: Element | None, owner: str) -> Origin:
        """
        Read an ``<origin>`` element; ``None`` (absent) is the identity.

        ``quat_xyzw`` as urdfdom 5.1+ reads it (normalised; with ``rpy`` refused by 6.0); in a
        1.0 file ignored, as every ROS tool does, and reported.
        """
        if node is None:
            return _IDENTITY
        self._check_attributes(node, 'origin', owner)
        xyz = self._vector3(node, 'xyz', owner, _ZERO)
        rpy = self._vector3(node, 'rpy', owner, _ZERO)
        text = node.get('quat_xyzw')
        where = self._locate(node)
        if text is None:
            return Origin(xyz, rpy, location=where)
        if self.version < (1, 1):
            kept = 'its rpy' if node.get('rpy') is not None else 'no rotation (identity)'
            quaternion = self._numbers(node, 'quat_xyzw', owner, (0.0, 0.0, 0.0, 1.0))
            hint = ''
            converted = self._quaternion_rpy(quaternion)
            if converted is not None:
                hint = ' or write rpy="' + ' '.join(f'{v + 0.0:.17g}' for v in converted[1]) \
                    + '"'  # + 0.0: no "-0"
            self._report('origin-quaternion-ignored', Severity.ERROR, owner,
                         f'<origin quat_xyzw="{text}"> in a URDF {self.version[0]}.'
                         f'{self.version[1]} file: urdfdom ignores it and poses the element '
                         f'with {kept}', node,
                         f'add version="1.1" to <robot> (read by {ros_distros((1, 1))} '
                         f'only){hint}')
            return Origin(xyz, rpy, location=where)
        quaternion = self._numbers(node, 'quat_xyzw', owner, (0.0, 0.0, 0.0, 1.0))
        if node.get('rpy') is not None:
            self._report('origin-rpy-and-quaternion', Severity.ERROR, owner,
                         '<origin> has both rpy and quat_xyzw; urdfdom 6.0 refuses it ("Both '
                         'rpy and quat_xyzw orientations are defined")', node,
                         'keep one of them')
        converted = self._quaternion_rpy(quaternion)
        if converted is None:
            self._report('origin-quaternion-invalid', Severity.ERROR, owner,
                         f'<origin quat_xyzw="{text}"> is not a rotation (zero or not finite)',
                         node, 'write a unit quaternion x y z w, e.g. quat_xyzw="0 0 0 1"',
                         ('urdf_tools_ros',))
            return Origin(xyz, rpy, location=where)
        unit, rpy_of_quaternion, norm = converted
        if abs(norm - 1.0) > 1e-6:
            self._report('origin-quaternion-not-unit', Severity.WARNING, owner,
                         f'<origin quat_xyzw="{text}"> has length {norm:.6g}, not 1 (read '
                         'normalised)', node,
                         'quat_xyzw="' + ' '.join(f'{v:.9g}' for v in unit) + '"')
        return Origin(xyz, rpy_of_quaternion, unit, where)

    @staticmethod
    def _quaternion_rpy(quaternion: tuple[float, ...]
                        ) -> tuple[tuple[float, float, float, float], Vector3, float] | None:
        """A quaternion's unit form, its rotation as rpy, and its length; ``None``: no rotation."""
        norm = math.sqrt(sum(v * v for v in quaternion)) if all_finite(quaternion) else 0.0
        if len(quaternion) != 4 or not norm > 1e-12:
            return None
        from ..transforms import quaternion_to_rotation, rotation_to_rpy
        x, y, z, w = (v / norm for v in quaternion)
        roll, pitch, yaw = (float(v) for v in rotation_to_rpy(
            quaternion_to_rotation((x, y, z, w))))
        return (x, y, z, w), (roll, pitch, yaw), norm

    def _geometry(self, node: Element | None, owner: str, collision: bool
                  ) -> tuple[Geometry | None, str | None]:
        """
        Read a ``<geometry>`` element (its first child element is the shape, as urdfdom).

        :param collision: It belongs to a ``<collision>`` (MuJoCo reads only those).
        :return: The shape, and the tag of an unknown shape (the shape is then ``None``).
        """
        if node is None:
            return None, None
        shapes = [shape for shape in node if isinstance(shape.tag, str)]
        if not shapes:
            return None, None
        shape = shapes[0]
        if len(shapes) > 1:
            others = ', '.join(f'<{local_name(extra.tag)}>' for extra in shapes[1:])
            self._report('element-duplicate', Severity.WARNING, owner,
                         f'<geometry> holds {others} after <{local_name(shape.tag)}>; urdfdom '
                         'uses the first element, urdf_parser_py refuses the file ("One '
                         'element only for geometric")', shapes[1],
                         f'keep only <{local_name(shape.tag)}> in <geometry>',
                         ('urdf_parser_py',))
        kind = local_name(shape.tag)
        where = self._locate(shape)
        if kind == 'box':
            return Box(self._vector3(shape, 'size', owner, _ZERO, required=True), where), None
        if kind == 'cylinder':
            return Cylinder(self._float(shape, 'radius', owner, 0.0, True),
                            self._float(shape, 'length', owner, 0.0, True), where), None
        if kind == 'sphere':
            return Sphere(self._float(shape, 'radius', owner, 0.0, True), where), None
        if kind == 'mesh':
            filename = shape.get('filename')
            if filename is None:
                self._report('attribute-missing', Severity.ERROR, owner,
                             '<mesh> has no filename', shape)
            elif not filename:  # urdfdom, urdf_parser_py, MuJoCo read it; SDFormat refuses it
                self._report('attribute-empty', Severity.WARNING, owner,
                             '<mesh filename="">: the filename is empty (Gazebo refuses the '
                             'file; RViz draws nothing)', shape,
                             'name the mesh file: package://<package>/<path>',
                             consumers=('gazebo',))
            filename = filename or ''
            scale = self._vector3(shape, 'scale', owner, _ONE)
            return Mesh(filename, scale, self._resolve(filename) if filename else None,
                        where), None
        if kind == 'capsule' and self.version >= (1, 1):
            return Capsule(self._float(shape, 'radius', owner, 0.0, True),
                           self._float(shape, 'length', owner, 0.0, True), where), None
        mujoco = collision and kind != 'capsule'
        if kind == 'capsule':
            self._report('geometry-unknown', Severity.ERROR, owner,
                         f'<capsule> needs URDF 1.1 but the file is {self.version[0]}.'
                         f'{self.version[1]}: urdfdom drops this element ("Ignoring capsule", '
                         'urdfdom 6; "Unknown geometry type", urdfdom 3)', shape,
                         f'add version="1.1" to <robot> (read by {ros_distros((1, 1))} only), '
                         'or use a cylinder and two spheres',
                         consumers=('urdfdom', 'urdf_parser_py'))
            return None, str(shape.tag)
        self._report('geometry-unknown', Severity.ERROR, owner,
                     f'<geometry> holds unknown shape <{shape.tag}>', shape,
                     consumers=('urdfdom', 'urdf_parser_py') + (('mujoco',) if mujoco else ()))
        return None, str(shape.tag)

    def material(self, node: Element, owner: str) -> Material:
        """Read a ``<material>`` (global or inside a visual)."""
        name = node.get('name') or ''
        color: tuple[float, ...] | None = None
        texture: str | None = None
        color_node, texture_node = self._first_children(node, ('color', 'texture'), owner)
        if color_node is not None:
            color = self._numbers(color_node, 'rgba', owner, (0.0, 0.0, 0.0, 1.0), True)
        if texture_node is not None:
            texture = texture_node.get('filename') or None
            if texture is None:
                self._report('attribute-missing', Severity.ERROR, owner,
                             '<texture> has no filename', texture_node,
                             consumers=('urdf_parser_py',))  # urdfdom leaves it empty
        rgba = None if color is None else (color[0], color[1], color[2], color[3])
        return Material(name, rgba, texture, self._locate(node),
                        self._resolve(texture) if texture else None)

    def _inertial(self, node: Element, owner: str) -> Inertial | None:
        mass_node, inertia_node, origin_node = self._first_children(
            node, ('mass', 'inertia', 'origin'), owner)
        if mass_node is None or inertia_node is None:
            missing = '<mass>' if mass_node is None else '<inertia>'
            self._report('inertial-incomplete', Severity.ERROR, owner,
                         f'<inertial> has no {missing}', node)
            return None
        mass = self._float(mass_node, 'value', owner, 0.0, True)
        self._check_attributes(inertia_node, 'inertia', owner)
        number = self._float
        inertia = Inertia(number(inertia_node, 'ixx', owner, 0.0, True),
                          number(inertia_node, 'ixy', owner, 0.0, True),
                          number(inertia_node, 'ixz', owner, 0.0, True),
                          number(inertia_node, 'iyy', owner, 0.0, True),
                          number(inertia_node, 'iyz', owner, 0.0, True),
                          number(inertia_node, 'izz', owner, 0.0, True))
        return Inertial(mass, inertia, self._origin(origin_node, owner), self._locate(node))

    def _visual(self, node: Element, owner: str) -> Visual:
        origin_node, geometry_node, material_node = self._first_children(
            node, ('origin', 'geometry', 'material'), owner)
        material = None if material_node is None else self.material(material_node, owner)
        if material_node is not None and material_node.get('name') is None:
            self._report('attribute-missing', Severity.ERROR, owner,
                         '<material> in a <visual> has no name: urdfdom drops the whole visual '
                         '(RViz does not draw it) and urdf_parser_py refuses the file',
                         material_node, '<material name="..."> (name="" keeps the colour local)')
        geometry, unknown = self._geometry(geometry_node, owner, collision=False)
        return Visual(geometry, self._origin(origin_node, owner), node.get('name'), material,
                      self._locate(node), unknown)

    def _collision(self, node: Element, owner: str) -> Collision:
        origin_node, geometry_node = self._first_children(node, ('origin', 'geometry'), owner)
        geometry, unknown = self._geometry(geometry_node, owner, collision=True)
        return Collision(geometry, self._origin(origin_node, owner), node.get('name'),
                         self._locate(node), unknown)

    def link(self, node: Element) -> Link:
        """Read a ``<link>``."""
        name = self._name(node, 'link', 'link:?')
        owner = f'link:{name}'
        inertial: Inertial | None = None
        inertial_node: Element | None = None
        visuals: list[Visual] = []
        collisions: list[Collision] = []
        for child in node:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag[0] == '{':
                tag = tag.rpartition('}')[2]
            if tag == 'visual':
                visuals.append(self._visual(child, owner))
            elif tag == 'collision':
                collisions.append(self._collision(child, owner))
            elif tag == 'inertial':
                if inertial_node is None:
                    inertial_node = child
                    inertial = self._inertial(child, owner)
                else:
                    self._report_duplicate(child, inertial_node, tag, node, owner)
            else:
                self._unknown(child, owner, 'inside <link>')
        return Link(name, inertial, tuple(visuals), tuple(collisions), self._locate(node))

    def joint(self, node: Element) -> Joint:
        """Read a ``<joint>``."""
        name = self._name(node, 'joint', 'joint:?')
        owner = f'joint:{name}'
        joint_type = node.get('type')
        if joint_type is None:
            self._report('attribute-missing', Severity.ERROR, owner, '<joint> has no type', node)
            joint_type = ''
        elif not joint_type:
            self._report('joint-type-unknown', Severity.ERROR, owner,
                         f'joint "{name}": type="" is not a URDF joint type', node,
                         'write one of the six types, e.g. type="revolute"')
        first: dict[str, Element] = {}
        others: list[tuple[str, Element]] = []
        for child in node:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag[0] == '{':
                if tag.rpartition('}')[2] in KNOWN_JOINT_CHILDREN:
                    continue  # a namespaced <x:origin> is not URDF's (urdfdom ignores it)
                others.append((tag.rpartition('}')[2], child))
                continue
            if tag in KNOWN_JOINT_CHILDREN:
                earlier = first.setdefault(tag, child)
                if earlier is not child:
                    self._report_duplicate(child, earlier, tag, node, owner)
                    continue
                if tag in ('origin', 'parent', 'child'):
                    continue
            others.append((tag, child))
        origin_node, parent_node, child_node = (first.get('origin'), first.get('parent'),
                                                first.get('child'))
        links: list[str] = []
        for role, role_node in (('parent', parent_node), ('child', child_node)):
            link = None if role_node is None else role_node.get('link')
            if not link:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<joint> has no <{role} link="...">',
                             node if role_node is None else role_node)
            links.append(link or '')
        axis: Vector3 = (1.0, 0.0, 0.0)
        axis_location = None
        calibration = dynamics = limit = mimic = safety = None
        for tag, child in others:
            self._check_attributes(child, tag, owner)
            if tag == 'axis':
                axis = self._vector3(child, 'xyz', owner, (1.0, 0.0, 0.0), required=True)
                axis_location = self._locate(child)
            elif tag == 'limit':
                missing = [bound for bound in ('lower', 'upper') if child.get(bound) is None]
                if missing and joint_type in ('revolute', 'prismatic'):
                    strict = self.version >= (1, 2)  # urdfdom 6.0 refuses it from 1.2 on
                    self._report('joint-limit-bound-missing', Severity.WARNING, owner,
                                 f'joint "{name}" ({joint_type}): <limit> has no '
                                 f'{" and no ".join(missing)}; '
                                 + ('urdfdom 6.0 refuses it in a URDF 1.2 file, '
                                    if strict else 'URDF reads 0, ')
                                 + 'joint_state_publisher refuses the robot', child,
                                 'write both bounds, e.g. lower="-1.57" upper="1.57"',
                                 ('joint_state_publisher', 'urdfdom') if strict else None)
                limit = Limit(self._float(child, 'lower', owner, 0.0),
                              self._float(child, 'upper', owner, 0.0),
                              self._number(child, 'effort', owner, None),
                              self._number(child, 'velocity', owner, None),
                              self._locate(child), *self._limit_1_2(child, owner))
            elif tag == 'dynamics':
                dynamics = Dynamics(self._float(child, 'damping', owner, 0.0),
                                    self._float(child, 'friction', owner, 0.0),
                                    self._locate(child))
            elif tag == 'calibration':
                calibration = Calibration(self._number(child, 'rising', owner, None),
                                          self._number(child, 'falling', owner, None),
                                          self._locate(child))
            elif tag == 'mimic':
                source = child.get('joint')
                if source is None:
                    self._report('attribute-missing', Severity.ERROR, owner,
                                 '<mimic> has no joint', child)
                else:  # joint="" names no joint: mimic-missing-joint (urdfdom reads it)
                    mimic = Mimic(source, self._float(child, 'multiplier', owner, 1.0),
                                  self._float(child, 'offset', owner, 0.0),
                                  self._locate(child))
            elif tag == 'safety_controller':
                safety = SafetyController(
                    self._number(child, 'soft_lower_limit', owner, None),
                    self._number(child, 'soft_upper_limit', owner, None),
                    self._float(child, 'k_position', owner, 0.0),
                    self._number(child, 'k_velocity', owner, None),
                    self._locate(child))
            else:
                self._unknown(child, owner, 'inside <joint>')
        return Joint(name, joint_type, links[0], links[1], self._origin(origin_node, owner),
                     axis, calibration, dynamics, limit, mimic, safety, self._locate(node),
                     axis_location)

    # -- transmissions, ros2_control, gazebo and other data ------------------------------
    def _reduction(self, nodes: list[tuple[str, Element]], owner: str,
                   parsed_by_urdf_parser_py: bool) -> float | None:
        """The first of ``<mechanicalReduction>``, ``<mechanical_reduction>`` that parses."""
        for tag, child in nodes:
            text = (child.text or '').strip()
            try:
                return parse_number(text)
            except ValueError:
                breaks = parsed_by_urdf_parser_py and tag == 'mechanicalReduction'
                self._report('number-invalid', Severity.ERROR, owner,
                             f'<{tag}>{text}</{tag}>: not a number', child,
                             consumers=('urdf_parser_py',) if breaks else ())
        return None

    def _transmission_part(self, node: Element, tag: str, owner: str, top_level: bool
                           ) -> tuple[str, float | None, tuple[str, ...], str | None]:
        """Read a transmission ``<joint>``/``<actuator>``: name, reduction, interfaces, role."""
        interfaces: list[str] = []
        reduction: Element | None = None
        reduction_ros2: Element | None = None
        for part in node:
            part_tag = part.tag
            if not isinstance(part_tag, str):
                continue
            if part_tag == 'hardwareInterface':
                interfaces.append((part.text or '').strip())
                continue
            if part_tag == 'mechanicalReduction':
                if reduction is None:
                    reduction = part
                continue
            if part_tag == 'mechanical_reduction':
                if reduction_ros2 is None:
                    reduction_ros2 = part
                continue
            part_tag = local_name(part_tag)
            if part_tag not in KNOWN_TRANSMISSION_PART_CHILDREN \
                    and part_tag != 'mechanical_reduction':
                self._unknown(part, owner, f'inside a transmission <{tag}>')
        name = self._name(node, tag, owner, 'transmission' if top_level else 'ros2_control')
        if not top_level and node.get('role') is None:
            self._report('attribute-missing', Severity.ERROR, owner,
                         f'<{tag} name="{name}"> of a <ros2_control> transmission has no role',
                         node, f'<{tag} name="{name}" role="{tag}1">', EVERY_ROS2_CONTROL)
        reductions = [] if reduction is None else [('mechanicalReduction', reduction)]
        if reduction_ros2 is not None:
            reductions.append(('mechanical_reduction', reduction_ros2))
        parsed = top_level and tag == 'actuator'
        return (name, self._reduction(reductions, owner, parsed) if reductions else None,
                tuple(interfaces), node.get('role'))

    def _check_urdf_parser_py_form(self, node: Element, owner: str, has_type: bool,
                                   joints: list[TransmissionJoint],
                                   actuators: list[TransmissionActuator]) -> None:
        """
        Report a top-level transmission in neither form urdf_parser_py 1.2 reads.

        ROS 1 form: ``<type>``, ``<joint>`` each with a ``<hardwareInterface>``, ``<actuator>``;
        PR2 form: a ``type`` attribute, one ``<joint>``, one ``<actuator>`` and a
        ``<mechanicalReduction>`` (``test/test_consumer_oracles.py``).
        """
        pr2_form = (node.get('type') is not None and len(joints) == 1 and len(actuators) == 1
                    and node.find('mechanicalReduction') is not None)
        missing = [what for what, absent in (
            ('a <type> element', not has_type),
            ('a <joint>', not joints),
            ('a <hardwareInterface> in each <joint>',
             bool(joints) and not all(joint.hardware_interfaces for joint in joints)),
            ('an <actuator>', not actuators)) if absent]
        if pr2_form or not missing:
            return
        self._report('transmission-form-invalid', Severity.WARNING, owner,
                     f'<transmission> lacks {", ".join(missing)}: urdf_parser_py refuses the '
                     'file', node,
                     'add ' + ', '.join(missing) + ' (the ROS 1 form: <type>, <joint> with '
                     '<hardwareInterface>, <actuator>; or the PR2 form: type attribute, one '
                     '<joint>, one <actuator>, <mechanicalReduction>; '
                     'http://wiki.ros.org/urdf/XML/Transmission)')

    def transmission(self, node: Element, top_level: bool = True) -> Transmission:
        """
        Read a ``<transmission>``, ROS 1 (``<type>``) or ros2_control (``<plugin>``) form.

        :param top_level: A child of ``<robot>`` (urdf_parser_py reads it).
        """
        name = self._name(node, 'transmission', 'transmission:?',
                          'robot' if top_level else 'ros2_control')
        owner = f'transmission:{name}'
        type_node = plugin_node = None
        joints: list[TransmissionJoint] = []
        actuators: list[TransmissionActuator] = []
        for child in node:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag == 'type':
                if type_node is None:
                    type_node = child
                continue
            if tag == 'plugin':
                if plugin_node is None:
                    plugin_node = child
                continue
            tag = local_name(tag)
            if tag == 'joint':
                part_name, reduction, interfaces, role = self._transmission_part(
                    child, tag, owner, top_level)
                joints.append(TransmissionJoint(part_name, interfaces, role, reduction,
                                                self._locate(child), child.get('read_only')))
            elif tag == 'actuator':
                part_name, reduction, interfaces, role = self._transmission_part(
                    child, tag, owner, top_level)
                actuators.append(TransmissionActuator(part_name, reduction, interfaces, role,
                                                      self._locate(child),
                                                      child.get('read_only')))
            elif tag == 'mechanicalReduction' and top_level:
                self._reduction([(tag, child)], owner, True)  # the PR2 form's, a float
            elif tag != 'param' or top_level:
                self._unknown(child, owner, 'inside <transmission>')
        if top_level:
            self._check_urdf_parser_py_form(node, owner, type_node is not None, joints,
                                            actuators)
        plugin = None if plugin_node is None else (plugin_node.text or '').strip()
        return Transmission(name, plugin if type_node is None else (type_node.text or '').strip(),
                            tuple(joints), tuple(actuators), self._locate(node), plugin,
                            () if top_level else self.parameters(node, owner))

    def _nested_ros2_control(self, node: Element) -> list[Ros2Control]:
        """The ``<ros2_control>`` blocks inside ``node``, each with its parent's tag."""
        return [self.ros2_control(inner, inner.getparent().tag)
                for inner in node.iter('ros2_control')]

    def gazebo(self, node: Element) -> Gazebo:
        """Read a ``<gazebo>`` block: its ``reference`` and its child elements as data."""
        data = self.data
        return Gazebo(node.get('reference'),
                      tuple([data(child) for child in node if isinstance(child.tag, str)]),
                      self._locate(node))

    def data(self, node: Element) -> XmlData:
        """Keep an element as :class:`XmlData` (tag, attributes, text, children)."""
        text = node.text
        return XmlData(node.tag, tuple(node.items()), text.strip() if text else '',
                       tuple([self.data(child) for child in node
                              if isinstance(child.tag, str)]),
                       self._locate(node))

    def robot(self, root: Element) -> Robot:
        """Read the whole ``<robot>`` element."""
        return self._robot(root, root)

    def robot_streamed(self, root: Element, children: Iterable[Element]) -> Robot:
        """
        Read the ``<robot>`` element whose children ``children`` yields (``etree.iterparse``).

        The reader keeps no element: the caller may free each child once the next is asked for.
        """
        return self._robot(root, children)

    def _robot(self, root: Element, children: Iterable[Element]) -> Robot:
        name = root.get('name')
        if name is None:
            self._report('robot-name-missing', Severity.WARNING, 'robot', '<robot> has no name',
                         root, '<robot name="...">')
        elif not name:
            self._report('attribute-empty', Severity.WARNING, 'robot',
                         '<robot name="">: the name is empty (Gazebo refuses the file)', root,
                         '<robot name="...">', consumers=('gazebo',))
        try:
            self.version = urdf_version(root.get('version'))
        except ValueError:
            self.version = (1, 0)  # the checker reports it (robot-version-unsupported)
        links: list[Link] = []
        joints: list[Joint] = []
        materials: list[Material] = []
        transmissions: list[Transmission] = []
        controls: list[Ros2Control] = []
        gazebo: list[Gazebo] = []
        unknown: list[XmlData] = []
        sensors: list[XmlData] = []
        for child in children:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag == 'link':
                links.append(self.link(child))
            elif tag == 'joint':
                joints.append(self.joint(child))
            elif tag == 'material':
                materials.append(self.material(child, f'material:{child.get("name", "?")}'))
            elif tag == 'transmission':
                transmissions.append(self.transmission(child))
            elif tag == 'ros2_control':
                controls.append(self.ros2_control(child))
            elif tag == 'gazebo':
                gazebo.append(self.gazebo(child))
                controls.extend(self._nested_ros2_control(child))
            elif tag == 'sensor':
                sensors.append(self.data(child))
            else:
                unknown.append(self.data(child))
                self._unknown(child, f'robot:{name or "?"}', 'inside <robot>')
                controls.extend(self._nested_ros2_control(child))
        return Robot(name or '', root.get('version'), tuple(links), tuple(joints),
                     tuple(materials), tuple(transmissions), tuple(controls), tuple(gazebo),
                     tuple(unknown), self._locate(root), tuple(sensors))
