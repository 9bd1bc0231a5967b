"""The viewer page's text and numbers: the check report as Markdown, the initial camera."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import os

import numpy as np

from ..core.checks import counts_text
from ..core.findings import Finding, Severity
from ..core.kinematics.transforms import FloatArray

__all__ = ['camera_for', 'extent', 'frame_size', 'report_markdown']

#: Direction from the robot to the initial camera: in front (+x), to the left (+y), above.
CAMERA_DIRECTION = (0.9, 1.0, 0.6)


def _escape(text: str) -> str:
    """Escape Markdown's inline specials so names like ``base_link`` stay as written."""
    for char in '\\`*_[]<>|':
        text = text.replace(char, '\\' + char)
    return text


def report_markdown(filename: str, findings: Sequence[Finding],
                    problems: Sequence[str] = ()) -> str:
    """
    The check report as Markdown: what stops the view, the counts, then the findings by severity.

    The counts are worded as ``urdf-tools check`` words them (:func:`counts_text`); errors, then
    warnings, then info, each group under a heading with its count, each finding with its code,
    file:line, message and fix.

    :param filename: The description's file name (shown without its folder).
    :param findings: The findings.
    :param problems: Why the robot cannot be posed or moved, e.g. a kinematic-tree error.
    """
    lines = ['**Check report**', '']
    for problem in problems:
        lines.append(f'**Cannot pose the robot:** {_escape(problem)}. Links without a pose are '
                     'drawn at the root frame.')
        lines.append('')
    name = os.path.basename(filename) or filename
    lines.append(f'`{name}`: {counts_text(findings)}')
    for severity, title in ((Severity.ERROR, 'Errors'), (Severity.WARNING, 'Warnings'),
                            (Severity.INFO, 'Info')):
        group = [finding for finding in findings if finding.severity is severity]
        if not group:
            continue
        lines += ['', f'**{title} ({len(group)})**', '']
        for finding in group:
            where = ''
            if finding.location is not None:
                where = f' ({_escape(os.path.basename(finding.location.filename))}'
                where += f':{finding.location.line})' if finding.location.line is not None \
                    else ')'
            fix = f' *Fix:* {_escape(finding.fix)}' if finding.fix else ''
            lines.append(f'- `{finding.code}`{where}: {_escape(finding.message)}{fix}')
    return '\n'.join(lines)


def extent(poses: Mapping[str, FloatArray]) -> tuple[FloatArray, float]:
    """
    The middle of the link origins and the radius around it that holds them all, m.

    :param poses: ``{link: T_root_link}``; empty (or all non-finite) gives the origin.
    :return: ``(center (3,) float64, radius)``, the radius at least 0.25 m.
    """
    points = np.array([np.asarray(T, dtype=np.float64)[:3, 3] for T in poses.values()])
    points = points.reshape(-1, 3)
    points = points[np.isfinite(points).all(axis=1)]
    if len(points) == 0:
        points = np.zeros((1, 3))
    lower, upper = points.min(axis=0), points.max(axis=0)
    return (lower + upper) / 2.0, max(float(np.linalg.norm(upper - lower)) / 2.0, 0.25)


def frame_size(poses: Mapping[str, FloatArray]) -> float:
    """Length of the link-frame axes for a robot: a sixth of its radius, 2 cm .. 0.5 m."""
    return min(max(extent(poses)[1] / 6.0, 0.02), 0.5)


def camera_for(poses: Mapping[str, FloatArray]) -> tuple[tuple[float, float, float],
                                                         tuple[float, float, float]]:
    """
    An initial camera that frames the link origins: ``(position, look_at)`` in m.

    :param poses: ``{link: T_root_link}``; empty gives a view of the origin.
    """
    center, radius = extent(poses)
    direction = np.asarray(CAMERA_DIRECTION) / np.linalg.norm(CAMERA_DIRECTION)
    position = center + direction * radius * 2.2
    return ((float(position[0]), float(position[1]), float(position[2])),
            (float(center[0]), float(center[1]), float(center[2])))
