"""
Findings: the one problem value of the package.

Check results, tree and mimic problems, refused joint-state values and the problem an error
carries are all a :class:`Finding` (consumers, targets and severity policy:
:mod:`urdf_tools_ros.core.checks`).
"""

from __future__ import annotations

from dataclasses import dataclass
import enum

from .location import MacroCall, SourceLocation


class Severity(str, enum.Enum):
    """
    How bad a finding is, for the consumers of one target (``urdf-tools check --target``).

    ``error``: a consumer of the target refuses the file or reads it differently; ``warning``:
    almost certainly a mistake; ``info``: style, or a problem outside the target.
    """

    ERROR = 'error'
    WARNING = 'warning'
    INFO = 'info'

    @property
    def rank(self) -> int:
        """0 for error, 1 for warning, 2 for info (sort key, most severe first)."""
        return ('error', 'warning', 'info').index(self.value)


@dataclass(frozen=True, slots=True)
class Finding:
    """
    One problem found in a robot description.

    :ivar code: Stable code, kebab-case: a rule of :data:`urdf_tools_ros.core.checks.RULES`, or
        a runtime refusal of :mod:`urdf_tools_ros.core.joint_state.table` (``joint-state-...``).
    :ivar severity: Error, warning or info.
    :ivar element: The element, ``kind:name`` (``joint:elbow``, ``link:base``, ``robot``).
    :ivar message: What is wrong, with the offending value.
    :ivar location: File and line of the element, when known.
    :ivar fix: How to fix it, when a fix is known (e.g. the inertia a solid box would have).
    :ivar consumers: The consumers (keys of :data:`urdf_tools_ros.core.checks.CONSUMERS`) that
        refuse a file with this finding or read it differently. ``None``: its rule's;
        ``()``: none.
    :ivar notes: Further places that lead to the problem, ``(location, text)`` innermost first.
    :ivar count: How many expansions of a macro body line gave it, else 1.
    :ivar calls: For a finding in a macro body, each expansion's chain of macro calls,
        innermost first.
    """

    code: str
    severity: Severity
    element: str
    message: str
    location: SourceLocation | None = None
    fix: str | None = None
    consumers: tuple[str, ...] | None = None
    notes: tuple[tuple[SourceLocation, str], ...] = ()
    count: int = 1
    calls: tuple[tuple[MacroCall, ...], ...] = ()

    @property
    def times(self) -> str:
        """``' (4 times)'`` after the message of a finding found more than once, else ``''``."""
        return f' ({self.count} times)' if self.count > 1 else ''

    def __str__(self) -> str:
        where = f'{self.location}: ' if self.location is not None else ''
        text = (f'{where}{self.severity.value}[{self.code}]: {self.element}: {self.message}'
                f'{self.times}')
        if self.fix:
            text += f' (fix: {self.fix})'
        return text
