"""
Gazebo rules: ``<gazebo reference>`` must name a link or a joint.

sdformat's URDF parser (``parser_urdf.cc``) applies a ``<gazebo reference="x">`` block to the link
or joint ``x``; a block naming neither is silently dropped (its material, friction, sensors and
plugins never take effect). A block without ``reference`` applies to the whole robot.
"""

from __future__ import annotations

from collections.abc import Iterator
import difflib

from .registry import check, CheckContext, rule
from ..findings import Finding, Severity

REFERENCE_MISSING = rule('gazebo-reference-missing', Severity.WARNING,
                         '<gazebo reference> names neither a link nor a joint',
                         reference='sdformat URDF to SDF (the block is ignored with a warning)')


@check
def check_references(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report ``<gazebo>`` blocks whose reference is not a link or joint of the robot.

    The fix suggests the most similar link or joint name, as ``difflib.get_close_matches`` picks
    it (``SequenceMatcher`` ratio >= 0.6; a tie goes to the greater name).
    """
    names = set(ctx.robot.link_map) | set(ctx.robot.joint_map)
    suggested: dict[str, list[str]] = {}  # one look-up per name: blocks often repeat a name
    for block in ctx.robot.gazebo:
        reference = block.reference
        if reference is None or reference in names:
            continue
        if reference not in suggested:
            suggested[reference] = difflib.get_close_matches(reference, names, n=1)
        close = suggested[reference]
        yield ctx.finding(REFERENCE_MISSING, f'gazebo:{reference}',
                          f'<gazebo reference="{reference}"> names neither a link nor a joint; '
                          'Gazebo ignores the block', block.location,
                          f'did you mean "{close[0]}"?' if close else
                          'name a link or joint of the robot')
