"""
Package paths relative to the current directory, and folders of packages, for ``$(find)``.

The KUKA LBR iiwa description as ``NAME=DIR``, ``DIR`` and ``URDF_TOOLS_PACKAGE_PATH``; its entry
is copied out of its package, so that no workspace around the file finds the packages instead.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import shutil

from paths import ROS2_CASES, ROS2_DESCRIPTIONS
import pytest

from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.core.source.packages import make_package_locator, PACKAGE_PATH_ENV

pytestmark = pytest.mark.installed

CASE_ID = 'kuka_lbr_iiwa14_r820'
#: The packages its ``$(find)`` reach with mode:=mock (cases.json names the first only).
PACKAGES = ('kuka_lbr_iiwa_support', 'kuka_resources')
needs_descriptions = pytest.mark.skipif(not ROS2_CASES,
                                        reason=f'{ROS2_DESCRIPTIONS} is not here')


@pytest.fixture
def case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The KUKA case, its entry copied into a fresh current directory, no package path set."""
    found = ROS2_CASES[CASE_ID]
    work = tmp_path / 'work'
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv(PACKAGE_PATH_ENV, raising=False)
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    folder = os.path.relpath(ROS2_DESCRIPTIONS, work)
    assert folder.startswith('..')
    shutil.copy(ROS2_DESCRIPTIONS / str(found['entry']), work / 'entry.urdf.xacro')
    return {**found, 'folder': folder, 'entry_path': 'entry.urdf.xacro'}


def _checked(capsys: pytest.CaptureFixture[str], case: dict[str, object],
             *options: str) -> dict[str, object]:
    code = run(['check', str(case['entry_path']), *case['args'], '--format', 'json', *options])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code != 2 and data['loaded'], err + out
    return data


@needs_descriptions
@pytest.mark.parametrize('way', ['NAME=DIR', 'DIR', 'variable NAME=DIR', 'variable DIR'])
def test_a_relative_package_path_finds_the_includes_and_meshes(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        case: dict[str, object], way: str) -> None:
    assert case['package'] == PACKAGES[0]
    pairs = {name: os.path.join(str(case['folder']), name) for name in PACKAGES}
    entries = [f'{name}={folder}' for name, folder in pairs.items()] \
        if way.endswith('NAME=DIR') else [str(case['folder'])]
    if way.startswith('variable'):
        monkeypatch.setenv(PACKAGE_PATH_ENV, os.pathsep.join(entries))
        options: list[str] = []
    else:
        options = [word for entry in entries for word in ('--package-path', entry)]
    data = _checked(capsys, case, *options)
    codes = {finding['code'] for finding in data['findings']}  # type: ignore[attr-defined]
    assert 'mesh-file-missing' not in codes, codes
    description = load(str(case['entry_path']),
                       xacro_args=dict(arg.split(':=') for arg in case['args']),  # type: ignore
                       package_paths=pairs if way == 'NAME=DIR' else {},
                       package_folders=[str(case['folder'])] if way == 'DIR' else ())
    robot = description.robot
    assert (len(robot.links), len(robot.joints)) == (case['links'], case['joints'])
    macro = str(ROS2_DESCRIPTIONS / PACKAGES[0] / 'urdf' / 'lbr_iiwa14_r820_macro.xacro')
    assert macro in description.dependencies
    assert all(os.path.isabs(name) and os.path.isfile(name) for name in description.dependencies)


def test_a_folder_of_packages_the_same_for_the_option_and_the_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in ('option', 'variable'):
        for package in ('shared_pkg', f'{folder}_pkg'):
            (tmp_path / folder / package).mkdir(parents=True)
    (tmp_path / 'variable' / 'not_a_package.txt').write_text('')
    monkeypatch.chdir(tmp_path)
    locate = make_package_locator(environ={PACKAGE_PATH_ENV: 'variable'},
                                  package_folders=['option'])
    assert locate('shared_pkg') == str(tmp_path / 'option' / 'shared_pkg')  # the option first
    assert locate('variable_pkg') == str(tmp_path / 'variable' / 'variable_pkg')
    assert locate('option_pkg') == str(tmp_path / 'option' / 'option_pkg')
    assert locate('not_a_package.txt') is None and locate('nowhere') is None
    # a NAME=DIR pair of the variable comes after the option's folders, before its own folders
    pair = make_package_locator(environ={PACKAGE_PATH_ENV: os.pathsep.join(
        ['variable', 'shared_pkg=variable/shared_pkg'])}, package_folders=['option'])
    assert pair('shared_pkg') == str(tmp_path / 'option' / 'shared_pkg')
    alone = make_package_locator(environ={PACKAGE_PATH_ENV: os.pathsep.join(
        ['option', 'shared_pkg=variable/shared_pkg'])})
    assert alone('shared_pkg') == str(tmp_path / 'variable' / 'shared_pkg')


def test_a_package_path_that_is_no_folder_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    robot = tmp_path / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="a"/></robot>\n')
    monkeypatch.chdir(tmp_path)
    for entry in ('no_such_folder', 'pkg=no_such_folder', 'pkg='):
        code = run(['check', str(robot), '--package-path', entry])
        out, err = capsys.readouterr()
        assert code == 2 and out == '', out
        assert err.startswith('urdf-tools check: --package-path') and len(err.splitlines()) == 1
