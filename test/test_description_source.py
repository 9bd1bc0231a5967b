"""
The description node's core, without ROS: its source, file watching and the log of findings.

:mod:`urdf_tools_ros.core.description_source` (where the description comes from, whether it may
be published), :mod:`urdf_tools_ros.core.source.watch` (polling the files it was made from)
and :class:`~urdf_tools_ros.core.checks.publication.FindingsLog` (each finding logged once).
"""

from __future__ import annotations

import os
from pathlib import Path
import shutil

import pytest

from conftest import REPO, shared_model
from urdf_tools_ros.core.checks.publication import (check_for_graph, FindingsLog, graph_check,
                                                    GraphCheck)
from urdf_tools_ros.core.description_source import assess, DescriptionSource
from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.source.loader import load, load_string
from urdf_tools_ros.core.source.watch import FileState, WatchedFiles

#: A xacro robot.urdf.xacro (argument ``length``) that includes part.xacro.
WATCHED = REPO / 'test' / 'urdf' / 'nodes' / 'watched'
PART_XACRO = (WATCHED / 'part.xacro').read_text()
#: A small robot whose slide axis is not a unit vector (a warning).
MIMIC_URDF = (REPO / 'test' / 'urdf' / 'nodes' / 'slider_bot.urdf').read_text()
#: Missing child link: an error urdfdom cannot load (the description still loads).
BROKEN_LINK = MIMIC_URDF.replace('<child link="tool"/>', '<child link="no_such_link"/>')


def later(path: Path, seconds: float = 0.01) -> None:
    """Move the modification time of ``path`` on (a change within one mtime tick is seen)."""
    mtime = path.stat().st_mtime_ns + int(seconds * 1e9)
    os.utime(path, ns=(mtime, mtime))


def xacro_robot(folder: Path) -> Path:
    shutil.copytree(WATCHED, folder, dirs_exist_ok=True)
    return folder / 'robot.urdf.xacro'


# -- watch ----------------------------------------------------------------------------------------
def test_file_state_is_path_mtime_and_size(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(MIMIC_URDF)
    state = FileState.of(str(path))
    assert (state.path, state.mtime_ns, state.size) == \
        (str(path), path.stat().st_mtime_ns, len(MIMIC_URDF.encode()))
    assert FileState.of(str(tmp_path / 'missing.urdf')) == \
        FileState(str(tmp_path / 'missing.urdf'), -1, -1)


def test_unchanged_files_are_not_changed_and_each_path_is_watched_once(tmp_path: Path) -> None:
    main = xacro_robot(tmp_path)
    part = str(tmp_path / 'part.xacro')
    watched = WatchedFiles.of([str(main), part, str(main)])
    assert watched.paths == (str(main), part)
    assert watched.changed() is None
    assert WatchedFiles().changed() is None


@pytest.mark.parametrize('edit', ['content', 'same size', 'removed', 'made again'])
def test_an_edit_is_seen_once(tmp_path: Path, edit: str) -> None:
    main = xacro_robot(tmp_path)
    part = tmp_path / 'part.xacro'
    if edit == 'made again':
        part.unlink()
    watched = WatchedFiles.of([str(main), str(part)])
    if edit == 'content':
        part.write_text(PART_XACRO.replace('0 0 1', '0 1 0 '))
    elif edit == 'same size':
        part.write_text(PART_XACRO.replace('0 0 1', '0 1 0'))
        later(part)  # the same size: only the modification time says so
    elif edit == 'removed':
        part.unlink()
    else:
        part.write_text(PART_XACRO)
    fresh = watched.changed()
    assert fresh is not None and fresh.paths == watched.paths
    assert fresh.states[0] == watched.states[0]  # the main file did not change
    assert fresh.states[1] == FileState.of(str(part)) != watched.states[1]
    assert (fresh.states[1].size == -1) is (edit == 'removed')
    assert fresh.changed() is None  # the caller keeps the new state: no second report


def test_the_dependencies_of_a_xacro_description_are_watched(tmp_path: Path) -> None:
    """Each xacro include: an edit to an included file is a change of the description."""
    main = xacro_robot(tmp_path)
    candidate = assess(DescriptionSource(str(main), 'length:=0.25'), 'ros-jazzy')
    assert {Path(path).name for path in candidate.watched} == {'robot.urdf.xacro', 'part.xacro'}
    watched = WatchedFiles.of(candidate.watched)
    assert watched.changed() is None
    later(tmp_path / 'part.xacro')
    assert watched.changed() is not None


# -- source and assessment ------------------------------------------------------------------------
def test_the_source_of_the_parameters() -> None:
    assert DescriptionSource.of('', None, '') == DescriptionSource()
    assert DescriptionSource.of('a.xacro', ['x:=1', 2], None).xacro_args == ('x:=1', '2')
    assert DescriptionSource.of('a.xacro', 'x:=1 y:=2', '').xacro_args == 'x:=1 y:=2'
    source = DescriptionSource('a.xacro', ('x:=1',), '')
    assert source.with_parameters({'xacro_args': 'x:=2', 'watch': True}) == \
        DescriptionSource('a.xacro', 'x:=2', '')
    assert source.with_parameters({'robot_description': MIMIC_URDF, 'model': ''}) == \
        DescriptionSource('', ('x:=1',), MIMIC_URDF)
    assert source.with_parameters({}) == source


def test_xml_is_preferred_to_the_model_and_never_run_through_xacro(tmp_path: Path) -> None:
    main = xacro_robot(tmp_path)
    candidate = assess(DescriptionSource(str(main), (), MIMIC_URDF), 'ros-jazzy')
    assert candidate.description.xml == MIMIC_URDF
    assert not candidate.description.is_xacro
    assert candidate.watched == ()
    from_file = assess(DescriptionSource(str(main), ['length:=0.75']), 'ros-jazzy')
    assert from_file.description.is_xacro
    assert 'xyz="0 0 0.75"' in from_file.description.xml


def test_what_the_graph_cannot_load_is_refused_unless_allowed() -> None:
    refused = assess(DescriptionSource(xml=BROKEN_LINK), 'ros-jazzy')
    expected = check_for_graph(load_string(BROKEN_LINK, '<robot_description>', is_xacro=False),
                               'ros-jazzy')
    assert refused.check.refusals == expected.refusals != ()
    assert refused.refusal is not None
    assert 'allow_errors is false' in refused.refusal
    assert refused.check.refusal_text() in refused.refusal
    assert str(refused.check.refusals[0]) in refused.refusal
    assert any('no_such_link' in str(finding) for finding in refused.check.refusals)
    allowed = assess(DescriptionSource(xml=BROKEN_LINK), 'ros-jazzy', allow_errors=True)
    assert allowed.refusal is None and allowed.check == refused.check
    assert assess(DescriptionSource(xml=MIMIC_URDF), 'ros-jazzy').refusal is None


@pytest.mark.parametrize('source, reason', [
    (DescriptionSource(), 'neither robot_description nor model'),
    (DescriptionSource(xml='<robot name="x">'), 'malformed XML'),
    (DescriptionSource('robot.urdf.xacro', 'length=1'), 'name:=value'),
    (DescriptionSource('no_such_file.urdf'), 'no_such_file.urdf')])
def test_what_does_not_load_raises_with_the_reason(tmp_path: Path, source: DescriptionSource,
                                                   reason: str) -> None:
    xacro_robot(tmp_path)
    if source.model:
        source = DescriptionSource(str(tmp_path / source.model), source.xacro_args)
    with pytest.raises(RobotDescriptionError, match=reason):
        assess(source, 'ros-jazzy')


# -- the log of findings --------------------------------------------------------------------------
def test_each_finding_is_logged_once_errors_outside_the_graph_in_one_entry() -> None:
    """cookie: two bound-less wheel limits break only joint_state_publisher 2.4."""
    check = check_for_graph(load(shared_model('cookie')), 'ros-jazzy')
    assert len(check.outside) == 2 and not check.refusals
    log = FindingsLog()
    entries = log.entries(check)
    grouped = entries[0]
    assert grouped.severity is Severity.WARNING
    assert grouped.text.splitlines() == [check.outside_text(), *(f'  {finding}'
                                                                 for finding in check.outside)]
    rest = [finding for finding in check.findings if finding not in check.outside]
    assert [(entry.severity, entry.text) for entry in entries[1:]] == \
        [(finding.severity, str(finding)) for finding in rest]
    assert log.entries(check) == ()


def test_a_finding_on_a_moved_line_is_not_new_and_a_new_one_is(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(MIMIC_URDF)
    log = FindingsLog()
    first = log.entries(check_for_graph(load(path), 'ros-jazzy'))
    assert any('joint-axis-not-unit' in entry.text for entry in first)
    path.write_text(MIMIC_URDF.replace('<robot ', '<!-- edited -->\n<robot ', 1))
    moved = check_for_graph(load(path), 'ros-jazzy')
    assert moved.findings and log.entries(moved) == ()
    path.write_text(MIMIC_URDF.replace('<axis xyz="1 1 0"/>', '<axis xyz="2 0 0"/>'))
    new = log.entries(check_for_graph(load(path), 'ros-jazzy'))
    assert [entry.severity for entry in new] == [Severity.WARNING]
    assert 'joint-axis-not-unit' in new[0].text and '2 0 0' in new[0].text


def test_an_empty_check_logs_nothing() -> None:
    assert FindingsLog().entries(GraphCheck('ros-jazzy', (), (), ())) == ()
    assert graph_check((), 'ros-jazzy') == GraphCheck('ros-jazzy', (), (), ())
