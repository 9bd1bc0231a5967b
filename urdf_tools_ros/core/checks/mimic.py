"""
Mimic rules: every ``<mimic>`` must lead to an actuated revolute, continuous or prismatic joint.

A mimic joint follows ``multiplier * q + offset`` of its source (URDF spec, joint/mimic). A
missing source, the joint itself, a fixed source (it has no position) or a floating/planar one
(it has several) leave the joint without a position, and a cycle of mimic joints has none at
all; joint_state_publisher exits on a cycle, robot_state_publisher drops the joint. The analysis
is :func:`urdf_tools_ros.core.kinematics.mimic.analyze_mimic`; the same codes are on
:class:`~urdf_tools_ros.core.errors.MimicError`.
"""

from __future__ import annotations

from collections.abc import Iterator

from .registry import check, CheckContext, rule
from ..findings import Finding, Severity
from ..kinematics.mimic import analyze_mimic

#: joint_state_publisher 2.4 looks the source up among its free joints (``free_joints[parent]``):
#: a missing, fixed, floating or planar source raises KeyError in its publish loop, and a cycle
#: ends it ("Found an infinite recursive mimic chain", exit 1). pinocchio's mimic support
#: (``buildModelFromUrdf(..., mimic=True)``) refuses each ("The parent joint of the mimic joint
#: is not in the kinematic tree"), and so does the kinematics here.
_MIMIC = ('joint_state_publisher', 'pinocchio', 'urdf_tools_ros')
_SOURCE = ('URDF spec, joint/mimic; joint_state_publisher 2.4 (publish loop); pinocchio '
           'mimic=True; resolve_mimic')
MISSING = rule('mimic-missing-joint', Severity.ERROR, '<mimic joint> names no joint of the robot',
               consumers=_MIMIC, reference=_SOURCE)
SELF = rule('mimic-self', Severity.ERROR, 'a joint mimics itself', consumers=_MIMIC,
            reference=_SOURCE)
FIXED = rule('mimic-fixed-joint', Severity.ERROR, '<mimic joint> names a fixed joint',
             consumers=_MIMIC, reference=_SOURCE)
UNSUPPORTED = rule('mimic-unsupported-joint', Severity.ERROR,
                   'a floating or planar joint takes part in a <mimic>', consumers=_MIMIC,
                   reference=_SOURCE)
CYCLE = rule('mimic-cycle', Severity.ERROR, 'mimic joints follow each other in a cycle',
             consumers=_MIMIC, reference=_SOURCE)

_FIXES = {
    MISSING: 'name an existing revolute, continuous or prismatic joint in <mimic joint="...">',
    SELF: 'name the joint this one follows in <mimic joint="...">',
    FIXED: 'mimic the actuated joint instead, or remove the <mimic>',
    UNSUPPORTED: 'mimic a revolute, continuous or prismatic joint, or remove the <mimic>',
    CYCLE: 'make one joint of the cycle actuated (remove its <mimic>)',
}


@check
def check_mimic(ctx: CheckContext) -> Iterator[Finding]:
    """Report every ``<mimic>`` that cannot be resolved, at the mimic joint."""
    for problem in analyze_mimic(ctx.robot):
        yield ctx.finding(problem.code, problem.element, problem.message,
                          problem.location, _FIXES.get(problem.code))
