"""The viewer page's text and numbers: the check report as Markdown, the initial camera."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import html
import json
import os

import numpy as np

from .placeholders import Cause, Placeholder
from ..core.checks import counts_text
from ..core.findings import Finding, Severity
from ..core.transforms import FloatArray

__all__ = ['camera_for', 'extent', 'frame_size', 'page_html', 'placeholders_markdown',
           'report_markdown']

#: Direction from the robot to the initial camera: in front (+x), to the left (+y), above.
CAMERA_DIRECTION = (0.9, 1.0, 0.6)
#: How many placeholders the report lists one by one (the log lists every one).
LISTED = 12


def _escape(text: str) -> str:
    """Escape Markdown's inline specials so names like ``base_link`` stay as written."""
    for char in '\\`*_[]<>|':
        text = text.replace(char, '\\' + char)
    return text


def report_markdown(filename: str, findings: Sequence[Finding],
                    problems: Sequence[str] = (),
                    placeholders: Sequence[Placeholder] = (),
                    guessed: Sequence[tuple[str, str, str]] = ()) -> str:
    """
    The check report as Markdown: what stops the view, the counts, then the findings by severity.

    :param filename: The description's file name (shown without its folder).
    :param problems: Why the robot cannot be posed or moved, e.g. a kinematic-tree error.
    :param placeholders: :attr:`~urdf_tools_ros.gui.scene.RobotScene.placeholders`.
    :param guessed: :attr:`~urdf_tools_ros.gui.scene.RobotScene.guessed`.
    """
    lines = ['**Check report**', '']
    for problem in problems:
        lines.append(f'**Cannot pose the robot:** {_escape(problem)}. Links without a pose are '
                     'drawn at the root frame.')
        lines.append('')
    lines += placeholders_markdown(placeholders)
    if guessed:
        lines.append(f'**{len(guessed)} {"mesh is" if len(guessed) == 1 else "meshes are"} drawn '
                     'from where RViz will not look**: `package:///pkg/...` (three slashes) names '
                     'no package; drawn from the package its path starts with (write '
                     '`package://pkg/...`):')
        lines.append('')
        for link, mesh, _path in guessed[:5]:
            lines.append(f'- link {_escape(link)}: `{mesh}`')
        if len(guessed) > 5:
            lines.append(f'- and {len(guessed) - 5} more')
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
            message = _escape(finding.message + finding.times)  # (4 times): a macro body line
            lines.append(f'- `{finding.code}`{where}: {message}{fix}')
    return '\n'.join(lines)


def placeholders_markdown(placeholders: Sequence[Placeholder]) -> list[str]:
    """
    The report's lines on meshes drawn as wireframe boxes: the first :data:`LISTED`, the count.

    :return: Markdown lines, ending with an empty one; none when there is no placeholder.
    """
    if not placeholders:
        return []
    count = len(placeholders)
    stand = 'a magenta wireframe box stands' if count == 1 else 'magenta wireframe boxes stand'
    lines = [f'**{count} {"mesh" if count == 1 else "meshes"} cannot be drawn:** {stand} in at '
             'the visual origin (0.1 m times the mesh scale), labelled with the link and the '
             'cause.', '']
    for placeholder in placeholders[:LISTED]:
        lines.append(f'- link {_escape(placeholder.link)}: `{placeholder.filename}`: '
                     f'**{placeholder.cause.value}**: {_escape(placeholder.reason)}')
    if count > LISTED:
        lines.append(f'- and {count - LISTED} more (the log lists every one)')
    packages = sorted({placeholder.filename[len('package://'):].partition('/')[0]
                       for placeholder in placeholders
                       if placeholder.cause is Cause.PACKAGE_NOT_FOUND})
    if packages:
        names = ', '.join(f'`{package}`' for package in packages)
        lines += ['', f'Packages not found: {names}. Give each as `--package-path NAME=DIR` '
                  '(DIR holds the package) or in `URDF_TOOLS_PACKAGE_PATH`, or source the '
                  'workspace that has it.']
    lines.append('')
    return lines


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


def camera_for(lower: FloatArray, upper: FloatArray, *, panel_share: float = 0.3
               ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """
    An initial camera that frames a box (the robot drawn) beside the control panel.

    From :data:`CAMERA_DIRECTION`, far enough for the box's sphere to fit 60°; the target moves
    right by the share of the view the panel covers.

    :param lower: (3,) lower corner of the box, m (root frame).
    :param upper: (3,) upper corner, m.
    :param panel_share: Width of the panel over the view's width.
    :return: ``(position, look_at)``, m.
    """
    lower, upper = np.asarray(lower, dtype=np.float64), np.asarray(upper, dtype=np.float64)
    center = (lower + upper) / 2.0
    radius = max(float(np.linalg.norm(upper - lower)) / 2.0, 0.1)
    back = np.asarray(CAMERA_DIRECTION, dtype=np.float64)
    back /= np.linalg.norm(back)
    distance = radius / np.sin(np.radians(30.0))
    right = np.cross(-back, (0.0, 0.0, 1.0))
    right /= np.linalg.norm(right)
    # the view's half-width at the target is about distance * tan(25°) * aspect (~1.5)
    shift = right * distance * np.tan(np.radians(25.0)) * 1.5 * panel_share
    look_at = center + shift
    position = look_at + back * distance
    return ((float(position[0]), float(position[1]), float(position[2])),
            (float(look_at[0]), float(look_at[1]), float(look_at[2])))


#: A 1x1 transparent GIF: an image that loads at once, whose ``onload`` sets the tab title.
_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'


def page_html(robot_name: str, labels: Sequence[str]) -> str:
    """
    HTML for the top of the panel: the tab title and the layout of the joint rows.

    viser has no API for either: a tiny image's ``onload`` sets ``document.title``, a style
    sheet gives one label column as wide as the longest label and wider number boxes.

    :param robot_name: The robot's name (``<robot name>``), shown as the tab title.
    :param labels: Every joint control's label, for the column width.
    """
    title = html.escape('document.title = ' + json.dumps(robot_name or 'robot'), quote=True)
    longest = max((len(label) for label in labels), default=10)
    width = min(max(longest * 0.5 + 1.0, 7.25), 22.0)  # em of the panel's font; ~0.5 em a char
    style = (
        '.mantine-Flex-root > div:has(> p > label) {'
        f' width: {width:.2f}em !important; max-width: 45%; flex-shrink: 0; }}'
        ' .mantine-Flex-root > div > p > label wbr { display: none; }'
        ' .mantine-Flex-root .mantine-NumberInput-root { width: 4.25rem !important;'
        ' flex-shrink: 0; }')
    return (f'<img alt="" src="{_PIXEL}" style="display:none" onload="{title}">'
            f'<style>{style}</style>')
