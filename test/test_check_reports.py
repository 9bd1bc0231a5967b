"""
``urdf-tools check`` reports for CI and people.

JSON, JUnit, SARIF (validated against the 2.1.0 schema) also for a file that cannot be
loaded, and text, coloured on a terminal only.
"""

from __future__ import annotations

from collections import Counter
import json
import os
from pathlib import Path
import pty
import subprocess
import sys

import pytest

from conftest import missing, REPO, run_cli as cli, SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.checks import format_value

SCHEMA = Path(__file__).resolve().parent / 'data' / 'sarif-schema-2.1.0.json'
ANSI = '\x1b['


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / 'broken.urdf'
    path.write_text('<robot name="r">\n  <link name="a">\n</robot>\n')  # not well-formed
    return path


@pytest.mark.parametrize('form', ['junit', 'sarif'])  # JSON: test_load_failures
def test_a_report_is_written_when_the_file_cannot_be_loaded(tmp_path: Path, broken: Path,
                                                            form: str) -> None:
    for source in (broken, tmp_path / 'absent.urdf'):
        out = tmp_path / f'report.{form}'
        done = cli('check', str(source), '--format', form, '-o', str(out))
        assert done.returncode == 2, done.stderr
        assert 'Traceback' not in done.stderr and str(source) in done.stderr
        assert 'description-unloadable' in out.read_text()


def junit_cases(text: str, tmp_path: Path) -> dict[str, object]:
    from junitparser import JUnitXml
    path = tmp_path / 'report.xml'
    path.write_text(text)
    return {case.name: case for suite in JUnitXml.fromfile(str(path)) for case in suite}


def test_junit_shows_warnings_and_fails_them_with_werror(tmp_path: Path) -> None:
    if missing('junitparser') is not None:
        pytest.skip(str(missing('junitparser')))
    talos = str(shared_model('talos_full_v2'))
    cases = junit_cases(cli('check', talos, '--format', 'junit').stdout, tmp_path)
    mesh = cases['mesh-file-missing']
    assert mesh.is_passed and 'torso_2_link' in (mesh.system_out or '')  # type: ignore
    assert (mesh.system_out or '').count('\n') + 1 == 94  # type: ignore[attr-defined]
    assert cases['other rules'].is_passed  # type: ignore[attr-defined]
    strict = junit_cases(cli('check', talos, '--format', 'junit', '--werror').stdout, tmp_path)
    assert not strict['mesh-file-missing'].is_passed  # type: ignore[attr-defined]


def test_sarif_validates_against_the_schema(tmp_path: Path, broken: Path) -> None:
    if missing('jsonschema') is not None:
        pytest.skip(str(missing('jsonschema')))
    import jsonschema
    schema = json.loads(SCHEMA.read_text())
    talos = str(shared_model('talos_full_v2'))
    for args in ([talos], [str(broken)], [talos, str(SAMPLE_ROBOT)]):
        done = cli('check', *args, '--format', 'sarif')
        sarif = json.loads(done.stdout)
        jsonschema.Draft4Validator(schema).validate(sarif)
        (run,) = sarif['runs']
        results = run['results']
        assert results and {r['level'] for r in results} <= {'error', 'warning', 'note'}
        rules = [rule['id'] for rule in run['tool']['driver']['rules']]
        for result in results:
            assert rules[result['ruleIndex']] == result['ruleId']
            location = result['locations'][0]['physicalLocation']
            assert location['artifactLocation']['uri']
    mesh = [r for r in json.loads(cli('check', talos, '--format', 'sarif').stdout)['runs'][0]
            ['results'] if r['ruleId'] == 'mesh-file-missing']
    assert len(mesh) == 94 and mesh[0]['locations'][0]['physicalLocation']['region'] == \
        {'startLine': 31}  # the <mesh>, not its <visual> (28)


def tty_output(*args: str, env: dict[str, str]) -> str:
    """Run the CLI with its standard output on a pseudo-terminal; what it wrote there."""
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, '-m', 'urdf_tools_ros.cli.main', *args],
                               stdout=child, stderr=subprocess.DEVNULL, cwd=REPO,
                               env={**os.environ, **env})
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(main)
    return b''.join(chunks).decode()


def test_colour_on_a_terminal_only(broken: Path) -> None:
    talos = str(shared_model('talos_full_v2'))
    plain_env = {key: value for key, value in os.environ.items() if key != 'NO_COLOR'}
    assert ANSI in tty_output('check', talos, env={'NO_COLOR': ''} | plain_env)
    assert ANSI not in tty_output('check', talos, env={'NO_COLOR': '1'})
    assert ANSI not in cli('check', talos).stdout  # piped
    assert ANSI in cli('check', talos, '--color', 'always').stdout


def test_text_is_one_whole_line_per_finding_grouped_by_code() -> None:
    talos = str(shared_model('talos_full_v2'))
    lines = cli('check', talos).stdout.splitlines()
    report = json.loads(cli('check', talos, '--format', 'json').stdout)
    counts = Counter(finding['code'] for finding in report['findings'])
    whole = [finding for finding in report['findings']  # those the text shows, ungrouped
             if finding['severity'] != 'info' and counts[finding['code']] <= 3]
    assert whole and all(any(line.endswith(f'[{finding["code"]}]: {finding["message"]}')
                             for line in lines) for finding in whole)
    assert not any('…' in line for line in lines)
    assert lines[0] == '94 × mesh-file-missing (warning): first 3 shown; -v for all'
    assert sum('[mesh-file-missing]' in line for line in lines) == 3
    fixes = [i for i, line in enumerate(lines) if line.startswith('    fix: ')]
    assert fixes and all('[' in lines[i - 1] for i in fixes)  # each fix under its finding
    assert any(line.startswith('by code: 94 mesh-file-missing') for line in lines)
    verbose = cli('check', talos, '-v').stdout
    assert sum('[mesh-file-missing]' in line for line in verbose.splitlines()) == 94


def test_several_files_have_a_summary_each_and_a_total(broken: Path) -> None:
    done = cli('check', str(SAMPLE_ROBOT), str(broken))
    assert done.returncode == 2
    lines = done.stdout.splitlines()
    assert any(line.endswith(': 0 errors, 0 warnings, 0 info') or
               line.startswith(f'{SAMPLE_ROBOT}: 0 errors') for line in lines)
    assert f'{broken}: 1 error, 0 warnings, 0 info' in lines
    assert lines[-1].startswith('total: 2 files, 1 error,')


def test_numbers_in_messages_are_short() -> None:
    assert [format_value(value) for value in (1.2, -0.4, 3.0, 1e-9, -0.0, 1e22)] == \
        ['1.2', '-0.4', '3', '1e-09', '-0', '1e+22']
