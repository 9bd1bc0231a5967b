"""The subcommands of ``urdf-tools``: argument definitions and handlers."""

from __future__ import annotations

import argparse
from collections.abc import MutableMapping
import os
import sys
from typing import TYPE_CHECKING

from urdf_tools_ros.core.model.values import ros_distros
from urdf_tools_ros.core.source.loader import parse_xacro_args, RobotDescription
from . import report
from .request import CheckRequest
from ..core.checks import CONSUMERS, RULES, TARGETS

if TYPE_CHECKING:
    from urdf_tools_ros.core.source.matrix import Combination
    from ..core.checks.config import Config

FORMATS = ('text', 'json', 'junit', 'sarif')


def _add_source(parser: argparse.ArgumentParser, several: bool = False) -> None:
    if several:  # files and name:=value in any order
        parser.add_argument('file', nargs='*', metavar='FILE [name:=value]',
                            help='URDF or xacro files (- for standard input), and xacro '
                                 'arguments name:=value for them; none: the entries of the '
                                 'configuration (.urdf-tools.toml)')
    else:
        parser.add_argument('file', help='URDF or xacro file, or - for standard input')
        parser.add_argument('xacro_args', nargs='*', metavar='name:=value',
                            help='xacro arguments')
    parser.add_argument('--package-path', action='append', default=[], metavar='[NAME=]DIR',
                        help='NAME=DIR: the share directory of ROS package NAME; DIR: a '
                             'folder of packages, each in a subfolder named after it (as in '
                             'URDF_TOOLS_PACKAGE_PATH); for package:// and $(find), relative '
                             'to the current directory; repeatable, asked before '
                             'URDF_TOOLS_PACKAGE_PATH, the packages of the colcon workspace '
                             "around the file (or its package's siblings) and the ament index "
                             '(when ROS is sourced)')
    parser.add_argument('--xacro', choices=['auto', 'yes', 'no'], default='auto',
                        help='run xacro: auto (when the file is named .xacro or uses xacro: '
                             '<xacro:...> elements, ${...} or $(...)), yes, no')


def load_from_args(args: argparse.Namespace) -> RobotDescription:
    """Load the file parsed arguments name (:meth:`CheckRequest.load`, with its errors)."""
    return CheckRequest.of(args).load()


def _usage_error(args: argparse.Namespace, message: str) -> int:
    print(f'urdf-tools {args.command}: {message}', file=sys.stderr)
    return 2


# -- check ----------------------------------------------------------------------------------------
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


def _configured_runs(config: Config) -> list[tuple[str, Combination]]:
    """
    ``(file, xacro arguments)`` of each entry of a configuration, once per matrix combination.

    :raises MatrixError: if an entry's matrix names an argument its ``args`` give too.
    """
    from urdf_tools_ros.core.source.matrix import combinations, MatrixError
    runs = []
    for entry in config.entries:
        twice = {name for name, _ in entry.args} & {name for name, _ in entry.matrix}
        if twice:
            raise MatrixError(f'{config.path}: entry {entry.file}: {", ".join(sorted(twice))} '
                              'in both args and matrix')
        runs += [(str(entry.file), entry.args + combination)
                 for combination in combinations(dict(entry.matrix))]
    return runs


def cmd_check(args: argparse.Namespace) -> int:
    """
    Check each file (per ``--matrix`` combination); print or write the report.

    :return: 0 clean, 1 errors, 2 a file unloadable (its message once: in the text report on
        stdout, else one line on stderr) or a usage error.
    """
    from pathlib import Path

    from urdf_tools_ros.core.session import failing, run
    from urdf_tools_ros.core.source.matrix import label, MatrixError
    from ..core.checks.config import ConfigError, find_config
    from ..core.checks.selection import UnknownCodeError

    request = CheckRequest.of(args)
    files = list(request.files)
    for name in files:
        if '=' in name and not os.path.exists(name):
            return _usage_error(args, f'{name!r}: not a file; xacro arguments are name:=value')
    texts: dict[str, str] = {}  # every file of this run, read once
    entries: list[tuple[str, Combination]] = []
    if not files:  # the entries of the configuration, each with its arguments and matrix
        try:
            entries = [] if request.no_config else _configured_runs(find_config(Path.cwd()))
        except (ConfigError, MatrixError) as exc:
            return _usage_error(args, str(exc))
        if not entries:
            return _usage_error(args, 'no file given (and no entries in a .urdf-tools.toml '
                                      'or [tool.urdf-tools] here)')
        if request.diff or request.fix:
            return _usage_error(args, '--diff and --fix need the files named')
        files = list(dict.fromkeys(name for name, _ in entries))
    try:
        runs = [(name, entry + combination) for name, entry in entries
                for _, combination in _matrix_runs(request, [name], texts)] if entries \
            else _matrix_runs(request, files, texts)
    except MatrixError as exc:
        return _usage_error(args, str(exc))
    try:
        settings = request.settings(config=True)
    except (ConfigError, UnknownCodeError, argparse.ArgumentTypeError) as exc:
        return _usage_error(args, str(exc))
    if request.diff or request.fix:
        from .fix import run_fixes
        status = run_fixes(request, settings, texts)
        if status is not None:
            return status
    reports: list[report.FileReport] = []
    for name, combination in runs:
        try:
            xacro_args = parse_xacro_args(
                [*request.xacro_args, *(f'{key}:={value}' for key, value in combination)])
        except ValueError as exc:
            return _usage_error(args, str(exc))
        try:  # suppression comments, then select and ignore, are applied in the core
            result = run(name, settings, xacro_args, texts=texts)
        except UnknownCodeError as exc:  # in a suppression comment
            return _usage_error(args, str(exc))
        loaded = result.description
        reports.append(report.FileReport(result.source, result.findings, loaded is not None,
                                         loaded.included_from if loaded else {}, combination))
    if request.format == 'json':
        text = report.format_json(reports, target=settings.target)
    elif request.format == 'junit':
        text = report.format_junit(reports, werror=settings.werror)
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
    if not all(item.loaded for item in reports):
        for item in reports:  # once: a text report on stdout has said it already
            if not item.loaded and (request.output or request.format != 'text'):
                where = f' [{label(item.combination)}]' if item.combination else ''
                print(f'urdf-tools: {item.findings[0].location}{where}: '
                      f'{item.findings[0].message}', file=sys.stderr)
        return 2
    return 1 if failing((f for item in reports for f in item.findings), settings.werror) else 0


# -- graph --------------------------------------------------------------------------------------
def _dot_id(*lines: str) -> str:
    """Quote a dot string; several arguments become lines (dot's ``\\n``)."""
    escaped = (line.replace('\\', '\\\\').replace('"', '\\"') for line in lines)
    return '"' + '\\n'.join(escaped) + '"'


def to_dot(description: RobotDescription) -> str:
    """Graphviz dot of the kinematic graph: links as boxes, joints as labelled edges."""
    robot = description.robot
    lines = [f'digraph {_dot_id(robot.name or "robot")} {{', '  rankdir=TB;',
             '  node [shape=box, style=rounded, fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=10];']
    for link in robot.links:
        lines.append(f'  {_dot_id(link.name)};')
    for joint in robot.joints:
        label = [joint.name, f'({joint.joint_type})']
        if joint.mimic is not None:
            label.append(f'mimic {joint.mimic.joint}')
        label.append('xyz: ' + ' '.join(f'{v:g}' for v in joint.origin.xyz))
        label.append('rpy: ' + ' '.join(f'{v:g}' for v in joint.origin.rpy))
        style = ', style=dashed' if joint.joint_type == 'fixed' else ''
        lines.append(f'  {_dot_id(joint.parent)} -> {_dot_id(joint.child)} '
                     f'[label={_dot_id(*label)}{style}];')
    lines.append('}')
    return '\n'.join(lines) + '\n'


def cmd_graph(args: argparse.Namespace) -> int:
    """Write Graphviz dot (to stdout or -o FILE.dot), or PDF/SVG/PNG when ``dot`` is installed."""
    try:
        description = load_from_args(args)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        return _usage_error(args, str(exc))
    dot, output = to_dot(description), args.output
    extension = os.path.splitext(output or '')[1].lower().lstrip('.')
    if output in (None, '-') or extension in ('', 'dot', 'gv'):
        report.write_output(output, dot)
        return 0
    if extension not in ('pdf', 'svg', 'png'):
        return _usage_error(args, f'cannot write .{extension}; use .dot, .pdf, .svg or .png')
    import shutil
    import subprocess
    executable = shutil.which('dot')
    if executable is None:
        base = os.path.splitext(output)[0] + '.dot'
        with open(base, 'w', encoding='utf-8') as stream:
            stream.write(dot)
        print(f'urdf-tools graph: Graphviz "dot" is not installed, so no {extension.upper()} was '
              f'made; wrote {base} instead (install graphviz, e.g. apt-get install graphviz, '
              f'then: dot -T{extension} {base} -o {output})', file=sys.stderr)
        return 1
    result = subprocess.run([executable, f'-T{extension}', '-o', output], input=dot.encode(),
                            capture_output=True, check=False)
    if result.returncode != 0:
        print(f'urdf-tools graph: dot failed: {result.stderr.decode(errors="replace")}',
              file=sys.stderr)
        return 1
    print(f'wrote {output}')
    return 0


# -- rules ------------------------------------------------------------------------------------
#: The targets the catalog shows, with their column titles (the distros of a title agree).
COLUMNS = {'ros-jazzy': 'humble jazzy kilted', 'ros-lyrical': 'lyrical', 'ros-rolling': 'rolling',
           'gazebo': 'gazebo', 'mujoco': 'mujoco', 'pinocchio': 'pinocchio'}


def rules_markdown() -> str:
    """The rule catalog as a Markdown table: code, severity per target (E, W, I), consumers."""
    def cell(text: str) -> str:
        return text.replace('|', '\\|').replace('<', '&lt;').replace('>', '&gt;')

    head = ['code', *COLUMNS.values(), 'breaks', 'what it checks']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for code, rule in sorted(RULES.items()):
        marks = [rule.severity_for(target).value[0].upper() for target in COLUMNS]
        lines.append(f'| `{code}` | ' + ' | '.join(marks) +
                     f' | {", ".join(rule.consumers) or "-"} | {cell(rule.summary)} |')
    return '\n'.join(lines) + '\n'


def _explain(args: argparse.Namespace) -> int:
    """``urdf-tools rules CODE``: what one rule checks, whom it matters to, where it comes from."""
    rule = RULES.get(args.code)
    if rule is None:
        near = [code for code in RULES if code.startswith(args.code)] or \
            [code for code in RULES if args.code in code]
        hint = f'; did you mean {", ".join(near[:5])}?' if near else ''
        return _usage_error(args, f'unknown rule code {args.code!r}{hint}')
    print(f'{rule.code}: {rule.summary}')
    print('severity: ' + ', '.join(f'{target} {rule.severity_for(target).value}'
                                   for target in TARGETS))
    if rule.consumers:
        print('breaks or misleads:')
        for consumer in rule.consumers:
            print(f'  {consumer}: {CONSUMERS[consumer]}')
    else:
        print('breaks or misleads: no consumer (a likely mistake, or style)')
    print(f'also reported by: {rule.source}' if rule.source != 'urdf_tools_ros'
          else 'found by: urdf_tools_ros')
    if rule.reference:
        print(f'source: {rule.reference}')
    from ..core.checks.examples import EXAMPLES, NO_EXAMPLE
    example = EXAMPLES.get(rule.code)
    if example is not None:
        for title, text in (('fails', example.bad), ('fixed', example.good)):
            print(f'{title}:')
            print('\n'.join('    ' + line for line in text.splitlines()))
        if example.files:
            print(f'    (with {", ".join(example.files)} next to the file)')
    elif rule.code in NO_EXAMPLE:
        print(f'no example: {NO_EXAMPLE[rule.code]}')
    print(f'suppress on the element: <!-- urdf-tools: ignore[{rule.code}] -->')
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rule catalog (code, severity per :data:`COLUMNS`, consumers), or explain one."""
    if args.code:
        return _explain(args)
    if args.markdown:
        sys.stdout.write(rules_markdown())
        return 0
    width = max(len(code) for code in RULES)
    titles = ['/'.join(word[0] for word in title.split()) if ' ' in title else title[:4]
              for title in COLUMNS.values()]  # h/j/k, lyri, roll, gaze, ...
    print(f'{"code":<{width}}  {" ".join(f"{t:<5}" for t in titles)} consumers / summary')
    for code, rule in RULES.items():
        marks = ' '.join(f'{rule.severity_for(target).value[0].upper():<5}'
                         for target in COLUMNS)
        consumers = ', '.join(rule.consumers) or '-'
        print(f'{code:<{width}}  {marks} {consumers}: {rule.summary}')
    print('\nconsumers: ' + '; '.join(f'{key}: {text}' for key, text in CONSUMERS.items()))
    return 0


# -- convert --------------------------------------------------------------------------------------
def cmd_convert(args: argparse.Namespace) -> int:
    """Write the description as URDF 1.0 (for Humble, Jazzy, Kilted); exit 2 if it cannot be."""
    from urdf_tools_ros.core.model.convert import to_urdf_1_0
    try:
        description = load_from_args(args)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        from ..core.errors import RobotDescriptionError
        if isinstance(exc, RobotDescriptionError):
            raise
        return _usage_error(args, str(exc))
    report.write_output(args.output, to_urdf_1_0(description.xml, description.filename),
                        ' (URDF 1.0)')
    return 0


# -- registration -------------------------------------------------------------------------------
#: Each subcommand and its one-line help, in the order ``urdf-tools --help`` lists them.
COMMANDS = {
    'check': 'check URDF/xacro files; exit 0 clean, 1 errors, 2 could not load',
    'rules': 'list every rule of the checker, or explain one',
    'convert': 'write a URDF 1.1/1.2 file as URDF 1.0',
    'graph': 'Graphviz graph of links and joints',
    'tree': 'print the link/joint tree (like check_urdf)',
    'inertia': 'inertia of a solid box, cylinder, sphere or capsule',
    'view': 'joint sliders and a live 3D view in the browser (no ROS needed)',
    'diff': 'compare two robot descriptions as robots; exit 0 same, 1 different, 2 not loaded',
    'lsp': 'language server (LSP) on stdio for editors: diagnostics and quick fixes as you type',
}


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                 only: str | None = None) -> None:
    """
    Add the subcommands to the ``urdf-tools`` parser.

    :param only: Add this subcommand alone; a word that is not one: all, with their help only
        (for ``--help`` and the "invalid choice" error); ``None``: all, with their arguments.
    """
    for name, help_text in COMMANDS.items():
        if only is not None and name != only:
            if only not in COMMANDS:
                sub.add_parser(name, help=help_text)
            continue
        parser = sub.add_parser(name, help=help_text)
        if name == 'tree':
            from .inspect_commands import add_tree_arguments
            add_tree_arguments(parser, _add_source, load_from_args)
        elif name == 'inertia':
            from .inspect_commands import add_inertia_arguments
            add_inertia_arguments(parser)
        elif name == 'view':
            from .view import add_view_arguments
            add_view_arguments(parser, _add_source, load_from_args)
        elif name == 'diff':
            from .diff import add_diff_arguments
            add_diff_arguments(parser)
        elif name == 'lsp':
            from .lsp_command import add_lsp_arguments
            add_lsp_arguments(parser)
        else:
            _ARGUMENTS[name](parser)


def _check_arguments(check: argparse.ArgumentParser) -> None:
    check.description = 'Check a robot description against every rule.'
    _add_source(check, several=True)
    check.add_argument('--matrix', action='append', default=[], metavar='NAME=V1,V2,...',
                       help='check each file once for every combination of these xacro '
                            'argument values (repeatable: the product; an empty value is '
                            'allowed: prefix=,left_); each is named in the report, the exit '
                            'status is the worst')
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
                            'RViz, urdf_parser_py, KDL, joint_state_publisher, ros2_control of '
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


def _rules_arguments(rules: argparse.ArgumentParser) -> None:
    rules.description = ('List the rule catalog (code, severity per target, consumers, '
                         'summary), or explain one rule.')
    rules.add_argument('code', nargs='?', help='explain this rule')
    rules.add_argument('--markdown', action='store_true',
                       help='print the catalog as a Markdown table')
    rules.set_defaults(handler=cmd_rules)


def _convert_arguments(convert: argparse.ArgumentParser) -> None:
    convert.description = ('Write the description as URDF 1.0, which Humble, Jazzy and Kilted '
                           'read, with the same kinematics: quat_xyzw -> rpy, capsule -> '
                           'cylinder + two spheres, acceleration/deceleration/jerk dropped '
                           '(kept in a comment). What 1.0 cannot express is refused (exit 2).')
    _add_source(convert)
    convert.add_argument('--to', choices=['1.0'], default='1.0', help='URDF version to write')
    convert.add_argument('-o', '--output', help='output file (default: standard output)')
    convert.set_defaults(handler=cmd_convert)


def _graph_arguments(graph: argparse.ArgumentParser) -> None:
    graph.description = ('Print the link/joint graph as Graphviz dot, or render it when -o '
                         'names a .pdf/.svg/.png and dot is installed.')
    _add_source(graph)
    graph.add_argument('-o', '--output', help='output file: .dot (default stdout), .pdf, .svg, '
                                              '.png')
    graph.set_defaults(handler=cmd_graph)


_ARGUMENTS = {'check': _check_arguments, 'rules': _rules_arguments, 'convert': _convert_arguments,
              'graph': _graph_arguments}
