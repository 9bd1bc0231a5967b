"""
Gazebo rules: ``<gazebo reference>`` must name a link or a joint.

sdformat's URDF parser (``parser_urdf.cc``) applies a ``<gazebo reference="x">`` block to the link
or joint ``x``; a block naming neither is silently dropped (its material, friction, sensors and
plugins never take effect). A block without ``reference`` applies to the whole robot.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..names import suggest_name
from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...location import MacroCall

REFERENCE_MISSING = rule('gazebo-reference-missing', Severity.WARNING,
                         '<gazebo reference> names neither a link nor a joint',
                         reference='sdformat URDF to SDF (the block is ignored with a warning)')


@check(codes=(REFERENCE_MISSING,))
def check_references(ctx: CheckContext) -> Iterator[Finding]:
    """Report ``<gazebo>`` blocks whose reference is no link or joint (fix: suggest_name)."""
    names = set(ctx.robot.link_map) | set(ctx.robot.joint_map)
    # one look-up per name and macro calls: blocks often repeat a name
    suggested: dict[tuple[str, tuple[MacroCall, ...]], str | None] = {}
    for block in ctx.robot.gazebo:
        reference = block.reference
        if reference is None or reference in names:
            continue
        location = block.location
        key = (reference, location.calls if location is not None else ())
        if key not in suggested:
            suggested[key] = suggest_name(reference, names, location)
        yield ctx.finding(REFERENCE_MISSING, f'gazebo:{reference}',
                          f'<gazebo reference="{reference}"> names neither a link nor a joint; '
                          'Gazebo ignores the block', location,
                          suggested[key] or 'name a link or joint of the robot')
