"""The pre-commit hook (``.pre-commit-hooks.yaml``) through ``pre-commit try-repo``."""

from __future__ import annotations

from pathlib import Path
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

PRE_COMMIT = Path(sys.executable).parent / 'pre-commit'


def needs() -> str | None:
    if not PRE_COMMIT.is_file():
        return f'pre-commit is not installed next to {sys.executable} (pip install pre-commit)'
    if shutil.which('git') is None or not (REPO / '.git').exists():
        return 'needs git and a git checkout of this repository'
    return None


pytestmark = pytest.mark.skipif(needs() is not None, reason=str(needs()))


def robot_repository(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    for command in (['init', '-q'], ['add', '.'],
                    ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'robot']):
        subprocess.run(['git', *command], cwd=folder, check=True, capture_output=True)
    return folder


def try_repo(folder: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PRE_COMMIT), 'try-repo', str(REPO), 'urdf-tools-check',
                           '--all-files'], cwd=folder, capture_output=True, text=True,
                          timeout=600, env={'PATH': '/usr/bin:/bin', 'HOME': str(home),
                                            'PRE_COMMIT_HOME': str(home / 'pre-commit')})


def test_the_hook_fails_on_a_broken_robot_and_passes_a_clean_one(tmp_path: Path) -> None:
    clean = '<robot name="r">\n  <link name="base"/>\n</robot>\n'
    broken = ('<robot name="r">\n  <link name="a"/>\n  <joint name="j" type="revolute">'
              '<parent link="a"/><child link="b"/></joint>\n</robot>\n')
    home = tmp_path / 'home'
    home.mkdir()
    done = try_repo(robot_repository(tmp_path / 'bad', {'arm.urdf': broken,
                                                        'clean.urdf': clean,
                                                        'macros.xacro': '<robot/>'}), home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'arm.urdf:3: error[joint-child-missing]' in done.stdout
    assert 'clean.urdf: 0 errors' in done.stdout and 'macros.xacro' not in done.stdout
    done = try_repo(robot_repository(tmp_path / 'good', {'clean.urdf': clean}), home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'urdf-tools check' in done.stdout and 'Passed' in done.stdout
