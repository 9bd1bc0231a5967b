"""
The language server's code actions, in-process: the checks of real files, then ``actions_for``.

A fix is offered only where ``check --fix`` would apply it: a macro body line that its
expansions would fix differently has none, a moment passed as each call's argument is fixed at
that call. Each fix names its link; at most one is preferred per finding, and preferred fixes
never edit one text differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
import re

from lsp_client import needs_ros2
import numpy as np
from paths import ROS2_DESCRIPTIONS
import pytest
from test_fix import BLOCKS  # a macro whose moments are its parameters

from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.session import Settings
from urdf_tools_ros.lsp.actions import Action, actions_for
from urdf_tools_ros.lsp.checking import check_run, findings_by_file, RunResult
from urdf_tools_ros.lsp.documents import Buffers
from urdf_tools_ros.lsp.ranges import TextIndex
from urdf_tools_ros.lsp.workspace import Run

TUTORIAL = ROS2_DESCRIPTIONS / 'urdf_tutorial' / 'urdf'

#: One literal inertia whose mass is a xacro argument: each mass needs another fix.
MASS_ARG = """<robot name="m" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:arg name="mass" default="1"/>
  <link name="a">
    <inertial><mass value="$(arg mass)"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>
"""  # noqa: E501


def _check(path: Path, buffers: Buffers, *args: tuple[str, str]) -> RunResult:
    return check_run(Run(str(path), tuple(args)), Settings(locator={}.get), buffers)


def _actions(results: Sequence[RunResult], path: Path, buffers: Buffers,
             lines: tuple[int, int] | None = None) -> list[Action]:
    """The actions of ``path``'s findings on ``lines`` (0-based; every line when ``None``)."""
    index = TextIndex(buffers.read_text(str(path)))
    found = findings_by_file(results)[str(path)]
    return actions_for(found, str(path), index, lines or (0, len(index.starts)),
                       buffers.read_text, lambda name: TextIndex(buffers.read_text(name)))


def _fixes(actions: Sequence[Action]) -> list[Action]:
    return [action for action in actions if action.title.startswith('Fix ')]


def _apply(text: str, actions: Sequence[Action]) -> str:
    index = TextIndex(text)
    edits = sorted(((index.offset(span.start_line, span.start_column),
                     index.offset(span.end_line, span.end_column), new)
                    for action in actions for _, span, new in action.edits), reverse=True)
    for start, end, new in dict.fromkeys(edits):  # one edit asked by two findings: once
        text = text[:start] + new + text[end:]
    return text


def _names_its_element(action: Action, finding: Finding) -> bool:
    kind, _, name = finding.element.partition(':')
    return action.title.startswith(f'Fix {finding.code} of {kind} "{name}": ')


@needs_ros2
def test_a_macro_body_line_its_expansions_fix_differently_has_no_fix() -> None:
    """08-macroed line 24: ``default_inertial``'s literal inertia, 16 links of other solids."""
    path = TUTORIAL / '08-macroed.urdf.xacro'
    buffers = Buffers()
    result = _check(path, buffers)
    here = [finding for finding in result.findings if finding.code == 'inertia-implausible'
            and finding.location is not None and finding.location.line == 24]
    solids = {re.search(r'<inertia [^>]*/>', finding.fix or '').group(0) for finding in here}
    assert len({finding.element for finding in here}) > 1 and len(solids) > 1
    actions = _actions([result], path, buffers, (23, 23))
    assert not [action.title for action in _fixes(actions)]
    assert 'Suppress inertia-implausible here' in [action.title for action in actions]


@needs_ros2
@pytest.mark.parametrize('name', ['08-macroed.urdf.xacro', '07-physics.urdf'])
def test_each_finding_has_at_most_one_preferred_fix_and_they_agree(name: str) -> None:
    path = TUTORIAL / name
    buffers = Buffers()
    result = _check(path, buffers)
    index = TextIndex(buffers.read_text(str(path)))
    for finding in result.findings:
        span = index.finding_span(finding)
        preferred = [action for action in _actions([result], path, buffers,
                                                   (span.start_line, span.end_line))
                     if action.preferred and finding.code in action.title]
        assert len([action for action in preferred
                    if _names_its_element(action, finding)]) <= 1, finding
    written: dict[tuple[int, int, int, int], str] = {}
    for action in _actions([result], path, buffers):
        assert action.preferred == action.title.startswith('Fix ')
        for _, span, new in action.edits if action.preferred else ():
            key = (span.start_line, span.start_column, span.end_line, span.end_column)
            assert written.setdefault(key, new) == new, action.title
    assert not [(first, second) for first in written for second in written
                if first < second and first[2:] > second[:2]]  # no two overlap


@needs_ros2
def test_fixes_of_a_real_file_name_their_links_and_clear_their_findings() -> None:
    path = TUTORIAL / '07-physics.urdf'
    buffers = Buffers()
    result = _check(path, buffers)
    fixes = _fixes(_actions([result], path, buffers))
    inertia = [finding for finding in result.findings if finding.code == 'inertia-implausible']
    assert len(fixes) == len({finding.element for finding in inertia}) > 1
    for finding in inertia:
        assert sum(_names_its_element(action, finding) for action in fixes) == 1, finding
    buffers.set(str(path), _apply(path.read_text(encoding='utf-8'), fixes))
    after = _check(path, buffers)
    assert not [finding for finding in after.findings if finding.code == 'inertia-implausible']


def test_a_moment_each_call_passes_is_fixed_at_that_call(tmp_path: Path) -> None:
    path = tmp_path / 'blocks.urdf.xacro'
    path.write_text(BLOCKS, encoding='utf-8')
    buffers = Buffers()
    result = _check(path, buffers)
    calls = {name: BLOCKS[:BLOCKS.index(f'<xacro:block name="{name}"')].count('\n')
             for name in 'ab'}
    fixes = _fixes(_actions([result], path, buffers, (5, 5)))  # the <inertial> in the body
    assert len(fixes) == 2 and all(action.preferred for action in fixes)
    for name, action in zip('ab', sorted(fixes, key=lambda action: action.title)):
        assert action.title.startswith(f'Fix inertia-implausible of link "{name}": ')
        assert action.title.endswith(f'at the call, blocks.urdf.xacro:{calls[name] + 1}')
        assert {span.start_line for _, span, _ in action.edits} == {calls[name]}
    fixed = _apply(BLOCKS, fixes)
    assert fixed.splitlines()[:calls['a']] == BLOCKS.splitlines()[:calls['a']]  # the body
    for name, mass, (x, y, z) in (('a', 2, (0.1, 0.2, 0.3)), ('b', 5, (1, 2, 3))):
        call = fixed.splitlines()[calls[name]]
        written = dict(re.findall(r'(i[xyz]{2})="([^"]*)"', call))
        # a solid box about its centre: m (y² + z²) / 12, ...
        expected = np.array([y * y + z * z, x * x + z * z, x * x + y * y]) * mass / 12
        np.testing.assert_allclose([float(written[m]) for m in ('ixx', 'iyy', 'izz')],
                                   expected, rtol=1e-5)
    buffers.set(str(path), fixed)
    assert not [finding for finding in _check(path, buffers).findings
                if finding.code.startswith('inertia')]


def test_runs_that_fix_one_literal_differently_offer_no_fix(tmp_path: Path) -> None:
    path = tmp_path / 'mass.urdf.xacro'
    path.write_text(MASS_ARG, encoding='utf-8')
    buffers = Buffers()
    light, heavy = (_check(path, buffers, ('mass', mass)) for mass in ('1', '2'))
    line = (3, 3)  # the <inertial>
    alone = [_fixes(_actions([result], path, buffers, line)) for result in (light, heavy)]
    assert [len(fixes) for fixes in alone] == [1, 1]
    assert alone[0][0].edits != alone[1][0].edits
    assert _fixes(_actions([light, heavy], path, buffers, line)) == []
    assert _fixes(_actions([light, light], path, buffers, line)) == alone[0]
