"""
The error hierarchy of urdf_tools_ros.core.

Every error derives from :class:`RobotDescriptionError` and from the builtin a caller would
expect (``ValueError``, ``LookupError``); one with a checker rule behind it carries that
problem as ``error.finding``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .findings import Finding
    from .location import SourceLocation


class RobotDescriptionError(Exception):
    """
    Base class of every error raised by urdf_tools_ros.core.

    :ivar finding: The problem as a finding (code, severity, element, location), or ``None``
        where no rule code describes it.
    """

    def __init__(self, *args: object, finding: Finding | None = None) -> None:
        super().__init__(*args)
        self.finding = finding


class DescriptionLoadError(RobotDescriptionError, ValueError):
    """
    A robot description could not be read: malformed XML, not a robot, a xacro error, too big.

    The message is ``file:line: reason`` (``; fix`` where known).

    :ivar filename: The file the problem is in, or ``'<string>'``.
    :ivar line: 1-based line of the problem, or ``None`` when unknown.
    :ivar fix: How to fix it, where known (``give --package-path NAME=DIR``).
    :ivar notes: Further places that lead to it, ``(location, text)`` innermost first (the
        ``<xacro:include>`` and macro calls a xacro failure stands in).
    """

    def __init__(self, message: str, filename: str = '<string>', line: int | None = None, *,
                 fix: str | None = None,
                 notes: tuple[tuple[SourceLocation, str], ...] = ()) -> None:
        self.filename = filename
        self.line = line
        self.reason = message
        self.fix = fix
        self.notes = notes
        where = f'{filename}:{line}' if line is not None else filename
        super().__init__(f'{where}: {message}' + (f'; {fix}' if fix else ''))


class DescriptionTooLargeError(DescriptionLoadError):
    """The input is larger than the size bound."""


class MeshLoadError(RobotDescriptionError, ValueError):
    """A mesh file exists but cannot be read as triangles (corrupt, empty, unknown format)."""


class UnknownJointError(RobotDescriptionError, LookupError):
    """A joint name is not part of the robot model."""


class UnknownLinkError(RobotDescriptionError, LookupError):
    """A link name is not part of the robot model."""


class KinematicTreeError(RobotDescriptionError, ValueError):
    """The links and joints do not form a tree with one root (cycle, two parents, no root)."""


class MimicError(RobotDescriptionError, ValueError):
    """
    A ``<mimic>`` relation cannot be resolved: missing, self, fixed or cyclic source.

    :ivar code: The checker's rule code for the same problem (``mimic-cycle``, ...).
    """

    def __init__(self, message: str, code: str, finding: Finding | None = None) -> None:
        self.code = code
        super().__init__(message, finding=finding)


class JointStateError(RobotDescriptionError, ValueError):
    """A joint position, velocity or effort is not usable (wrong shape, NaN or inf)."""


class InvalidJointError(RobotDescriptionError, ValueError):
    """A joint cannot be used for kinematics: unknown type, zero axis, NaN or inf in a number."""


class TransformError(RobotDescriptionError, ValueError):
    """A transform input is not usable: wrong shape, NaN or inf, a zero axis or quaternion."""
