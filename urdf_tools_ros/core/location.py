"""
:class:`SourceLocation`: the file and line an element, a finding or an error stands at.

For an element a xacro macro made, also the calls that expanded it (:class:`MacroCall`) and
the attributes made from their arguments (:class:`ArgumentUse`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Longest text of a call's arguments that :meth:`MacroCall.__str__` shows.
_CALL_TEXT = 80


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """
    Where an element stands: the file and its 1-based line (for xacro, the ``.xacro`` one).

    ``calls`` and ``arguments`` take no part in comparing and hashing.

    :ivar calls: The macro calls that expanded the element, innermost first.
    :ivar arguments: Its attributes made from an argument of one of ``calls``.
    """

    filename: str
    line: int | None = None
    calls: tuple[MacroCall, ...] = field(default=(), compare=False)
    arguments: tuple[ArgumentUse, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f'{self.filename}:{self.line}' if self.line is not None else self.filename


@dataclass(frozen=True, slots=True)
class MacroCall:
    """
    One call of a xacro macro, ``<xacro:NAME param="text" .../>``, as it is written.

    :ivar location: Where the call element is written (in a macro body, for a nested call).
    :ivar macro: The macro's name (``wheel``; ``ns.wheel`` for a namespaced one).
    :ivar arguments: ``(parameter, text)`` of each attribute of the call, unevaluated, in order.
    :ivar parameters: The macro's parameter names, ``*block`` ones included.
    """

    location: SourceLocation
    macro: str
    arguments: tuple[tuple[str, str], ...] = ()
    parameters: tuple[str, ...] = ()

    def __str__(self) -> str:
        """The call as written: ``<xacro:wheel prefix="right" reflect="-1">`` (shortened)."""
        text = ''.join(f' {name}="{value}"' for name, value in self.arguments)
        if len(text) > _CALL_TEXT:
            text = text[:_CALL_TEXT - 3] + '...'
        return f'<xacro:{self.macro}{text}>'


@dataclass(frozen=True, slots=True)
class ArgumentUse:
    """
    An attribute of an expanded element whose value is made from an argument of a macro call.

    :ivar attribute: The attribute (``filename``).
    :ivar value: Its value, as xacro expanded it.
    :ivar parameter: The parameter of the call the value is made from (``mesh``).
    :ivar call: Which call of the location's ``calls`` gives that argument (0: the innermost).
    """

    attribute: str
    value: str
    parameter: str
    call: int = 0
