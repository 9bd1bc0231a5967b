"""
Robot-level rules: the URDF version, duplicate names and a robot without links.

urdfdom (``model.cpp``, ``parseURDF``) refuses each: an unsupported ``version``, a second
material, link or joint of a taken name, no ``<link>``, no robot name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...location import SourceLocation
from ...model.values import ros_distros, urdf_version, URDF_VERSIONS, URDFDOM_SINCE

#: The URDF versions urdfdom 3.x to 5.0 (ROS 2 Humble, Jazzy, Kilted) read: only 1.0. urdfdom 5.1
#: and later (6.0: ROS 2 Lyrical and Rolling) also read 1.1 (quaternions, capsules) and 1.2
#: (acceleration/jerk limits): :data:`~urdf_tools_ros.core.model.values.URDF_VERSIONS`,
#: per distro :data:`~urdf_tools_ros.core.model.values.ROS_DISTRO_URDF_VERSIONS`.
SUPPORTED_VERSIONS = ((1, 0),)

_MODEL = 'urdfdom model.cpp (parseURDF)'
#: Reported by the reader, which tells an absent name from ``name=""`` (``attribute-empty``).
NAME_MISSING = rule('robot-name-missing', Severity.WARNING, '<robot> has no name attribute',
                    source='urdfdom', consumers=('urdfdom', 'urdf_parser_py'),
                    reference=_MODEL + ': "No name given for the robot."; urdf_parser_py '
                                       '"Required attribute not set in XML: name"')
VERSION_UNSUPPORTED = rule(
    'robot-version-unsupported', Severity.WARNING,
    '<robot version> is not of the form major.minor, or names a version no urdfdom reads '
    '(1.0 to 1.2): urdfdom, so every ROS tool, Gazebo and pinocchio refuse the file',
    source='urdfdom', consumers=('urdfdom', 'pinocchio'), reference=_MODEL + ' (URDFVersion)')
VERSION_NEW = rule(
    'robot-version-new', Severity.WARNING,
    f'<robot version> is 1.1 or 1.2: only urdfdom 5.1+ reads it (6.0: ROS 2 '
    f'{ros_distros((1, 2))}); the urdfdom of Humble (3.0), Jazzy (4.0) and Kilted (5.0) refuses '
    'the whole file',
    source='urdfdom', consumers=('urdfdom-before-5.1',),
    reference=(_MODEL + ' ("only version 1.0 is currently supported" before 5.1; urdfdom '
               '5.1.0 ros/rosdistro#49718, 6.0.0 ros/rosdistro#50827)'))
VERSION_URDF_PARSER_PY = rule(
    'urdf-parser-py-version', Severity.WARNING,
    '<robot version> is 1.1 or 1.2: urdf_parser_py reads URDF 1.0 only and refuses the file on '
    'every ROS 2 distro (Python tools that read robot_description with it)',
    consumers=('urdf_parser_py',),
    reference='urdf_parser_py urdf.py Robot.SUPPORTED_VERSIONS = ["1.0"] ("Invalid version; '
              'only 1.0 is supported"; measured with 1.2.1, the release of every distro; '
              'capsules: ros/urdf_parser_py#96, open)')
NO_LINKS = rule('robot-no-links', Severity.ERROR, 'the robot has no <link>', source='urdfdom',
                consumers=('urdfdom', 'urdf_tools_ros'),
                reference=_MODEL + ': "No link elements found in urdf file"')
LINK_DUPLICATE = rule('link-duplicate', Severity.WARNING, 'two links have the same name',
                      source='urdfdom', consumers=('urdfdom',), reference=_MODEL)
JOINT_DUPLICATE = rule('joint-duplicate', Severity.WARNING, 'two joints have the same name',
                       source='urdfdom', consumers=('urdfdom',), reference=_MODEL)
NAME_SHARED = rule(
    'link-joint-name-shared', Severity.WARNING,
    'a link and a moving joint have the same name (URDF and ROS allow it; SDFormat, so Gazebo, '
    'needs names unique in a model and refuses it)', consumers=('gazebo',),
    reference='SDFormat 1.7+ name uniqueness (Gazebo: "Joint with non-unique name")')
MATERIAL_DUPLICATE = rule(
    'material-duplicate', Severity.WARNING,
    'two global <material> elements have the same name (urdfdom refuses even identical ones)',
    source='urdfdom', consumers=('urdfdom',), reference=_MODEL)


class _Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def location(self) -> SourceLocation | None: ...


@check(codes=(VERSION_UNSUPPORTED, VERSION_NEW, VERSION_URDF_PARSER_PY))
def check_version(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a ``<robot version>`` urdfdom refuses, or one only Lyrical's and Rolling's read.

    urdfdom 3.x to 5.0 read 1.0 only, 5.1 adds 1.1, 6.0 1.2 (check_urdf 3.0.1 and 6.0.0).
    """
    version = ctx.robot.version
    if version is None:
        return
    try:
        parsed = urdf_version(version)
    except ValueError as exc:
        yield ctx.finding(VERSION_UNSUPPORTED, 'robot',
                          f'robot "{ctx.robot.name}": version="{version}": {exc} (urdfdom '
                          'refuses the file)', fix='write version="1.0" or leave it out')
        return
    if parsed not in URDF_VERSIONS:
        yield ctx.finding(VERSION_UNSUPPORTED, 'robot',
                          f'robot "{ctx.robot.name}": version="{version}" is not a URDF version '
                          'urdfdom reads (1.0; 1.1 and 1.2 from urdfdom 5.1/6.0)',
                          fix='write version="1.0" or leave it out')
    elif parsed not in SUPPORTED_VERSIONS:
        number = f'{parsed[0]}.{parsed[1]}'
        written = '' if version == number else f' (version="{version}")'
        yield ctx.finding(VERSION_NEW, 'robot',
                          f'robot "{ctx.robot.name}": URDF {number}{written} is read by ROS 2 '
                          f'{ros_distros(parsed)} only (urdfdom {URDFDOM_SINCE[parsed]}+): '
                          f'{ros_distros(parsed, refuse=True)} refuse the file '
                          '(robot_state_publisher, RViz)',
                          fix=f'for {ros_distros((1, 1), refuse=True)} keep to URDF 1.0 '
                          '(urdf-tools convert writes it): rpy instead of quat_xyzw, a cylinder '
                          'and two spheres for a capsule, no acceleration/deceleration/jerk')
        yield ctx.finding(VERSION_URDF_PARSER_PY, 'robot',
                          f'robot "{ctx.robot.name}": urdf_parser_py reads URDF 1.0 only and '
                          f'refuses this {parsed[0]}.{parsed[1]} file ("Invalid version; only '
                          '1.0 is supported") on every distro',
                          fix='if a Python tool of yours reads robot_description with '
                          'urdf_parser_py, give it URDF 1.0 (urdf-tools convert --to 1.0); '
                          'else ignore this code in .urdf-tools.toml')


@check(codes=(NO_LINKS,))
def check_links_present(ctx: CheckContext) -> Iterator[Finding]:
    """Report a robot without links (urdfdom: "No link elements found in urdf file")."""
    if not ctx.robot.links:
        yield ctx.finding(NO_LINKS, 'robot', f'robot "{ctx.robot.name}" has no <link>',
                          fix='a URDF needs at least one <link name="...">')


def _duplicates(ctx: CheckContext, code: str, kind: str,
                elements: Iterable[_Named]) -> Iterator[Finding]:
    """Report every element after the first of its name, naming where the first one is."""
    first: dict[str, _Named] = {}
    for element in elements:
        if not element.name:  # a missing name is the loader's finding
            continue
        earlier = first.setdefault(element.name, element)
        if earlier is element:
            continue
        where = f'; the first one is at {earlier.location}' if earlier.location else ''
        same = ''
        if kind == 'material' and _same_material(earlier, element):
            same = ' (identically; urdfdom refuses it all the same)'
        yield ctx.finding(code, f'{kind}:{element.name}',
                          f'{kind} "{element.name}" is defined again{same}{where}',
                          element.location,
                          f'rename or remove one of the two <{kind}> elements')


def _same_material(first: object, second: object) -> bool:
    return (getattr(first, 'color', None) == getattr(second, 'color', None)
            and getattr(first, 'texture', None) == getattr(second, 'texture', None))


@check(codes=(LINK_DUPLICATE, JOINT_DUPLICATE, MATERIAL_DUPLICATE))
def check_duplicates(ctx: CheckContext) -> Iterator[Finding]:
    """Report duplicate link, joint and global material names."""
    yield from _duplicates(ctx, LINK_DUPLICATE, 'link', ctx.robot.links)
    yield from _duplicates(ctx, JOINT_DUPLICATE, 'joint', ctx.robot.joints)
    yield from _duplicates(ctx, MATERIAL_DUPLICATE, 'material', ctx.robot.materials)


@check(codes=(NAME_SHARED,))
def check_shared_names(ctx: CheckContext) -> Iterator[Finding]:
    """Report a moving joint named like a link Gazebo keeps (root, child of a moving joint)."""
    fixed_children = {joint.child for joint in ctx.robot.joints
                      if joint.joint_type == 'fixed' and joint.parent != 'world'}
    links = {link.name for link in ctx.robot.links if link.name not in fixed_children}
    for joint in ctx.robot.joints:
        if joint.joint_type != 'fixed' and joint.name in links and joint.name not in ('world', ''):
            yield ctx.finding(NAME_SHARED, f'joint:{joint.name}',
                              f'joint "{joint.name}" has the name of a link; Gazebo refuses the '
                              'model ("Joint with non-unique name")', joint.location,
                              f'rename the joint, e.g. "{joint.name}_joint"')
