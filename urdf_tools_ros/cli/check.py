"""
``urdf-tools check``: files, folders or the configuration's entries, in one report.

Each is checked once, or once per ``--matrix`` combination. A folder (a package, a colcon
workspace or its ``src``) stands for the entries of each package in it
(:func:`~..core.checks.config.package_runs`), each package with the settings of the
configuration nearest it. ``--jobs N`` checks in ``N`` processes; the reports keep the order of
the runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, MutableMapping
import os
from pathlib import Path
import sys
from typing import TYPE_CHECKING

from urdf_tools_ros.core.source.loader import parse_xacro_args
from . import number_argument, report
from .request import CheckRequest
from ..core.checks import TARGETS
from ..core.model.values import ros_distros

if TYPE_CHECKING:
    from urdf_tools_ros.core.session import Settings
    from urdf_tools_ros.core.source.matrix import Combination

FORMATS = ('text', 'json', 'junit', 'sarif')
#: One check: the file, its matrix combination, its xacro arguments and the settings.
Job = tuple[str, 'Combination', Mapping[str, str], 'Settings']


def _colour(choice: str, stream: object) -> bool:
    """Colour on a terminal unless ``NO_COLOR`` is set (https://no-color.org), or as forced."""
    if choice != 'auto':
        return choice == 'always'
    isatty = getattr(stream, 'isatty', None)
    return bool(isatty and isatty()) and not os.environ.get('NO_COLOR')


def _matrix_runs(request: CheckRequest, files: list[str], texts: MutableMapping[str, str]
                 ) -> list[tuple[str, Combination]]:
    """
    The ``(file, combination)`` pairs to check: each file once, or once per combination.

    :param texts: The files read so far in this run (a file read here is kept for its loads).
    :raises MatrixError: on a malformed ``--matrix``, a name given twice (also as
        ``name:=value``), or a matrix for standard input or a file xacro does not process.
    """
    from urdf_tools_ros.core.source.loader import looks_like_xacro, read_file, read_source
    from urdf_tools_ros.core.source.matrix import combinations, MatrixError, parse_matrix
    from ..core.errors import RobotDescriptionError

    if not request.matrix:
        return [(name, ()) for name in files]
    fixed = [item.partition(':=')[0] for item in request.xacro_args]
    matrix = parse_matrix(list(request.matrix), fixed)
    for name in files:
        if name == '-':
            raise MatrixError('--matrix needs files: standard input is read once')
        if request.xacro == 'no':
            raise MatrixError('--matrix sets xacro arguments, and --xacro no runs no xacro')
        if request.xacro == 'auto':
            try:
                text = read_source(name, texts)
            except RobotDescriptionError:
                try:  # not a description the loader reads: as it reads, for the name
                    text = read_file(name).decode('utf-8', errors='replace')
                except RobotDescriptionError:
                    continue  # not readable: the check reports it, once per combination
            if not looks_like_xacro(name, text):
                raise MatrixError(f'--matrix: {name} is not xacro (not named .xacro, no '
                                  'xacro: element, ${...} or $(...)), so it takes no xacro '
                                  'arguments; --xacro yes runs xacro on it anyway')
    every = combinations(matrix)
    return [(name, combination) for name in files for combination in every]


def _runs(request: CheckRequest, settings: Settings
          ) -> list[tuple[str, Combination, Settings]]:
    """
    The runs of the files and folders named, or of the configuration's entries, with settings.

    A folder's: those of each package in it (:func:`~..core.checks.config.package_runs`, with
    the configuration found from the package), each named relative to the current folder when
    under it and with the settings of the configuration nearest it, as ``check FILE`` has them.

    :raises ConfigError: if a configuration cannot be read or is wrong.
    :raises MatrixError: if an entry gives an argument in both ``args`` and ``matrix``.
    :raises UnknownCodeError: if a configuration selects or ignores no rule.
    """
    from ..core.checks.config import Config, find_config, package_runs
    from ..core.source.discovery import find_packages

    if not request.files:  # the entries of the configuration, each with its arguments
        return [(str(entry.file), run, settings) for entry in settings.config.entries
                for run in entry.runs()]
    runs: list[tuple[str, Combination, Settings]] = []
    for name in request.files:
        if not os.path.isdir(name):
            runs.append((name, (), settings))
            continue
        for package in sorted(find_packages([os.path.abspath(name)]).values()) or [name]:
            config = Config() if request.no_config else find_config(Path(package))
            runs += [(report.shown_path(file), combination,
                      request.settings(config=True, start=file))
                     for file, combination in package_runs(Path(package), config)]
    return runs


def _report(name: str, combination: Combination, xacro_args: Mapping[str, str],
            settings: Settings, texts: MutableMapping[str, str] | None = None
            ) -> report.FileReport:
    """Load and check one run (in this process or a worker's) into its report."""
    from urdf_tools_ros.core.session import run
    result = run(name, settings, xacro_args, texts=texts)
    loaded = result.description
    return report.FileReport(result.source, result.findings, loaded is not None,
                             dict(loaded.included_from) if loaded else {}, combination,
                             settings.werror)


def _reports(jobs: list[Job], workers: int, texts: MutableMapping[str, str]
             ) -> list[report.FileReport]:
    """The report of each job, in order: here, or in ``workers`` processes."""
    if workers < 2 or len(jobs) < 2:
        return [_report(*job, texts=texts) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
        return list(pool.map(_report, *zip(*jobs)))


def cmd_check(args: argparse.Namespace) -> int:
    """
    Check each file or folder (per ``--matrix`` combination); print or write the report.

    :return: 0 clean, 1 errors, 2 a file unloadable (its message once: in the text report on
        stdout, else one line on stderr) or a usage error.
    """
    from urdf_tools_ros.core.session import failing
    from urdf_tools_ros.core.source.matrix import label
    from ..core.checks.selection import UnknownCodeError

    request = CheckRequest.of(args)
    for name in request.files:
        if '=' in name and not os.path.exists(name):
            return _usage_error(f'{name!r}: not a file; xacro arguments are name:=value')
    if (request.diff or request.fix) and (
            not request.files or any(os.path.isdir(name) for name in request.files)):
        return _usage_error('--diff and --fix need the files named')
    texts: dict[str, str] = {}  # every file of this run, read once
    jobs: list[Job] = []
    try:  # ConfigError, MatrixError, UnknownCodeError, a malformed name:=value: ValueErrors
        settings = request.settings(config=True)
        for entry, fixed, own in _runs(request, settings):
            for name, extra in _matrix_runs(request, [entry], texts):
                combination = fixed + extra
                jobs.append((name, combination, parse_xacro_args(
                    [*request.xacro_args, *(f'{k}:={v}' for k, v in combination)]), own))
    except (ValueError, argparse.ArgumentTypeError) as exc:
        return _usage_error(str(exc))
    if not jobs:
        return _usage_error('no file given (and no entries in a .urdf-tools.toml or '
                            '[tool.urdf-tools] here)' if not request.files else
                            f'no robot description in {", ".join(request.files)}')
    if request.diff or request.fix:
        from .fix import run_fixes
        status = run_fixes(request, settings, texts)
        if status is not None:
            return status
    try:  # suppression comments, then select and ignore, are applied in the core
        reports = _reports(jobs, request.jobs, texts)
    except UnknownCodeError as exc:  # in a suppression comment
        return _usage_error(str(exc))
    _write(request, reports, settings)
    if not all(item.loaded for item in reports):
        for item in reports:  # once: a text report on stdout has said it already
            if not item.loaded and (request.output or request.format != 'text'):
                where = f' [{label(item.combination)}]' if item.combination else ''
                print(f'urdf-tools: {item.findings[0].location}{where}: '
                      f'{item.findings[0].message}', file=sys.stderr)
        return 2
    return 1 if any(failing(item.findings, item.werror) for item in reports) else 0


def _usage_error(message: str) -> int:
    print(f'urdf-tools check: {message}', file=sys.stderr)
    return 2


def _write(request: CheckRequest, reports: list[report.FileReport], settings: Settings) -> None:
    """Print the reports, or write them to ``--output`` and print a summary line of each."""
    if request.format == 'json':
        text = report.format_json(reports, target=settings.target)
    elif request.format == 'junit':
        text = report.format_junit(reports)
    elif request.format == 'sarif':
        from .version import version
        text = report.format_sarif(reports, version(), settings.target)
    else:
        stream = sys.stdout if not request.output else None
        text = report.format_text(reports, show_info=request.verbose, target=settings.target,
                                  verbose=request.verbose, colour=_colour(request.color, stream))
    if request.output:
        with open(request.output, 'w', encoding='utf-8') as out:
            out.write(text)
        if request.format != 'text':
            for item in reports:
                print(report.summary(item.title, item.findings))
    else:
        sys.stdout.write(text)


def add_check_arguments(check: argparse.ArgumentParser,
                        add_source: Callable[..., None]) -> None:
    """The arguments of ``check``; ``add_source`` adds the files and the loading options."""
    check.description = ('Check robot descriptions against every rule: files, or the entries '
                         'of a package or workspace folder.')
    add_source(check, several=True)
    check.add_argument('--matrix', action='append', default=[], metavar='NAME=V1,V2,...',
                       help='check each file once for every combination of these xacro '
                            'argument values (repeatable: the product; an empty value is '
                            'allowed: prefix=,left_); each is named in the report, the exit '
                            'status is the worst')
    check.add_argument('-j', '--jobs', type=number_argument(int, lambda n: n >= 1, 'a number',
                                                            'at least 1'),
                       default=1, metavar='N', help='check in N processes (default 1)')
    check.add_argument('--format', choices=FORMATS, default='text',
                       help='output format: text, json, junit (CI test reports), sarif '
                            '(GitHub code scanning)')
    check.add_argument('--color', choices=['auto', 'always', 'never'], default='auto',
                       help='colour the text: auto (on a terminal, unless NO_COLOR is set)')
    check.add_argument('-o', '--output', help='write the report to this file')
    check.add_argument('--werror', action='store_true', help='treat warnings as errors')
    check.add_argument('--select', action='append', metavar='CODE[,CODE]',
                       help='report only these rules (codes or prefixes such as mesh-); '
                            "replaces the configuration's select")
    check.add_argument('--ignore', action='append', metavar='CODE[,CODE]',
                       help='do not report these rules (codes or prefixes); adds to the '
                            "configuration's ignore")
    check.add_argument('--no-config', action='store_true',
                       help='ignore .urdf-tools.toml and pyproject.toml [tool.urdf-tools]')
    check.add_argument('--target', choices=list(TARGETS), default=None,
                       help='whose verdicts are errors: ros (urdfdom, robot_state_publisher, '
                            'RViz, KDL, joint_state_publisher, ros2_control of '
                            'the sourced ROS_DISTRO, else Jazzy; the default, or the '
                            "configuration's), "
                            + ', '.join(target for target in TARGETS if target.startswith('ros-'))
                            + f' ({ros_distros((1, 1), refuse=True)} read URDF 1.0 only; '
                            f'{ros_distros((1, 2))} 1.0 to 1.2), gazebo (SDFormat), mujoco, '
                            'pinocchio')
    check.add_argument('--no-cache', action='store_true',
                       help='measure every mesh again: neither read nor write the mesh facts '
                            'kept in $XDG_CACHE_HOME/urdf-tools')
    check.add_argument('-v', '--verbose', action='store_true',
                       help='also print info findings (always counted)')
    check.add_argument('--urdf-parser-py', action='store_true',
                       help='also read the description with urdf_parser_py and report what it '
                            'refuses (slower)')
    group = check.add_mutually_exclusive_group()
    group.add_argument('--diff', action='store_true',
                       help='print the mechanical fixes (unit joint axis, swapped inverted '
                            'limits, exact duplicate elements removed) as a unified diff; exit '
                            'as check would after them')
    group.add_argument('--fix', action='store_true',
                       help='write the mechanical fixes into the files (for xacro: where the '
                            'value is literal), then check them')
    check.add_argument('--fix-inertia', action='store_true',
                       help='with --diff or --fix: also set an implausible or invalid inertia '
                            'to that of the single collision box, cylinder or sphere at the '
                            "link's mass")
    check.set_defaults(handler=cmd_check)
