"""
The language server when an entry cannot be loaded, without a client.

An include that cannot be loaded is an error on each include line on the way, in the entry too
(:func:`urdf_tools_ros.lsp.checking.chain_errors`); while a file is half-typed, the last findings
the edit did not touch stay on their new lines (:func:`~urdf_tools_ros.lsp.checking.settle`).
Real packages from ``../shared/ros2_descriptions``, a real model from ``../shared/models`` and
small files written here; the protocol is tested in ``test_lsp_protocol_failures.py``.
"""

from __future__ import annotations

from pathlib import Path
import shutil

from lsp_client import needs_ros2
from paths import ROS2_DESCRIPTIONS, SHARED_MODELS
import pytest

from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.session import Settings
from urdf_tools_ros.core.source.packages import PACKAGE_PATH_ENV
from urdf_tools_ros.lsp.actions import fix_action
from urdf_tools_ros.lsp.checking import (check_run, findings_by_file, inputs_unchanged,
                                         RunResult, settle)
from urdf_tools_ros.lsp.diagnostics import to_diagnostic
from urdf_tools_ros.lsp.documents import Buffers, path_to_uri
from urdf_tools_ros.lsp.ranges import TextIndex
from urdf_tools_ros.lsp.workspace import Run

KUKA = ROS2_DESCRIPTIONS / 'kuka_lbr_iiwa_support'
TIAGO = SHARED_MODELS / 'tiago_dual.urdf'
TURTLEBOT4 = ROS2_DESCRIPTIONS / 'turtlebot4_description' / 'urdf'
UNLOADABLE = 'description-unloadable'
XACRO = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _line(path: Path | str, needle: str) -> int:
    """The 1-based line of the first line of ``path`` holding ``needle``."""
    return next(number for number, text in enumerate(Path(path).read_text().splitlines(), 1)
                if needle in text)


def _settings(packages: dict[str, str] | None = None) -> Settings:
    return Settings(locator=(packages or {}).get)


def _placed(result: RunResult) -> dict[str, list[Finding]]:
    return {name: [finding for finding, _ in found]
            for name, found in findings_by_file([result]).items()}


def _index(path: str) -> TextIndex:
    return TextIndex(Path(path).read_text(errors='replace'))


def _where(finding: Finding) -> tuple[str, int | None]:
    assert finding.location is not None
    return Path(finding.location.filename).name, finding.location.line


@needs_ros2
def test_a_package_missing_in_an_include_is_an_error_on_the_entrys_include_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PACKAGE_PATH_ENV, raising=False)
    package = tmp_path / KUKA.name  # alone: no kuka_resources beside it
    shutil.copytree(KUKA, package, ignore=shutil.ignore_patterns('meshes'))
    entry, macro = (str(package / 'urdf' / name) for name in (
        'lbr_iiwa14_r820.urdf.xacro', 'lbr_iiwa14_r820_macro.xacro'))
    result = check_run(Run(entry), _settings({KUKA.name: str(package)}), Buffers())
    placed = _placed(result)
    [root] = placed[macro]  # the cause stays where it is
    assert root.location is not None
    assert root.location.line == _line(macro, '$(find kuka_resources)')
    [error] = placed[entry]
    assert (error.code, error.severity) == (UNLOADABLE, Severity.ERROR)
    assert error.location is not None
    assert error.location.line == _line(entry, '/urdf/lbr_iiwa14_r820_macro.xacro"')
    assert 'package "kuka_resources" not found' in error.message and error.fix == root.fix
    diagnostic = to_diagnostic(error, result, _index(entry), _index)
    assert diagnostic.range.start.line == error.location.line - 1
    [info] = diagnostic.related_information or []
    assert info.location.uri == path_to_uri(macro)
    assert info.location.range.start.line == root.location.line - 1
    assert 'kuka_resources' in info.message


def test_an_include_cycle_is_an_error_on_each_include_of_the_cycle(tmp_path: Path) -> None:
    files = {'a.urdf.xacro': f'<robot name="r" {XACRO}>\n  <link name="a"/>\n'
                             '  <xacro:include filename="b.xacro"/>\n</robot>\n',
             'b.xacro': f'<robot {XACRO}>\n  <xacro:include filename="c.xacro"/>\n</robot>\n',
             'c.xacro': f'<robot {XACRO}>\n\n  <xacro:include filename="b.xacro"/>\n</robot>\n'}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = check_run(Run(str(tmp_path / 'a.urdf.xacro')), _settings(), Buffers())
    root, *chain = result.findings
    assert {_where(finding) for finding in result.findings} == {
        ('a.urdf.xacro', 3), ('b.xacro', 2), ('c.xacro', 3)}
    assert all(f.code == UNLOADABLE and f.notes == ((root.location, root.message),)
               for f in chain)
    assert set(result.files) == {str(tmp_path / name) for name in files}
    assert root.location is not None
    related = to_diagnostic(root, result, _index(root.location.filename),
                            _index).related_information or []
    places = [(info.location.uri, info.location.range.start.line) for info in related]
    assert places and len(places) == len(set(places))  # each include once, not once a turn


@pytest.mark.parametrize('content', [
    b'<robot>\n  <link name="x">\n</robot>\n',
    b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR',
    b'<robot>\n  <link name="caf\xe9"/>\n</robot>\n',
], ids=['malformed', 'binary', 'not-utf8'])
def test_an_include_that_cannot_be_read_is_an_error_on_each_include_on_the_way(
        tmp_path: Path, content: bytes) -> None:
    (tmp_path / 'part' / 'urdf').mkdir(parents=True)
    (tmp_path / 'part' / 'urdf' / 'bad.xacro').write_bytes(content)
    entry, middle = str(tmp_path / 'a.urdf.xacro'), str(tmp_path / 'middle.xacro')
    Path(entry).write_text(f'<robot name="r" {XACRO}>\n  <link name="a"/>\n\n'
                           '  <xacro:include filename="middle.xacro"/>\n</robot>\n')
    Path(middle).write_text(f'<robot {XACRO}>\n\n'
                            '  <xacro:include filename="$(find part)/urdf/bad.xacro"/>\n'
                            '</robot>\n')
    result = check_run(Run(entry), _settings({'part': str(tmp_path / 'part')}), Buffers())
    placed = _placed(result)
    [error] = placed[entry]
    assert (error.code, _where(error)) == (UNLOADABLE, ('a.urdf.xacro', 4))
    assert 'bad.xacro' in error.message
    assert error.notes[0][0] == result.findings[0].location  # the cause, for the editor
    assert [_where(finding) for finding in placed[middle]] == [('middle.xacro', 3)]


def _half_typed(text: str, line: int) -> str:
    """``text`` with an element half-typed on a new line before ``line`` (1-based)."""
    lines = text.splitlines(keepends=True)
    return ''.join([*lines[:line - 1], '  <link name="x\n', *lines[line - 1:]])


@pytest.mark.skipif(not TIAGO.is_file(), reason=f'{TIAGO} is not here')
def test_while_a_file_is_half_typed_its_findings_stay_on_their_moved_lines(
        tmp_path: Path) -> None:
    path = tmp_path / 'tiago_dual.urdf'
    text = TIAGO.read_text()
    path.write_text(text)
    buffers = Buffers()
    buffers.set(str(path), text)
    loaded = check_run(Run(str(path)), _settings(), buffers)
    assert loaded.robot is not None and len(loaded.findings) > 100
    lines = text.splitlines()
    at = next(number for number in range(len(lines) // 2, len(lines))
              if lines[number - 1].startswith('  <joint '))
    half = _half_typed(text, at)
    buffers.set(str(path), half)
    failing = check_run(Run(str(path)), _settings(), buffers)
    assert failing.robot is None and failing.findings[0].message.startswith(
        'cannot be loaded: malformed XML')
    settled = settle(failing, loaded, buffers)
    assert settled.robot is None and settled.findings[0] == failing.findings[0]
    moved = sorted((f.code, f.message, f.location.line + (f.location.line >= at))
                   for f in loaded.findings if f.location and f.location.line)
    assert sorted((f.code, f.message, f.location.line) for f in settled.findings[1:]
                  if f.location and f.location.line) == moved
    assert inputs_unchanged(settled, buffers)  # the texts now: this result stays until edited
    carried = settled.findings[-1]
    assert carried.location is not None and carried.location.line is not None
    index = TextIndex(half)
    assert to_diagnostic(carried, settled, index, lambda name: index).range.start.line == \
        carried.location.line - 1
    assert fix_action(carried, settled, buffers.read_text, lambda name: index) is None
    # an edit of a line with findings: those go, the others stay where they are
    edited = next(f.location.line for f in loaded.findings if f.location and f.location.line
                  and '="' in lines[f.location.line - 1])
    cut = lines[edited - 1]
    buffers.set(str(path), '\n'.join([*lines[:edited - 1], cut[:cut.index('="') + 2],
                                      *lines[edited:]]) + '\n')
    settled = settle(check_run(Run(str(path)), _settings(), buffers), loaded, buffers)
    assert sorted((f.code, f.message, f.location.line) for f in settled.findings[1:]
                  if f.location and f.location.line) == sorted(
        (f.code, f.message, f.location.line) for f in loaded.findings
        if f.location and f.location.line and f.location.line != edited)


@needs_ros2
def test_while_an_included_file_is_half_typed_each_file_keeps_its_findings() -> None:
    entry = str(TURTLEBOT4 / 'standard' / 'turtlebot4.urdf.xacro')
    standoff = str(TURTLEBOT4 / 'standard' / 'tower_standoff.urdf.xacro')
    settings = Settings(package_folders=(str(ROS2_DESCRIPTIONS),))
    buffers = Buffers()
    loaded = check_run(Run(entry), settings, buffers)
    assert loaded.robot is not None and standoff in loaded.files
    at = _line(standoff, '<xacro:macro')
    buffers.set(standoff, _half_typed(Path(standoff).read_text(), at))
    failing = check_run(Run(entry), settings, buffers)
    settled = settle(failing, loaded, buffers)
    assert settled.findings[:len(failing.findings)] == failing.findings
    assert {_where(f) for f in failing.findings[1:]} >= {  # the include lines on the way
        ('turtlebot4.urdf.xacro', _line(entry, 'tower_standoff.urdf.xacro'))}

    def line_now(finding: Finding) -> int | None:
        assert finding.location is not None
        line = finding.location.line
        return line + 1 if finding.location.filename == standoff and line and line >= at \
            else line
    assert sorted((f.code, f.message, f.location.filename, line_now(f))
                  for f in loaded.findings if f.location) == sorted(
        (f.code, f.message, f.location.filename, f.location.line)
        for f in settled.findings[len(failing.findings):] if f.location)
    assert set(settled.files) >= set(loaded.files)


def test_other_failures_and_files_the_editor_has_not_open_are_published_as_they_are(
        tmp_path: Path) -> None:
    (tmp_path / 'part' / 'urdf').mkdir(parents=True)
    part = tmp_path / 'part' / 'urdf' / 'x.xacro'
    part.write_text(f'<robot {XACRO}>\n  <link name="b"/>\n</robot>\n')
    entry = tmp_path / 'a.urdf.xacro'
    entry.write_text(f'<robot name="r" {XACRO}>\n  <link name="a"/>\n'
                     '  <xacro:include filename="$(find part)/urdf/x.xacro"/>\n</robot>\n')
    buffers = Buffers()
    buffers.set(str(entry), entry.read_text())
    packages = {'part': str(tmp_path / 'part')}
    loaded = check_run(Run(str(entry)), _settings(packages), buffers)
    assert loaded.robot is not None and loaded.findings
    missing = check_run(Run(str(entry)), _settings(), buffers)  # the package is not found
    assert settle(missing, loaded, buffers) is missing
    part.write_text(f'<robot {XACRO}>\n  <link name="b">\n</robot>\n')  # on disk, not open
    malformed = check_run(Run(str(entry)), _settings(packages), buffers)
    assert malformed.findings[0].message.startswith('cannot be loaded: malformed XML')
    assert settle(malformed, loaded, buffers) is malformed
    assert settle(malformed, None, buffers) is malformed
