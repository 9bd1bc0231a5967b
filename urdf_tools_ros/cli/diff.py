"""
``urdf-tools diff OLD NEW``: two robot descriptions compared as robots, not as text.

Both are loaded as ``urdf-tools check`` loads a file and compared by
:func:`urdf_tools_ros.core.diff.diff_descriptions`. ``name:=value`` among the files applies to
both sides, ``--old-arg``/``--new-arg`` to one (over a shared one). ``--git REV FILE`` compares
FILE with its description as of REV (:mod:`urdf_tools_ros.core.diff.git`). Findings are compared
as ``urdf-tools check NEW`` reports them (the configuration found upwards from NEW, for both).
Exit 0 when the robots are the same, 1 when they differ, 2 when one cannot be loaded or the
arguments are wrong.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import tempfile
from typing import Any

from urdf_tools_ros.core.source.loader import parse_xacro_args, RobotDescription
from . import number_argument
from .request import CheckRequest
from ..core.diff.records import (BlockChange, DescriptionDiff, ElementChange, FindingChange,
                                 format_sides, FrameMove, number, Tolerance, ValueChange)

FORMATS = ('text', 'markdown', 'json')
#: Default tolerance of a frame move (:class:`~urdf_tools_ros.core.diff.records.Tolerance`).
DEFAULT_TOLERANCE_MM = 0.1
DEFAULT_TOLERANCE_DEG = 0.01


# -- arguments -------------------------------------------------------------------------------
_positive = number_argument(float, lambda value: value >= 0.0 and not math.isinf(value),
                            'a number', 'a number >= 0')


def parse_positions(items: list[str]) -> dict[str, float]:
    """
    ``['a=0.5,b=1', 'c=-1']`` -> ``{'a': 0.5, 'b': 1.0, 'c': -1.0}`` (rad or m).

    :raises ValueError: on an entry without ``=`` or a value that is not a finite number.
    """
    result: dict[str, float] = {}
    for item in items:
        for entry in filter(None, (part.strip() for part in item.split(','))):
            name, sep, value = entry.partition('=')
            try:
                number_value = float(value)
            except ValueError:
                number_value = math.nan
            if not sep or not name or not math.isfinite(number_value):
                raise ValueError(f'--positions {entry!r}: expected joint=value (rad or m)')
            result[name.strip()] = number_value
    return result


def add_diff_arguments(diff: argparse.ArgumentParser) -> None:
    """The arguments of ``urdf-tools diff`` (its parser made by the caller)."""
    diff.description = (
        'Compare two robot descriptions as robots: links and joints added, removed or renamed, '
        'joint and link values, link frames moved (forward kinematics), inertials, geometry, '
        'materials, <ros2_control>/<gazebo>/<transmission> blocks, and checker findings. '
        'Exit 0 same robot, 1 different, 2 a description could not be loaded.')
    diff.usage = ('%(prog)s [options] OLD NEW [name:=value ...]\n'
                  '       %(prog)s [options] --git REV FILE [name:=value ...]')
    diff.add_argument('file', nargs='+', metavar='FILE',
                      help='OLD and NEW, the old and the new URDF or xacro file (with --git: '
                           'one FILE); and xacro arguments name:=value for both')
    diff.add_argument('--git', metavar='REV',
                      help='compare FILE with its description as of git revision REV (its '
                           'includes, YAML and meshes read from REV)')
    diff.add_argument('--old-arg', action='append', default=[], metavar='name:=value',
                      help='xacro argument for the old description only (repeatable)')
    diff.add_argument('--new-arg', action='append', default=[], metavar='name:=value',
                      help='xacro argument for the new description only (repeatable)')
    diff.add_argument('--package-path', action='append', default=[], metavar='[NAME=]DIR',
                      help='for package:// and $(find), as for check: NAME=DIR the share '
                           'directory of package NAME, DIR a folder of packages; repeatable')
    diff.add_argument('--xacro', choices=['auto', 'yes', 'no'], default='auto',
                      help='run xacro: auto (a .xacro name or xacro content), yes, no')
    diff.add_argument('--positions', action='append', default=[], metavar='JOINT=VALUE[,...]',
                      help='also compare the link frames at these joint positions (rad or m; '
                           'other joints at 0), besides the zero configuration')
    diff.add_argument('--tolerance', type=_positive, default=DEFAULT_TOLERANCE_MM, metavar='MM',
                      help='report a link frame that moved more than this, mm '
                           f'(default {DEFAULT_TOLERANCE_MM:g})')
    diff.add_argument('--angle-tolerance', type=_positive, default=DEFAULT_TOLERANCE_DEG,
                      metavar='DEG', help='report a link frame that turned more than this, '
                                          f'degrees (default {DEFAULT_TOLERANCE_DEG:g})')
    diff.add_argument('--no-findings', action='store_true',
                      help="do not compare the checker's findings")
    diff.add_argument('--format', choices=FORMATS, default='text',
                      help='text (a terminal), markdown (a pull-request comment), json (tools)')
    diff.add_argument('-o', '--output', help='write the report to this file')
    diff.set_defaults(handler=cmd_diff)


# -- loading -----------------------------------------------------------------------------------
def _side(request: CheckRequest, source: str, own: list[str], packages: dict[str, str]
          ) -> CheckRequest:
    """The request of one side: its file, its arguments over the shared ones, its packages."""
    arguments = {**parse_xacro_args(list(request.xacro_args)), **parse_xacro_args(own)}
    return dataclasses.replace(
        request, files=(source,),
        xacro_args=tuple(f'{name}:={value}' for name, value in arguments.items()),
        package_path=(*request.package_path, *(f'{name}={folder}'
                                               for name, folder in packages.items())))


def _label(name: str, own: list[str]) -> str:
    return ' '.join([name, *own])


class _LoadFailure(Exception):
    """A description could not be loaded: the one line to print."""


def _load(request: CheckRequest, replace: tuple[str, str] | None = None) -> RobotDescription:
    from ..core.errors import RobotDescriptionError
    try:
        return request.load()
    except RobotDescriptionError as exc:
        message = str(exc)
        if replace is not None:
            message = message.replace(replace[0] + os.sep, replace[1])
        raise _LoadFailure(message) from None


def cmd_diff(args: argparse.Namespace) -> int:
    """
    Load both descriptions, compare them, write the report.

    :return: 0 the same robot, 1 different, 2 a description cannot be loaded or a usage error.
    """
    request = CheckRequest.of(args)
    files, shared = request.files, list(request.xacro_args)
    wanted = 1 if args.git else 2
    if len(files) != wanted:
        usage = 'urdf-tools diff --git REV FILE' if args.git else 'urdf-tools diff OLD NEW'
        print(f'urdf-tools diff: expected {wanted} file{"s" if wanted > 1 else ""} '
              f'({usage}), got {len(files)}: {" ".join(files) or "none"}', file=sys.stderr)
        return 2
    try:
        positions = parse_positions(args.positions)
        parse_xacro_args([*shared, *args.old_arg, *args.new_arg])
        if args.git:
            return _diff_git(args, request, positions)
        old = _load(_side(request, files[0], args.old_arg, {}))
        new = _load(_side(request, files[1], args.new_arg, {}))
        return _report(args, old, new, positions, _label(files[0], args.old_arg),
                       _label(files[1], args.new_arg), {}, {})
    except (_LoadFailure, ValueError, LookupError, argparse.ArgumentTypeError) as exc:
        print(f'urdf-tools diff: {exc}', file=sys.stderr)
        return 2


def _diff_git(args: argparse.Namespace, request: CheckRequest, positions: dict[str, float]
              ) -> int:
    from ..core.diff import git
    from ..core.errors import RobotDescriptionError
    file, folder = request.files[0], tempfile.mkdtemp(prefix='urdf-tools-diff-')
    try:
        try:
            revision = git.materialise(file, args.git, folder)
        except RobotDescriptionError as exc:
            raise _LoadFailure(str(exc)) from None
        old_packages = git.package_folders(folder)
        new_packages = git.package_folders(revision.top)
        old = _load(_side(request, revision.file, args.old_arg, old_packages),
                    (folder, f'{args.git}:'))
        new = _load(_side(request, file, args.new_arg, new_packages))
        return _report(args, old, new, positions, _label(revision.label, args.old_arg),
                       _label(file, args.new_arg), {folder: revision.top},
                       {folder + os.sep: f'{args.git}:'})
    finally:
        git.remove(folder)


def _report(args: argparse.Namespace, old: RobotDescription, new: RobotDescription,
            positions: dict[str, float], old_label: str, new_label: str,
            paths: dict[str, str], locations: dict[str, str]) -> int:
    from .report import shown_path, write_output
    from ..core.diff import diff_descriptions
    tolerance = Tolerance(args.tolerance / 1000.0, math.radians(args.angle_tolerance))
    old_findings = new_findings = None
    if not args.no_findings:  # as `urdf-tools check NEW` reports them (its configuration)
        from urdf_tools_ros.core.session import resolve
        settings = resolve(new.filename)
        old_findings, new_findings = (settings.check(old), settings.check(new))
    result = diff_descriptions(old, new, positions=positions, tolerance=tolerance,
                               findings=not args.no_findings, old_findings=old_findings,
                               new_findings=new_findings, paths=paths, locations=locations,
                               shown=shown_path, old_label=old_label, new_label=new_label)
    text = {'text': format_text, 'markdown': format_markdown,
            'json': format_json}[args.format](result)
    write_output(args.output, text, f': {summary(result)}')
    return 0 if result.same else 1


# -- reports ---------------------------------------------------------------------------------
def summary(result: DescriptionDiff) -> str:
    """``the same robot`` or ``5 changes: 2 links/joints, 3 values``."""
    if result.same:
        return 'the same robot'
    parts = [(len(result.elements), 'link/joint', 'links/joints'),
             (len(result.values), 'value', 'values'),
             (len(result.frames), 'frame moved', 'frames moved'),
             (len(result.blocks), 'block', 'blocks'),
             (len(result.findings), 'finding', 'findings')]
    total = len(result.changes)
    return f'{total} change{"s" if total != 1 else ""}: ' + ', '.join(
        f'{count} {one if count == 1 else many}' for count, one, many in parts if count)


def _element_title(element: str) -> str:
    kind, _, name = element.partition(':')
    return f'{kind} "{name}"' if name else kind


def _frame_title(configuration: str, tolerance: Tolerance) -> str:
    where = 'the zero configuration' if configuration == 'zero' else 'the given positions'
    return (f'link frames at {where} (moved more than {number(tolerance.distance * 1000.0)} mm '
            f'or {number(math.degrees(tolerance.angle))}°)')


def _groups(result: DescriptionDiff) -> dict[str, list[ValueChange]]:
    groups: dict[str, list[ValueChange]] = {}
    for change in result.values:
        groups.setdefault(change.element, []).append(change)
    return groups


def format_text(result: DescriptionDiff) -> str:
    """The report for a terminal: one heading per element, one line per change."""
    lines = [f'{result.old} -> {result.new}: {summary(result)}']
    if result.elements:
        lines.append('links and joints:')
        lines.extend(f'  {change.text}' for change in result.elements)
    for element, changes in _groups(result).items():
        lines.append(f'{_element_title(element)}:')
        lines.extend(f'  {change.text}' for change in changes)
    for configuration in ('zero', 'positions'):
        moves = [move for move in result.frames if move.configuration == configuration]
        if moves:
            lines.append(_frame_title(configuration, result.tolerance) + ':')
            lines.extend(f'  {move.text}' for move in moves)
    for block in result.blocks:
        lines.append(f'{block.text}:')
        lines.extend(f'  {line}' for line in block.lines)
    if result.findings:
        lines.append('findings:')
        lines.extend(f'  {change.text}' + (f' ({change.location})' if change.location else '')
                     for change in result.findings)
    lines.extend(f'note: {note}' for note in result.notes)
    return '\n'.join(lines) + '\n'


def _cell(text: str) -> str:
    return text.replace('|', '\\|').replace('\n', ' ')


def _code(text: str) -> str:
    return f'`{text}`' if '`' not in text else text


def format_markdown(result: DescriptionDiff) -> str:
    """The report as GitHub-flavoured Markdown, for a pull-request comment."""
    lines = [f'### Robot diff: {_code(result.old)} → {_code(result.new)}', '',
             f'**{summary(result)}**']
    if result.elements:
        lines += ['', '#### Links and joints', '']
        lines += [f'- {_element_change_markdown(change)}' for change in result.elements]
    groups = _groups(result)
    if groups:
        lines += ['', '#### Values', '', '| element | attribute | old | new | change |',
                  '|---|---|---|---|---|']
        for element, changes in groups.items():
            for change in changes:
                cells = format_sides(change.old, change.new, change.unit, change.old_unit)
                lines.append(f'| {_code(element)} | {_code(change.attribute)} | '
                             + ' | '.join(_cell(cell) for cell in cells) + ' |')
    for configuration in ('zero', 'positions'):
        moves = [move for move in result.frames if move.configuration == configuration]
        if moves:
            title = _frame_title(configuration, result.tolerance)
            lines += ['', f'#### {title[0].upper()}{title[1:]}', '',
                      '| link | moved (mm) | Δx, Δy, Δz (mm) | turned (°) |', '|---|---|---|---|']
            lines += [f'| {_code(move.link)} | {number(move.distance * 1000.0, 4)} | '
                      + ', '.join(number(value * 1000.0, 4) for value in move.translation)
                      + f' | {number(math.degrees(move.rotation), 4)} |' for move in moves]
    for block in result.blocks:
        lines += ['', f'#### {_code(block.text.rsplit(" ", 1)[0])} {block.change}', '',
                  '```diff', *block.lines, '```']
    if result.findings:
        lines += ['', '#### Findings', '', '| | severity | code | element | message |',
                  '|---|---|---|---|---|']
        lines += [f'| {change.change} | {change.severity} | {_code(change.code)} | '
                  f'{_code(change.element)} | {_cell(change.message)} |'
                  for change in result.findings]
    if result.notes:
        lines += [''] + [f'> {note}' for note in result.notes]
    return '\n'.join(lines) + '\n'


def _element_change_markdown(change: ElementChange) -> str:
    if change.change == 'renamed':
        return f'{change.kind} {_code(change.name)} renamed to {_code(str(change.new_name))}'
    return f'{change.kind} {_code(change.name)} {change.change}'


def _finite(value: Any) -> Any:
    """JSON has no NaN or infinity: such a number (as the file wrote it) becomes its text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_finite(item) for item in value]
    return value


def _record(change: ElementChange | ValueChange | FrameMove | BlockChange | FindingChange
            ) -> dict[str, Any]:
    record = {key: _finite(value) for key, value in dataclasses.asdict(change).items()}
    record['text'] = change.text
    if isinstance(change, ValueChange):
        record['delta'] = change.delta
    return record


def format_json(result: DescriptionDiff) -> str:
    """
    The report as JSON: ``old``, ``new``, ``same``, ``summary``, ``tolerance``, ``changes``.

    Each change is its record's fields (values in m, rad, kg; NaN and infinity as strings) and
    its ``text``.
    """
    document = {
        'old': result.old, 'new': result.new, 'same': result.same, 'summary': summary(result),
        'tolerance': {'distance_m': result.tolerance.distance,
                      'angle_rad': result.tolerance.angle},
        'changes': [_record(change) for change in result.changes],
        'notes': list(result.notes),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + '\n'
