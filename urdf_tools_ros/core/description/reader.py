"""
Read a parsed URDF element tree into the typed model, keeping every source line.

The reader is lenient on purpose: it builds the model from whatever the file holds and turns
each syntax-level problem (a missing required attribute, a number that does not parse, a vector
without 3 numbers, NaN/inf, an unknown element) into a :class:`~urdf_tools_ros.core.findings.
Finding` of the ``loading`` rule family. Semantic rules run later on the model.
Attribute and element names follow the URDF specification (http://wiki.ros.org/urdf/XML).

This module reads ``<robot>``, ``<link>`` (inertial, visual, collision, geometry),
``<joint>`` and ``<material>``; the values are parsed by :mod:`.xml_values`, transmissions,
ros2_control and gazebo blocks are read by :mod:`.urdf_extensions`.
"""

from __future__ import annotations

from .extensions import ExtensionReader, KNOWN_TRANSMISSION_PART_CHILDREN
from .model import (Box, Calibration, Collision, Cylinder, Dynamics, Gazebo, Geometry, Inertia,
                    Inertial, Joint, Limit, Link, Material, Mesh, Mimic, Origin, Robot,
                    Ros2Control, SafetyController, Sphere, Transmission, Vector3, Visual, XmlData)
from .values import Element, KNOWN_ATTRIBUTES, local_name, Locate, Resolve
from ..findings import Severity

__all__ = ['UrdfReader', 'Element', 'Locate', 'Resolve', 'KNOWN_ROBOT_CHILDREN',
           'KNOWN_LINK_CHILDREN', 'KNOWN_JOINT_CHILDREN', 'KNOWN_ATTRIBUTES',
           'KNOWN_TRANSMISSION_PART_CHILDREN']

#: Children the URDF specification (and urdfdom) know, per element.
KNOWN_ROBOT_CHILDREN = frozenset({'link', 'joint', 'material', 'transmission', 'gazebo',
                                  'ros2_control', 'sensor'})
KNOWN_LINK_CHILDREN = frozenset({'inertial', 'visual', 'collision'})
KNOWN_JOINT_CHILDREN = frozenset({'origin', 'parent', 'child', 'axis', 'calibration', 'dynamics',
                                  'limit', 'mimic', 'safety_controller'})

_ZERO: Vector3 = (0.0, 0.0, 0.0)
_ONE: Vector3 = (1.0, 1.0, 1.0)
_IDENTITY = Origin()


class UrdfReader(ExtensionReader):
    """
    Turn a ``<robot>`` element into a :class:`~urdf_tools_ros.core.description.model.Robot`.

    :param locate: Maps an element to its :class:`SourceLocation` (original xacro file:line).
    :param resolve: Maps a mesh/texture reference to a local path or ``None``.
    :ivar findings: Loading findings collected while reading.
    """

    # -- elements -------------------------------------------------------------------------
    # Children are looked up as ``Element.find(tag)`` does (the first child whose tag is
    # exactly ``tag``, no namespace), but in one pass over the children per element.
    def _origin(self, node: Element | None, owner: str) -> Origin:
        """Read an ``<origin>`` element; ``None`` (absent) is the identity."""
        if node is None:
            return _IDENTITY
        self._check_attributes(node, 'origin', owner)
        return Origin(self._vector3(node, 'xyz', owner, _ZERO),
                      self._vector3(node, 'rpy', owner, _ZERO))

    def _geometry(self, node: Element | None, owner: str, collision: bool
                  ) -> tuple[Geometry | None, str | None]:
        """
        Read a ``<geometry>`` element (its first child element is the shape, as urdfdom).

        :param collision: It belongs to a ``<collision>``: MuJoCo reads those (it discards URDF
            visuals), knows ``<capsule>`` too, and refuses any other unknown shape there.
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
        if kind == 'box':
            return Box(self._vector3(shape, 'size', owner, _ZERO, required=True)), None
        if kind == 'cylinder':
            return Cylinder(self._float(shape, 'radius', owner, 0.0, True),
                            self._float(shape, 'length', owner, 0.0, True)), None
        if kind == 'sphere':
            return Sphere(self._float(shape, 'radius', owner, 0.0, True)), None
        if kind == 'mesh':
            filename = shape.get('filename')
            if not filename:
                self._report('attribute-missing', Severity.ERROR, owner,
                             '<mesh> has no filename', shape)
                filename = ''
            scale = self._vector3(shape, 'scale', owner, _ONE)
            return Mesh(filename, scale, self._resolve(filename) if filename else None), None
        mujoco = collision and kind != 'capsule'
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
                    self._report('joint-limit-bound-missing', Severity.WARNING, owner,
                                 f'joint "{name}" ({joint_type}): <limit> has no '
                                 f'{" and no ".join(missing)}; URDF reads 0, '
                                 'joint_state_publisher refuses the robot ("lower" limit must '
                                 'be specified)', child,
                                 'write both bounds, e.g. lower="-1.57" upper="1.57"')
                limit = Limit(self._float(child, 'lower', owner, 0.0),
                              self._float(child, 'upper', owner, 0.0),
                              self._number(child, 'effort', owner, None),
                              self._number(child, 'velocity', owner, None),
                              self._locate(child))
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
                if not source:
                    self._report('attribute-missing', Severity.ERROR, owner,
                                 '<mimic> has no joint', child)
                else:
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
        sensors: list[XmlData] = []
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
                gazebo.append(self.gazebo(child))
            elif tag == 'sensor':
                sensors.append(self.data(child))
            else:
                unknown.append(self.data(child))
                self._unknown(child, f'robot:{name or "?"}', 'inside <robot>')
        return Robot(name or '', root.get('version'), tuple(links), tuple(joints),
                     tuple(materials), tuple(transmissions), tuple(controls), tuple(gazebo),
                     tuple(unknown), self._locate(root), tuple(sensors))
