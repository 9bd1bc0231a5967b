"""
Findings: the one problem value of the package.

What a check says about a robot description, a structural problem of the tree
(:func:`~urdf_tools_ros.core.kinematics.tree.analyze_tree`), a ``<mimic>`` that cannot be resolved
(:func:`~urdf_tools_ros.core.kinematics.mimic.analyze_mimic`), a joint-state value that is refused
(:func:`~urdf_tools_ros.core.joint_state.table.refusal`), and the problem an error carries
(``RobotDescriptionError.finding``) are all :class:`Finding`.

A finding has a stable ``code`` (``mimic-cycle``), a :class:`Severity`, the ``element`` it is
about (``joint:elbow``), its :class:`~urdf_tools_ros.core.model.robot.SourceLocation`, a
message and, where one exists, a ``fix``, and the ``consumers`` it breaks: the real tools that
refuse a file with this finding or compute something different from what it says (see
:mod:`urdf_tools_ros.core.checks` for the consumers, the targets and the severity policy).

The same finding made once per expansion of a xacro macro body (same code, file:line and
message) is one finding with a ``count`` and the ``calls`` that made each expansion
(:func:`urdf_tools_ros.core.checks.check_description` merges them).
"""

from __future__ import annotations

from dataclasses import dataclass
import enum

from .location import MacroCall, SourceLocation


class Severity(str, enum.Enum):
    """
    How bad a finding is, for the consumers of one target (``urdf-tools check --target``).

    ``error``: a consumer of the target refuses the file or computes something different from
    what it says; ``warning``: it loads everywhere but is almost certainly a mistake; ``info``:
    style, or a problem only for consumers outside the target.
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
        refuse a file with this finding or read it differently, whatever the target; the
        finding is an error for a target that holds one of them. ``None``: its rule's
        consumers (every finding :func:`urdf_tools_ros.core.checks.check_description` returns
        has them filled in); ``()``: none, even when its rule names some.
    :ivar notes: Further places that lead to the problem, ``(location, text)`` innermost first
        (the ``<xacro:include>`` and macro calls a xacro failure stands in).
    :ivar count: How many times the checks found it: once per expansion of the macro body line
        it stands at (the same code, location and message), else 1.
    :ivar calls: For a finding in a xacro macro body, the chain of macro calls of each
        expansion that gave it (``location.calls`` of each), each chain innermost first
        (the call whose body holds the line, then the call whose body holds that call, ...);
        empty outside macro bodies.
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
