"""The subcommands of ``urdf-tools``: argument definitions and handlers."""

from __future__ import annotations

import argparse
import os
import sys

from urdf_tools_ros.core.source.loader import RobotDescription
from . import report
from .request import CheckRequest
from ..core.checks import CONSUMERS, RULES, TARGETS


def _add_source(parser: argparse.ArgumentParser, several: bool = False) -> None:
    if several:  # files and name:=value in any order
        parser.add_argument('file', nargs='*', metavar='FILE [name:=value]',
                            help='URDF or xacro files (- for standard input), folders (a '
                                 'package or a colcon workspace: the entries of each package '
                                 'in it), and xacro arguments name:=value for them; none: the '
                                 'entries of the configuration (.urdf-tools.toml)')
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
COLUMNS = {'ros-humble': 'humble', 'ros-jazzy': 'jazzy', 'ros-kilted': 'kilted',
           'ros-lyrical': 'lyrical rolling', 'gazebo': 'gazebo', 'mujoco': 'mujoco',
           'pinocchio': 'pinocchio'}


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
              for title in COLUMNS.values()]  # humb, jazz, kilt, l/r, gaze, ...
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
    'check': 'check URDF/xacro files or the entries of a package or workspace; exit 0 clean, '
             '1 errors, 2 could not load',
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
        if name == 'check':
            from .check import add_check_arguments
            add_check_arguments(parser, _add_source)
        elif name == 'tree':
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


_ARGUMENTS = {'rules': _rules_arguments, 'convert': _convert_arguments,
              'graph': _graph_arguments}
