"""
``urdf-tools diff``: exit codes, the three formats, xacro arguments per side, and ``--git``.

The ``--git`` tests commit test/urdf/diff/tiny_description twice (an include, a YAML file and a
mesh changed) and compare the work tree with each revision, read from the revision.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
import re
import shutil
import subprocess

import pytest

from conftest import REPO, run_cli as cli, SAMPLE_ROBOT, shared_model

SAMPLE = str(SAMPLE_ROBOT.relative_to(REPO))
no_git = pytest.mark.skipif(shutil.which('git') is None, reason='git is not installed')

DATA = REPO / 'test' / 'urdf' / 'diff'
ARM = (DATA / 'arm.urdf').read_text()


def arm_pair(folder: Path, before: str, after: str) -> tuple[Path, Path]:
    """``old.urdf``, the arm, and ``new.urdf``, the arm with ``before`` replaced by ``after``."""
    old, new = folder / 'old.urdf', folder / 'new.urdf'
    old.write_text(ARM)
    new.write_text(ARM.replace(before, after))
    return old, new


def test_a_robot_and_itself_exit_0() -> None:
    done = cli('diff', SAMPLE, SAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'{SAMPLE} -> {SAMPLE}: the same robot\n'


def test_a_limit_change_exits_1_with_degrees_in_text_markdown_and_json(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, 'upper="1.5"', 'upper="1.2"')
    text = cli('diff', str(old), str(new))
    assert text.returncode == 1, text.stderr
    assert 'joint "shoulder":' in text.stdout.splitlines()
    # 0.3 rad less = -17.19°: rad once for both numbers, the change in degrees
    assert '  limit.upper: 1.5 -> 1.2 rad (Δ -17.19°)' in text.stdout.splitlines()
    markdown = cli('diff', '--format', 'markdown', str(old), str(new))
    assert markdown.returncode == 1
    assert '| `joint:shoulder` | `limit.upper` | 1.5 rad | 1.2 rad | -17.19° |' in \
        markdown.stdout.splitlines()
    done = cli('diff', '--format', 'json', str(old), str(new))
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert document['same'] is False
    values = [change for change in document['changes'] if change['category'] == 'value']
    assert [(change['element'], change['attribute'], change['old'], change['new'],
             change['unit']) for change in values] == [('joint:shoulder', 'limit.upper', 1.5,
                                                        1.2, 'rad')]
    # the same changes as the text report, one line each
    texts = [change['text'] for change in document['changes']]
    assert all(f'  {line}' in text.stdout.splitlines() for line in texts)


def test_json_carries_every_change_of_the_text_report() -> None:
    text = cli('diff', SAMPLE, SAMPLE, '--new-arg', 'prefix:=r1_')
    done = cli('diff', SAMPLE, SAMPLE, '--new-arg', 'prefix:=r1_', '--format', 'json')
    assert text.returncode == done.returncode == 1
    document = json.loads(done.stdout)
    renames = [change for change in document['changes'] if change['category'] == 'element']
    # every link but world and every joint of the sample robot (13 links, 12 joints)
    assert len(renames) == 12 + 12
    assert all(change['new_name'] == 'r1_' + change['name'] for change in renames)
    for change in document['changes']:
        assert change['text'] in text.stdout
    assert text.stdout.splitlines()[0].endswith(document['summary'])


def test_shared_and_per_side_xacro_arguments() -> None:
    # prefix:=r1_ for both: the same robot; with_extras only on the new side: 4 added
    same = cli('diff', SAMPLE, SAMPLE, 'prefix:=r1_')
    assert same.returncode == 0, same.stdout + same.stderr
    done = cli('diff', SAMPLE, SAMPLE, 'prefix:=r1_', '--new-arg', 'with_extras:=true',
               '--format', 'json')
    assert done.returncode == 1
    changes = json.loads(done.stdout)['changes']
    assert sorted((change['kind'], change['change']) for change in changes) == \
        [('joint', 'added')] * 2 + [('link', 'added')] * 2
    # a side-specific argument wins over the shared one of the same name
    assert cli('diff', SAMPLE, SAMPLE, 'with_extras:=true', '--old-arg',
               'with_extras:=false').returncode == 1


def test_positions_and_tolerance(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, '<origin xyz="0 0 0.3"', '<origin xyz="0 0 0.3005"')
    # 0.5 mm: a frame move over 0.1 mm, none under a 1 mm tolerance (the origin still differs)
    moved = json.loads(cli('diff', str(old), str(new), '--format', 'json').stdout)
    frames = [change for change in moved['changes'] if change['category'] == 'frame']
    assert [(frame['link'], round(frame['distance'], 12)) for frame in frames] == \
        [('upper', 0.0005)]
    loose = json.loads(cli('diff', str(old), str(new), '--tolerance', '1',
                           '--format', 'json').stdout)
    assert [change['category'] for change in loose['changes']] == ['value']
    # a turned axis shows at the given positions only
    new.write_text(ARM.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 -1"/>'))
    turned = cli('diff', str(old), str(new), '--positions', 'shoulder=0.25', '--format', 'json')
    frames = [change for change in json.loads(turned.stdout)['changes']
              if change['category'] == 'frame']
    assert [(frame['configuration'], round(frame['rotation'], 9)) for frame in frames] == \
        [('positions', 0.5)]


def test_a_description_that_cannot_be_loaded_exits_2_with_file_and_line(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, '</joint>', '</join>')
    done = cli('diff', str(old), str(new))
    assert done.returncode == 2 and done.stdout == ''
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and 'Traceback' not in done.stderr
    line = ARM.splitlines().index('  </joint>') + 1
    assert lines[0].startswith(f'urdf-tools diff: {new}:{line}: malformed XML'), lines


@pytest.mark.parametrize('args, message', [
    (['only_one.urdf'], 'expected 2 files'),
    ([SAMPLE, SAMPLE, '--positions', 'shoulder'], 'expected joint=value'),
    ([SAMPLE, SAMPLE, '--positions', 'no_such_joint=1'], 'no_such_joint'),
    ([SAMPLE, SAMPLE, '--old-arg', 'prefix'], 'expected name:=value'),
])
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    done = cli('diff', *args)
    assert done.returncode == 2 and message in done.stderr and 'Traceback' not in done.stderr


# -- --git -----------------------------------------------------------------------------------
#: A package whose main file includes parts.xacro (``upper_length`` 0.3), loads
#: config/limits.yaml and names meshes/part.stl by ``package://``.
TINY = DATA / 'tiny_description'
PARTS = (TINY / 'urdf' / 'parts.xacro').read_text()
PACKAGE = """<?xml version="1.0"?>
<package format="3"><name>tiny_description</name><version>0.0.1</version>
<description>t</description><maintainer email="a@b.c">a</maintainer><license>MIT</license>
</package>
"""


def git(folder: Path, *args: str) -> None:
    subprocess.run(['git', '-c', 'user.name=test', '-c', 'user.email=test@example.com',
                    '-c', 'commit.gpgsign=false', *args], cwd=folder, check=True,
                   capture_output=True)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """Two commits of a package in a folder ``src/tiny_description`` of a git repository."""
    top = tmp_path / 'repo'
    package = top / 'src' / 'tiny_description'
    shutil.copytree(TINY, package)
    (package / 'package.xml').write_text(PACKAGE)
    git(top, 'init', '-q')
    git(top, 'add', '.')
    git(top, 'commit', '-q', '-m', 'first')
    # the second revision: the include makes the upper link 3 mm longer, the YAML file lowers
    # the elbow's upper limit, the mesh is gone
    (package / 'urdf' / 'parts.xacro').write_text(PARTS.replace('"0.3"', '"0.303"'))
    (package / 'config' / 'limits.yaml').write_text('elbow_upper: 0.9\n')
    (package / 'meshes' / 'part.stl').unlink()
    git(top, 'add', '-A')
    git(top, 'commit', '-q', '-m', 'second')
    return package / 'urdf' / 'tiny.urdf.xacro'


@no_git
def test_git_compares_the_work_tree_with_a_revision_read_from_the_revision(
        repository: Path) -> None:
    package = repository.parent.parent
    # the package is not known to ROS here: both sides find it inside the repository
    done = cli('diff', '--git', 'HEAD~1', str(repository), '--format', 'json',
               cwd=repository.parent)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert document['old'] == 'HEAD~1:src/tiny_description/urdf/tiny.urdf.xacro'
    changes = document['changes']
    elbow = [change for change in changes if change.get('element') == 'joint:elbow']
    assert [(change['attribute'], change['old'], change['new']) for change in elbow] == \
        [('origin.xyz', [0, 0, 0.3], [0, 0, 0.303]), ('limit.upper', 1.0, 0.9)]
    com = [change for change in changes if change.get('attribute') == 'inertial.origin.xyz']
    assert [(change['element'], change['old'][2], change['new'][2]) for change in com] == \
        [('link:upper', 0.15, 0.1515)]
    frames = [change for change in changes if change['category'] == 'frame']
    assert [(frame['link'], round(frame['distance'], 12)) for frame in frames] == \
        [('lower', 0.003)]
    # the mesh was there in HEAD~1 (read from the revision) and is gone from the work tree
    appeared = [change for change in changes if change['category'] == 'finding']
    assert {(change['change'], change['code']) for change in appeared} == \
        {('appeared', 'mesh-file-missing')}
    # upper and lower name the mesh on one line of the macro that makes both: one finding
    assert len(appeared) == 1
    assert not (package / 'meshes' / 'part.stl').exists()


@no_git
def test_git_head_is_the_same_robot_until_the_work_tree_changes(repository: Path) -> None:
    same = cli('diff', '--git', 'HEAD', str(repository))
    assert same.returncode == 0, same.stdout + same.stderr
    parts = repository.parent / 'parts.xacro'
    parts.write_text(PARTS.replace('"0.3"', '"0.31"'))  # not committed
    changed = cli('diff', '--git', 'HEAD', str(repository), '--no-findings')
    assert changed.returncode == 1
    assert '  origin.xyz: (0, 0, 0.303) -> (0, 0, 0.31) m (Δ 0, 0, +7 mm)' in \
        changed.stdout.splitlines()


@no_git
def test_git_a_revision_that_does_not_exist_or_no_repository_exits_2(
        repository: Path, tmp_path: Path) -> None:
    done = cli('diff', '--git', 'no-such-revision', str(repository))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert 'no-such-revision' in done.stderr and 'Traceback' not in done.stderr
    outside = tmp_path / 'outside'
    outside.mkdir()
    (outside / 'arm.urdf').write_text(ARM)
    done = cli('diff', '--git', 'HEAD', str(outside / 'arm.urdf'), cwd=outside)
    assert done.returncode == 2 and 'not inside a git repository' in done.stderr


@no_git
def test_git_a_file_new_since_the_revision_exits_2_naming_the_revision(repository: Path) -> None:
    extra = repository.parent / 'extra.urdf'
    extra.write_text(ARM)
    git(repository.parent, 'add', 'extra.urdf')
    git(repository.parent, 'commit', '-q', '-m', 'third')
    done = cli('diff', '--git', 'HEAD~1', str(extra))
    assert done.returncode == 2
    assert done.stderr.startswith('urdf-tools diff: HEAD~1:src/tiny_description/urdf/extra.urdf'
                                  ': cannot read'), done.stderr


@no_git
def test_git_a_finding_gone_since_the_revision_stands_at_its_place_in_the_revision(
        repository: Path) -> None:
    # HEAD has no mesh; the work tree has it again (not committed): the finding disappeared
    shutil.copy(TINY / 'meshes' / 'part.stl', repository.parent.parent / 'meshes')
    done = cli('diff', '--git', 'HEAD', str(repository), '--format', 'json')
    assert done.returncode == 1, done.stderr
    changes = json.loads(done.stdout)['changes']
    assert {(change['category'], change['change'], change['code']) for change in changes} == \
        {('finding', 'disappeared', 'mesh-file-missing')}
    line = next(number for number, text in enumerate(PARTS.splitlines(), 1) if '<mesh' in text)
    assert {change['location'] for change in changes} == \
        {f'HEAD:src/tiny_description/urdf/parts.xacro:{line}'}


def test_json_stays_json_when_a_value_is_not_finite(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, 'effort="10"', 'effort="nan"')
    done = cli('diff', str(old), str(new), '--format', 'json', '--no-findings')
    assert done.returncode == 1
    document = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(name))
    assert [(change['attribute'], change['old'], change['new'])
            for change in document['changes']] == [('limit.effort', 10, 'nan')]


def test_markdown_has_the_frames_table_and_each_block_as_a_diff(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, '<origin xyz="0 0 0.3"', '<origin xyz="0 0.002 0.3"')
    out = tmp_path / 'diff.md'
    done = cli('diff', str(old), str(new), '--format', 'markdown', '-o', str(out))
    assert done.returncode == 1
    assert done.stdout == f'wrote {out}: 2 changes: 1 value, 1 frame moved\n'
    lines = out.read_text().splitlines()
    header = lines.index('| link | moved (mm) | Δx, Δy, Δz (mm) | turned (°) |')
    assert lines[header + 2] == '| `upper` | 2 | 0, 2, 0 | 0 |'
    blocks = cli('diff', SAMPLE, SAMPLE, '--new-arg', 'prefix:=r1_', '--format', 'markdown',
                 '--no-findings').stdout.splitlines()
    start = blocks.index('#### `<ros2_control name="r1_SampleRobotSystem">` changed')
    assert blocks[start + 2] == '```diff'
    assert '-<ros2_control name="SampleRobotSystem" type="system">' in blocks[start + 3:]
    assert '+<ros2_control name="r1_SampleRobotSystem" type="system">' in blocks[start + 3:]


def test_findings_are_compared_under_the_configuration_of_new(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, '<link name="upper">', '<link name="upper"><visual><geometry>'
                        '<mesh filename="missing.stl"/></geometry></visual>')
    appeared = json.loads(cli('diff', str(old), str(new), '--format', 'json').stdout)
    assert [(change['category'], change.get('code')) for change in appeared['changes']] == \
        [('value', None), ('finding', 'mesh-file-missing')]
    (tmp_path / '.urdf-tools.toml').write_text('ignore = ["mesh-file-missing"]\n')
    ignored = json.loads(cli('diff', str(old), str(new), '--format', 'json').stdout)
    assert [change['category'] for change in ignored['changes']] == ['value']
    (tmp_path / '.urdf-tools.toml').write_text('ignore = 3\n')
    broken = cli('diff', str(old), str(new))
    assert broken.returncode == 2 and '.urdf-tools.toml: ignore must be' in broken.stderr


def test_findings_stand_where_check_says_they_stand(tmp_path: Path) -> None:
    old, new = arm_pair(tmp_path, '<axis xyz="0 0 1"/>', '<axis xyz="0 0 2"/>')
    line = next(number for number, text in enumerate(ARM.splitlines(), 1) if '<axis' in text)
    # given as absolute paths, run in their folder: written relative, as check writes them
    check = cli('check', str(new), cwd=tmp_path)
    assert f'new.urdf:{line}: warning[joint-axis-not-unit]: ' in check.stdout
    done = cli('diff', str(old), str(new), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    findings = done.stdout.splitlines()[done.stdout.splitlines().index('findings:') + 1:]
    assert len(findings) == 1
    assert findings[0].startswith('  appeared: warning[joint-axis-not-unit]: ')
    assert findings[0].endswith(f' (new.urdf:{line})')
    document = json.loads(cli('diff', str(old), str(new), '--format', 'json',
                              cwd=tmp_path).stdout)
    assert [change['location'] for change in document['changes']
            if change['category'] == 'finding'] == [f'new.urdf:{line}']
    # outside the current directory a file keeps its absolute path, in check and in diff
    outside = cli('diff', str(old), str(new), cwd=REPO)
    assert outside.stdout.splitlines()[-1].endswith(f' ({new}:{line})')
    assert f'{new}:{line}: warning[joint-axis-not-unit]: ' in cli('check', str(new)).stdout


def test_a_wrist_turned_revolute_and_a_moved_mesh_in_text_and_markdown(tmp_path: Path) -> None:
    source = shared_model('ur5_robot').read_text()
    wrist = re.search(r'<joint name="wrist_3_joint" type="revolute">.*?</joint>', source,
                      re.DOTALL)
    assert wrist is not None
    limit = re.search(r'<limit [^>]*lower="([^"]*)" upper="([^"]*)"[^>]*/>', wrist[0])
    assert limit is not None
    lower, upper = float(limit[1]), float(limit[2])
    continuous = wrist[0].replace('type="revolute"', 'type="continuous"').replace(
        f' lower="{limit[1]}" upper="{limit[2]}"', '')
    mesh = re.search(r'filename="([^"]*/ur5/visual/[^"]*)"', source)
    assert mesh is not None
    moved = mesh[1].replace('/ur5/', '/ur5e/')
    old, new = tmp_path / 'old.urdf', tmp_path / 'new.urdf'
    old.write_text(source.replace(wrist[0], continuous))
    new.write_text(source.replace(mesh[1], moved))
    done = cli('diff', 'old.urdf', 'new.urdf', cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    joint = lines.index('joint "wrist_3_joint":')
    degrees = math.degrees(lower)
    assert lines[joint + 1:joint + 4] == [
        '  joint_type: "continuous" -> "revolute"',
        f'  limit.lower: (none) -> {lower:.6g} rad ({degrees:.5g}°)',
        f'  limit.upper: (none) -> {upper:.6g} rad ({math.degrees(upper):.5g}°)']
    # one change for the moved mesh: its path, and no mesh-file-missing pair
    assert sum(mesh[1] in line for line in lines) == 1
    assert f'"{mesh[1]}" -> "{moved}"' in done.stdout
    assert 'mesh-file-missing' not in done.stdout
    assert lines[0].endswith(': 4 changes: 4 values')
    markdown = cli('diff', 'old.urdf', 'new.urdf', '--format', 'markdown',
                   cwd=tmp_path).stdout.splitlines()
    assert f'| `joint:wrist_3_joint` | `limit.lower` | (none) | {lower:.6g} rad ' \
        f'({degrees:.5g}°) |  |' in markdown
    rows = [row for row in markdown if row.startswith('| `joint:')]
    assert rows and all(row.count('°') <= 1 and row.count(' rad') <= 2 for row in rows)
