"""
Argument matrices: ``urdf-tools check FILE --matrix name=v1,v2 ...``.

Each combination of the product is loaded once with the fixed arguments, named in every
format, and the exit status is the worst; a matrix that cannot apply is a usage error.
"""

from __future__ import annotations

from collections import Counter
import itertools
import json
from pathlib import Path
import re

import pytest

from conftest import missing, REPO
from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.source.matrix import (
    combinations, label, MatrixError, parse_matrix)

SCHEMA = Path(__file__).resolve().parent / 'data' / 'sarif-schema-2.1.0.json'

#: A xacro whose ``bad`` argument adds a joint without velocity limit (an error for every ROS
#: target: urdfdom refuses it) when ``true``; ``maybe`` is no boolean, so xacro fails (exit 2).
CONDITIONAL = (REPO / 'test' / 'urdf' / 'matrix' / 'conditional.urdf.xacro').read_text()


@pytest.fixture
def conditional(tmp_path: Path) -> Path:
    path = tmp_path / 'conditional.urdf.xacro'
    path.write_text(CONDITIONAL)
    return path


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(['check', '--no-config', *args])
    out, err = capsys.readouterr()
    return code, out, err


# -- the matrix itself --------------------------------------------------------------------------
def test_parse_reads_empty_values_and_keeps_the_order() -> None:
    assert parse_matrix(['ur_type=ur3,ur5e,ur10e', 'prefix=,left_', 'x=']) == {
        'ur_type': ('ur3', 'ur5e', 'ur10e'), 'prefix': ('', 'left_'), 'x': ('',)}
    assert list(parse_matrix(['b=1', 'a=2'])) == ['b', 'a']


@pytest.mark.parametrize('entries, fixed, words', [
    (['ur_type'], (), 'expected name=value'),
    (['ur_type:=ur3'], (), 'expected name=value'),
    (['=ur3'], (), 'not a xacro argument name'),
    (['a b=1'], (), 'not a xacro argument name'),
    (['a=1', 'a=2'], (), 'given twice'),
    (['a=1,2,1'], (), "value '1' of 'a' is given twice"),
    (['a=1'], ('a',), 'also given as a:=value'),
])
def test_parse_refuses(entries: list[str], fixed: tuple[str, ...], words: str) -> None:
    with pytest.raises(MatrixError, match=re.escape(words)):
        parse_matrix(entries, fixed)


@pytest.mark.parametrize('sizes', [(1,), (3,), (2, 3), (3, 1, 2), (2, 2, 2, 2)])
def test_the_combinations_are_the_product_each_once_first_slowest(sizes: tuple[int, ...]) -> None:
    matrix = {f'arg{i}': [f'v{j}' for j in range(size)] for i, size in enumerate(sizes)}
    every = combinations(matrix)
    expected = 1
    for size in sizes:
        expected *= size
    assert len(every) == expected == len(set(every))
    # nested loops, the first argument outermost
    nested = [tuple(zip(matrix, values))
              for values in itertools.product(*matrix.values())]
    assert every == nested
    assert every[0] == tuple((name, 'v0') for name in matrix)


def test_an_empty_matrix_is_one_combination_and_an_argument_needs_a_value() -> None:
    assert combinations({}) == [()]
    with pytest.raises(MatrixError):
        combinations({'a': []})
    with pytest.raises(MatrixError):
        combinations({'a': 'ur3'})  # a string is no list of values


def test_a_label_is_one_shell_word_per_argument() -> None:
    assert label((('ur_type', 'ur3'), ('prefix', 'left_'))) == 'ur_type=ur3 prefix=left_'
    assert label({'prefix': ''}) == "prefix=''"
    assert label({'name': 'my robot'}) == "name='my robot'"
    assert label({'ns': '/robot1'}) == 'ns=/robot1'


# -- urdf-tools check --matrix ------------------------------------------------------------------
def test_each_combination_is_loaded_once_with_the_fixed_arguments(
        capsys: pytest.CaptureFixture[str], loads: list[tuple[str, dict[str, str]]],
        conditional: Path) -> None:
    code, out, _ = check(capsys, str(conditional), 'bad:=false', '--matrix', 'prefix=,left_,r2_')
    assert code == 0, out
    assert Counter(args['prefix'] for _, args in loads) == {'': 1, 'left_': 1, 'r2_': 1}
    assert all(args['bad'] == 'false' and len(args) == 2 for _, args in loads)
    for shown in ("prefix=''", 'prefix=left_', 'prefix=r2_'):
        assert out.splitlines().count(f'{conditional} [{shown}]') == 1  # its heading
        assert out.count(f'{conditional} [{shown}]: 0 errors, 0 warnings') == 1  # its summary
    # one info each: the root link has no mass (root-body-massless)
    assert out.splitlines()[-1] == 'total: 3 combinations, 0 errors, 0 warnings, 3 info'


def test_the_product_of_two_matrices_on_two_files(
        capsys: pytest.CaptureFixture[str], loads: list[tuple[str, dict[str, str]]],
        conditional: Path, tmp_path: Path) -> None:
    other = tmp_path / 'other.xacro'
    other.write_text(CONDITIONAL)
    code, out, _ = check(capsys, str(conditional), str(other), '--matrix', 'prefix=,left_',
                         '--matrix', 'bad=false,true')
    assert code == 1
    expected = {(str(path), prefix, bad) for path in (conditional, other)
                for prefix in ('', 'left_') for bad in ('false', 'true')}
    seen = [(name, args['prefix'], args['bad']) for name, args in loads]
    assert len(seen) == 8 and set(seen) == expected
    assert out.splitlines()[-1].startswith('total: 2 files × 4 combinations, 4 errors,')
    # an error line of a combination stands under that combination's heading
    lines = out.splitlines()
    heading = lines.index(f'{other} [prefix=left_ bad=true]')
    assert 'error[joint-limit-velocity-missing]' in lines[heading + 1]
    assert 'joint "left_shoulder"' in lines[heading + 1]


@pytest.mark.parametrize('values, status', [
    ('false', 0), ('false,true', 1), ('false,maybe', 2), ('true,maybe,false', 2)])
def test_the_exit_status_is_the_worst_combination(
        capsys: pytest.CaptureFixture[str], conditional: Path, values: str, status: int) -> None:
    code, out, err = check(capsys, str(conditional), '--matrix', f'bad={values}')
    assert code == status, out + err
    if 'maybe' in values:  # said once, in the text report, under its combination
        assert err == '' and out.count('not a boolean expression') == 1, out + err
        lines = out.splitlines()
        failed = lines[lines.index(f'{conditional} [bad=maybe]') + 1]
        assert failed.startswith(f'{conditional}:') and 'not a boolean expression' in failed


def test_json_names_each_combination(capsys: pytest.CaptureFixture[str],
                                     conditional: Path) -> None:
    code, out, _ = check(capsys, str(conditional), '--format', 'json', '--matrix',
                         'prefix=,left_', '--matrix', 'bad=false,true,maybe')
    assert code == 2
    files = json.loads(out)['files']
    assert [entry['xacro_args'] for entry in files] == [
        {'prefix': prefix, 'bad': bad} for prefix in ('', 'left_')
        for bad in ('false', 'true', 'maybe')]
    for entry in files:
        args = entry['xacro_args']
        assert entry['file'] == str(conditional)
        assert entry['combination'] == f"prefix={args['prefix'] or repr('')} bad={args['bad']}"
        assert entry['loaded'] is (args['bad'] != 'maybe')
        assert entry['counts']['error'] == (0 if args['bad'] == 'false' else 1)
        if args['bad'] == 'true':
            (error,) = [f for f in entry['findings'] if f['severity'] == 'error']
            assert error['element'] == f"joint:{args['prefix']}shoulder"


def test_a_single_file_report_has_no_combination_without_a_matrix(
        capsys: pytest.CaptureFixture[str], conditional: Path) -> None:
    _, out, _ = check(capsys, str(conditional), '--format', 'json')
    assert 'combination' not in json.loads(out) and 'xacro_args' not in json.loads(out)


def test_junit_has_a_suite_per_combination(capsys: pytest.CaptureFixture[str],
                                           conditional: Path, tmp_path: Path) -> None:
    if missing('junitparser') is not None:
        pytest.skip(str(missing('junitparser')))
    from junitparser import JUnitXml
    code, out, _ = check(capsys, str(conditional), '--format', 'junit', '--matrix',
                         'bad=false,true')
    assert code == 1
    path = tmp_path / 'report.xml'
    path.write_text(out)
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(path))}
    assert set(suites) == {f'urdf-tools check {conditional} [bad=false]',
                           f'urdf-tools check {conditional} [bad=true]'}
    for bad in ('false', 'true'):
        suite = suites[f'urdf-tools check {conditional} [bad={bad}]']
        properties = {item.name: item.value for item in suite.properties()}
        assert properties == {'xacro_arg:bad': bad}
        cases = list(suite)
        assert {case.classname for case in cases} == {f'{conditional} [bad={bad}]'}
        failing = [case.name for case in cases if not case.is_passed]
        assert failing == (['joint-limit-velocity-missing'] if bad == 'true' else [])
        assert suite.tests == len(cases)


def test_sarif_names_the_combination_of_each_result(capsys: pytest.CaptureFixture[str],
                                                    conditional: Path) -> None:
    if missing('jsonschema') is not None:
        pytest.skip(str(missing('jsonschema')))
    import jsonschema
    code, out, _ = check(capsys, str(conditional), '--format', 'sarif', '--matrix',
                         'prefix=a_,b_', '--matrix', 'bad=true,maybe')
    assert code == 2
    sarif = json.loads(out)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(sarif)
    (run_,) = sarif['runs']
    assert run_['properties']['combinations'] == [
        'prefix=a_ bad=true', 'prefix=a_ bad=maybe', 'prefix=b_ bad=true', 'prefix=b_ bad=maybe']
    by_combination = Counter((r['properties']['combination'], r['ruleId'])
                             for r in run_['results'] if r['level'] == 'error')
    assert by_combination == {('prefix=a_ bad=true', 'joint-limit-velocity-missing'): 1,
                              ('prefix=b_ bad=true', 'joint-limit-velocity-missing'): 1,
                              ('prefix=a_ bad=maybe', 'description-unloadable'): 1,
                              ('prefix=b_ bad=maybe', 'description-unloadable'): 1}
    for result in run_['results']:
        combination = result['properties']['combination']
        assert result['message']['text'].startswith(f'[{combination}] ')
        assert label(result['properties']['xacroArgs']) == combination


def test_an_output_file_prints_each_combination_summary(
        capsys: pytest.CaptureFixture[str], conditional: Path, tmp_path: Path) -> None:
    report = tmp_path / 'report.json'
    code, out, _ = check(capsys, str(conditional), '--format', 'json', '-o', str(report),
                         '--matrix', 'bad=false,true')
    assert code == 1
    assert out.splitlines() == [f'{conditional} [bad=false]: 0 errors, 0 warnings, 1 info',
                                f'{conditional} [bad=true]: 1 error, 0 warnings, 1 info']
    assert len(json.loads(report.read_text())['files']) == 2


ARM = REPO / 'urdf' / 'examples' / 'arm.urdf'


@pytest.mark.parametrize('source, args, words', [
    (None, ['--matrix', 'prefix=a_', '--matrix', 'prefix=b_'], ["'prefix' is given twice"]),
    (None, ['prefix:=a_', '--matrix', 'prefix=b_'], ['also given as prefix:=value']),
    (None, ['--matrix', 'prefix'], ['expected name=value']),
    (None, ['--matrix', 'bad=true,true'], ["value 'true' of 'bad' is given twice"]),
    (None, ['--matrix', 'bad=true', '--xacro', 'no'], ['--xacro no runs no xacro']),
    (str(ARM), ['--matrix', 'prefix=a_,b_'], [f'{ARM} is not xacro', '--xacro yes']),
    ('-', ['--matrix', 'prefix=a_,b_'], ['standard input']),
])
def test_a_matrix_that_cannot_apply_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], loads: list[tuple[str, dict[str, str]]],
        conditional: Path, source: str | None, args: list[str], words: list[str]) -> None:
    code, out, err = check(capsys, source or str(conditional), *args)
    assert code == 2 and out == '' and loads == []
    assert err.startswith('urdf-tools check: ') and all(word in err for word in words), err


def test_xacro_yes_lets_a_matrix_apply_to_any_file(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'  # no .xacro name, and no xacro in it: only --xacro yes
    path.write_text('<robot name="r"><link name="base"/></robot>\n')
    code, out, _ = check(capsys, str(path), '--xacro', 'yes', '--matrix', 'unused=1,2')
    assert code == 0
    assert out.count('warning[xacro-arg-unknown]') == 2  # each combination's own finding
