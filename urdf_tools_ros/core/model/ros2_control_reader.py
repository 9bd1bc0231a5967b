"""
The reading of ``<ros2_control>`` blocks: the part of the URDF reader that ros2_control owns.

Read as hardware_interface's ``component_parser.cpp`` reads them (branches humble and jazzy):
``<hardware>`` (its last ``<plugin>``, ``<group>``, ``<param>``s), ``<properties>``,
``<joint>``/``<sensor>``/``<gpio>`` with their interfaces, ``<transmission>``; every other child
is kept as data (the parser refuses it). A required attribute that is absent (``name``,
``type``, ``role``, ``<limits enable>``) is ``attribute-missing`` with the ros2_control versions
that throw on it; what the values mean is for the rules (:mod:`..checks.rules.ros2_control`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .ros2_control import (Component, EVERY_ROS2_CONTROL, Hardware, Interface, Limits, Param,
                           Properties, Ros2Control, Transmission)
from .values import Element
from ..findings import Severity

if TYPE_CHECKING:
    from .values import Locate
    from ..findings import Finding
    from ..location import SourceLocation

__all__ = ['Ros2ControlReader']


def _text(node: Element) -> str:
    return (node.text or '').strip()


class Ros2ControlReader:
    """Reads ``<ros2_control>`` blocks: a base of :class:`~.reader.UrdfReader`."""

    if TYPE_CHECKING:
        _locate: Locate
        findings: list[Finding]

        def _report(self, code: str, severity: Severity, element: str, message: str,
                    node: Element, fix: str | None = None,
                    consumers: tuple[str, ...] | None = None) -> None: ...

        def _name(self, node: Element, kind: str, owner: str, within: str = 'robot') -> str: ...

        def transmission(self, node: Element, top_level: bool = True) -> Transmission: ...

    def ros2_control(self, node: Element, parent: str = 'robot') -> Ros2Control:
        """
        Read a ``<ros2_control>`` block whose enclosing element is ``parent``.

        A block nested elsewhere is read without findings: ros2_control never reads it.
        """
        if parent != 'robot':
            findings, self.findings = self.findings, []
            try:
                return replace(self.ros2_control(node), parent=parent)
            finally:
                self.findings = findings
        name = self._name(node, 'ros2_control', 'ros2_control:?', 'ros2_control')
        owner = f'ros2_control:{name}'
        if node.get('type') is None:
            self._report('attribute-missing', Severity.ERROR, owner,
                         '<ros2_control> has no type (system, actuator or sensor)', node,
                         '<ros2_control name="..." type="system">', EVERY_ROS2_CONTROL)
        hardware = properties = None
        components: dict[str, list[Component]] = {'joint': [], 'sensor': [], 'gpio': []}
        transmissions: list[Transmission] = []
        unknown: list[tuple[str, SourceLocation | None]] = []
        for child in node:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag == 'hardware':  # the parser reads each; the last one stays
                plugin, group = child.find('plugin'), child.find('group')
                hardware = Hardware(None if plugin is None else _text(plugin),
                                    self.parameters(child, owner),
                                    None if group is None else _text(group), self._locate(child))
            elif tag in components:
                components[tag].append(self._component(child, tag, owner))
            elif tag == 'transmission':
                transmissions.append(self.transmission(child, top_level=False))
            elif tag == 'properties':  # 4.x reads the first <async> of each
                asynchronous = child.find('async')
                properties = Properties(None if asynchronous is None else tuple(
                    asynchronous.items()), self._locate(child))
            else:
                unknown.append((tag, self._locate(child)))
        return Ros2Control(name, node.get('type'), hardware, tuple(components['joint']),
                           tuple(components['sensor']), tuple(components['gpio']),
                           tuple(transmissions), properties, tuple(unknown), node.get('rw_rate'),
                           node.get('is_async'), node.get('thread_priority'), parent,
                           self._locate(node))

    def parameters(self, node: Element, owner: str) -> tuple[Param, ...]:
        """The ``<param name>`` children of ``node``; an absent name is reported."""
        return tuple(Param(self._name(child, 'param', owner, 'ros2_control'), _text(child),
                           self._locate(child)) for child in node.findall('param'))

    def _limits(self, node: Element | None, owner: str) -> Limits | None:
        """A ``<limits enable>`` element; ros2_control 4.x refuses one without ``enable``."""
        if node is None:
            return None
        if node.get('enable') is None:
            self._report('attribute-missing', Severity.ERROR, owner,
                         '<limits> has no enable (ros2_control 4.x refuses it)', node,
                         '<limits enable="false"/>', ('ros2_control',))
        return Limits(node.get('enable'), self._locate(node))

    def _component(self, node: Element, tag: str, owner: str) -> Component:
        """A ``<joint>``, ``<sensor>`` or ``<gpio>`` with its interfaces and ``<param>``s."""
        name = self._name(node, tag, owner, 'ros2_control')

        def interfaces(kind: str) -> tuple[Interface, ...]:
            return tuple(Interface(self._name(child, kind, owner, 'ros2_control'),
                                   self.parameters(child, owner), child.get('data_type'),
                                   child.get('size'), self._limits(child.find('limits'), owner),
                                   self._locate(child)) for child in node.findall(kind))
        limits = None if tag == 'gpio' else self._limits(node.find('limits'), owner)
        return Component(name, tag, interfaces('command_interface'), interfaces('state_interface'),
                         self.parameters(node, owner), node.get('mimic'), limits,
                         self._locate(node))
