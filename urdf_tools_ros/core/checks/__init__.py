"""
The rule catalog, the consumers and targets of the severity policy, and the check runner.

Every rule has a stable ``code``, a one-line summary, its ``source`` (``urdfdom`` for what urdfdom
itself reports, ``urdf_tools_ros`` for what urdfdom misses), a ``reference`` (spec section, tool
or issue the rule comes from) and the ``consumers`` it protects: the real tools that refuse a
file with such a finding or compute something different from what the file says.

Severity policy (``docs/severity.md``). A finding's severity depends on the *target*, the
set of consumers the user cares about (``urdf-tools check --target``, default ``ros``):

* **error**: a consumer of the target refuses the file, or computes something different from
  what it says (a different pose, mass or joint motion);
* **warning**: every consumer of the target loads it as written, but it is almost certainly a
  mistake;
* **info**: style, or a problem that only consumers outside the target have.

A rule's ``severity`` is the one it has when no consumer of the target is among its consumers.
A finding may name its own consumers (the same rule can break MuJoCo on one link and nothing on
another); otherwise it has its rule's. :data:`TARGETS` lists the consumers of each target; this
package's own kinematics and nodes (``urdf_tools_ros``) belong to every target, so that nothing
that checks clean is refused by :class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` or
a node. Rule families live in one module each, imported here by name; each registers its rules with
:func:`~urdf_tools_ros.core.checks.registry.rule` and its check functions with
:func:`~urdf_tools_ros.core.checks.registry.check` (:mod:`~urdf_tools_ros.core.checks.registry`,
which the families import, so there is no import cycle). :func:`check_description` runs them all
and applies the suppression comments and ``select``/``ignore`` (:mod:`.selection`, with the
defaults of :mod:`.config`): the one checking of the command line, the viewer and the nodes.
:mod:`.publication` says which of its findings the robot description node's graph cannot load.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from . import expansion, selection  # noqa: F401
from .registry import (broken_consumers, check, CheckContext, CheckFunction, CONSUMERS, count,
                       counts_text, DEFAULT_TARGET, errors, for_target, format_value,
                       portability, registered_checks, Rule, rule, RULES, sort_findings,
                       TARGETS)
from .rules import collision_meshes  # noqa: F401
from .rules import (gazebo, gazebo_lumping, geometry, inertial, joints, loading,  # noqa: F401
                    materials, mimic, structure, transmissions, tree)
from .rules.as_written import as_written_findings, XACRO_IN_URDF
from ..findings import Finding
from ..model.robot import Robot

if TYPE_CHECKING:
    from ..source.loader import RobotDescription

__all__ = ['CONSUMERS', 'CheckContext', 'CheckFunction', 'DEFAULT_TARGET', 'RULES', 'Rule',
           'TARGETS', 'broken_consumers', 'check', 'check_description', 'count', 'counts_text',
           'errors', 'for_target', 'format_value', 'portability', 'rule', 'run_checks',
           'sort_findings']


def run_checks(robot: Robot, filename: str = '<string>',
               codes: Collection[str] | None = None, *, use_cache: bool = True) -> list[Finding]:
    """
    Run every registered check on ``robot`` (that may report one of ``codes``).

    :param codes: Run only the check functions that may report one of these codes (as they
        declare them, :func:`~.registry.check`); ``None``: every one.
    :param use_cache: Whether mesh facts may come from, and go to, the on-disk cache.
    :return: Every finding, in the order the checks produce them.
    """
    context = CheckContext(robot, filename, use_cache=use_cache)
    findings: list[Finding] = []
    for function in registered_checks(codes):
        findings.extend(function(context))
    return findings


def check_description(description: RobotDescription, target: str = DEFAULT_TARGET, *,
                      select: Sequence[str] = (), ignore: Sequence[str] = (),
                      suppressions: bool = True, use_cache: bool = True) -> list[Finding]:
    """
    Return the findings about ``description`` that are reported: of loading, then of every rule.

    The one checking of the package: ``urdf-tools check`` and ``view``, the robot description
    node and the viewer page all report what it returns. Each finding has its severity for
    ``target``; then the suppression comments of the description's files drop theirs (each
    comment that drops nothing adds a ``suppression-unused`` warning) and ``select``/``ignore``
    (a configuration's, :mod:`.config`, or the command line's) keep and drop codes
    (:mod:`.selection`); a check function that can report none of the codes kept is not run. A
    load failure (``description-unloadable``) is never dropped. Last, the findings of each
    expansion of a xacro macro body line with one message are one finding with a ``count`` and
    the ``calls`` of each, and a value made from a call's argument has a fix that names it
    (:func:`.expansion.merge_expansions`).

    :param description: A loaded description (:func:`urdf_tools_ros.core.source.loader.load`).
    :param target: Whose verdicts are errors: a key of :data:`TARGETS` (``ros``, ``gazebo``,
        ``mujoco``, ``pinocchio``).
    :param select: Codes or prefixes to report; empty: every code.
    :param ignore: Codes or prefixes not to report.
    :param suppressions: Apply the ``<!-- urdf-tools: ignore[...] -->`` comments of the files
        the description was made from (itself and its xacro includes; its text when it was read
        from a string).
    :param use_cache: Whether mesh facts may come from, and go to, the on-disk cache
        (:mod:`~urdf_tools_ros.core.meshes.cache`; ``urdf-tools check --no-cache``).
    :return: Findings sorted by file and line, errors first on a line, each with its severity
        for ``target``, each once (with its ``count``).
    :raises KeyError: if ``target`` is not one of :data:`TARGETS`.
    :raises UnknownCodeError: if an entry of ``select`` or ``ignore``, or a suppression comment,
        names no rule (:class:`~urdf_tools_ros.core.checks.selection.UnknownCodeError`, a
        :class:`~urdf_tools_ros.core.errors.RobotDescriptionError`).
    """
    if target not in TARGETS:
        raise KeyError(f'unknown target {target!r}; one of {", ".join(TARGETS)}')
    comments = selection.description_suppressions(description) if suppressions else []
    wanted = selection.wanted_codes(select, ignore)
    if wanted is not None and selection.SUPPRESSION_UNUSED in wanted:
        # whether a comment is used depends on its codes' findings: their checks run too
        wanted = wanted.union(*(comment.codes for comment in comments))
    written = as_written_findings(description) \
        if wanted is None or XACRO_IN_URDF in wanted else []
    findings = [for_target(finding, target) for finding in
                (*description.findings,
                 *run_checks(description.robot, description.filename, wanted,
                             use_cache=use_cache), *written)]
    if suppressions:
        findings = selection.suppress(sort_findings(findings), comments)
    return sort_findings(expansion.merge_expansions(
        selection.select_findings(findings, select, ignore)))
