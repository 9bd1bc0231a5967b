"""
Tree rules: the links and joints must form one tree with one root.

urdfdom (``initTree``/``initRoot``) refuses missing links and zero or several roots; cycles, two
parents and a joint that is its own parent break every kinematic consumer. The analysis is
:func:`urdf_tools_ros.core.kinematics.tree.analyze_tree`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...kinematics.tree import analyze_tree

_TREE = ('urdfdom', 'urdf_tools_ros')
_INIT = 'urdfdom model.cpp (initTree, initRoot); KinematicTree'
NO_ROOT = rule('no-root-link', Severity.ERROR,
               'every link is the child of a joint, so there is no root link', source='urdfdom',
               consumers=_TREE, reference=_INIT)
MULTIPLE_ROOTS = rule('multiple-root-links', Severity.ERROR,
                      'more than one link is the child of no joint', source='urdfdom',
                      consumers=_TREE, reference=_INIT)
CYCLE = rule('kinematic-cycle', Severity.ERROR, 'joints form a cycle of links',
             consumers=_TREE, reference=_INIT)
MULTIPLE_PARENTS = rule('link-multiple-parents', Severity.ERROR,
                        'a link is the child of more than one joint', consumers=_TREE,
                        reference='URDF spec (a tree); ' + _INIT)
PARENT_MISSING = rule('joint-parent-missing', Severity.ERROR,
                      'a joint names a parent link that does not exist', source='urdfdom',
                      consumers=_TREE, reference=_INIT)
CHILD_MISSING = rule('joint-child-missing', Severity.ERROR,
                     'a joint names a child link that does not exist', source='urdfdom',
                     consumers=_TREE, reference=_INIT)
PARENT_IS_CHILD = rule('joint-parent-equals-child', Severity.ERROR,
                       'a joint has the same link as parent and child', consumers=_TREE,
                       reference=_INIT)

_FIXES = {
    NO_ROOT: 'make one link (e.g. base_link) the child of no joint',
    MULTIPLE_ROOTS: 'connect every link but one to a parent with a joint '
                    '(e.g. a fixed joint to base_link)',
    CYCLE: 'remove one joint of the cycle; URDF describes trees only',
    MULTIPLE_PARENTS: 'give each link one parent joint; remove or re-parent the others',
    PARENT_MISSING: 'define the link or correct the name in <parent link="...">',
    CHILD_MISSING: 'define the link or correct the name in <child link="...">',
    PARENT_IS_CHILD: 'name two different links in <parent> and <child>',
}


@check(codes=(
    NO_ROOT, MULTIPLE_ROOTS, CYCLE, MULTIPLE_PARENTS, PARENT_MISSING, CHILD_MISSING,
    PARENT_IS_CHILD))
def check_tree(ctx: CheckContext) -> Iterator[Finding]:
    """Report every structural problem of the link/joint graph, at the joint (or robot)."""
    for problem in analyze_tree(ctx.robot):
        yield ctx.finding(problem.code, problem.element, problem.message, problem.location,
                          _FIXES.get(problem.code))
