"""
Read the ``<robot>`` children that URDF leaves to other tools: transmissions, ros2_control, gazebo.

:class:`ExtensionReader` turns ``<transmission>`` (ROS 1 ``<type>`` and ros2_control
``<plugin>`` forms), ``<ros2_control>`` and ``<gazebo>`` blocks into the typed model; any other
element it keeps as :class:`~urdf_tools_ros.core.description.model.XmlData`. Problems become
loading findings, as in :class:`~urdf_tools_ros.core.description.values.ValueReader`.
Sources: ros_control's transmission parser (``transmission_interface``), ros2_control's
``<ros2_control>`` URDF tags, Gazebo's ``<gazebo reference>`` extension.
"""

from __future__ import annotations

from .model import (Gazebo, Ros2Control, Ros2ControlJoint, Transmission, TransmissionActuator,
                    TransmissionJoint, XmlData)
from .values import Element, local_name, ValueReader
from ..findings import Severity

#: Children of a ROS 1 transmission's joint/actuator that ros_control's parser reads.
KNOWN_TRANSMISSION_PART_CHILDREN = frozenset({'hardwareInterface', 'mechanicalReduction',
                                              'role', 'offset'})


class ExtensionReader(ValueReader):
    """
    Read ``<transmission>``, ``<ros2_control>``, ``<gazebo>`` and unknown elements.

    :param locate: Maps an element to its :class:`SourceLocation` (original xacro file:line).
    :param resolve: Maps a mesh/texture reference to a local path or ``None``.
    :ivar findings: Loading findings collected while reading.
    """

    def _reduction(self, nodes: list[tuple[str, Element]], owner: str,
                   parsed_by_urdf_parser_py: bool) -> float | None:
        """
        The first of ``<mechanicalReduction>``, ``<mechanical_reduction>`` that parses.

        :param parsed_by_urdf_parser_py: The element is in a top-level transmission's
            ``<actuator>``, whose ``<mechanicalReduction>`` urdf_parser_py parses as a float (it
            refuses the file on a bad number). urdfdom and MuJoCo never read transmissions.
        """
        for tag, child in nodes:
            text = (child.text or '').strip()
            try:
                return float(text)
            except ValueError:
                breaks = parsed_by_urdf_parser_py and tag == 'mechanicalReduction'
                self._report('number-invalid', Severity.ERROR, owner,
                             f'<{tag}>{text}</{tag}>: not a number', child,
                             consumers=('urdf_parser_py',) if breaks else ())
        return None

    def _transmission_part(self, node: Element, tag: str, owner: str, top_level: bool
                           ) -> tuple[str, float | None, tuple[str, ...], str | None]:
        """
        Read a transmission ``<joint>``/``<actuator>``: name, reduction, interfaces, role.

        :param top_level: The transmission is a child of ``<robot>`` (see :meth:`_reduction`).
        """
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
        name = self._name(node, tag, owner)
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
        Report a top-level transmission in neither form urdf_parser_py reads (it refuses the file).

        urdf_parser_py 1.2 (``urdf.py``, a duck-typed ``transmission``) reads the ROS 1 form:
        a ``<type>`` element, at least one ``<joint>``, each with a ``<hardwareInterface>``, and
        at least one ``<actuator>``; or the PR2 form: a ``type`` attribute, one ``<joint>``, one
        ``<actuator>`` and a ``<mechanicalReduction>`` element. Measured in
        ``test/test_consumer_oracles.py``.
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
                     f'<transmission> lacks {", ".join(missing)}: it is in neither form '
                     'urdf_parser_py reads (ROS 1: <type>, <joint> with <hardwareInterface>, '
                     '<actuator>; PR2: type attribute, one <joint>, one <actuator>, '
                     '<mechanicalReduction>), so urdf_parser_py refuses the file', node,
                     'add ' + ', '.join(missing) + ' (http://wiki.ros.org/urdf/XML/Transmission)')

    def transmission(self, node: Element, top_level: bool = True) -> Transmission:
        """
        Read a ``<transmission>``, ROS 1 (``<type>``) or ros2_control (``<plugin>``) form.

        :param top_level: A child of ``<robot>`` (urdf_parser_py reads it, see
            :meth:`_check_urdf_parser_py_form`), not of ``<ros2_control>``.
        """
        name = self._name(node, 'transmission', 'transmission:?')
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
                                                self._locate(child)))
            elif tag == 'actuator':
                part_name, reduction, interfaces, role = self._transmission_part(
                    child, tag, owner, top_level)
                actuators.append(TransmissionActuator(part_name, reduction, interfaces, role,
                                                      self._locate(child)))
            elif tag not in ('type', 'plugin'):
                self._unknown(child, owner, 'inside <transmission>')
        if top_level:
            self._check_urdf_parser_py_form(node, owner, type_node is not None, joints,
                                            actuators)
        if type_node is None:
            type_node = plugin_node
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
        transmissions = tuple(self.transmission(child, top_level=False)
                              for child in node.findall('transmission'))
        return Ros2Control(name, node.get('type'),
                           None if plugin_node is None else (plugin_node.text or '').strip(),
                           joints, transmissions, self._locate(node))

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
