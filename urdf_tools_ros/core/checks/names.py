"""
What a name that names no link or joint was meant to be: the fix of every "did you mean".

``{side}`` written for ``${side}`` stays as written: :func:`missing_dollar` offers the ``$``;
any other name gets its closest name (:func:`difflib.get_close_matches`).
"""

from __future__ import annotations

from collections.abc import Collection
import difflib
import re

from ..location import SourceLocation

__all__ = ['missing_dollar', 'suggest_name']

#: ``{name}`` that xacro leaves as written: a property or parameter reference without its ``$``.
_UNSUBSTITUTED = re.compile(r'(?<!\$)\{([A-Za-z_]\w*)\}')
#: How many of the names a corrected text gives the fix quotes.
_EXAMPLES = 3


def missing_dollar(name: str, names: Collection[str],
                   location: SourceLocation | None = None) -> str | None:
    """
    The fix of a name with ``{x}`` where xacro needs ``${x}``, or ``None``.

    :param name: The name as the description has it (``caster_{side}_1_joint``).
    :param names: The names it should be one of (the robot's links and joints).
    :param location: Where it is written; its ``calls`` are the macro calls that made it.
    :return: ``did you mean "caster_${side}_1_joint"? ...`` when each ``{x}`` is a parameter of
        one of ``location.calls``, or values for the ``{x}`` give names of ``names``.
    """
    placeholders = list(dict.fromkeys(_UNSUBSTITUTED.findall(name)))
    if not placeholders:
        return None
    corrected = _UNSUBSTITUTED.sub(r'${\1}', name)
    plain = ', '.join(f'{{{x}}}' for x in placeholders)
    verb = 'stays' if len(placeholders) == 1 else 'stay'
    head = (f'did you mean "{corrected}"? xacro substitutes only ${{...}}, {plain} {verb} as '
            'written')
    calls = location.calls if location is not None else ()
    owners: dict[str, list[str]] = {}  # macro: its parameters among the placeholders
    for placeholder in placeholders:
        owner = next((call for call in calls if placeholder in call.parameters), None)
        if owner is None:
            break
        owners.setdefault(owner.macro, []).append(placeholder)
    else:
        return head + ' (' + '; '.join(
            f'{", ".join(names)} {"is a parameter" if len(names) == 1 else "are parameters"} '
            f'of <xacro:{macro}>' for macro, names in owners.items()) + ')'
    parts = _UNSUBSTITUTED.split(name)
    pattern = ''.join(re.escape(part) if index % 2 == 0 else
                      (f'(?P={part})' if part in parts[1:index:2] else f'(?P<{part}>.+?)')
                      for index, part in enumerate(parts))
    matching = sorted(other for other in names if re.fullmatch(pattern, other))
    if not matching:
        return None
    examples = ', '.join(f'"{other}"' for other in matching[:_EXAMPLES])
    more = ', ...' if len(matching) > _EXAMPLES else ''
    return f'{head} (filled in, it gives names the robot has: {examples}{more})'


def suggest_name(name: str, names: Collection[str],
                 location: SourceLocation | None = None) -> str | None:
    """
    The fix of a name that is not one of ``names``: the missing ``$`` first, else the closest.

    :param location: Where it is written (its macro calls, for :func:`missing_dollar`).
    :return: :func:`missing_dollar`'s fix, else ``did you mean "base_link"?``, else ``None``.
    """
    dollar = missing_dollar(name, names, location)
    if dollar is not None:
        return dollar
    close = difflib.get_close_matches(name, names, n=1)
    return f'did you mean "{close[0]}"?' if close else None
