"""
A xacro failure is reported at the element that failed, once, in plain words, with its fix.

The include and macro-call chain follows as notes at their own lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.core.source.xacro import runner as xacro_runner

pytestmark = pytest.mark.portability

XACRO = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'

ERRORS = Path(__file__).parent / 'urdf' / 'xacro' / 'errors'
#: parts.xacro's macro "body" calls macro "hand" with a parameter it does not have.
PARTS = (ERRORS / 'parts.xacro').read_text()
#: robot.urdf.xacro includes parts.xacro and calls "body".
ENTRY = (ERRORS / 'robot.urdf.xacro').read_text()


def write(folder: Path, files: dict[str, str]) -> Path:
    """Write ``files`` into ``folder``; the first is the entry point."""
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder / next(iter(files))


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` holding ``text`` (once)."""
    (number,) = [index for index, line in enumerate(path.read_text().splitlines(), 1)
                 if text in line]
    return number


def failure(entry: Path) -> DescriptionLoadError:
    with pytest.raises(DescriptionLoadError) as caught:
        load(entry)
    error = caught.value
    assert '<class' not in str(error) and 'Exception' not in str(error)
    assert error.reason.count(error.reason.split(': ')[-1]) == 1
    return error


def test_an_undeclared_macro_parameter_is_at_the_call_with_the_calls_around_it(
        tmp_path: Path) -> None:
    entry = write(tmp_path, {'robot.urdf.xacro': ENTRY, 'parts.xacro': PARTS})
    error = failure(entry)
    parts = tmp_path / 'parts.xacro'
    assert (Path(error.filename), error.line) == (parts, line_of(parts, 'gripper='))
    assert 'macro "hand" has no parameter "gripper"' in error.reason
    assert 'prefix' in error.fix and 'gripper' in error.fix
    assert [(Path(where.filename), where.line) for where, _ in error.notes] == [
        (entry, line_of(entry, '<xacro:body'))]


def test_an_unresolved_find_is_at_the_include_and_says_how_to_give_the_package(
        tmp_path: Path) -> None:
    entry = write(tmp_path, {'robot.urdf.xacro': ENTRY.replace(
        'filename="parts.xacro"', 'filename="$(find ur_description)/urdf/ur.xacro"')})
    error = failure(entry)
    assert error.line == line_of(entry, '$(find ur_description)')
    assert error.reason.count('ur_description') == 2  # '$(find ur_description): package "..."'
    assert '--package-path ur_description=DIR' in error.fix


@pytest.mark.parametrize(('text', 'said', 'fix'), [
    ('<link name="${width}_x"/>', 'no property or argument named "width"', '<xacro:property'),
    ('<link name="$(arg prefix)x"/>', 'argument "prefix" is not given', 'prefix:=VALUE'),
    ('<xacro:include filename="nowhere.xacro"/>', 'cannot read', 'file name'),
    ('<xacro:wheel/>', 'no macro named "wheel"', '<xacro:macro'),
], ids=['property', 'argument', 'include', 'macro'])
def test_each_cause_in_an_included_file_is_at_its_element(tmp_path: Path, text: str, said: str,
                                                          fix: str) -> None:
    included = f'<?xml version="1.0"?>\n<robot {XACRO}>\n  <link name="a"/>\n  {text}\n</robot>\n'
    entry = write(tmp_path, {'robot.urdf.xacro': ENTRY, 'parts.xacro': included})
    error = failure(entry)
    parts = tmp_path / 'parts.xacro'
    assert (Path(error.filename), error.line) == (parts, 4)
    assert said in error.reason and fix in error.fix
    assert [(Path(where.filename), where.line) for where, _ in error.notes] == [
        (entry, line_of(entry, '<xacro:include'))]


def test_without_line_hooks_the_message_is_as_plain(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)
    entry = write(tmp_path, {'robot.urdf.xacro': ENTRY, 'parts.xacro': PARTS})
    error = failure(entry)
    assert 'macro "hand" has no parameter "gripper"' in error.reason


def test_the_report_shows_the_notes_and_the_fix_whole(tmp_path: Path) -> None:
    entry = write(tmp_path, {'robot.urdf.xacro': ENTRY, 'parts.xacro': PARTS})
    text = run_cli('check', str(entry), cwd=tmp_path).stdout.splitlines()
    assert text[0].startswith(f'parts.xacro:{line_of(tmp_path / "parts.xacro", "gripper=")}: ')
    assert text[1] == f'    robot.urdf.xacro:{line_of(entry, "<xacro:body")}: note: in the call ' \
        '<xacro:body> here'
    assert text[2].startswith('    fix: its parameters are: prefix;')
    report = json.loads(run_cli('check', str(entry), '--format', 'json').stdout)
    (finding,) = report['findings']
    assert [note['line'] for note in finding['notes']] == [line_of(entry, '<xacro:body')]


def test_verbose_shows_the_include_chain_of_a_finding_in_an_included_file(
        tmp_path: Path) -> None:
    leaf = f'<?xml version="1.0"?>\n<robot {XACRO}>\n  <link name="leaf">\n' \
        '    <visual><geometry><box size="0 1 1"/></geometry></visual>\n  </link>\n</robot>\n'
    middle = f'<?xml version="1.0"?>\n<robot {XACRO}>\n  <xacro:include filename="leaf.xacro"/>' \
        '\n</robot>\n'
    entry = write(tmp_path, {
        'robot.urdf.xacro': f'<?xml version="1.0"?>\n<robot name="r" {XACRO}>\n'
                            '  <link name="world"/>\n  <xacro:include filename="mid.xacro"/>\n'
                            '  <joint name="j" type="fixed"><parent link="world"/>'
                            '<child link="leaf"/></joint>\n</robot>\n',
        'mid.xacro': middle, 'leaf.xacro': leaf})
    plain, verbose = (run_cli('check', entry.name, *flags, cwd=tmp_path).stdout.splitlines()
                      for flags in ([], ['-v']))
    finding = 'leaf.xacro:4: warning[geometry-size-zero]: '
    assert [line for line in plain if line.startswith(finding)]
    assert not [line for line in plain if 'included from' in line]
    index = next(index for index, line in enumerate(verbose) if line.startswith(finding))
    assert verbose[index + 1:index + 3] == ['    mid.xacro:3: note: included from here',
                                            '    robot.urdf.xacro:4: note: included from here']
