"""
Shared scaffolding of the rule-family tests (``test_checks_<family>.py``).

Each family module has ``CHECKS``, a frozen ``CATALOG`` (``code -> (severity, source)``),
``CASES`` (``pytest.param(code, bad, element, line, text, good)``) and, where its rules read
files, ``FILES``; ``test_rule_cases.py`` checks every table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from urdf_tools_ros.core.checks import CheckContext
from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.source.loader import load_string, RobotDescription

#: A check function of a rule family.
Check = Callable[[CheckContext], Iterable[Finding]]
#: Loads a URDF string and returns the findings of a family's checks.
Runner = Callable[[str], list[Finding]]


def check_family(checks: Sequence[Check], description: RobotDescription) -> list[Finding]:
    """The findings of a family's checks, in order, on a loaded description."""
    context = CheckContext(description.robot, description.filename)
    return [finding for check in checks for finding in check(context)]


def run_family(checks: Sequence[Check], text: str, filename: str = '<string>',
               **load_kwargs: Any) -> list[Finding]:
    """The findings of a family's checks on a URDF string (not the loader's findings)."""
    return check_family(checks, load_string(text, filename, **load_kwargs))


def run_beside(checks: Sequence[Check], folder: Path, files: Mapping[str, bytes]) -> Runner:
    """
    A runner checking a URDF string as ``folder/robot.urdf`` beside ``files`` (path: bytes).

    ``folder`` is also package ``pkg``'s share folder; ``{dir}`` in a URDF stands for it.
    """
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)

    def run(text: str) -> list[Finding]:
        return run_family(checks, text.replace('{dir}', str(folder)), str(folder / 'robot.urdf'),
                          package_paths={'pkg': str(folder)})
    return run
