"""
Read a parsed URDF element tree into the typed model, keeping every source line.

The reader is lenient on purpose: it builds the model from whatever the file holds and turns
each syntax-level problem (a missing required attribute, a number that does not parse, a vector
without 3 numbers, NaN/inf, an unknown element) into a :class:`~urdf_tools_ros.core.findings.
Finding` of the ``loading`` rule family. Semantic rules run later on the model.
Attribute and element names follow the URDF specification (http://wiki.ros.org/urdf/XML).
"""

from __future__ import annotations

from collections.abc import Callable
import math
from typing import Any

from .findings import Finding, Severity
from .model import (Box, Calibration, Collision, Cylinder, Dynamics, Gazebo, Geometry, Inertia,
                    Inertial, Joint, Limit, Link, Material, Mesh, Mimic, Origin, Robot,
                    Ros2Control, Ros2ControlJoint, SafetyController, SourceLocation, Sphere,
                    Transmission, TransmissionActuator, TransmissionJoint, Vector3, Visual,
                    XmlData)

Element = Any  # lxml.etree._Element; typed loosely so that the core needs no lxml stubs
Locate = Callable[[Element], SourceLocation]
Resolve = Callable[[str], 'str | None']

#: Children and attributes the URDF specification (and urdfdom) know, per element.
KNOWN_ROBOT_CHILDREN = frozenset({'link', 'joint', 'material', 'transmission', 'gazebo',
                                  'ros2_control'})
KNOWN_LINK_CHILDREN = frozenset({'inertial', 'visual', 'collision'})
KNOWN_JOINT_CHILDREN = frozenset({'origin', 'parent', 'child', 'axis', 'calibration', 'dynamics',
                                  'limit', 'mimic', 'safety_controller'})
KNOWN_ATTRIBUTES = {
    'limit': frozenset({'lower', 'upper', 'effort', 'velocity'}),
    'dynamics': frozenset({'damping', 'friction'}),
    'safety_controller': frozenset({'soft_lower_limit', 'soft_upper_limit', 'k_position',
                                    'k_velocity'}),
    'mimic': frozenset({'joint', 'multiplier', 'offset'}),
    'calibration': frozenset({'rising', 'falling', 'reference_position'}),
    'origin': frozenset({'xyz', 'rpy'}),
    'axis': frozenset({'xyz'}),
    'inertia': frozenset({'ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'}),
}
#: Children of a ROS 1 transmission's joint/actuator that ros_control's parser reads.
KNOWN_TRANSMISSION_PART_CHILDREN = frozenset({'hardwareInterface', 'mechanicalReduction',
                                              'role', 'offset'})


def _local(tag: object) -> str:
    """Tag without namespace, as written (``{ns}x`` -> ``x``); comments give ``''``."""
    if not isinstance(tag, str):
        return ''
    return tag.rpartition('}')[2] if tag.startswith('{') else tag


class UrdfReader:
    """
    Turn a ``<robot>`` element into a :class:`~urdf_tools_ros.core.model.Robot`.

    :param locate: Maps an element to its :class:`SourceLocation` (original xacro file:line).
    :param resolve: Maps a mesh/texture reference to a local path or ``None``.
    :ivar findings: Loading findings collected while reading.
    """

    def __init__(self, locate: Locate, resolve: Resolve) -> None:
        self._locate = locate
        self._resolve = resolve
        self.findings: list[Finding] = []

    # -- findings -------------------------------------------------------------------------
    def _report(self, code: str, severity: Severity, element: str, message: str,
                node: Element, fix: str | None = None) -> None:
        self.findings.append(Finding(code, severity, element, message, self._locate(node), fix))

    # -- values ---------------------------------------------------------------------------
    def _number(self, node: Element, attribute: str, owner: str, default: float | None,
                required: bool = False) -> float | None:
        text = node.get(attribute)
        if text is None:
            if required:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<{_local(node.tag)}> has no {attribute}', node)
            return default
        try:
            value = float(text)
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{_local(node.tag)} {attribute}="{text}">: not a number', node)
            return default
        if not math.isfinite(value):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{_local(node.tag)} {attribute}="{text}">: not finite', node)
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
                             f'<{_local(node.tag)}> has no {attribute}', node)
            return default
        parts = text.split()
        try:
            values = tuple(float(part) for part in parts)
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{_local(node.tag)} {attribute}="{text}">: not numbers', node)
            return default
        if len(values) != len(default):
            self._report('vector-size', Severity.ERROR, owner,
                         f'<{_local(node.tag)} {attribute}="{text}">: expected {len(default)} '
                         f'numbers, got {len(values)}', node)
            return default
        if not all(math.isfinite(value) for value in values):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{_local(node.tag)} {attribute}="{text}">: not finite', node)
        return values

    def _vector3(self, node: Element, attribute: str, owner: str, default: Vector3,
                 required: bool = False) -> Vector3:
        x, y, z = self._numbers(node, attribute, owner, default, required)
        return (x, y, z)

    def _name(self, node: Element, kind: str, owner: str) -> str:
        name = node.get('name')
        if name is None or name == '':
            self._report('attribute-missing', Severity.ERROR, owner,
                         f'<{kind}> has no name', node)
            return ''
        return str(name)

    def _check_attributes(self, node: Element, owner: str) -> None:
        tag = _local(node.tag)
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
    def _origin(self, parent: Element, owner: str) -> Origin:
        node = parent.find('origin')
        if node is None:
            return Origin()
        self._check_attributes(node, owner)
        return Origin(self._vector3(node, 'xyz', owner, (0.0, 0.0, 0.0)),
                      self._vector3(node, 'rpy', owner, (0.0, 0.0, 0.0)))

    def _geometry(self, parent: Element, owner: str) -> Geometry | None:
        node = parent.find('geometry')
        if node is None:
            return None
        shapes = [child for child in node if _local(child.tag)]
        if not shapes:
            return None
        shape = shapes[0]
        kind = _local(shape.tag)
        if kind == 'box':
            return Box(self._vector3(shape, 'size', owner, (0.0, 0.0, 0.0), required=True))
        if kind == 'cylinder':
            return Cylinder(self._float(shape, 'radius', owner, 0.0, True),
                            self._float(shape, 'length', owner, 0.0, True))
        if kind == 'sphere':
            return Sphere(self._float(shape, 'radius', owner, 0.0, True))
        if kind == 'mesh':
            filename = shape.get('filename')
            if not filename:
                self._report('attribute-missing', Severity.ERROR, owner,
                             '<mesh> has no filename', shape)
                filename = ''
            scale = self._vector3(shape, 'scale', owner, (1.0, 1.0, 1.0))
            return Mesh(filename, scale, self._resolve(filename) if filename else None)
        self._report('geometry-unknown', Severity.ERROR, owner,
                     f'<geometry> holds unknown shape <{shape.tag}>', shape)
        return None

    def material(self, node: Element, owner: str) -> Material:
        """Read a ``<material>`` (global or inside a visual)."""
        name = node.get('name') or ''
        color: tuple[float, ...] | None = None
        texture: str | None = None
        color_node = node.find('color')
        if color_node is not None:
            color = self._numbers(color_node, 'rgba', owner, (0.0, 0.0, 0.0, 1.0), True)
        texture_node = node.find('texture')
        if texture_node is not None:
            texture = texture_node.get('filename') or None
            if texture is None:
                self._report('attribute-missing', Severity.ERROR, owner,
                             '<texture> has no filename', texture_node)
        rgba = None if color is None else (color[0], color[1], color[2], color[3])
        return Material(name, rgba, texture, self._locate(node),
                        self._resolve(texture) if texture else None)

    def _inertial(self, node: Element, owner: str) -> Inertial | None:
        mass_node = node.find('mass')
        inertia_node = node.find('inertia')
        if mass_node is None or inertia_node is None:
            missing = '<mass>' if mass_node is None else '<inertia>'
            self._report('inertial-incomplete', Severity.ERROR, owner,
                         f'<inertial> has no {missing}', node)
            return None
        mass = self._float(mass_node, 'value', owner, 0.0, True)
        self._check_attributes(inertia_node, owner)
        values = [self._float(inertia_node, key, owner, 0.0, True)
                  for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')]
        return Inertial(mass, Inertia(*values),
                        self._origin(node, owner), self._locate(node))

    def link(self, node: Element) -> Link:
        """Read a ``<link>``."""
        name = self._name(node, 'link', 'link:?')
        owner = f'link:{name}'
        inertial: Inertial | None = None
        visuals: list[Visual] = []
        collisions: list[Collision] = []
        for child in node:
            tag = _local(child.tag)
            if not tag:
                continue
            if tag == 'inertial':
                inertial = self._inertial(child, owner)
            elif tag == 'visual':
                material_node = child.find('material')
                material = (None if material_node is None
                            else self.material(material_node, owner))
                visuals.append(Visual(self._geometry(child, owner), self._origin(child, owner),
                                      child.get('name'), material, self._locate(child)))
            elif tag == 'collision':
                collisions.append(Collision(self._geometry(child, owner),
                                            self._origin(child, owner), child.get('name'),
                                            self._locate(child)))
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
        links: dict[str, str] = {}
        for role in ('parent', 'child'):
            role_node = node.find(role)
            link = None if role_node is None else role_node.get('link')
            if not link:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<joint> has no <{role} link="...">',
                             node if role_node is None else role_node)
            links[role] = link or ''
        axis: Vector3 = (1.0, 0.0, 0.0)
        calibration = dynamics = limit = mimic = safety = None
        for child in node:
            tag = _local(child.tag)
            if not tag or tag in ('origin', 'parent', 'child'):
                continue
            self._check_attributes(child, owner)
            if tag == 'axis':
                axis = self._vector3(child, 'xyz', owner, (1.0, 0.0, 0.0), required=True)
            elif tag == 'calibration':
                calibration = Calibration(self._number(child, 'rising', owner, None),
                                          self._number(child, 'falling', owner, None))
            elif tag == 'dynamics':
                dynamics = Dynamics(self._float(child, 'damping', owner, 0.0),
                                    self._float(child, 'friction', owner, 0.0))
            elif tag == 'limit':
                limit = Limit(self._float(child, 'lower', owner, 0.0),
                              self._float(child, 'upper', owner, 0.0),
                              self._number(child, 'effort', owner, None),
                              self._number(child, 'velocity', owner, None))
            elif tag == 'mimic':
                source = child.get('joint')
                if not source:
                    self._report('attribute-missing', Severity.ERROR, owner,
                                 '<mimic> has no joint', child)
                else:
                    mimic = Mimic(source, self._float(child, 'multiplier', owner, 1.0),
                                  self._float(child, 'offset', owner, 0.0))
            elif tag == 'safety_controller':
                safety = SafetyController(
                    self._number(child, 'soft_lower_limit', owner, None),
                    self._number(child, 'soft_upper_limit', owner, None),
                    self._float(child, 'k_position', owner, 0.0),
                    self._number(child, 'k_velocity', owner, None))
            else:
                self._unknown(child, owner, 'inside <joint>')
        return Joint(name, joint_type, links['parent'], links['child'], self._origin(node, owner),
                     axis, calibration, dynamics, limit, mimic, safety, self._locate(node))

    def _interfaces(self, node: Element, tag: str) -> tuple[str, ...]:
        return tuple((child.text or '').strip() for child in node.findall(tag))

    def _reduction(self, node: Element, owner: str) -> float | None:
        for tag in ('mechanicalReduction', 'mechanical_reduction'):
            child = node.find(tag)
            if child is not None:
                text = (child.text or '').strip()
                try:
                    return float(text)
                except ValueError:
                    self._report('number-invalid', Severity.ERROR, owner,
                                 f'<{tag}>{text}</{tag}>: not a number', child)
        return None

    def transmission(self, node: Element) -> Transmission:
        """Read a ``<transmission>``, ROS 1 (``<type>``) or ros2_control (``<plugin>``) form."""
        name = self._name(node, 'transmission', 'transmission:?')
        owner = f'transmission:{name}'
        type_node = node.find('type')
        if type_node is None:
            type_node = node.find('plugin')
        joints: list[TransmissionJoint] = []
        actuators: list[TransmissionActuator] = []
        for child in node:
            tag = _local(child.tag)
            if tag in ('joint', 'actuator'):
                for part in child:
                    part_tag = _local(part.tag)
                    if part_tag and part_tag not in KNOWN_TRANSMISSION_PART_CHILDREN \
                            and part_tag != 'mechanical_reduction':
                        self._unknown(part, owner, f'inside a transmission <{tag}>')
                args = (self._name(child, tag, owner), self._reduction(child, owner),
                        self._interfaces(child, 'hardwareInterface'), child.get('role'),
                        self._locate(child))
                if tag == 'joint':
                    joints.append(TransmissionJoint(args[0], args[2], args[3], args[1], args[4]))
                else:
                    actuators.append(TransmissionActuator(*args))
            elif tag and tag not in ('type', 'plugin'):
                self._unknown(child, owner, 'inside <transmission>')
        return Transmission(name, None if type_node is None else (type_node.text or '').strip(),
                            tuple(joints), tuple(actuators), self._locate(node))

    def ros2_control(self, node: Element) -> Ros2Control:
        """Read a ``<ros2_control>`` block (hardware plugin, joints, transmissions)."""
        name = self._name(node, 'ros2_control', 'ros2_control:?')
        hardware = node.find('hardware')
        plugin_node = None if hardware is None else hardware.find('plugin')
        joints = tuple(
            Ros2ControlJoint(self._name(child, 'joint', f'ros2_control:{name}'),
                             tuple(i.get('name', '') for i in child.findall('command_interface')),
                             tuple(i.get('name', '') for i in child.findall('state_interface')),
                             self._locate(child))
            for child in node.findall('joint'))
        transmissions = tuple(self.transmission(child) for child in node.findall('transmission'))
        return Ros2Control(name, node.get('type'),
                           None if plugin_node is None else (plugin_node.text or '').strip(),
                           joints, transmissions, self._locate(node))

    def data(self, node: Element) -> XmlData:
        """Keep an element as :class:`XmlData` (tag, attributes, text, children)."""
        return XmlData(str(node.tag), tuple((str(k), str(v)) for k, v in node.items()),
                       (node.text or '').strip(),
                       tuple(self.data(child) for child in node if _local(child.tag)),
                       self._locate(node))

    def robot(self, root: Element) -> Robot:
        """Read the whole ``<robot>`` element."""
        name = root.get('name')
        links: list[Link] = []
        joints: list[Joint] = []
        materials: list[Material] = []
        transmissions: list[Transmission] = []
        controls: list[Ros2Control] = []
        gazebo: list[Gazebo] = []
        unknown: list[XmlData] = []
        for child in root:
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
                gazebo.append(Gazebo(child.get('reference'),
                                     tuple(self.data(c) for c in child if _local(c.tag)),
                                     self._locate(child)))
            else:
                unknown.append(self.data(child))
                self._unknown(child, f'robot:{name or "?"}', 'inside <robot>')
        return Robot(name or '', root.get('version'), tuple(links), tuple(joints),
                     tuple(materials), tuple(transmissions), tuple(controls), tuple(gazebo),
                     tuple(unknown), self._locate(root))
