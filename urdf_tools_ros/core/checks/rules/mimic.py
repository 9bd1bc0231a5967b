"""
Mimic rules: every ``<mimic>`` must lead to an actuated revolute, continuous or prismatic joint.

URDF spec, joint/mimic; joint_state_publisher exits on a cycle, robot_state_publisher drops the
joint. The analysis is :func:`urdf_tools_ros.core.kinematics.mimic.analyze_mimic`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...kinematics.mimic import analyze_mimic

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


@check(codes=(MISSING, SELF, FIXED, UNSUPPORTED, CYCLE))
def check_mimic(ctx: CheckContext) -> Iterator[Finding]:
    """Report every ``<mimic>`` that cannot be resolved, at the mimic joint."""
    for problem in analyze_mimic(ctx.robot):
        yield ctx.finding(problem.code, problem.element, problem.message,
                          problem.location, _FIXES.get(problem.code))


#: The first MuJoCo whose URDF import turns ``<mimic>`` into a joint equality constraint
#: (``mjEQ_JOINT``, polycoef ``offset, multiplier``; google-deepmind/mujoco PR #3530). Measured
#: with the PyPI wheels: 3.12.0 and earlier make no constraint (the mimic joint moves freely),
#: 3.13.0 to 4.0.0 make one per mimic joint with its multiplier and offset.
MUJOCO_MIMIC_SINCE = (3, 13)
MUJOCO_VERSION = rule(
    'mimic-mujoco-version', Severity.INFO,
    'the robot has <mimic> joints: MuJoCo before 3.13 ignores <mimic> (the joints move '
    'independently); 3.13 and later turn each into a joint equality constraint',
    consumers=('mujoco-before-3.13',),
    reference='MuJoCo URDF import (user/user_urdf.cc; google-deepmind/mujoco PR #3530), '
              'measured with mujoco 3.12.0, 3.13.0 and 4.0.0 from PyPI')


@check(codes=(MUJOCO_VERSION,))
def check_mimic_mujoco(ctx: CheckContext) -> Iterator[Finding]:
    """Say once, at the first mimic joint, that MuJoCo's verdict on ``<mimic>`` is by version."""
    mimics = [joint for joint in ctx.robot.joints if joint.mimic is not None]
    if mimics:
        names = ', '.join(f'"{joint.name}"' for joint in mimics[:3])
        more = f' and {len(mimics) - 3} more' if len(mimics) > 3 else ''
        yield ctx.finding(MUJOCO_VERSION, f'joint:{mimics[0].name}',
                          f'{len(mimics)} mimic joint{"s" if len(mimics) > 1 else ""} '
                          f'({names}{more}): MuJoCo 3.13 and later keep each as a joint '
                          'equality constraint; MuJoCo 3.12 and earlier ignore <mimic> and '
                          'simulate the joint on its own', mimics[0].location,
                          'with MuJoCo before 3.13, add <equality><joint joint1="..." '
                          'joint2="..." polycoef="offset multiplier 0 0 0"/></equality> to '
                          'the MJCF, or use MuJoCo 3.13+')
