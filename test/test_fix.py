"""
``urdf-tools check --diff`` and ``--fix`` on real descriptions with injected defects.

Copies of the corpus robots (``test/corpus``) and of the ROS 2 description packages
(``../shared/ros2_descriptions``) get one defect each (an axis scaled, a limit swapped, an
element written twice, an inertia broken); ``--fix`` must repair exactly that, leave every other
byte, check clean for the code, and a second ``--fix`` must change nothing. Expected values are
computed here from the original file, never taken from the fixer.
"""

from __future__ import annotations

import json
from pathlib import Path
import re
import shutil

from corpus_models import MODELS, PACKAGE_PATHS
import numpy as np
from paths import ROS2_CASES, ROS2_DESCRIPTIONS
import pytest

from conftest import REPO, rpy_matrix, shared_model
from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.fix.edits import plan_fixes, plan_runs
from urdf_tools_ros.core.model.robot import Box, Cylinder, Joint, Link, Sphere
from urdf_tools_ros.core.source.loader import load, parse_xacro_args

ROS2 = ROS2_DESCRIPTIONS
ARM = REPO / 'urdf' / 'examples' / 'arm.urdf'
CASES = ROS2_CASES
PACKAGE_ARGS = [f'--package-path={name}={path}' for name, path in PACKAGE_PATHS.items()]
#: Corpus robots with a revolute or prismatic joint whose <axis> and <limit> are written.
JOINTED = [model for model in MODELS if re.search(rb'<limit[^>]*lower', model.path.read_bytes())
           and re.search(rb'<axis', model.path.read_bytes())]


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(['check', *args])
    out, err = capsys.readouterr()
    return code, out, err


def _codes(path: Path) -> set[str]:
    return {finding.code for finding in check_description(load(path, package_paths=PACKAGE_PATHS))}


def _copy(model_path: Path, tmp_path: Path) -> Path:
    target = tmp_path / model_path.name
    shutil.copyfile(model_path, target)
    return target


def _fix_twice(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> str:
    """``--fix`` the file, then ``--fix`` again and require that no byte changes."""
    _cli(capsys, '--fix', *extra, *PACKAGE_ARGS, str(path))
    fixed = path.read_bytes()
    _cli(capsys, '--fix', *extra, *PACKAGE_ARGS, str(path))
    assert path.read_bytes() == fixed, 'a second --fix changed the file'
    return fixed.decode('utf-8')


def _fixed_back(capsys: pytest.CaptureFixture[str], path: Path, broken: str, code: str) -> None:
    """Write ``broken`` over ``path``: ``code`` is found, ``--fix`` gives the original back."""
    original = path.read_text(encoding='utf-8')
    path.write_text(broken, encoding='utf-8')
    assert code in _codes(path)
    assert _fix_twice(capsys, path) == original
    assert code not in _codes(path)


def _arm_fixed(text: str) -> str:
    """``urdf/examples/arm.urdf``'s text with its two fixes: the axis unit, the limits swapped."""
    return text.replace('xyz="0 0 2"', 'xyz="0 0 1"').replace('lower="1.2" upper="0.4"',
                                                              'lower="0.4" upper="1.2"')


@pytest.mark.parametrize('model', MODELS, ids=[model.path.name for model in MODELS])
def test_an_unchanged_corpus_robot_has_an_empty_diff(model, capsys, tmp_path) -> None:
    path = _copy(model.path, tmp_path)
    code, out, _ = _cli(capsys, '--diff', *PACKAGE_ARGS, str(path))
    assert out == ''
    assert code in (0, 1)


def _axis_match(path: Path, text: str) -> re.Match[str]:
    """The ``xyz`` of the first ``<axis>`` of a revolute, continuous or prismatic joint."""
    robot = load(path, package_paths=PACKAGE_PATHS).robot
    joint = next(joint for joint in robot.joints if joint.axis_location is not None
                 and joint.is_single_dof and any(joint.axis))
    line_start = sum(len(line) for line in text.splitlines(keepends=True)[
        :joint.axis_location.line - 1])
    match = re.compile(r'<axis\s+xyz\s*=\s*"([^"]*)"').search(text, line_start)
    assert match is not None
    return match


@pytest.mark.parametrize('model', JOINTED, ids=[model.path.name for model in JOINTED])
def test_a_scaled_axis_is_normalised_and_nothing_else_changes(model, capsys, tmp_path) -> None:
    path = _copy(model.path, tmp_path)
    original = path.read_text(encoding='utf-8')
    match = _axis_match(path, original)
    values = np.array([float(value) for value in match.group(1).split()])
    scaled = ' '.join(repr(float(value) * 3.5) for value in values)
    broken = original[:match.start(1)] + scaled + original[match.end(1):]
    path.write_text(broken, encoding='utf-8')
    assert 'joint-axis-not-unit' in _codes(path)
    code, diff, _ = _cli(capsys, '--diff', *PACKAGE_ARGS, str(path))
    line = original.count('\n', 0, match.start()) + 1
    assert f'-{broken.splitlines()[line - 1]}' in diff.splitlines()
    fixed = _fix_twice(capsys, path)
    head, tail = original[:match.start(1)], original[match.end(1):]
    assert fixed.startswith(head) and fixed.endswith(tail)
    written = np.array([float(value) for value in fixed[len(head):len(fixed) - len(tail)].split()])
    np.testing.assert_allclose(written, values / np.linalg.norm(values), atol=1e-6)
    assert 'joint-axis-not-unit' not in _codes(path)


@pytest.mark.parametrize('model', JOINTED, ids=[model.path.name for model in JOINTED])
def test_a_swapped_limit_is_swapped_back_to_the_original_bytes(model, capsys, tmp_path) -> None:
    path = _copy(model.path, tmp_path)
    original = path.read_text(encoding='utf-8')
    for match in re.finditer(r'<limit([^>]*)>', original):
        lower = re.search(r'\blower="([^"]*)"', match.group(1))
        upper = re.search(r'\bupper="([^"]*)"', match.group(1))
        if lower and upper and float(lower.group(1)) < float(upper.group(1)):
            break
    else:
        pytest.skip('no limit with lower < upper')
    base = match.start(1)
    spans = sorted([(base + lower.start(1), base + lower.end(1), upper.group(1)),
                    (base + upper.start(1), base + upper.end(1), lower.group(1))])
    broken = original
    for start, end, new in reversed(spans):
        broken = broken[:start] + new + broken[end:]
    _fixed_back(capsys, path, broken, 'joint-limit-lower-above-upper')


#: finding -> an element that stands on lines of its own (a global material: indented 2)
REPEATS = {
    'element-duplicate': re.compile(r'\n([ \t]*)(<limit[^>]*/>)[ \t]*\n'),
    'link-duplicate': re.compile(r'\n([ \t]*)(<link\b[^>]*[^/]>.*?</link>)[ \t]*\n', re.DOTALL),
    'material-duplicate': re.compile(r'\n(  )(<material\b[^>]*[^/]>.*?</material>)[ \t]*\n',
                                     re.DOTALL)}
REPEATED = [(code, model) for code, pattern in REPEATS.items() for model in MODELS
            if pattern.search(model.path.read_text(encoding='utf-8'))]


@pytest.mark.parametrize('code, model', REPEATED,
                         ids=[f'{code}-{model.path.name}' for code, model in REPEATED])
def test_an_element_written_twice_is_removed_and_the_file_is_the_original(
        code, model, capsys, tmp_path) -> None:
    path = _copy(model.path, tmp_path)
    original = path.read_text(encoding='utf-8')
    match = REPEATS[code].search(original)
    broken = original[:match.end()] + match.group(1) + match.group(2) + '\n' + \
        original[match.end():]
    _fixed_back(capsys, path, broken, code)


def test_two_different_duplicates_are_left_with_a_note(capsys, tmp_path) -> None:
    path = _copy(JOINTED[0].path, tmp_path)
    original = path.read_text(encoding='utf-8')
    match = REPEATS['element-duplicate'].search(original)
    other = match.group(2).replace('effort="', 'effort="1')
    broken = original[:match.end()] + match.group(1) + other + '\n' + original[match.end():]
    path.write_text(broken, encoding='utf-8')
    code, out, err = _cli(capsys, '--diff', *PACKAGE_ARGS, str(path))
    assert out == ''
    line = broken.count('\n', 0, match.end()) + 1
    assert f'{path}:{line}: note[element-duplicate]' in err
    assert 'choose which to keep' in err


def _solid(geometry: object, mass: float) -> np.ndarray:
    """Moments of inertia of solid primitives about their centre (standard tables)."""
    if isinstance(geometry, Box):
        x, y, z = geometry.size
        return np.diag([y * y + z * z, x * x + z * z, x * x + y * y]) * mass / 12
    if isinstance(geometry, Cylinder):
        r, h = geometry.radius, geometry.length
        side = mass * (3 * r * r + h * h) / 12
        return np.diag([side, side, mass * r * r / 2])
    assert isinstance(geometry, Sphere)
    return np.eye(3) * 2 * mass * geometry.radius ** 2 / 5


def _solid_tensor(link: Link) -> np.ndarray:
    """The inertia of the solid of the link's one collision, in the link's inertial frame."""
    collision, inertial = link.collisions[0], link.inertial
    rotation = rpy_matrix(inertial.origin.rpy).T @ rpy_matrix(collision.origin.rpy)
    return rotation @ _solid(collision.geometry, inertial.mass) @ rotation.T


def _tensor(element: str) -> np.ndarray:
    """The 3×3 tensor of an ``<inertia>`` element as written (absent entries 0)."""
    values = dict(re.findall(r'(i[xyz]{2})\s*=\s*"([^"]*)"', element))
    return np.array([[float(values.get('i' + ''.join(sorted(a + b)), 0.0)) for b in 'xyz']
                     for a in 'xyz'])


@pytest.mark.parametrize('name', ['laikago.urdf', 'pr2.urdf', 'cube.urdf'])
def test_a_broken_inertia_becomes_the_solid_of_its_collision(name, capsys, tmp_path) -> None:
    model = next(model for model in MODELS if model.path.name == name)
    path = _copy(model.path, tmp_path)
    robot = load(path, package_paths=PACKAGE_PATHS).robot
    link = next(link for link in robot.links if link.inertial is not None
                and len(link.collisions) == 1 and link.inertial.mass > 0
                and isinstance(link.collisions[0].geometry, (Box, Cylinder, Sphere)))
    original = path.read_text(encoding='utf-8')
    start = original.index(f'name="{link.name}"')
    match = re.compile(r'<inertia\b[^>]*/>').search(original, start)
    assert match is not None

    def broken_value(moment: re.Match[str]) -> str:
        name = moment.group(1)
        return f'{name}="{1000.0 if name[1] == name[2] else 0.0}"'

    broken_element = re.sub(r'(i[xyz]{2})\s*=\s*"[^"]*"', broken_value, match.group(0))
    broken = original[:match.start()] + broken_element + original[match.end():]
    path.write_text(broken, encoding='utf-8')
    assert 'inertia-implausible' in _codes(path)
    _cli(capsys, '--fix', *PACKAGE_ARGS, str(path))
    assert path.read_text(encoding='utf-8') == broken, '--fix without --fix-inertia'
    fixed = _fix_twice(capsys, path, '--fix-inertia')
    assert fixed[:match.start()] == broken[:match.start()]
    tail = broken[match.start() + len(broken_element):]
    assert fixed.endswith(tail)
    expected = _solid_tensor(link)
    np.testing.assert_allclose(_tensor(fixed[match.start():len(fixed) - len(tail)]), expected,
                               rtol=1e-5, atol=1e-9 * np.abs(expected).max())
    after = check_description(load(path, package_paths=PACKAGE_PATHS))
    assert not [finding for finding in after if finding.element == f'link:{link.name}'
                and finding.code.startswith('inertia')]


INERTIA = re.compile(r'<inertia\b[^>]*/>')


@pytest.mark.parametrize('model', MODELS, ids=[model.path.name for model in MODELS])
def test_fix_inertia_on_a_real_robot_writes_only_solid_tensors(model, capsys, tmp_path) -> None:
    """Each <inertia> that changes is the solid of the link's collision; nothing else changes."""
    path = _copy(model.path, tmp_path)
    original = path.read_bytes().decode('utf-8')  # line ends as written
    robot = load(path, package_paths=PACKAGE_PATHS).robot
    fixed = _fix_twice(capsys, path, '--fix-inertia')
    before, after = INERTIA.findall(original), INERTIA.findall(fixed)
    assert INERTIA.sub('', fixed) == INERTIA.sub('', original)
    assert len(before) == len(after)
    links = [link for link in robot.links if link.inertial is not None]
    assert len(links) == len(before)
    for link, old, new in zip(links, before, after):
        if old == new:
            continue
        assert len(link.collisions) == 1
        expected = _solid_tensor(link)
        np.testing.assert_allclose(_tensor(new), expected, rtol=1e-5,
                                   atol=1e-8 * np.abs(expected).max(), err_msg=link.name)


def test_diff_and_fix_refuse_standard_input_and_a_matrix(capsys, tmp_path) -> None:
    path = _copy(JOINTED[0].path, tmp_path)
    assert _cli(capsys, '--diff', '-')[0] == 2
    assert _cli(capsys, '--fix', '--matrix', 'a=1,2', str(path))[0] == 2


# -- xacro: real ROS 2 description packages -----------------------------------------------------
ros2 = pytest.mark.skipif('r2c_rrbot' not in CASES, reason=f'{ROS2} is not here')


def _package_copy(tmp_path: Path) -> tuple[Path, list[str], dict[str, Path]]:
    """A copy of the description packages without meshes: root, ``--package-path``s, paths."""
    root = tmp_path / 'ros2_descriptions'
    shutil.copytree(ROS2, root, ignore=shutil.ignore_patterns('*.stl', '*.STL', '*.dae', '*.obj'))
    names = {path.name: path for path in root.iterdir() if path.is_dir()}
    return root, [f'--package-path={name}={path}' for name, path in names.items()], names


def _rrbot_axis(tmp_path: Path) -> tuple[Path, list[str], list[str], Joint, Path, list[str]]:
    """Copied r2c_rrbot: entry, packages, args, a moving joint, its axis' file and its lines."""
    root, packages, names = _package_copy(tmp_path)
    case = CASES['r2c_rrbot']
    entry = root / case['entry']
    description = load(entry, xacro_args=parse_xacro_args(case['args']), package_paths=names)
    joint = next(joint for joint in description.robot.joints if joint.axis_location is not None
                 and joint.joint_type != 'fixed')
    source = Path(joint.axis_location.filename)
    lines = source.read_text(encoding='utf-8').splitlines(keepends=True)
    return entry, packages, case['args'], joint, source, lines


@ros2
def test_an_unchanged_ros2_description_has_an_empty_diff(capsys, tmp_path) -> None:
    root, packages, _ = _package_copy(tmp_path)
    for case in CASES.values():
        entry = str(root / case['entry'])
        code, out, err = _cli(capsys, '--diff', *packages, entry, *case['args'])
        assert out == '', case['id']
        assert code in (0, 1), case['id']
        # nothing to patch: one line says so, unless notes say what to fix by hand
        said = [line for line in err.splitlines() if line.startswith(f'{entry}: nothing to fix')]
        assert len(said) == (0 if 'not fixed:' in err else 1), (case['id'], err)


@ros2
def test_a_literal_axis_in_a_xacro_file_is_patched_there(capsys, tmp_path) -> None:
    entry, packages, args, joint, source, lines = _rrbot_axis(tmp_path)
    line = lines[joint.axis_location.line - 1]
    literal = re.search(r'xyz="([^"$]*)"', line)
    assert literal is not None, line
    values = np.array([float(value) for value in literal.group(1).split()])
    lines[joint.axis_location.line - 1] = line.replace(
        literal.group(0), 'xyz="' + ' '.join(repr(float(v) * 2) for v in values) + '"')
    source.write_text(''.join(lines), encoding='utf-8')
    broken = source.read_text(encoding='utf-8')
    code, diff, _ = _cli(capsys, '--diff', *packages, str(entry), *args)
    assert diff.splitlines()[:2] == [f'--- {source}', f'+++ {source}']
    assert f'-{lines[joint.axis_location.line - 1]}'.rstrip('\n') in diff.splitlines()
    assert _fix_twice_xacro(capsys, entry, packages, args) == {}
    after = source.read_text(encoding='utf-8').splitlines()
    number = joint.axis_location.line
    assert after[:number - 1] == broken.splitlines()[:number - 1]
    assert after[number:] == broken.splitlines()[number:]
    written = re.search(r'xyz="([^"]*)"', after[joint.axis_location.line - 1])
    np.testing.assert_allclose([float(v) for v in written.group(1).split()],
                               values / np.linalg.norm(values), atol=1e-6)


def _fix_twice_xacro(capsys, entry: Path, packages: list[str], args: list[str]) -> dict:
    """``--fix`` twice; the files the second one changes (none expected)."""
    run(['check', '--fix', *packages, str(entry), *args])
    before = {path: path.read_bytes() for path in entry.parents[2].rglob('*.xacro')}
    run(['check', '--fix', *packages, str(entry), *args])
    capsys.readouterr()
    return {path: data for path, data in before.items() if path.read_bytes() != data}


@ros2
def test_a_computed_axis_in_a_xacro_file_is_reported_not_patched(capsys, tmp_path) -> None:
    entry, packages, args, joint, source, lines = _rrbot_axis(tmp_path)
    number = joint.axis_location.line
    literal = re.search(r'xyz="([^"$]*)"', lines[number - 1])
    computed = ' '.join(f'${{{float(v) * 2!r}}}' for v in literal.group(1).split())
    lines[number - 1] = lines[number - 1].replace(literal.group(0), f'xyz="{computed}"')
    source.write_text(''.join(lines), encoding='utf-8')
    before = source.read_bytes()
    code, diff, err = _cli(capsys, '--diff', *packages, str(entry), *args)
    assert diff == ''
    assert f'note[joint-axis-not-unit]: joint:{joint.name}: not fixed: xyz is computed at ' \
           f'{source}:{number}' in err
    assert code in (0, 1)
    _cli(capsys, '--fix', *packages, str(entry), *args)
    assert source.read_bytes() == before


def test_crlf_comments_and_a_repeat_on_the_line_of_the_first_stay(capsys, tmp_path) -> None:
    """A repeat on the line of the first goes, the line stays; so do CRLF and comments."""
    child = '<child link="upper"/>'
    original = ARM.read_text(encoding='utf-8').replace(
        '<robot name="arm">', '<robot name="arm"> <!-- a comment -->')
    path = tmp_path / 'arm.urdf'
    path.write_bytes(original.replace(child, f'{child} {child}').replace('\n', '\r\n').encode())
    assert 'element-duplicate' in _codes(path)
    expected = _arm_fixed(original.replace(child, f'{child} '))
    assert _fix_twice(capsys, path) == expected.replace('\n', '\r\n')


def test_exit_codes_are_those_of_check_after_the_fixes(capsys, tmp_path) -> None:
    arm = _copy(ARM, tmp_path)
    assert _cli(capsys, '--diff', str(arm))[0] == 1  # joint-limit-missing, joint-child-missing
    model = JOINTED[0]
    path = _copy(model.path, tmp_path)
    original = path.read_text(encoding='utf-8')
    match = _axis_match(path, original)
    path.write_text(original[:match.start(1)] + '0 0 7' + original[match.end(1):],
                    encoding='utf-8')
    assert 'joint-axis-not-unit' in _codes(path)
    code, out, _ = _cli(capsys, '--diff', '--werror', *PACKAGE_ARGS, str(path))
    left = {finding.severity.value for finding in check_description(
        load(model.path, package_paths=PACKAGE_PATHS))}
    assert out and code == (1 if {'error', 'warning'} & left else 0)
    missing = tmp_path / 'missing.urdf'
    assert _cli(capsys, '--diff', str(missing))[0] == 2
    assert _cli(capsys, '--fix', str(missing))[0] == 2


def test_one_literal_two_expansions_would_fix_differently_is_a_note(capsys, tmp_path) -> None:
    path = _copy(REPO / 'test' / 'urdf' / 'fix' / 'two_masses.urdf.xacro', tmp_path)
    before = path.read_bytes()
    code, out, err = _cli(capsys, '--diff', '--fix-inertia', str(path))
    assert out == ''
    assert err.count('note[inertia-implausible]') == 2
    assert 'differs from the edit of another finding' in err
    _cli(capsys, '--fix', '--fix-inertia', str(path))
    assert path.read_bytes() == before


def test_diff_exits_as_check_of_the_fixed_file(capsys, tmp_path) -> None:
    """Swapping the limits also ends the soft limits' finding: both --diff and --fix exit 0."""
    text = ARM.read_text(encoding='utf-8')
    text = text.replace('soft_lower_limit="-2" soft_upper_limit="0.3"',
                        'soft_lower_limit="0.5" soft_upper_limit="1"')
    text = text[:text.index('  <joint name="finger"')] + '</robot>\n'
    path = tmp_path / 'arm.urdf'
    path.write_text(text, encoding='utf-8')
    before = _codes(path)
    assert {'safety-soft-limits-outside-limits', 'joint-limit-lower-above-upper'} <= before
    assert _cli(capsys, '--diff', '--werror', '--ignore', 'joint-axis-not-unit,inertia',
                str(path))[0] == 0
    assert _cli(capsys, '--fix', '--werror', '--ignore', 'joint-axis-not-unit,inertia',
                str(path))[0] == 0
    assert not {'safety-soft-limits-outside-limits', 'joint-limit-lower-above-upper'} & \
        _codes(path)


def test_fix_with_a_json_report_keeps_standard_output_json(capsys, tmp_path) -> None:
    path = _copy(ARM, tmp_path)
    code, out, err = _cli(capsys, '--fix', '--format', 'json', str(path))
    report = json.loads(out)
    assert 'joint-axis-not-unit' not in json.dumps(report)
    assert f'{path}:13: fixed[joint-axis-not-unit]: joint:shoulder: ' in err
    assert code == 1


def _literal_limit(description) -> tuple[Path, int, re.Match[str]] | None:
    """A ``<limit>`` with literal ``lower < upper`` on the line its joint's limit stands at."""
    for joint in description.robot.joints:
        limit = joint.limit
        if limit is None or limit.location is None or limit.location.line is None or \
                joint.joint_type not in ('revolute', 'prismatic') or not limit.lower < limit.upper:
            continue
        source = Path(limit.location.filename)
        line = source.read_text(encoding='utf-8').splitlines()[limit.location.line - 1]
        match = re.search(r'<limit\b(?=[^>]*\blower="(-?[\d.eE+-]+)")'
                          r'(?=[^>]*\bupper="(-?[\d.eE+-]+)")', line)
        if match and float(match.group(1)) == limit.lower and \
                float(match.group(2)) == limit.upper:
            return source, limit.location.line, match
    return None


@ros2
@pytest.mark.parametrize('case_id', sorted(CASES))
def test_a_literal_limit_swapped_in_a_description_package_is_swapped_back(
        case_id, capsys, tmp_path) -> None:
    root, packages, names = _package_copy(tmp_path)
    case = CASES[case_id]
    entry = root / case['entry']
    description = load(entry, xacro_args=parse_xacro_args(case['args']), package_paths=names)
    found = _literal_limit(description)
    if found is None:
        pytest.skip('no <limit> with literal lower and upper')
    source, number, match = found
    original = {path: path.read_bytes() for path in root.rglob('*') if path.is_file()}
    lines = source.read_bytes().decode('utf-8').splitlines(keepends=True)  # CRLF kept
    lower, upper = match.group(1), match.group(2)
    line = lines[number - 1]
    swapped = re.sub(r'\blower="[^"]*"', f'lower="{upper}"', line, count=1)
    lines[number - 1] = re.sub(r'\bupper="[^"]*"', f'upper="{lower}"', swapped, count=1)
    source.write_bytes(''.join(lines).encode('utf-8'))
    after = load(entry, xacro_args=parse_xacro_args(case['args']), package_paths=names)
    assert 'joint-limit-lower-above-upper' in {f.code for f in check_description(after)}
    code, diff, _ = _cli(capsys, '--diff', *packages, str(entry), *case['args'])
    assert diff.startswith(f'--- {source}\n+++ {source}\n')
    assert _fix_twice_xacro(capsys, entry, packages, case['args']) == {}
    changed = [path for path, data in original.items() if path.read_bytes() != data]
    assert changed == []
    fixed = load(entry, xacro_args=parse_xacro_args(case['args']), package_paths=names)
    assert 'joint-limit-lower-above-upper' not in {f.code for f in check_description(fixed)}


def test_fix_never_writes_a_file_of_a_ros_install_prefix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefix = tmp_path / 'install'
    (prefix / 'share' / 'arm').mkdir(parents=True)
    (prefix / 'local_setup.bash').write_text('# colcon\n')
    installed = prefix / 'share' / 'arm' / 'arm.urdf'
    installed.write_text(ARM.read_text())
    before = installed.read_bytes()
    _, _, err = _cli(capsys, '--fix', str(installed))
    assert installed.read_bytes() == before
    assert f'not written: it is installed in {prefix}' in err
    source = tmp_path / 'src' / 'arm.urdf'
    source.parent.mkdir()
    source.write_bytes(before)
    installed.unlink()
    installed.symlink_to(source)  # colcon build --symlink-install: the source is written
    _cli(capsys, '--fix', str(installed))
    assert source.read_bytes() != before and installed.is_symlink()


def _summary(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    """``check``'s exit code and the counts of its summary line (``0 errors, 1 warning, ...``)."""
    code, out, _ = _cli(capsys, str(path))
    prefix = f'{path}: '
    line = next(line for line in reversed(out.splitlines()) if line.startswith(prefix))
    return code, line[len(prefix):]


def test_diff_with_nothing_to_fix_says_so_in_one_line(capsys, tmp_path) -> None:
    clean = tmp_path / 'arm.urdf'
    clean.write_text(_arm_fixed(ARM.read_text(encoding='utf-8')), encoding='utf-8')
    for path in (clean, _copy(shared_model('ur5_robot'), tmp_path)):
        status, counts = _summary(capsys, path)
        code, out, err = _cli(capsys, '--diff', str(path))
        # standard output stays a patch (empty); the exit status is check's
        assert (code, out) == (status, '')
        assert err.splitlines() == [f'{path}: nothing to fix ({counts})']
    # the broken arm has its patch and no such line; the missing link stays an error (exit 1)
    broken = _copy(ARM, tmp_path)
    code, out, err = _cli(capsys, '--diff', str(broken))
    assert out.startswith(f'--- {broken}\n') and 'nothing to fix' not in err and code == 1


#: A macro whose moments are its parameters: each call passes its own mass, box and moments.
BLOCKS = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:macro name="block" params="name mass size ixx iyy izz">
    <link name="${name}">
      <collision><geometry><box size="${size}"/></geometry></collision>
      <inertial>
        <mass value="${mass}"/>
        <inertia ixx="${ixx}" ixy="0" ixz="0" iyy="${iyy}" iyz="0" izz="${izz}"/>
      </inertial>
    </link>
  </xacro:macro>
  <xacro:block name="a" mass="2" size="0.1 0.2 0.3" ixx="1" iyy="1" izz="1"/>
  <xacro:block name="b" mass="5" size="1 2 3" ixx="1e-6" iyy="1e-6" izz="1e-6"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>
"""


def test_moments_passed_by_each_call_are_fixed_at_the_calls(capsys, tmp_path) -> None:
    path = tmp_path / 'blocks.urdf.xacro'
    path.write_text(BLOCKS, encoding='utf-8')
    fixed = _fix_twice(capsys, path, '--fix-inertia')
    body_end = BLOCKS.index('  <xacro:block name="a"')
    assert fixed[:body_end] == BLOCKS[:body_end]  # the macro body is shared: unchanged
    for name, mass, size in (('a', 2, (0.1, 0.2, 0.3)), ('b', 5, (1, 2, 3))):
        call = re.search(rf'<xacro:block name="{name}"[^>]*/>', fixed).group(0)
        assert f'mass="{mass}"' in call
        written = dict(re.findall(r'(i[xyz]{2})="([^"]*)"', call))
        expected = np.diag(_solid(Box(size), mass))
        np.testing.assert_allclose([float(written[m]) for m in ('ixx', 'iyy', 'izz')],
                                   expected, rtol=1e-5)
    assert not {code for code in _codes(path) if code.startswith('inertia')}


def test_a_moment_passed_through_an_outer_call_is_fixed_there(capsys, tmp_path) -> None:
    """``${i}`` of the outer macro is followed to its call; an expression is only a note."""
    outer = BLOCKS.split('  <xacro:block name="a"')[0] + """\
  <xacro:macro name="cube" params="name i">
    <xacro:block name="${name}" mass="6" size="1 1 1" ixx="${i}" iyy="${i}" izz="${i}"/>
  </xacro:macro>
  <xacro:cube name="c" i="100"/>
</robot>
"""
    path = tmp_path / 'cube.urdf.xacro'
    path.write_text(outer, encoding='utf-8')
    # a solid 1 m cube of 6 kg: 6 * (1 + 1) / 12 = 1 about each axis
    assert _fix_twice(capsys, path, '--fix-inertia') == \
        outer.replace('i="100"', 'i="1"')
    computed = outer.replace('ixx="${i}"', 'ixx="${2*i}"')
    path.write_text(computed, encoding='utf-8')
    code, out, err = _cli(capsys, '--diff', '--fix-inertia', str(path))
    assert out == ''
    assert 'note[inertia-implausible]: link:c: not fixed: ixx="${ixx}" is computed' in err


#: One literal inertia whose mass is a xacro argument: each mass needs another fix.
MASS_ARG = """<robot name="m" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:arg name="mass" default="1"/>
  <link name="a">
    <inertial><mass value="$(arg mass)"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>
"""  # noqa: E501


def test_two_models_of_one_file_that_fix_one_literal_differently_fix_nothing(tmp_path) -> None:
    path = tmp_path / 'mass.urdf.xacro'
    path.write_text(MASS_ARG, encoding='utf-8')
    models = []
    for mass in ('1', '2'):
        description = load(path, xacro_args={'mass': mass})
        models.append((description.robot, check_description(description)))
    alone = [plan_fixes(robot, found, description.source_text, inertia=True)
             for robot, found in models]
    # a 0.1 m cube: (0.01 + 0.01) / 12 of its mass about each axis
    assert [[edit.new for edit in plan.edits] for plan in alone] == \
        [['0.00166667'] * 3, ['0.00333333'] * 3]
    same = plan_runs([models[0], models[0]], description.source_text, inertia=True)
    assert same.edits == alone[0].edits and not same.notes
    both = plan_runs(models, description.source_text, inertia=True)
    assert both.edits == () and both.fixed == ()
    assert [note.finding.element for note in both.notes] == ['link:a', 'link:a']
    assert all('differs from the edit of another finding' in note.reason
               for note in both.notes)
