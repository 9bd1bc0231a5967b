"""
What the XML parsers refuse in a robot description, in plain words with the file and line.

A description is untrusted XML, read by lxml for URDF and by expat through defusedxml for each
xacro document (:mod:`.xacro.runner`); both refuse entity declarations, each in its own words.
Both loaders ask :func:`entity_refusal` first, so that a ``.urdf`` and a ``.xacro`` are refused
alike: the entity, its kind, its line. :func:`malformed` is the one error for XML that is not
well-formed, from either parser.
"""

from __future__ import annotations

import re

from .scanner import without_comments
from ..errors import DescriptionLoadError

__all__ = ['ENTITY_FIX', 'entity_refusal', 'malformed', 'refused_entity']

#: The fix of every entity refusal.
ENTITY_FIX = ('remove the entity declarations (<!ENTITY ...>) from the <!DOCTYPE> and write '
              'the text in place')
#: ``<!ENTITY [%] name rest>``, quoted strings in ``rest`` kept whole.
_ENTITY = re.compile(r'<!ENTITY\s+(%\s*)?([^\s"\'>]+)((?:[^>"\']|"[^"]*"|\'[^\']*\')*)>')
_LITERAL = re.compile(r'"([^"]*)"|\'([^\']*)\'')
_REFERENCE = re.compile(r'[&%][^\s;&%]+;')


def refused_entity(name: str, filename: str, line: int | None, *, system: str | None = None,
                   parameter: bool = False, nested: bool = False) -> DescriptionLoadError:
    """
    The error for one entity declaration: an external entity, an expansion, or an entity.

    :param line: The 1-based line of its declaration, or ``None``.
    :param system: Its system (or public) identifier, for an external entity.
    :param parameter: A parameter entity (``<!ENTITY % name ...>``).
    :param nested: Its value refers to other entities (the "billion laughs" expansion).
    """
    label = f"'%{name}'" if parameter else f"'{name}'"
    kind = 'parameter entity' if parameter else 'entity'
    if system is not None:
        message = (f'external {kind} {label} ({system}) refused: a robot description is read '
                   'without entities, nothing outside it is ever fetched')
    elif nested:
        message = (f'entity expansion refused: {kind} {label} is made of other entities, '
                   "which can expand without bound (the 'billion laughs' attack); a robot "
                   'description is read without entities')
    else:
        message = (f'{kind} {label} refused: a robot description is read without entities, '
                   'none is ever expanded')
    return DescriptionLoadError(message, filename, line, fix=ENTITY_FIX)


def entity_refusal(text: str, filename: str) -> DescriptionLoadError | None:
    """
    The refusal of the entities ``text`` declares in its ``<!DOCTYPE>``, or ``None``.

    The most dangerous declaration is named (external, then made of other entities, else the
    first) at the line of its ``<!ENTITY``. Comments are skipped.
    """
    if '<!ENTITY' not in text:
        return None
    body = without_comments(text)
    doctype = body.find('<!DOCTYPE')
    if doctype < 0:
        return None  # an <!ENTITY> outside a DOCTYPE: the parser finds it malformed
    found = []
    for match in _ENTITY.finditer(body, doctype):
        parameter, name, rest = bool(match.group(1)), match.group(2), match.group(3).strip()
        literals = [a if a is not None else b for a, b in _LITERAL.findall(rest)]
        system = None
        if rest.startswith(('SYSTEM', 'PUBLIC')):
            system = (literals[1] if rest.startswith('PUBLIC') and len(literals) > 1
                      else literals[0] if literals else '')
        nested = system is None and any(_REFERENCE.search(value) for value in literals)
        rank = 0 if system is not None else 1 if nested else 2
        line = text.count('\n', 0, match.start()) + 1
        found.append((rank, line, name, system, parameter, nested))
    if not found:
        return None
    _, line, name, system, parameter, nested = min(found, key=lambda item: item[:2])
    return refused_entity(name, filename, line, system=system, parameter=parameter,
                          nested=nested)


def malformed(message: str, filename: str, line: int | None) -> DescriptionLoadError:
    """The error for XML that is not well-formed: the parser's message, 1-based line, the fix."""
    return DescriptionLoadError(f'malformed XML: {message}', filename, line,
                                fix='make it well-formed XML, which every consumer can read')
