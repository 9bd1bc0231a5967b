"""
:class:`SourceLocation`: the file and line an element, a finding or an error stands at.

A leaf of the core: the model, the findings and the errors all use it, and it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """
    Where an element stands: the file and its 1-based line.

    For xacro input, ``filename``/``line`` is the original ``.xacro`` file and line the element
    was written at (the macro body for macro-generated elements).
    """

    filename: str
    line: int | None = None

    def __str__(self) -> str:
        return f'{self.filename}:{self.line}' if self.line is not None else self.filename
