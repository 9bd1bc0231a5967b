"""
``urdf-tools check --diff`` and ``--fix``: the mechanical fixes of :mod:`~..core.fix.edits`.

``--diff`` prints the fixes as a unified diff and exits as ``check`` would after them;
``--fix`` writes them (never into a ROS install prefix), then ``check`` reports the files.
Findings of a fixable code that are not patched are ``note:`` lines on standard error.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
import difflib
import os
from pathlib import Path
import sys
from typing import TYPE_CHECKING

from urdf_tools_ros.core.fix.edits import FixPlan, plan_fixes
from urdf_tools_ros.core.session import failing
from urdf_tools_ros.core.source.loader import parse_xacro_args, RobotDescription
from urdf_tools_ros.core.source.scanner import apply_edits, TextEdit
from ..core.checks import counts_text
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding

if TYPE_CHECKING:
    from urdf_tools_ros.core.session import Settings
    from .request import CheckRequest


def read_text(filename: str) -> str:
    """A source file's text, its newlines as written."""
    with open(filename, encoding='utf-8', newline='') as stream:
        return stream.read()


def _plan(description: RobotDescription, request: CheckRequest, settings: Settings
          ) -> tuple[list[Finding], FixPlan]:
    findings = settings.check(description)
    return findings, plan_fixes(description.robot, findings, description.source_text,
                                inertia=request.fix_inertia)


def _by_file(edits: Sequence[TextEdit]) -> dict[str, list[TextEdit]]:
    files: dict[str, list[TextEdit]] = {}
    for edit in edits:
        files.setdefault(edit.filename, []).append(edit)
    return files


def unified_diff(edits: Sequence[TextEdit], read: Callable[[str], str] = read_text) -> str:
    """The edits as a unified diff, ``--- FILE`` and ``+++ FILE`` as the locations name them."""
    parts: list[str] = []
    for filename, group in _by_file(edits).items():
        old = read(filename)
        new = apply_edits(old, group)
        parts.extend(difflib.unified_diff(old.splitlines(keepends=True),
                                          new.splitlines(keepends=True), filename, filename))
    return ''.join(line if line.endswith('\n') else line + '\n\\ No newline at end of file\n'
                   for line in parts)


def _findings_after(description: RobotDescription, plan: FixPlan, arguments: dict[str, str],
                    settings: Settings) -> list[Finding] | None:
    """
    The findings of the description as the edits leave it, when they are all in its own file.

    ``None`` when there is no edit, an edit of an included file, or the result does not load.
    """
    files = {edit.filename for edit in plan.edits}
    if files != {description.filename}:
        return None
    text = apply_edits(description.source_text(description.filename), plan.edits)
    texts = dict(description.sources)  # the includes as read; the file as edited
    texts[os.path.abspath(description.filename)] = text
    try:
        fixed = settings.load(description.filename, arguments, text=text.removeprefix('\ufeff'),
                              texts=texts)
    except RobotDescriptionError:
        return None
    return settings.check(fixed)


def install_prefix(filename: str) -> str | None:
    """
    The ROS install prefix (a folder with ``setup.bash`` or ``local_setup.bash``) a file lies in.

    Symbolic links are followed first (``colcon build --symlink-install``); ``None``: none.
    """
    real = Path(os.path.realpath(filename))
    for folder in real.parents:
        if (folder / 'local_setup.bash').is_file() or (folder / 'setup.bash').is_file():
            return str(folder)
    return None


def _print_notes(plan: FixPlan) -> None:
    for note in plan.notes:
        where = f'{note.finding.location}: ' if note.finding.location else ''
        print(f'{where}note[{note.finding.code}]: {note.finding.element}: not fixed: '
              f'{note.reason}', file=sys.stderr)


def run_fixes(request: CheckRequest, settings: Settings, texts: MutableMapping[str, str]
              ) -> int | None:
    """
    Do ``--diff`` or ``--fix`` for ``check``, on the files of ``request``.

    ``--fix`` prints a ``fixed[code]`` line per edit (to standard error when the report is not
    text on standard output).

    :param texts: The files read so far in this run; a file written keeps its new text there.
    :return: The exit status of ``--diff`` (0 no errors left after the fixes, 1 errors left, 2
        a file cannot be loaded or changed meanwhile); ``None`` after ``--fix``.
    """
    if request.matrix:
        print('urdf-tools check: --diff and --fix take no --matrix (the combinations could '
              'need different fixes of one file)', file=sys.stderr)
        return 2
    if '-' in request.files:
        print('urdf-tools check: --diff and --fix need files, not standard input',
              file=sys.stderr)
        return 2
    status, arguments = 0, parse_xacro_args(list(request.xacro_args))
    fixed_to = sys.stdout if request.format == 'text' and not request.output else sys.stderr
    for name in request.files:
        try:
            description = settings.load(name, arguments, texts=texts)
        except RobotDescriptionError as exc:
            if request.fix:
                continue  # check reports it (exit 2)
            print(f'urdf-tools: {exc}', file=sys.stderr)
            status = 2
            continue
        findings, plan = _plan(description, request, settings)
        _print_notes(plan)
        if request.diff:
            try:
                sys.stdout.write(unified_diff(plan.edits, description.source_text))
            except (OSError, ValueError) as exc:
                print(f'urdf-tools: {exc}', file=sys.stderr)
                status = 2
                continue
            if not plan.edits and not plan.notes:  # standard output stays a patch: empty
                print(f'{name}: nothing to fix ({counts_text(findings)})', file=sys.stderr)
            left = _findings_after(description, plan, arguments, settings)
            if left is None:
                left = [finding for finding in findings if finding not in plan.fixed]
            status = max(status, 1 if failing(left, settings.werror) else 0)
            continue
        for filename, group in _by_file(plan.edits).items():
            prefix = install_prefix(filename)
            if prefix is not None:
                print(f'{filename}: note: not written: it is installed in {prefix} (a build '
                      'would replace it); fix its source (check --diff shows the patch)',
                      file=sys.stderr)
                continue
            text = apply_edits(description.source_text(filename), group)
            with open(filename, 'w', encoding='utf-8', newline='') as stream:
                stream.write(text)
            texts[os.path.abspath(filename)] = text  # what check then loads: not read again
            for edit in group:
                change = f'{edit.old!r} -> {edit.new!r}' if edit.new else \
                    f'removed {edit.old.strip()!r}'
                print(f'{edit.filename}:{edit.line}: fixed[{edit.code}]: {edit.element}: {change}',
                      file=fixed_to)
    return status if request.diff else None
