"""
Robot-level rules: the URDF version, duplicate names and a robot without links.

urdfdom (``urdf_parser/src/model.cpp``, ``parseURDF``) refuses the whole description on each of
these: a ``version`` other than the supported ones, a second global ``<material>``, ``<link>``
or ``<joint>`` of a name already taken (even when both definitions are identical), a robot
without any ``<link>``, and a robot without a name. Unknown elements are the loader's finding
(``unknown-element``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
import re
from typing import Protocol

from .registry import check, CheckContext, rule
from ..description.model import SourceLocation
from ..findings import Finding, Severity

#: The URDF versions urdfdom 3.x/4.x (ROS 2 Humble, Jazzy) read: only 1.0. urdfdom 5.1 and later
#: (Rolling) also read 1.1 (quaternions, capsules) and 1.2 (joint acceleration/jerk limits).
SUPPORTED_VERSIONS = ((1, 0),)
#: urdfdom's version syntax (``urdf_export_helpers::URDFVersion``): ``major.minor``, digits only.
_VERSION = re.compile(r'^\s*(\d+)\.(\d+)$')

_MODEL = 'urdfdom model.cpp (parseURDF)'
NAME_MISSING = rule('robot-name-missing', Severity.WARNING, '<robot> has no name',
                    source='urdfdom', consumers=('urdfdom',),
                    reference=_MODEL + ': "No name given for the robot."')
VERSION_UNSUPPORTED = rule(
    'robot-version-unsupported', Severity.WARNING,
    '<robot version> is not 1.0, the only URDF version urdfdom on Humble and Jazzy reads',
    source='urdfdom', consumers=('urdfdom',), reference=_MODEL + ' (URDFVersion)')
NO_LINKS = rule('robot-no-links', Severity.ERROR, 'the robot has no <link>', source='urdfdom',
                consumers=('urdfdom', 'urdf_tools_ros'),
                reference=_MODEL + ': "No link elements found in urdf file"')
LINK_DUPLICATE = rule('link-duplicate', Severity.WARNING, 'two links have the same name',
                      source='urdfdom', consumers=('urdfdom',), reference=_MODEL)
JOINT_DUPLICATE = rule('joint-duplicate', Severity.WARNING, 'two joints have the same name',
                       source='urdfdom', consumers=('urdfdom',), reference=_MODEL)
NAME_SHARED = rule(
    'link-joint-name-shared', Severity.INFO,
    'a link and a moving joint have the same name (URDF allows it; SDFormat, so Gazebo, needs '
    'names unique in a model)', consumers=('gazebo',),
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


@check
def check_name(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a ``<robot>`` without a name (urdfdom: "No name given for the robot.").

    The model keeps an absent name as ``''``, so ``name=""`` (which urdfdom lets pass) is
    reported too: nothing can refer to a robot without a name.
    """
    if not ctx.robot.name:
        yield ctx.finding(NAME_MISSING, 'robot', '<robot> has no name', fix='<robot name="...">')


@check
def check_version(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a ``<robot version>`` other than 1.0 (absent means 1.0).

    urdfdom parses the attribute as ``major.minor`` (leading zeros and leading blanks pass,
    anything after the minor number does not) and refuses other versions.
    """
    version = ctx.robot.version
    if version is None:
        return
    match = _VERSION.match(version)
    if match is None:
        yield ctx.finding(VERSION_UNSUPPORTED, 'robot',
                          f'robot "{ctx.robot.name}": version="{version}" is not of the form '
                          'major.minor', fix='write version="1.0" or leave it out')
        return
    parsed = (int(match.group(1)), int(match.group(2)))
    if parsed not in SUPPORTED_VERSIONS:
        later = ' (urdfdom 5.1+ on Rolling reads it, Humble and Jazzy do not)' \
            if parsed in ((1, 1), (1, 2)) else ''
        yield ctx.finding(VERSION_UNSUPPORTED, 'robot',
                          f'robot "{ctx.robot.name}": version="{version}" is not supported; '
                          f'only 1.0 is{later}', fix='write version="1.0" or leave it out')


@check
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


@check
def check_duplicates(ctx: CheckContext) -> Iterator[Finding]:
    """Report duplicate link, joint and global material names."""
    yield from _duplicates(ctx, LINK_DUPLICATE, 'link', ctx.robot.links)
    yield from _duplicates(ctx, JOINT_DUPLICATE, 'joint', ctx.robot.joints)
    yield from _duplicates(ctx, MATERIAL_DUPLICATE, 'material', ctx.robot.materials)


@check
def check_shared_names(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a moving joint named like a link that Gazebo keeps (it refuses the model).

    Gazebo keeps the root link (unless it is ``world``) and the child of every joint that is
    not fixed; a fixed joint disappears in its fixed-joint lumping, and so does its child.
    """
    fixed_children = {joint.child for joint in ctx.robot.joints
                      if joint.joint_type == 'fixed' and joint.parent != 'world'}
    links = {link.name for link in ctx.robot.links if link.name not in fixed_children}
    for joint in ctx.robot.joints:
        if joint.joint_type != 'fixed' and joint.name in links and joint.name != 'world':
            yield ctx.finding(NAME_SHARED, f'joint:{joint.name}',
                              f'joint "{joint.name}" has the name of a link; Gazebo refuses the '
                              'model ("Joint with non-unique name")', joint.location,
                              f'rename the joint, e.g. "{joint.name}_joint"')
