"""
Packages found the way a ROS user has them: a sourced ROS's ament index and the colcon workspace.

A fake install prefix and a fake colcon workspace are written into ``tmp_path``; the turtlebot4
description finds ``irobot_create_description`` beside it with no option.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import sys

from paths import ROS2_DESCRIPTIONS
import pytest

from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.session import resolve, Settings
from urdf_tools_ros.core.source.discovery import find_packages, workspace_root
from urdf_tools_ros.core.source.packages import ament_package_locator, PACKAGE_PATH_ENV

ROBOT = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find {package})/urdf/part.xacro"/>
  <link name="base"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="part"/></joint>
</robot>
"""
#: The included file; the link it holds says which copy of the package was found.
PART = '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="{link}"/></robot>\n'


@pytest.fixture(autouse=True)
def no_package_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """No package path of the environment: only what each test sets up."""
    monkeypatch.delenv(PACKAGE_PATH_ENV, raising=False)
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)


def _write(path: Path, text: str = '') -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    return path


def _package(folder: Path, name: str, link: str | None = None) -> Path:
    """A source package: ``package.xml`` naming ``name``, and ``urdf/part.xacro`` with ``link``."""
    _write(folder / 'package.xml', f'<package format="3">\n  <name>{name}</name>\n</package>\n')
    _write(folder / 'urdf' / 'part.xacro', PART.format(link=link or f'{name}_link'))
    return folder


def _prefix(prefix: Path, name: str, link: str) -> Path:
    """An install prefix holding package ``name`` in its ament index."""
    _write(prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / name)
    _write(prefix / 'share' / name / 'urdf' / 'part.xacro', PART.format(link=link))
    return prefix


def _links(robot: Path, settings: Settings | None = None) -> set[str]:
    settings = settings or resolve(robot, use_config=False)
    return {link.name for link in settings.load(robot).robot.links}


def test_a_sourced_prefix_is_read_as_its_ament_index_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    first = _prefix(tmp_path / 'overlay', 'foo', 'overlay_link')
    second = _prefix(tmp_path / 'underlay', 'foo', 'underlay_link')
    _prefix(second, 'bar', 'bar_link')
    (first / 'share' / 'unindexed').mkdir()  # a share folder without its index entry
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join(['', str(first), str(second)]))
    monkeypatch.setitem(sys.modules, 'ament_index_python', None)  # its import would fail
    assert ament_package_locator('foo') == str(first / 'share' / 'foo')
    assert ament_package_locator('bar') == str(second / 'share' / 'bar')
    assert ament_package_locator('unindexed') is None
    assert ament_package_locator('..') is None and ament_package_locator('nowhere') is None
    robot = _write(tmp_path / 'robot.urdf.xacro', ROBOT.format(package='foo'))
    assert run(['check', str(robot), '--format', 'json']) != 2
    out, _ = capsys.readouterr()
    assert json.loads(out)['loaded']
    assert _links(robot) == {'base', 'overlay_link'}


def test_the_colcon_workspace_around_the_file_is_found_as_colcon_finds_it(
        tmp_path: Path) -> None:
    source = tmp_path / 'ws' / 'src'
    robot_package = _package(source / 'robots' / 'my_robot', 'my_robot')
    parts = _package(source / 'parts_folder', 'parts')  # named by package.xml, not its folder
    _package(parts / 'test' / 'fixture', 'inner')  # a package inside a package: none
    for skipped in ('.hidden', 'build', 'log'):
        _package(source / skipped / 'pkg', f'{skipped.strip(".")}_pkg')
    _package(tmp_path / 'ws' / 'outside', 'outside')  # beside src/: not in the workspace
    robot = _write(robot_package / 'urdf' / 'robot.urdf.xacro', ROBOT.format(package='parts'))
    assert workspace_root(str(robot)) == str(source)
    assert find_packages([str(source)]) == {'my_robot': str(robot_package), 'parts': str(parts)}
    assert _links(robot) == {'base', 'parts_link'}
    outside = _write(robot_package / 'urdf' / 'out.urdf.xacro', ROBOT.format(package='outside'))
    with pytest.raises(DescriptionLoadError, match='package "outside" not found'):
        resolve(outside, use_config=False).load(outside)


def test_without_a_workspace_the_siblings_of_the_package_are_found(tmp_path: Path) -> None:
    robot_package = _package(tmp_path / 'descriptions' / 'robot_description', 'robot_description')
    _package(tmp_path / 'descriptions' / 'sensors' / 'lidar', 'lidar')
    robot = _write(robot_package / 'urdf' / 'robot.urdf.xacro', ROBOT.format(package='lidar'))
    assert workspace_root(str(robot)) == str(tmp_path / 'descriptions')
    assert _links(robot) == {'base', 'lidar_link'}
    lonely = _write(tmp_path / 'lonely' / 'robot.urdf.xacro', ROBOT.format(package='lidar'))
    assert workspace_root(str(lonely)) is None  # no package.xml above it
    with pytest.raises(DescriptionLoadError, match='package "lidar" not found'):
        resolve(lonely, use_config=False).load(lonely)


def test_a_package_added_to_the_workspace_is_found_by_the_next_load(tmp_path: Path) -> None:
    source = tmp_path / 'ws' / 'src'
    robot_package = _package(source / 'my_robot', 'my_robot')
    robot = _write(robot_package / 'urdf' / 'robot.urdf.xacro', ROBOT.format(package='late'))
    with pytest.raises(DescriptionLoadError, match='package "late" not found'):
        _links(robot)
    _package(source / 'late', 'late')
    stamp = os.stat(source).st_mtime_ns + 10**9  # a file system with coarse times: a later one
    os.utime(source, ns=(stamp, stamp))
    assert _links(robot) == {'base', 'late_link'}


def test_explicit_paths_then_the_variable_then_the_workspace_then_the_prefix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / 'ws' / 'src'
    robot_package = _package(source / 'my_robot', 'my_robot')
    _package(source / 'dup', 'dup', 'workspace_link')
    _package(tmp_path / 'given' / 'dup', 'dup', 'given_link')
    _package(tmp_path / 'variable' / 'dup', 'dup', 'variable_link')
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(_prefix(tmp_path / 'prefix', 'dup', 'ros_link')))
    robot = _write(robot_package / 'urdf' / 'robot.urdf.xacro', ROBOT.format(package='dup'))
    assert _links(robot) == {'base', 'workspace_link'}
    monkeypatch.setenv(PACKAGE_PATH_ENV, str(tmp_path / 'variable'))
    assert _links(robot) == {'base', 'variable_link'}
    given = resolve(robot, use_config=False, package_folders=[str(tmp_path / 'given')])
    assert _links(robot, given) == {'base', 'given_link'}


def test_the_fix_of_a_package_not_found_is_the_callers_hint(tmp_path: Path) -> None:
    robot = _write(tmp_path / 'robot.urdf.xacro', ROBOT.format(package='nopkg'))
    mesh = _write(tmp_path / 'mesh.urdf', '<robot name="m"><link name="a"><visual><geometry>'
                  '<mesh filename="package://nopkg/m.stl"/></geometry></visual></link></robot>\n')
    hint = 'source ROS in the shell that starts the editor, or set packagePath ({package}=DIR)'
    editor = resolve(robot, use_config=False, package_hint=hint)
    with pytest.raises(DescriptionLoadError) as raised:
        editor.load(robot)
    assert raised.value.fix == 'source ROS in the shell that starts the editor, or set ' \
        'packagePath (nopkg=DIR)'
    missing = [finding for finding in editor.check(editor.load(mesh))
               if finding.code == 'mesh-file-missing']
    assert [finding.fix for finding in missing] == [raised.value.fix]
    command_line = resolve(robot, use_config=False)  # the default: the command line's words
    with pytest.raises(DescriptionLoadError) as raised:
        command_line.load(robot)
    assert raised.value.fix is not None and raised.value.fix.startswith(
        'give --package-path nopkg=DIR') and 'source the ROS' in raised.value.fix
    fixes = {finding.fix for finding in command_line.check(command_line.load(mesh))
             if finding.code == 'mesh-file-missing'}
    assert fixes == {raised.value.fix}


@pytest.mark.skipif(not (ROS2_DESCRIPTIONS / 'turtlebot4_description').is_dir(),
                    reason=f'{ROS2_DESCRIPTIONS} is not here')
def test_turtlebot4_finds_the_create3_beside_it_with_no_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    entry = ROS2_DESCRIPTIONS / 'turtlebot4_description' / 'urdf' / 'standard' \
        / 'turtlebot4.urdf.xacro'
    assert run(['check', str(entry), '--format', 'json']) != 2
    out, _ = capsys.readouterr()
    assert json.loads(out)['loaded']
    description = resolve(entry, use_config=False).load(entry)
    create3 = str(ROS2_DESCRIPTIONS / 'irobot_create_description' / 'urdf')
    assert any(name.startswith(create3) for name in description.dependencies)
