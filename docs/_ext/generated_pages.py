"""
Pages of the manual written from the code at build time (a Sphinx extension of docs/conf.py).

Each page is Markdown (MyST) written into ``docs/generated/`` (not in git) when Sphinx starts,
from the one source the code itself uses, so that the manual cannot drift from it:

* ``cli.md``: the ``urdf-tools`` argument parser (:func:`urdf_tools_ros.cli.main.build_parser`);
* ``rules.md``: the rule registry (codes, severity per target, consumers, sources) and the
  failing and fixed URDF of each rule (:mod:`urdf_tools_ros.core.checks.examples`);
* ``parameters.md``: the parameter table of the nodes (:mod:`urdf_tools_ros.ros.parameters`);
* ``api.md``: an ``automodule`` for each public module of :mod:`urdf_tools_ros.core`.

A page is rewritten only when its text changes, so an unchanged build reads nothing again.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
from pathlib import Path
import pkgutil
import sys
import types
from typing import Any, Iterator

#: Modules of urdf_tools_ros.core left out of the API page, and why.
API_EXCLUDED: dict[str, str] = {
    'urdf_tools_ros.core.lazy': 'the lazy re-export helper of the package __init__ modules',
}

#: The executables of the package and the parameter table each one declares.
NODE_TABLES: dict[str, str] = {
    'robot_description': 'DESCRIPTION_PARAMETERS',
    'joint_state_publisher': 'JOINT_STATE_PARAMETERS',
    'joint_state_publisher_gui': 'JOINT_STATE_GUI_PARAMETERS',
    'tf_broadcaster': 'TF_PARAMETERS',
    'robot_state_publisher': 'TF_PARAMETERS',
}

#: Width of the CLI help text (argparse wraps at the terminal's width otherwise).
HELP_WIDTH = '100'


def fence(text: str, language: str = 'text') -> str:
    """``text`` as a fenced code block, its fence longer than any backtick run inside it."""
    ticks = '```'
    while ticks in text:
        ticks += '`'
    return f'{ticks}{language}\n{text.rstrip()}\n{ticks}\n'


def cell(text: str) -> str:
    """``text`` for a Markdown table cell: pipes escaped, angle brackets as entities."""
    return text.replace('|', '\\|').replace('<', '&lt;').replace('>', '&gt;')


# -- CLI reference ------------------------------------------------------------------------------
@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def cli_page() -> str:
    """The ``urdf-tools`` reference: the help of the command and of every subcommand."""
    from urdf_tools_ros.cli.main import build_parser

    with _environment(COLUMNS=HELP_WIDTH):
        parser = build_parser()
        sub = next(action for action in parser._actions  # argparse has no public accessor
                   if isinstance(action, argparse._SubParsersAction))
        parts = ['# `urdf-tools` reference\n',
                 "Generated from the command's argument parser: each section is what "
                 '`urdf-tools COMMAND --help` prints. How to use them: {doc}`../cli`.\n',
                 fence(parser.format_help())]
        for name, subparser in sub.choices.items():
            parts.append(f'(cli-{name})=\n## `urdf-tools {name}`\n')
            parts.append(fence(subparser.format_help()))
    return '\n'.join(parts)


# -- rule catalog -------------------------------------------------------------------------------
def rules_page() -> str:
    """The rule catalog: the table, the targets and consumers, then one section per rule."""
    from urdf_tools_ros.cli.commands import rules_markdown
    from urdf_tools_ros.core.checks import CONSUMERS, RULES, TARGETS
    from urdf_tools_ros.core.checks.examples import EXAMPLES, NO_EXAMPLE

    table = []
    for line in rules_markdown().splitlines():
        if line.startswith('| `'):
            code = line.split('`')[1]
            line = f'| {{ref}}`{code} <rule-{code}>`' + line[len(code) + 4:]
        table.append(line)
    parts = [
        '# Rule catalog\n',
        'Generated from the rule registry: every rule with its severity for each `--target` '
        '(E error, W warning, I info; the columns group distros that agree), the consumers it '
        'breaks and what it checks. `urdf-tools rules` prints the same catalog, '
        '`urdf-tools rules CODE` one rule as below. Why a rule has its severity: '
        '{doc}`../severity`; choosing and suppressing rules: {doc}`../rules`.\n',
        '\n'.join(table) + '\n',
        '## Targets and their consumers\n',
        "A finding is an error for a target when it breaks one of the target's consumers. "
        'The default target, `ros`, is `ros-DISTRO` of the sourced `ROS_DISTRO`, else '
        '`ros-jazzy`.\n',
        '| target | consumers |\n|---|---|',
        *(f'| `{target}` | {", ".join(f"`{name}`" for name in sorted(consumers))} |'
          for target, consumers in TARGETS.items() if target != 'ros'),
        '',
        '| consumer | what it is |\n|---|---|',
        *(f'| `{name}` | {cell(text)} |' for name, text in CONSUMERS.items()),
        '',
        '## Rules\n',
    ]
    for code, rule in sorted(RULES.items()):
        parts.append(f'(rule-{code})=\n### `{code}`\n')
        parts.append(cell(rule.summary)[0].upper() + cell(rule.summary)[1:] + '.\n')
        severities = ', '.join(f'{target} {rule.severity_for(target).value}'
                               for target in TARGETS if target != 'ros')
        facts = [f'- severity: {severities} (`ros` is the distro of `ROS_DISTRO`, else Jazzy)']
        if rule.consumers:
            facts.append('- breaks or misleads: ' + ', '.join(
                f'`{name}`' for name in rule.consumers))
        else:
            facts.append('- breaks or misleads: no consumer (a likely mistake, or style)')
        facts.append('- also reported by: urdfdom' if rule.source == 'urdfdom'
                     else '- found by: urdf_tools_ros')
        if rule.reference:
            facts.append(f'- source: {cell(rule.reference)}')
        facts.append(f'- suppress on the element: `<!-- urdf-tools: ignore[{code}] -->`')
        parts.append('\n'.join(facts) + '\n')
        example = EXAMPLES.get(code)
        if example is not None:
            parts.append('Fails:\n')
            parts.append(fence(example.bad, 'xml'))
            parts.append('Fixed' + (f' (with {", ".join(example.files)} next to the file)'
                                    if example.files else '') + ':\n')
            parts.append(fence(example.good, 'xml'))
        elif code in NO_EXAMPLE:
            parts.append(f'No example: {cell(NO_EXAMPLE[code])}.\n')
    return '\n'.join(parts)


# -- node parameters ----------------------------------------------------------------------------
class _Anything(types.ModuleType):
    """A stand-in module whose every attribute is a class (the names the table imports)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith('__'):
            raise AttributeError(name)
        return type(name, (), {'__init__': lambda self, *args, **kwargs: None})


def parameter_table() -> types.ModuleType:
    """
    :mod:`urdf_tools_ros.ros.parameters`, imported without ROS where rclpy is not installed.

    The table is plain data; the module imports rclpy and rcl_interfaces for the functions that
    declare the parameters on a node. Where they are missing, they are stood in for while it is
    imported (and removed again), which is enough for the table and nothing else.
    """
    name = 'urdf_tools_ros.ros.parameters'
    try:
        return importlib.import_module(name)
    except ImportError:
        pass
    stand_ins = ('rclpy', 'rclpy.exceptions', 'rclpy.node', 'rcl_interfaces',
                 'rcl_interfaces.msg')
    added = [module for module in stand_ins if module not in sys.modules]
    for module in added:
        sys.modules[module] = _Anything(module)
    try:
        return importlib.import_module(name)
    finally:
        for module in added:
            sys.modules.pop(module, None)
        sys.modules.pop(name, None)  # nobody else gets the stood-in version


def _kind(default: object) -> str:
    if isinstance(default, bool):
        return 'bool'
    if isinstance(default, int):
        return 'integer'
    if isinstance(default, float):
        return 'double'
    if isinstance(default, list):
        return 'string array'
    return 'string'


def _range(item: Any) -> str:
    bounds = []
    if item.above is not None:
        bounds.append(f'> {item.above:g}')
    if item.minimum is not None and item.maximum is not None:
        bounds.append(f'[{item.minimum:g}, {item.maximum:g}]')
    if item.constraints and item.constraints not in bounds:
        bounds.append(item.constraints)
    return '; '.join(bounds)


def parameters_page() -> str:
    """One table per executable: name, type, default, range, read-only, description."""
    table = parameter_table()
    parts = ['# Node parameters\n',
             'Generated from the parameter table the nodes declare their parameters from '
             '(`urdf_tools_ros/ros/parameters.py`): what `ros2 param describe` says. A value of '
             'the wrong type or out of range given at start is logged with its name and the '
             'default is used. *read-only* parameters are read at start only (`ros2 param set` '
             'is refused). The nodes themselves: {doc}`../ros`.\n']
    for executable, attribute in NODE_TABLES.items():
        parts.append(f'(parameters-{executable})=\n## `{executable}`\n')
        same = [name for name, other in NODE_TABLES.items()
                if other == attribute and name != executable]
        if same and list(NODE_TABLES).index(same[0]) < list(NODE_TABLES).index(executable):
            parts.append(f'The parameters of {{ref}}`{same[0]} <parameters-{same[0]}>`.\n')
            continue
        parts.append('| parameter | type | default | range | read-only | description |\n'
                     '|---|---|---|---|---|---|')
        for item in getattr(table, attribute):
            default = repr(item.default) if not isinstance(item.default, bool) \
                else str(item.default).lower()
            parts.append(f'| `{item.name}` | {_kind(item.default)} | `{default}` | '
                         f'{cell(_range(item))} | {"yes" if item.read_only else "no"} | '
                         f'{cell(item.description)} |')
        parts.append('')
        if attribute.startswith('JOINT_STATE'):
            parts.append(f'Also declared per joint: `{table.ZEROS_PREFIX}<joint>` (start '
                         'position, rad or m; a number) for every joint of the description, and '
                         'any `zeros.*` or `dependent_joints.*` override given (declared, so '
                         '`ros2 param list` shows them; mimic relations come from the '
                         "URDF's `<mimic>` tags).\n")
    return '\n'.join(parts)


# -- Python API ---------------------------------------------------------------------------------
def api_modules() -> list[str]:
    """The public modules of :mod:`urdf_tools_ros.core`, packages first, by name."""
    import urdf_tools_ros.core as core
    names = [core.__name__]
    for info in pkgutil.walk_packages(core.__path__, core.__name__ + '.'):
        if not any(part.startswith('_') for part in info.name.split('.')):
            names.append(info.name)
    return sorted(name for name in names if name not in API_EXCLUDED)


def own_members(name: str) -> list[str] | None:
    """
    The functions and classes a package's ``__init__`` defines itself, or ``None`` for a module.

    A package re-exports the public names of its modules (lazily, :mod:`urdf_tools_ros.core.lazy`);
    they are documented once, in the module that defines them.
    """
    module = importlib.import_module(name)
    if not hasattr(module, '__path__'):
        return None
    return [key for key, value in vars(module).items()
            if not key.startswith('_') and getattr(value, '__module__', None) == name
            and (isinstance(value, type) or callable(value))]


def api_page() -> str:
    """The API reference: one ``automodule`` with its members per public core module."""
    parts = ['# API reference\n',
             'Generated from the docstrings of `urdf_tools_ros.core`, the ROS-free part of the '
             'package (how to use it: {doc}`../api`). Left out: ' +
             '; '.join(f'`{name}` ({reason})' for name, reason in API_EXCLUDED.items()) + '.\n']
    for name in api_modules():
        parts.append(f'## `{name}`\n')
        members = own_members(name)
        if members is None:
            options = '   :members:\n   :show-inheritance:\n'
        elif members:
            options = f'   :members: {", ".join(members)}\n'
        else:
            options = ''
        parts.append(f'```{{eval-rst}}\n.. automodule:: {name}\n{options}```\n')
    return '\n'.join(parts)


PAGES = {'cli.md': cli_page, 'rules.md': rules_page, 'parameters.md': parameters_page,
         'api.md': api_page}


def write_pages(folder: Path) -> list[Path]:
    """Write every generated page into ``folder``; return the pages whose text changed."""
    folder.mkdir(parents=True, exist_ok=True)
    changed = []
    for filename, page in PAGES.items():
        path = folder / filename
        text = page()
        if not path.is_file() or path.read_text(encoding='utf-8') != text:
            path.write_text(text, encoding='utf-8')
            changed.append(path)
    return changed


def _on_builder_inited(app: Any) -> None:
    write_pages(Path(app.srcdir) / 'generated')


def setup(app: Any) -> dict[str, Any]:
    """Sphinx extension entry point: write the pages when the builder starts."""
    app.connect('builder-inited', _on_builder_inited)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
