"""
References and rename of a link, joint, macro, property or arg, in the text as written.

:func:`target` tells what a position names and finds where the files of the runs that use it
write that name (a macro library's body too):

* a link or joint: the ``name`` of ``<link>`` and ``<joint>`` (ros2_control's and a
  transmission's ``<joint name>`` use one), ``<parent|child link>``, ``<mimic joint>``, a
  ``reference``;
* a property: ``${...}`` uses (a whole word, not in a string, not in a macro whose parameter
  or own property of that name hides it), ``<xacro:insert_block name>``, its
  ``<xacro:property name>``;
* a macro: ``<xacro:NAME`` calls and their end tags, ``<xacro:call macro>``, its
  ``<xacro:macro name>``;
* an arg: ``$(arg NAME)``, ``arg('NAME')``, its ``<xacro:arg name>`` (not the entry's
  configuration).

:func:`refuse_expressions` and :func:`edits` raise :class:`Refused` where a rename would break
the description: a name the model has from an expression (``name="${prefix}base_link"``), a new
name that is not valid or already taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
import keyword
import os
import re

from urdf_tools_ros.core.location import SourceLocation
from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.scanner import (ARG_CALL, Attribute, Element, EXPRESSION, NAME,
                                                SUBSTITUTION, without_comments)
from .definition import macro_name, XACRO_ELEMENTS
from .symbols import all_definitions, Definition, elements_of, macro_at, token_at, visible

#: ``(tag, attribute)`` that writes a name: ``(kind, whether it defines it)``.
WRITTEN = {('link', 'name'): ('link', True), ('joint', 'name'): ('joint', True),
           ('parent', 'link'): ('link', False), ('child', 'link'): ('link', False),
           ('mimic', 'joint'): ('joint', False), ('xacro:property', 'name'): ('property', True),
           ('xacro:insert_block', 'name'): ('property', False),
           ('xacro:macro', 'name'): ('macro', True), ('xacro:call', 'macro'): ('macro', False),
           ('xacro:arg', 'name'): ('arg', True)}
#: The elements whose ``<joint name>`` names a joint of the model.
JOINT_USERS = ('ros2_control', 'transmission')
_URDF_NAME = re.compile(r'[^\s"\'<>&${}]+')
_STRING = re.compile(r'\'[^\']*\'|"[^"]*"')
#: The files and models of the runs that use some files (the server knows them).
Scope = Callable[[Sequence[str]], tuple[list[str], list[Robot]]]
Read = Callable[[str], str | None]


class Refused(Exception):
    """A rename that would break the description; the message says why."""


@dataclass(frozen=True)
class Site:
    """``[start, end)`` of the text of ``path`` writes the name; ``definition``: defines it."""

    path: str
    start: int
    end: int
    definition: bool = False


@dataclass(frozen=True)
class Target:
    """
    The name at a position and where it is written.

    :ivar kind: ``link``, ``joint``, ``macro``, ``property`` or ``arg``.
    :ivar name: The name.
    :ivar here: Where it is written at the position.
    :ivar scope: A property of a macro's own: that macro (``None``: the top level's).
    :ivar sites: Every place the files write it.
    :ivar files: The files searched (of the runs that use it).
    :ivar found: Their xacro definitions.
    :ivar robots: The models of those runs.
    """

    kind: str
    name: str
    here: Site
    scope: Definition | None = None
    sites: tuple[Site, ...] = ()
    files: tuple[str, ...] = ()
    found: tuple[Definition, ...] = ()
    robots: tuple[Robot, ...] = ()


def _place(path: str, text: str, offset: int) -> str:
    return f'{os.path.basename(path)}:{text.count(chr(10), 0, offset) + 1}'


def written_kind(element: Element, attribute: Attribute) -> tuple[str, bool] | None:
    """What ``attribute`` of ``element`` names (:data:`WRITTEN`); a reference: ``reference``."""
    if attribute.name == 'reference':
        return 'reference', False
    found = WRITTEN.get((element.tag, attribute.name))
    parent = element.parent
    while found == ('joint', True) and parent is not None:
        found = ('joint', False) if parent.tag in JOINT_USERS else found
        parent = parent.parent
    return found


def _named_at(path: str, text: str, offset: int, found: Sequence[Definition],
              robots: Sequence[Robot]) -> Target | None:
    token = token_at(text, offset)
    if token is not None and token.kind == 'arg':
        return Target('arg', token.text, Site(path, token.start, token.end))
    if token is not None and token.kind == 'name':
        here = macro_at(found, path, token.start)
        defined = visible(found, 'property', token.text, here)
        if not defined or here is not None and token.text in here.params:
            return None  # a macro's parameter, or not a property
        return Target('property', token.text, Site(path, token.start, token.end),
                      next((item.scope for item in defined if item.scope is not None), None))
    element = next((item for item in elements_of(text) if item.start <= offset < item.tag_end),
                   None)
    if token is not None or element is None:
        return None
    called = macro_name(element)
    if called is not None and offset <= element.start + 1 + len(element.tag):
        return Target('macro', called, Site(path, element.start + 7,
                                            element.start + 1 + len(element.tag)))
    attribute = next((item for item in element.attributes if item.start <= offset <= item.end),
                     None)
    written = written_kind(element, attribute) if attribute is not None else None
    if attribute is None or written is None:
        return None
    if '$' in attribute.value:
        raise Refused(f'`{attribute.value}` ({_place(path, text, attribute.start)}) is an '
                      'expression: rename what it is made of')
    kind = written[0]
    if kind == 'reference':
        kind = 'joint' if any(attribute.value in robot.joint_map and attribute.value not in
                              robot.link_map for robot in robots) else 'link'
    scope = next((item.scope for item in found if item.path == path
                  and item.start == element.start), None)
    return Target(kind, attribute.value, Site(path, attribute.start, attribute.end), scope)


def _sites(target: Target, path: str, text: str, found: Sequence[Definition]) -> list[Site]:
    """Where ``text`` (of ``path``) writes the name of ``target``."""
    kind, name, scope = target.kind, target.name, target.scope
    low, high = (scope.start, scope.end) if scope is not None else (0, len(text))
    if scope is not None and scope.path != path:
        return []
    hidden = [(item.start, item.end) for item in found if kind == 'property' and scope is None
              and item.kind == 'macro' and item.path == path and (name in item.params or any(
                  own.scope == item and own.name == name for own in found))]
    sites = [Site(path, attribute.start, attribute.end, written[1])
             for element in elements_of(text) if low <= element.start < high
             for attribute in element.attributes if attribute.value == name
             and (written := written_kind(element, attribute)) is not None
             and (written[0] == kind or written[0] == 'reference' and kind in ('link', 'joint'))]
    body = without_comments(text)
    if kind == 'property':
        for match in EXPRESSION.finditer(body, low, high):
            inner = _STRING.sub(lambda string: ' ' * len(string.group()), match.group(1))
            sites += [Site(path, match.start(1) + word.start(), match.start(1) + word.end())
                      for word in NAME.finditer(inner) if word.group() == name]
        sites = [site for site in sites if not any(a <= site.start < b for a, b in hidden)]
    elif kind == 'arg':
        sites += [Site(path, *match.span(2)) for match in SUBSTITUTION.finditer(body)
                  if match.group(1) == 'arg' and match.group(2) == name]
        sites += [Site(path, *match.span(1)) for match in ARG_CALL.finditer(body)
                  if match.group(1) == name]
    elif kind == 'macro':
        sites += [Site(path, element.start + 7, element.start + 7 + len(name))
                  for element in elements_of(text) if element.tag == f'xacro:{name}']
        sites += [Site(path, *match.span(1))
                  for match in re.finditer(rf'</xacro:({re.escape(name)})\s*>', body)]
    return sorted(set(sites), key=lambda site: site.start)


def target(path: str, text: str, offset: int, scope: Scope, read: Read) -> Target | None:
    """
    The name at ``offset`` of ``path`` (text ``text``) and every place it is written, or ``None``.

    The files searched are those of the runs that use ``path`` and, when the name is defined in
    another file, of the runs that use that file.

    :param scope: The files and models of the runs that use some files.
    :param read: A file's text (the editor's when open), ``None`` if it cannot be read.
    :raises Refused: if the name at ``offset`` is written with an expression.
    """
    def search(named: Target | None, using: Sequence[str]) -> Target | None:
        files, robots = scope(using)
        found = all_definitions(files, read)
        named = named or _named_at(path, text, offset, found, robots)
        return None if named is None else replace(
            named, files=tuple(files), found=tuple(found), robots=tuple(robots),
            sites=tuple(site for name in files if (written := read(name)) is not None
                        for site in _sites(named, name, written, found)))

    named = search(None, [path])
    defining = sorted({site.path for site in named.sites if site.definition} - {path}) \
        if named is not None else []
    return search(named, [path, *defining]) if defining else named


def _expression(location: SourceLocation | None, tags: Sequence[str], attribute: str,
                read: Read) -> str | None:
    """
    ```value`` at file:line`` where ``attribute`` is an expression, else ``None``.

    :param tags: The tag of the element at ``location``, then of its child that writes it.
    """
    if location is None or location.line is None or (text := read(
            path := os.path.abspath(location.filename))) is None:
        return None
    element = next((item for item in elements_of(text) if item.tag == tags[0]
                    and item.first_line <= location.line <= item.last_line), None)
    for tag in tags[1:]:
        element = next((item for item in element.children if item.tag == tag), None) \
            if element is not None else None
    value = element.attribute(attribute) if element is not None else None
    return f'`{value.value}` at {_place(path, text, value.start)}' \
        if value is not None and '$' in value.value else None


def refuse_expressions(named: Target, read: Read) -> None:
    """
    Refuse a link or joint the model names through an expression this rename cannot rewrite.

    :raises Refused: naming the file:line and the expression.
    """
    roles = ('mimic',) if named.kind == 'joint' else ('parent', 'child')
    for robot in named.robots if named.kind in ('link', 'joint') else ():
        item = (robot.link_map if named.kind == 'link' else robot.joint_map).get(named.name)
        places: list[tuple[SourceLocation | None, tuple[str, ...], str]] = [
            (item.location if item else None, (named.kind,), 'name')]
        for joint in robot.joints:
            names = {'parent': joint.parent, 'child': joint.child,
                     'mimic': joint.mimic.joint if joint.mimic else None}
            places += [(joint.location, ('joint', role), named.kind) for role in roles
                       if names[role] == named.name]
        for location, tags, attribute in places:
            found = _expression(location, tags, attribute, read)
            if found is not None:
                raise Refused(f'{named.kind} `{named.name}` is written {found}: an expression '
                              'a rename cannot rewrite')


def edits(named: Target, new: str, read: Read) -> list[Site]:
    """
    The places to write ``new`` in for a rename of ``named``.

    :raises Refused: if ``new`` is not a valid name of its kind, or one already taken, or the
        model names the link or joint through an expression (:func:`refuse_expressions`).
    """
    valid = _URDF_NAME.fullmatch(new) is not None if named.kind in ('link', 'joint') else \
        new.isidentifier() and not keyword.iskeyword(new) and new not in XACRO_ELEMENTS
    if not valid:
        raise Refused(f'`{new}` is not a valid {named.kind} name')
    other = replace(named, name=new)
    if new == named.name or any(item.kind == named.kind and item.name == new
                                for item in named.found) or any(
            new in (robot.link_map if named.kind == 'link' else robot.joint_map)
            for robot in named.robots if named.kind in ('link', 'joint')) or any(
            site.definition for name in named.files if (text := read(name)) is not None
            for site in _sites(other, name, text, named.found)):
        raise Refused(f'a {named.kind} named `{new}` already exists')
    refuse_expressions(named, read)
    return list(named.sites)
