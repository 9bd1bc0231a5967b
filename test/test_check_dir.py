"""
``urdf-tools check DIR``: the entries of a package or a colcon workspace, found or configured.

A workspace of two packages written into tmp_path (a macro library and a robot that includes it
across packages), and the real description packages of ``ROS2_DESCRIPTIONS``, whose entries are
compared with what xacro itself makes of them and with the entries their launch files name
(``cases.json``).
"""

from __future__ import annotations

import json
from pathlib import Path
import textwrap

from paths import ROS2_CASES, ROS2_DESCRIPTIONS
import pytest

from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.source.discovery import find_packages
from urdf_tools_ros.core.source.entries import find_entries

#: A macro library of one arm; its joint's ``<limit>`` is on :data:`LIMIT_LINE`.
ARM = """\
<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="arm" params="prefix">
    <link name="${prefix}base"/>
    <link name="${prefix}tool">
      <inertial><mass value="1"/>
        <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    </link>
    <joint name="${prefix}elbow" type="revolute">
      <parent link="${prefix}base"/><child link="${prefix}tool"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="10" velocity="1"/>
    </joint>
  </xacro:macro>
</robot>
"""
LIMIT_LINE = 11
#: The robot of package ``cell``: the arm of package ``arms``, once per ``prefix``.
ROBOT = """\
<?xml version="1.0"?>
<robot name="cell" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="prefix" default=""/>
  <xacro:include filename="$(find arms)/urdf/arm.xacro"/>
  <xacro:include filename="colours.xacro"/>
  <xacro:arm prefix="$(arg prefix)"/>
</robot>
"""
COLOURS = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
           '<material name="grey"><color rgba="0.5 0.5 0.5 1"/></material></robot>\n')
#: A robot that includes only a file with links at its top: an entry through its include.
WRAPPER = ('<robot name="wrapped" xmlns:xacro="http://www.ros.org/wiki/xacro">'
           '<xacro:include filename="core.xacro"/></robot>\n')
CORE = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="base"/></robot>\n')
PLAIN = '<robot name="plain"><link name="base"/></robot>\n'


def package(folder: Path, name: str, files: dict[str, str]) -> Path:
    """A package ``name`` in ``folder`` with ``files`` (relative path: text)."""
    (folder / name).mkdir(parents=True)
    (folder / name / 'package.xml').write_text(
        f'<package format="3"><name>{name}</name><version>0.0.0</version></package>\n')
    for relative, text in files.items():
        (folder / name / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / name / relative).write_text(text)
    return folder / name


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``ws/src``: ``arms`` (the macro library) and ``cell`` (its robot, a plain URDF)."""
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('URDF_TOOLS_PACKAGE_PATH', raising=False)
    monkeypatch.chdir(tmp_path)
    src = tmp_path / 'ws' / 'src'
    package(src, 'arms', {'urdf/arm.xacro': ARM})
    package(src, 'cell', {'urdf/cell.urdf.xacro': ROBOT, 'urdf/colours.xacro': COLOURS,
                          'urdf/plain.urdf': PLAIN, 'urdf/wrapper.xacro': WRAPPER,
                          'urdf/core.xacro': CORE})
    return tmp_path / 'ws'


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(['check', *args])
    out, err = capsys.readouterr()
    return code, out, err


def summaries(out: str) -> list[str]:
    """The files a text report names in its summary lines, in order."""
    return [line.split(': ')[0] for line in out.splitlines()
            if line.endswith(' info') and not line.startswith('total: ')]


def test_a_workspace_is_checked_entry_by_entry(capsys: pytest.CaptureFixture[str],
                                               workspace: Path) -> None:
    cell = workspace / 'src' / 'cell' / 'urdf'
    expected = [str(cell / 'cell.urdf.xacro'), str(cell / 'plain.urdf'),
                str(cell / 'wrapper.xacro')]  # no macros, colours or included core
    for folder in (workspace, workspace / 'src', workspace / 'src' / 'cell'):
        code, out, _ = check(capsys, str(folder), '--no-cache')
        assert code == 0, out
        assert [str(Path(name).resolve()) for name in summaries(out)] == expected
        assert out.splitlines()[-1].startswith('total: 3 files, 0 errors')
    code, out, err = check(capsys, str(workspace / 'src' / 'arms'))
    assert code == 2 and 'no robot description in' in err


def test_a_defect_in_a_macro_fails_the_robot_and_the_worst_status_wins(
        capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    macros = workspace / 'src' / 'arms' / 'urdf' / 'arm.xacro'
    macros.write_text(ARM.replace(' velocity="1"/>', '/>'))
    code, out, _ = check(capsys, str(workspace))
    assert code == 1
    shown = macros.relative_to(workspace.parent)  # the current folder
    assert f'{shown}:{LIMIT_LINE}: error[joint-limit-velocity-missing]' in out
    (workspace / 'src' / 'cell' / 'urdf' / 'broken.urdf.xacro').write_text(
        '<robot name="b" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:nothing/></robot>')
    code, out, _ = check(capsys, str(workspace))
    assert code == 2 and 'error[description-unloadable]' in out
    assert out.splitlines()[-1].startswith('total: 4 files, 2 errors')


@pytest.mark.portability  # processes: fork, forkserver or spawn per Python
def test_jobs_give_the_same_report(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    (workspace / 'src' / 'arms' / 'urdf' / 'arm.xacro').write_text(
        ARM.replace(' velocity="1"/>', '/>'))
    for form in ('text', 'json', 'junit'):
        alone = check(capsys, str(workspace), '-v', '--format', form)
        assert check(capsys, str(workspace), '-v', '--format', form, '--jobs', '3') == alone
        assert alone[0] == 1
    with pytest.raises(SystemExit) as exited:
        check(capsys, str(workspace), '--jobs', '0')
    assert exited.value.code == 2 and "'0': expected at least 1" in capsys.readouterr().err


def test_the_configuration_names_entries_excludes_files_and_chooses_rules(
        capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    cell = workspace / 'src' / 'cell'
    (cell / '.urdf-tools.toml').write_text(textwrap.dedent("""\
        ignore = ["root-link-inertia"]
        [[entries]]
        file = "urdf/cell.urdf.xacro"
        matrix = {prefix = ["", "left_"]}
    """))
    code, out, _ = check(capsys, str(workspace), '-v', '--format', 'json')
    files = json.loads(out)['files']
    assert code == 0
    assert [(Path(item['file']).name, item.get('combination')) for item in files] == [
        ('cell.urdf.xacro', "prefix=''"), ('cell.urdf.xacro', 'prefix=left_')]
    assert not any(f['code'] == 'root-link-inertia' for item in files for f in item['findings'])
    (cell / '.urdf-tools.toml').write_text('exclude = ["urdf/wrapper.xacro", "urdf/p*"]\n')
    code, out, _ = check(capsys, str(workspace))
    assert code == 0 and [Path(name).name for name in summaries(out)] == ['cell.urdf.xacro'], out
    code, out, _ = check(capsys, str(workspace), '--no-config')
    assert len(summaries(out)) == 3


def test_diff_and_fix_need_files(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, _, err = check(capsys, str(workspace), '--diff')
    assert code == 2 and '--diff and --fix need the files named' in err


def test_junit_names_each_failure_by_file_line_and_code(capsys: pytest.CaptureFixture[str],
                                                        workspace: Path) -> None:
    from xml.etree import ElementTree
    macros = workspace / 'src' / 'arms' / 'urdf' / 'arm.xacro'
    macros.write_text(ARM.replace(' velocity="1"/>', '/>'))
    code, out, _ = check(capsys, str(workspace), '--format', 'junit')
    (case,) = [case for case in ElementTree.fromstring(out).iter('testcase')
               if case.find('failure') is not None]
    assert code == 1
    assert case.find('failure').get('message').startswith(
        f'{macros}:{LIMIT_LINE}: error[joint-limit-velocity-missing]')
    assert (case.get('file'), case.get('line')) == (str(macros), str(LIMIT_LINE))


@pytest.mark.skipif(not ROS2_CASES, reason=f'{ROS2_DESCRIPTIONS} is not here')
def test_real_packages_entries_are_what_xacro_makes_robots_of(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry found is a robot to xacro itself; every entry a launch file names is found."""
    pytest.importorskip('ament_index_python')  # xacro's $(find)
    import xacro

    packages = find_packages([str(ROS2_DESCRIPTIONS)])
    index = tmp_path / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    for name, folder in packages.items():  # an ament index, for xacro's $(find)
        (index / name).write_text('')
        (tmp_path / 'share' / name).symlink_to(folder)
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    found = [entry for folder in packages.values() for entry in find_entries(folder, packages.get)]
    for entry in found:
        links = xacro.process_file(entry, mappings={}).getElementsByTagName('link')
        assert links, entry
    named = {str(ROS2_DESCRIPTIONS / case['entry']) for case in ROS2_CASES.values()}
    assert named <= set(found) and len(found) >= 50
