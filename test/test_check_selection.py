"""
A checker people can keep on in CI.

``--select``/``--ignore``, suppression comments, ``.urdf-tools.toml``/``pyproject.toml``
defaults and ``urdf-tools rules CODE``; an unknown code is an error that names it (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO, run_cli

#: A joint without <limit> (error joint-limit-missing, line 4) and a joint axis of length 2
#: (warning joint-axis-not-unit, line 7).
ROBOT = """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  {before_j}
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
  {before_k}
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/>
    <axis xyz="0 0 2"/></joint>
</robot>
"""


def write(folder: Path, before_j: str = '', before_k: str = '') -> Path:
    path = folder / 'robot.urdf'
    path.write_text(ROBOT.format(before_j=before_j, before_k=before_k))
    return path


def check(*args: str, cwd: Path = REPO) -> tuple[int, list[str], str]:
    """Exit status, finding codes (JSON), standard error of ``urdf-tools check``."""
    done = run_cli('check', *args, '--format', 'json', cwd=cwd)
    codes = [f['code'] for f in json.loads(done.stdout)['findings']] if done.stdout else []
    return done.returncode, codes, done.stderr


def test_select_and_ignore_take_codes_and_prefixes(tmp_path: Path) -> None:
    path = str(write(tmp_path))
    code, codes, _ = check(path, '--no-config')
    assert code == 1 and {'joint-limit-missing', 'joint-axis-not-unit'} <= set(codes)
    code, codes, _ = check(path, '--no-config', '--select', 'joint-axis')
    assert code == 0 and codes == ['joint-axis-not-unit']
    code, codes, _ = check(path, '--no-config', '--ignore', 'joint-limit-missing,joint-axis-')
    assert code == 0 and 'joint-limit-missing' not in codes and 'joint-axis-not-unit' not in codes


@pytest.mark.parametrize('flag', ['--select', '--ignore'])
def test_an_unknown_code_is_an_error_naming_it(tmp_path: Path, flag: str) -> None:
    code, _codes, stderr = check(str(write(tmp_path)), '--no-config', flag, 'joint-limit-mising')
    assert code == 2 and "'joint-limit-mising'" in stderr and flag in stderr


def test_a_suppression_on_the_element_is_honoured(tmp_path: Path) -> None:
    path = write(tmp_path, before_j='<!-- urdf-tools: ignore[joint-limit-missing] -->')
    code, codes, _ = check(str(path), '--no-config')
    assert code == 0 and 'joint-limit-missing' not in codes and 'joint-axis-not-unit' in codes
    assert 'suppression-unused' not in codes


def test_a_suppression_that_suppresses_nothing_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, before_k='<!-- urdf-tools: ignore[joint-limit-missing] -->')
    findings = json.loads(run_cli('check', str(path), '--no-config', '--format', 'json').stdout)[
        'findings']
    unused = [f for f in findings if f['code'] == 'suppression-unused']
    assert len(unused) == 1 and unused[0]['line'] == 5  # the comment's line
    assert 'joint-limit-missing' in [f['code'] for f in findings]  # not on its element


def test_a_suppression_with_an_unknown_code_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, before_j='<!-- urdf-tools: ignore[no-such-rule] -->')
    code, _codes, stderr = check(str(path), '--no-config')
    assert code == 2 and f'{path}:3' in stderr and "'no-such-rule'" in stderr


def test_a_suppression_in_a_xacro_file(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:macro name="arm"><link name="a"/><link name="b"/>\n'
                    '    <!-- urdf-tools: ignore[joint-limit-missing] -->\n'
                    '    <joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                    '</joint>\n  </xacro:macro>\n  <xacro:arm/>\n</robot>\n')
    code, codes, _ = check(str(path), '--no-config')
    assert code == 0 and 'joint-limit-missing' not in codes, codes


@pytest.mark.parametrize('text, words', [
    ('select = ["joint-limit"\nwerror = true\n', ['.urdf-tools.toml', 'line 2']),
    ('selcet = ["joint-limit"]\n', ['.urdf-tools.toml', "'selcet'"]),
    ('ignore = ["nope"]\n', ['.urdf-tools.toml', "'nope'"]),
    ('werror = "yes"\n', ['werror must be bool']),
    ('target = "ros2"\n', ["'ros2'"]),
])
def test_a_bad_configuration_is_an_error_naming_it(tmp_path: Path, text: str,
                                                   words: list[str]) -> None:
    robot = write(tmp_path)
    (tmp_path / '.urdf-tools.toml').write_text(text)
    code, _codes, stderr = check(str(robot))
    assert code == 2 and 'Traceback' not in stderr
    for word in words:
        assert word in stderr, stderr


def test_check_without_a_file_checks_the_configured_entries(tmp_path: Path) -> None:
    (tmp_path / 'robots').mkdir()
    write(tmp_path / 'robots')
    arm = tmp_path / 'arm.urdf.xacro'
    arm.write_text('<robot name="a" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   '  <xacro:arg name="side" default="l"/>\n'
                   '  <link name="$(arg side)_base"/>\n</robot>\n')
    (tmp_path / '.urdf-tools.toml').write_text(
        '[[entries]]\nfile = "robots/robot.urdf"\n'
        '[[entries]]\nfile = "arm.urdf.xacro"\nmatrix = {side = ["l", "r"]}\n')
    done = run_cli('check', '--format', 'json', cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    files = json.loads(done.stdout)['files']
    assert [(Path(item['file']).name, item.get('xacro_args')) for item in files] == [
        ('robot.urdf', None), ('arm.urdf.xacro', {'side': 'l'}),
        ('arm.urdf.xacro', {'side': 'r'})]
    assert 'joint-limit-missing' in [f['code'] for f in files[0]['findings']]
    # a FILE named on the command line replaces the entries
    assert check(str(arm), cwd=tmp_path)[0] == 0
    (tmp_path / '.urdf-tools.toml').write_text('entries = ["arm.urdf.xacro"]\n')
    assert check(cwd=tmp_path)[0] == 0
    (tmp_path / '.urdf-tools.toml').write_text('entries = [3]\n')
    code, _, stderr = check(cwd=tmp_path)
    assert code == 2 and 'entries' in stderr and 'Traceback' not in stderr
    (tmp_path / '.urdf-tools.toml').unlink()
    code, _, stderr = check(cwd=tmp_path)
    assert code == 2 and 'no file given' in stderr


def test_rules_explains_one_rule() -> None:
    done = run_cli('rules', 'joint-limit-missing')
    assert done.returncode == 0
    assert done.stdout.startswith('joint-limit-missing: a revolute or prismatic joint has no')
    assert 'ros error' in done.stdout and '  urdfdom: ' in done.stdout
    assert '<!-- urdf-tools: ignore[joint-limit-missing] -->' in done.stdout
    from urdf_tools_ros.core.checks.examples import EXAMPLES
    shown = done.stdout.split('fails:\n', 1)[1].split('fixed:\n')
    example = EXAMPLES['joint-limit-missing']
    assert [part.split('\nsuppress')[0].replace('\n    ', '\n').strip() for part in shown] \
        == [example.bad.strip(), example.good.strip()]
    bad = run_cli('rules', 'mesh')
    assert bad.returncode == 2 and 'mesh-file-missing' in bad.stderr


def test_the_configuration_can_target_lyrical(tmp_path: Path) -> None:
    robot = tmp_path / 'robot.urdf'
    robot.write_text('<robot name="r" version="1.2">\n  <link name="a"/>\n</robot>\n')
    # Lyrical's urdfdom reads 1.2: warnings only (urdf_parser_py, which reads 1.0 only, is on
    # no ROS graph's path: C12 names it in a warning)
    (tmp_path / '.urdf-tools.toml').write_text('target = "ros-lyrical"\n')
    code, codes, stderr = check(str(robot))
    assert code == 0 and {'robot-version-new', 'urdf-parser-py-version'} <= set(codes), stderr
    (tmp_path / '.urdf-tools.toml').write_text('target = "ros-jazzy"\n')
    assert check(str(robot))[0] == 1


def test_the_catalog_columns_stand_for_distros_that_agree() -> None:
    """Each column of ``urdf-tools rules`` names the distros whose targets agree on every rule."""
    from urdf_tools_ros.cli.commands import COLUMNS
    from urdf_tools_ros.core.checks import RULES, TARGETS
    from urdf_tools_ros.core.model.values import ROS_DISTRO_URDF_VERSIONS
    shown = [distro for target, title in COLUMNS.items() if target.startswith('ros-')
             for distro in title.split()]
    assert shown == list(ROS_DISTRO_URDF_VERSIONS) == [
        target[4:] for target in TARGETS if target.startswith('ros-')]
    for target, title in COLUMNS.items():
        for distro in title.split() if target.startswith('ros-') else ():
            for rule in RULES.values():
                assert rule.severity_for(f'ros-{distro}') is rule.severity_for(target), \
                    (distro, rule.code)
    done = run_cli('rules')
    header = done.stdout.splitlines()[0]
    assert done.returncode == 0 and 'humb  jazz  kilt  l/r   gaze  mujo  pino' in header
    rows = {line.split()[0]: line.split()[1:8] for line in done.stdout.splitlines()[1:]
            if line and not line.startswith('consumers:')}
    # humble, jazzy, kilted, lyrical/rolling, gazebo, mujoco, pinocchio
    assert rows['robot-version-new'] == ['E', 'E', 'E', 'W', 'E', 'W', 'W']
    # on no ROS graph's path: RViz drawing no capsule, urdf_parser_py (a warning naming them)
    assert rows['geometry-capsule-not-drawn'][:4] == ['W'] * 4
    assert rows['urdf-parser-py-version'][:4] == ['W'] * 4
    # ros2_control clamps commands to the URDF's limits by default from Kilted
    assert rows['joint-limit-zero-actuated'][:4] == ['W', 'W', 'E', 'E']
    explained = run_cli('rules', 'robot-version-new').stdout
    assert 'ros-kilted error, ros-lyrical warning, ros-rolling warning' in explained
    assert 'Humble, Jazzy and Kilted' in explained and 'Lyrical and Rolling' in explained
