"""
The README tells the truth: its ``urdf-tools`` examples, run, print what it shows (issue 13).

Every ``$ urdf-tools ...`` line of a ``text`` block is run from the repository root (as
``python -m urdf_tools_ros.cli.main``) and its output compared line by line with the lines the
README shows after it; ``$ echo $?`` compares the exit code of the command before it. The
example files the README names ship in the repository.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from conftest import REPO

README = REPO / 'README.md'


def examples() -> list[tuple[str, list[str], str | None]]:
    """``(command, expected output lines, expected exit code or None)`` of each example."""
    found: list[tuple[str, list[str], str | None]] = []
    for block in re.findall(r'```text\n(.*?)```', README.read_text(), re.DOTALL):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            index += 1
            if not line.startswith('$ '):
                continue
            output = []
            while index < len(lines) and not lines[index].startswith('$ '):
                output.append(lines[index])
                index += 1
            command = line[2:]
            if command == 'echo $?':
                previous, shown, _ = found[-1]
                found[-1] = (previous, shown, output[0])
            else:
                found.append((command, output, None))
    return found


def test_the_readme_has_examples() -> None:
    commands = [command for command, _, _ in examples()]
    assert len(commands) >= 4 and all(command.startswith('urdf-tools ') for command in commands)


@pytest.mark.parametrize('command, shown, code', examples(), ids=lambda value: str(value)[:40])
def test_a_readme_example_prints_what_the_readme_shows(command: str, shown: list[str],
                                                       code: str | None) -> None:
    arguments = shlex.split(command)[1:]
    for argument in arguments:
        if '/' in argument and not argument.startswith('-'):
            assert (REPO / argument).is_file(), f'{argument} is not in the repository'
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', *arguments],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == shown, done.stdout + done.stderr
    if code is not None:
        assert str(done.returncode) == code


def model_table() -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """``(model, {code: errors}, {code: warnings})`` of the README's table of shared models."""
    rows = []
    for line in README.read_text().splitlines():
        match = re.match(r'\| `([\w/.]+\.urdf)` \| (.*?) \| (.*?) \|$', line)
        if match:
            counts = [{code: int(count) for count, code in
                       re.findall(r'(\d+) `([a-z0-9-]+)`', cell)} for cell in match.groups()[1:]]
            rows.append((match.group(1), counts[0], counts[1]))
    return rows


def test_the_readme_table_of_shared_models_is_what_the_checker_says() -> None:
    from collections import Counter

    from paths import SHARED_MODELS
    from urdf_tools_ros.core import check_description, load, Severity

    rows = model_table()
    assert len(rows) >= 7
    for model, errors, warnings in rows:
        findings = check_description(load(SHARED_MODELS / model))
        assert dict(Counter(f.code for f in findings if f.severity is Severity.ERROR)) == errors, \
            model
        assert dict(Counter(f.code for f in findings
                            if f.severity is Severity.WARNING)) == warnings, model


def test_the_readme_rule_table_is_the_catalog() -> None:
    from urdf_tools_ros.cli.commands import rules_markdown
    text = README.read_text(encoding='utf-8')
    start, end = text.index('<!-- rules:start -->\n'), text.index('<!-- rules:end -->')
    table = text[start + len('<!-- rules:start -->\n'):end]
    assert table == rules_markdown(), 'regenerate it: urdf-tools rules --markdown'
    codes = {line.split('`')[1] for line in table.splitlines() if line.startswith('| `')}
    from urdf_tools_ros.core.checks import RULES
    assert codes == set(RULES)
