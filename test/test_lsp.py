"""
The language server's logic without a client: packages, entries, ranges, checks, actions.

``urdf-tools lsp`` serves what these functions compute (:mod:`urdf_tools_ros.lsp`); the protocol
itself is tested with real clients in ``test_lsp_protocol.py`` (pytest-lsp) and
``test_lsp_neovim.py`` (Neovim's LSP client). Real packages from ``../shared/ros2_descriptions``
and small files written here; what ``urdf-tools check`` reports is asked from the command line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import subprocess
import sys

from lsp_client import needs_ros2, ROBOT as LSP_ROBOT
from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO
from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.session import Settings
from urdf_tools_ros.core.source.discovery import find_packages
from urdf_tools_ros.core.source.entries import description_files, includes_of, is_description
from urdf_tools_ros.core.source.scanner import apply_edits
from urdf_tools_ros.lsp.actions import fix_action, suppress_action
from urdf_tools_ros.lsp.checking import (Cancelled, check_run, findings_by_file,
                                         inputs_unchanged, RunResult)
from urdf_tools_ros.lsp.documents import Buffers, path_to_uri, uri_to_path
from urdf_tools_ros.lsp.ranges import Span, TextIndex
from urdf_tools_ros.lsp.workspace import IncludeGraph, Run

ROS2 = str(ROS2_DESCRIPTIONS)

#: A revolute joint whose axis is not a unit vector (joint-axis-not-unit, line 6) and whose
#: limits are swapped (joint-limit-lower-above-upper, line 7).
ROBOT = LSP_ROBOT.replace('lower="-1" upper="1"', 'lower="1" upper="-1"')


def _settings(packages: dict[str, str] | None = None) -> Settings:
    return Settings(locator=(packages or {}).get)


def _codes(result: RunResult) -> list[str]:
    return [finding.code for finding in result.findings]


def test_description_files_are_chosen_by_name() -> None:
    assert [name for name in ('a.urdf', 'a.xacro', 'a.urdf.xacro', 'a.xml', 'a.launch.py',
                              'package.xml') if is_description(name)] == \
        ['a.urdf', 'a.xacro', 'a.urdf.xacro']
    path = '/tmp/a b/r.urdf'
    assert uri_to_path(path_to_uri(path)) == path
    assert uri_to_path('untitled:Untitled-1') is None


@needs_ros2
def test_workspace_packages_are_the_package_xml_folders() -> None:
    packages = find_packages([ROS2])
    on_disk = {path.parent.name for path in ROS2_DESCRIPTIONS.glob('*/package.xml')}
    assert set(packages) >= on_disk - {'interbotix_xsarm_descriptions'}
    for name, folder in packages.items():
        text = (Path(folder) / 'package.xml').read_text()
        assert f'<name>{name}</name>' in text.replace(' ', '')


@needs_ros2
def test_an_included_file_is_checked_through_the_entries_that_include_it() -> None:
    packages = find_packages([ROS2])
    graph = IncludeGraph(description_files([ROS2]), Buffers().text_or_none, packages.get)
    wheel = f'{ROS2}/irobot_create_description/urdf/wheel.urdf.xacro'
    runs = {Path(run.file).relative_to(ROS2).as_posix() for run in graph.runs_for(wheel)}
    assert runs == {'turtlebot4_description/urdf/lite/turtlebot4.urdf.xacro',
                    'turtlebot4_description/urdf/standard/turtlebot4.urdf.xacro'}
    entry = f'{ROS2}/urdf_tutorial/urdf/01-myfirst.urdf'
    assert graph.runs_for(entry) == [Run(entry)]
    # $(find pkg) resolves through the workspace's packages; an unevaluated ${...} is left out
    text = ('<robot xmlns:xacro="http://ros.org/wiki/xacro">'
            '<xacro:include filename="$(find robotiq_description)/urdf/x.xacro"/>'
            '<xacro:include filename="${prefix}.xacro"/><xacro:include filename="a/b.xacro"/>'
            '</robot>')
    assert includes_of('/w/p/r.xacro', text, packages.get) == [
        f'{packages["robotiq_description"]}/urdf/x.xacro', '/w/p/a/b.xacro']


def _check_json(entry: str) -> dict[str, set[tuple[str, int | None, str]]]:
    """``urdf-tools check ENTRY``'s findings by file: ``{file: {(code, line, message)}}``."""
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', entry,
                           '--package-path', ROS2, '--format', 'json', '--no-config'],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    placed: dict[str, set[tuple[str, int | None, str]]] = {}
    for finding in json.loads(done.stdout)['findings']:
        name = os.path.abspath(finding.get('file') or entry)
        placed.setdefault(name, set()).add((finding['code'], finding.get('line'),
                                            finding['message']))
    return placed


@needs_ros2
@pytest.mark.parametrize('included', [
    'irobot_create_description/urdf/bumper.urdf.xacro',  # 3 findings, in 2 entries each
    'robotiq_description/urdf/robotiq_2f_85_macro.urdf.xacro',
])
def test_a_file_has_the_findings_check_places_in_it_across_its_entries(included: str) -> None:
    path = f'{ROS2}/{included}'
    buffers = Buffers()
    packages = find_packages([ROS2])
    graph = IncludeGraph(description_files([ROS2]), buffers.text_or_none, packages.get)
    runs = graph.runs_for(path)
    buffers.set(path, Path(path).read_text())  # open, equal to the disk
    results = [check_run(run, Settings(package_folders=(ROS2,)), buffers) for run in runs]
    placed = findings_by_file(results)
    mine = [(finding.code, finding.location.line if finding.location else None, finding.message)
            for finding, _ in placed[path]]
    expected: set[tuple[str, int | None, str]] = set()
    for run in runs:
        expected |= _check_json(run.file).get(path, set())
    assert len(mine) == len(set(mine))
    assert set(mine) == expected and expected
    assert path in {name for result in results for name in result.files}


def test_a_half_typed_file_cannot_be_loaded_at_its_line_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    buffers = Buffers()
    broken = ROBOT.replace('<limit lower="1"', '<limit lower="1', 1)  # an unclosed quote
    buffers.set(str(path), broken)
    result = check_run(Run(str(path)), _settings(), buffers)
    assert _codes(result) == ['description-unloadable']
    finding = result.findings[0]
    assert 'cannot be loaded' in finding.message
    line = finding.location.line
    assert line is not None and 7 <= line <= 10
    span = TextIndex(broken).finding_span(finding)
    assert span.start_line == line - 1 and span.end_column > span.start_column
    buffers.set(str(path), ROBOT)  # the text recovers
    codes = _codes(check_run(Run(str(path)), _settings(), buffers))
    assert {'joint-axis-not-unit', 'joint-limit-lower-above-upper'} <= set(codes)


def test_the_configuration_applies_and_one_that_cannot_be_read_is_said(tmp_path: Path) -> None:
    path, config = tmp_path / 'r.urdf', tmp_path / '.urdf-tools.toml'
    path.write_text(ROBOT)
    config.write_text('ignore = ["joint-axis-not-unit"]\n')
    assert 'joint-axis-not-unit' not in _codes(check_run(Run(str(path)), _settings(), Buffers()))
    config.write_text('ignore = ["no-such-rule"]\n')  # the defaults check, and it is said
    result = check_run(Run(str(path)), _settings(), Buffers())
    assert 'no-such-rule' in str(result.config_error) and 'joint-axis-not-unit' in _codes(result)


def test_unsaved_text_of_an_included_file_is_used(tmp_path: Path) -> None:
    (tmp_path / 'top.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="part.xacro"/>\n  <link name="a"/>\n</robot>\n')
    part = tmp_path / 'part.xacro'
    part.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n</robot>\n')
    buffers = Buffers()
    graph = IncludeGraph(description_files([str(tmp_path)]), buffers.text_or_none, {}.get)
    assert graph.runs_for(str(part)) == [Run(str(tmp_path / 'top.urdf.xacro'))]
    buffers.set(str(part), '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                '  <link name="b"/>\n  <joint name="j" type="continuous"><parent link="a"/>'
                '<child link="b"/><axis xyz="0 0 2"/></joint>\n</robot>\n')
    result = check_run(Run(str(tmp_path / 'top.urdf.xacro')), _settings(), buffers)
    placed = findings_by_file([result])
    assert 'joint-axis-not-unit' in [finding.code for finding, _ in placed[str(part)]]
    assert [f.location.line for f, _ in placed[str(part)] if f.code == 'joint-axis-not-unit'] \
        == [3]


def test_a_check_is_cancelled_when_newer_text_arrives(tmp_path: Path) -> None:
    (tmp_path / 'top.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="part.xacro"/>\n  <link name="a"/>\n</robot>\n')
    (tmp_path / 'part.xacro').write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"/>')
    asked: list[int] = []

    def cancelled() -> bool:  # newer text arrives once the check has started
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(Cancelled):
        check_run(Run(str(tmp_path / 'top.urdf.xacro')), _settings(), Buffers(), cancelled)


def test_a_finding_ranges_over_its_attribute_or_element(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    result = check_run(Run(str(path)), _settings(), Buffers())
    index = TextIndex(ROBOT)
    lines = ROBOT.splitlines()
    by_code = {finding.code: finding for finding in result.findings}
    axis = index.finding_span(by_code['joint-axis-not-unit'])
    assert axis.start_line == axis.end_line == 5
    assert lines[5][axis.start_column:axis.end_column] == '0 0 2'
    limit = index.finding_span(by_code['joint-limit-lower-above-upper'])
    assert limit.start_line == 6 and lines[6][limit.start_column - 7:limit.start_column] \
        in ('lower="', 'upper="')
    assert index.line_span(99) == Span(9, 0, 9, 0)  # past the end: the last (empty) line


def _apply(text: str, edits: tuple[tuple[str, Span, str], ...]) -> str:
    index = TextIndex(text)
    for _, span, new in sorted(edits, key=lambda e: (e[1].start_line, e[1].start_column),
                               reverse=True):
        start = index.offset(span.start_line, span.start_column)
        end = index.offset(span.end_line, span.end_column)
        text = text[:start] + new + text[end:]
    return text


def test_the_fix_and_the_suppression_actions_clear_the_finding(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ROBOT)
    buffers = Buffers()
    buffers.set(str(path), ROBOT)
    result = check_run(Run(str(path)), _settings(), buffers)
    for code in ('joint-axis-not-unit', 'joint-limit-lower-above-upper'):
        finding = next(f for f in result.findings if f.code == code)
        action = fix_action(finding, result, buffers.read_text,
                            lambda name: TextIndex(buffers.read_text(name)))
        assert action is not None and action.preferred
        fixed = _apply(ROBOT, action.edits)
        buffers.set(str(path), fixed)
        assert code not in _codes(check_run(Run(str(path)), _settings(), buffers))
        suppress = suppress_action(finding, str(path), TextIndex(ROBOT))
        assert suppress is not None
        suppressed = _apply(ROBOT, suppress.edits)
        buffers.set(str(path), suppressed)
        after = _codes(check_run(Run(str(path)), _settings(), buffers))
        assert code not in after and 'suppression-unused' not in after
        buffers.set(str(path), ROBOT)
    # the fixes are those of check --fix: the same text
    from urdf_tools_ros.core.fix.edits import plan_fixes
    plan = plan_fixes(result.robot, result.findings, lambda name: ROBOT)
    both = [fix_action(f, result, buffers.read_text,
                       lambda name: TextIndex(buffers.read_text(name)))
            for f in result.findings if f.code in ('joint-axis-not-unit',
                                                   'joint-limit-lower-above-upper')]
    assert _apply(ROBOT, tuple(e for a in both if a for e in a.edits)) == \
        apply_edits(ROBOT, plan.edits)


def test_check_does_not_import_the_server() -> None:
    code = ('import json, sys\n'
            'from urdf_tools_ros.cli.main import run\n'
            f'run(["check", {str(REPO / "urdf" / "sample_robot.urdf.xacro")!r}])\n'
            'print(json.dumps(sorted(sys.modules)))\n')
    done = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert [name for name in modules if name.split('.')[0] in ('pygls', 'lsprotocol')
            or name.startswith('urdf_tools_ros.lsp')] == []


def test_lsp_without_pygls_says_how_to_install_it() -> None:
    code = ('import sys\n'
            'sys.modules["pygls"] = None\n'
            'from urdf_tools_ros.cli.main import run\n'
            'sys.exit(run(["lsp"]))\n')
    done = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert 'urdf_tools_ros[lsp]' in done.stderr and 'Traceback' not in done.stderr


PART = """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <axis xyz="0 0 1"/><limit lower="1" upper="-1" effort="1" velocity="1"/>
  </joint>
  <xacro:if value="$(arg bad)">
    <link name="c"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="k" type="continuous"><parent link="b"/><child link="c"/><axis xyz="0 0 2"/></joint>
  </xacro:if>
</robot>
"""  # noqa: E501
ENTRY = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="bad" default="false"/>
  <link name="a"/>
  <xacro:include filename="part.xacro"/>
</robot>
"""


def _two_entries(tmp_path: Path) -> tuple[str, str, str]:
    """``a`` and ``b`` include ``part.xacro``; only ``b``'s argument makes its second finding."""
    for name, text in (('part.xacro', PART), ('a.urdf.xacro', ENTRY), ('b.urdf.xacro', ENTRY)):
        (tmp_path / name).write_text(text)
    (tmp_path / '.urdf-tools.toml').write_text(
        '[[entries]]\nfile = "a.urdf.xacro"\nargs = {bad = "false"}\n\n'
        '[[entries]]\nfile = "b.urdf.xacro"\nargs = {bad = "true"}\n')
    return tuple(str(tmp_path / name)  # type: ignore[return-value]
                 for name in ('part.xacro', 'a.urdf.xacro', 'b.urdf.xacro'))


def test_a_result_is_unchanged_until_a_file_it_read_or_its_configuration_changes(
        tmp_path: Path) -> None:
    part, a, _ = _two_entries(tmp_path)
    buffers = Buffers()
    result = check_run(Run(a, (('bad', 'false'),)), _settings(), buffers)
    assert set(result.files) == {a, part} and inputs_unchanged(result, buffers)
    buffers.set(part, PART + ' ')
    assert not inputs_unchanged(result, buffers)
    buffers.set(part, PART)  # open, the text it read
    assert inputs_unchanged(result, buffers)
    config = tmp_path / '.urdf-tools.toml'
    config.write_text(config.read_text() + '\n')
    assert not inputs_unchanged(result, buffers)


class _Loop:
    """The event loop the worker thread hands the early publishing to (recorded here)."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def call_soon_threadsafe(self, callback: object, *args: object) -> None:
        self.calls.append(args)


def test_a_changed_file_is_published_after_each_entry_and_unchanged_runs_are_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip('pygls')
    from urdf_tools_ros.lsp import server as module
    part, a, b = _two_entries(tmp_path)
    server = module.Server()
    server._settings = _settings()
    server._graph = IncludeGraph(description_files([str(tmp_path)]), server.buffers.text_or_none,
                                 {}.get)
    checked: list[str] = []

    def check(run: Run, *args: object) -> RunResult:
        checked.append(os.path.basename(run.file))
        return check_run(run, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, 'check_run', check)
    loop = _Loop()

    def codes(placed: dict[str, list[tuple[Finding, RunResult]]]) -> list[str]:
        return sorted(finding.code for finding, _ in placed[part])

    server.buffers.set(part, PART)
    assert server._check({part}, server._generation, loop) == {part, a, b}  # type: ignore
    assert checked == ['a.urdf.xacro', 'b.urdf.xacro']
    (shown, _, early), = loop.calls  # after a, before b: a's findings
    assert shown == {part} and codes(early) == ['joint-limit-lower-above-upper']
    assert codes(server.placed) == ['joint-axis-not-unit', 'joint-limit-lower-above-upper']
    server._check({part}, server._generation, loop)  # the same text: nothing run again
    assert checked == ['a.urdf.xacro', 'b.urdf.xacro']
    assert codes(server.placed) == ['joint-axis-not-unit', 'joint-limit-lower-above-upper']
    server.buffers.set(b, ENTRY + '\n')
    server._seconds[Run(b, (('bad', 'true'),))] = 60.0  # the slowest, but changed
    loop.calls.clear()
    server._check({part, b}, server._generation, loop)  # b is changed: b first, a kept
    assert checked[2:] == ['b.urdf.xacro'] and loop.calls[0][0] == {part, b}
    assert codes(server.placed) == ['joint-axis-not-unit', 'joint-limit-lower-above-upper']
