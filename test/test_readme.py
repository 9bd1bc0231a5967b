"""
The README and the manual tell the truth: their ``urdf-tools`` examples print what they show.

Every ``$ urdf-tools ...`` line of a ``text`` block runs from the repository root and its output
(``$ echo $?``: its exit code) is the page's; the README stays short and its links resolve.
"""

from __future__ import annotations

from pathlib import Path
import re
import shlex
import subprocess
import sys

import pytest

from conftest import REPO

README = REPO / 'README.md'
#: Pages whose examples are run: the README and the manual's Markdown pages (not the pages
#: generated at build time, nor the build output).
PAGES = [README, *sorted(path for path in (REPO / 'docs').rglob('*.md')
                         if not {'_build', 'generated'} & set(path.relative_to(REPO).parts))]


def examples(page: Path) -> list[tuple[str, list[str], str | None]]:
    """``(command, expected output lines, expected exit code or None)`` of each example."""
    found: list[tuple[str, list[str], str | None]] = []
    for block in re.findall(r'```text\n(.*?)```', page.read_text(encoding='utf-8'), re.DOTALL):
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


ALL_EXAMPLES = [(page.relative_to(REPO).as_posix(), *example)
                for page in PAGES for example in examples(page)]


def test_the_readme_and_the_manual_have_examples() -> None:
    assert examples(README), 'the README shows no urdf-tools example'
    commands = [command for _, command, _, _ in ALL_EXAMPLES]
    assert len(commands) >= 4 and all(command.startswith('urdf-tools ') for command in commands)


@pytest.mark.parametrize('page, command, shown, code', ALL_EXAMPLES,
                         ids=lambda value: str(value)[:40])
def test_an_example_prints_what_its_page_shows(page: str, command: str, shown: list[str],
                                               code: str | None) -> None:
    arguments = shlex.split(command)[1:]
    for argument in arguments:
        if '/' in argument and not argument.startswith('-'):
            assert (REPO / argument).is_file(), f'{page}: {argument} is not in the repository'
    done = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', *arguments],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == shown, f'{page}\n{done.stdout}{done.stderr}'
    if code is not None:
        assert str(done.returncode) == code, page


def test_the_readme_is_short() -> None:
    assert len(README.read_bytes()) <= 8192, 'the manual belongs in docs/'


def test_the_readme_links_lead_to_files_of_the_repository() -> None:
    targets = re.findall(r'\]\(([^)#]+)(?:#[^)]*)?\)', README.read_text(encoding='utf-8'))
    local = [target for target in targets if '://' not in target]
    assert local
    for target in local:
        assert (REPO / target).exists(), target
