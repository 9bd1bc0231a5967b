"""
Quick copies of xacro's DOM nodes, and xacro parses kept between loads (a language server's).

:func:`~urdf_tools_ros.core.source.xacro.dom.copy_node` must make the nodes minidom's own
clone makes, and a load with :class:`~urdf_tools_ros.core.source.xacro.dom.ParsedFiles`
must give what a load without it gives: the robots of ``../shared/ros2_descriptions`` loaded
one after another through one ``ParsedFiles`` (TurtleBot 4 includes create3's files at other
places of its location table), then again (every file copied, none parsed), and after an edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
import xml.dom
from xml.dom import minidom

from paths import REPO, ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest

from urdf_tools_ros.core.source.loader import load, parse_xacro_args, RobotDescription
from urdf_tools_ros.core.source.xacro.dom import copy_node, Element, ParsedFiles

pytestmark = [pytest.mark.installed]

CASES = ROS2_CASES
PACKAGES = ROS2_PACKAGES
#: Cases that share include files, and a few others.
SHARED = ['create3', 'turtlebot4_standard', 'turtlebot4_lite', 'robotiq_2f_85',
          'robotiq_2f_140', 'urdf_tutorial_08_macroed', 'r2c_r6bot']


def shape(node: Any) -> tuple[Any, ...]:
    """Everything of a node a reader of the DOM sees, its descendants' included."""
    attributes = () if node.attributes is None else tuple(sorted(
        (attribute.name, attribute.namespaceURI, attribute.localName, attribute.prefix,
         attribute.value, attribute.specified, attribute.ownerElement is node,
         attribute.ownerDocument is node.ownerDocument,
         [child.data for child in attribute.childNodes])
        for attribute in node.attributes.values()))
    children = node.childNodes
    links = [child.parentNode is node
             and child.previousSibling is (children[number - 1] if number else None)
             and child.nextSibling is (children[number + 1] if number + 1 < len(children)
                                       else None)
             for number, child in enumerate(children)]
    return (node.nodeType, node.nodeName, node.prefix, node.namespaceURI, node.localName,
            getattr(node, 'data', None), attributes, links,
            tuple(shape(child) for child in children))


class _Handler:
    def __init__(self) -> None:
        self.calls: list[tuple[int, str, Any]] = []

    def handle(self, operation: int, key: str, data: Any, src: Any, dst: Any) -> None:
        self.calls.append((operation, key, data))
        dst.setUserData(key, data, self)


def test_a_copy_has_the_nodes_of_minidoms_clone() -> None:
    for path in [REPO / 'urdf' / 'sample_robot.urdf.xacro',
                 *sorted((ROS2_DESCRIPTIONS / 'turtlebot4_description').rglob('*.xacro'))]:
        document = minidom.parseString(path.read_bytes())
        root = document.documentElement
        handler = _Handler()
        macro = root.getElementsByTagName('xacro:macro')
        marked = macro[0] if macro else root
        marked.setUserData('where', (str(path), 7), handler)
        clone = root.cloneNode(True)
        expected = list(handler.calls)
        handler.calls.clear()
        copy = copy_node(root, document)
        assert shape(copy) == shape(clone) == shape(root), path
        assert copy.ownerDocument is document and copy.parentNode is None
        assert handler.calls == expected == [(xml.dom.UserDataHandler.NODE_CLONED, 'where',
                                              (str(path), 7))]
        copied = copy.getElementsByTagName(marked.tagName)[0] if macro else copy
        assert copied.getUserData('where') == (str(path), 7)
        assert isinstance(copy, Element) and copy.cloneNode(True).toxml() == root.toxml()
        copy.setAttribute('name', 'changed')  # a copy is its own
        assert root.getAttribute('name') != 'changed'


def _load(case: dict[str, Any], parsed: ParsedFiles | None,
          texts: dict[str, str] | None = None) -> RobotDescription:
    return load(ROS2_DESCRIPTIONS / case['entry'], xacro_args=parse_xacro_args(case['args']),
                package_paths=PACKAGES, texts=texts, parsed=parsed)


def _seen(description: RobotDescription) -> tuple[Any, ...]:
    return (description.robot, description.xml, description.findings,
            description.dependencies, sorted(description.included_from.items()))


def test_kept_parses_give_the_same_descriptions() -> None:
    if not CASES:
        pytest.skip(f'{ROS2_DESCRIPTIONS} is not here')
    parsed = ParsedFiles()
    for _ in range(2):  # the second time every file is copied from the kept parses
        for name in SHARED:
            assert _seen(_load(CASES[name], parsed)) == _seen(_load(CASES[name], None)), name


def test_a_changed_text_is_parsed_again() -> None:
    if not CASES:
        pytest.skip(f'{ROS2_DESCRIPTIONS} is not here')
    parsed = ParsedFiles()
    case = CASES['turtlebot4_lite']
    first = _load(case, parsed)
    include = str(ROS2_DESCRIPTIONS / 'irobot_create_description' / 'urdf' / 'create3.urdf.xacro')
    text = Path(include).read_text(encoding='utf-8')
    assert '"base_link"' in text
    edited = {include: text.replace('"base_link"', '"base_link_edited"')}
    again = _load(case, parsed, dict(edited))
    names = {link.name for link in again.robot.links}
    assert 'base_link_edited' in names and 'base_link' not in names
    assert _seen(again) == _seen(_load(case, None, dict(edited)))
    assert _seen(_load(case, parsed)) == _seen(first)
