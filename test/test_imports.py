"""
The import graph of the package, read with ``ast``: no cycle, and the layers import downwards.

Lazy imports inside functions count; those under ``if TYPE_CHECKING:`` count where a test says
so. ``test_layering.py`` checks what importing actually loads (ROS, viser).
"""

from __future__ import annotations

import ast
from pathlib import Path
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO

PACKAGE = 'urdf_tools_ros'


def import_graph(root: Path = REPO / PACKAGE, typing: bool = False) -> dict[str, set[str]]:
    """
    ``{module: {modules of the package it imports}}`` of every module under ``root``.

    :param typing: Also count the imports under ``if TYPE_CHECKING:`` (what mypy reads).
    """
    modules: dict[str, tuple[Path, bool]] = {}
    for path in root.rglob('*.py'):
        parts = list(path.relative_to(root.parent).with_suffix('').parts)
        is_package = parts[-1] == '__init__'
        modules['.'.join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        typing_only = set() if typing else {
            id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
            and ast.unparse(node.test) in ('TYPE_CHECKING', 'typing.TYPE_CHECKING')
            for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ''
                if node.level:
                    parts = name.split('.') if is_package else name.split('.')[:-1]
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = '.'.join(parts + ([node.module] if node.module else []))
                targets = [f'{base}.{alias.name}' if f'{base}.{alias.name}' in modules else base
                           for alias in node.names]
            for target in targets:
                while target not in modules and '.' in target:
                    target = target.rsplit('.', 1)[0]
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def layer(module: str) -> str:
    """``core``, ``ros``, ``nodes``, ``gui``, ``cli`` or ``''`` (the package itself)."""
    parts = module.split('.')
    return parts[1] if len(parts) > 1 else ''


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert 'urdf_tools_ros.core.kinematics.forward' in graph['urdf_tools_ros.core.tf.broadcast']
    assert 'urdf_tools_ros.gui.viewer' in graph['urdf_tools_ros.nodes.joint_state_publisher']


@pytest.mark.parametrize('typing', [False, True], ids=['run-time', 'with-type-checking'])
def test_no_import_cycle(typing: bool) -> None:
    assert cycles(import_graph(typing=typing)) == []


def test_a_cycle_is_found() -> None:
    graph = {'a': {'b'}, 'b': {'c'}, 'c': {'a'}, 'd': {'a'}}
    assert cycles(graph) == [['a', 'b', 'c']]


def test_layers_import_only_downwards() -> None:
    forbidden = {'core': {'ros', 'nodes', 'gui', 'cli', 'lsp'}, 'cli': {'nodes', 'ros'},
                 'lsp': {'ros', 'nodes', 'gui'}, 'ros': {'lsp'}, 'nodes': {'lsp'},
                 'gui': {'lsp'}}
    wrong = [(module, target) for module, targets in import_graph().items()
             for target in targets if layer(target) in forbidden.get(layer(module), set())]
    assert wrong == []


#: The core's own layers, lowest first: a core module imports only from its own package or a
#: lower layer (the leaves import only leaves).
CORE_LAYERS = ({'location', 'lazy', 'findings', 'errors', 'transforms'}, {'model'}, {'source'},
               {'meshes', 'kinematics'}, {'checks', 'joint_state', 'tf'}, {'fix', 'diff'},
               {'session'}, {'description_source'})


def core_layer(module: str) -> tuple[int, str] | None:
    """``(rank in CORE_LAYERS, package)`` of a module of ``core``, else ``None``."""
    parts = module.split('.')
    if parts[1:2] != ['core'] or len(parts) < 3:
        return None
    rank = next(rank for rank, names in enumerate(CORE_LAYERS) if parts[2] in names)
    return rank, parts[2]


@pytest.mark.parametrize('typing', [False, True], ids=['run-time', 'with-type-checking'])
def test_core_layers_import_only_downwards(typing: bool) -> None:
    wrong = []
    for module, targets in import_graph(typing=typing).items():
        for target in targets:
            own, other = core_layer(module), core_layer(target)
            if own and other and other[1] != own[1] and other[0] >= own[0] and own[0] > 0:
                wrong.append((module, target))
            elif own and other and own[0] == 0 and other[0] > 0:
                wrong.append((module, target))
    assert wrong == []


def test_a_leaf_importing_the_model_is_caught() -> None:
    assert core_layer('urdf_tools_ros.core.findings') == (0, 'findings')
    assert core_layer('urdf_tools_ros.core.model.robot') == (1, 'model')
    assert core_layer('urdf_tools_ros.core.checks.rules.tree')[0] > core_layer(
        'urdf_tools_ros.core.kinematics.tree')[0]


def test_only_the_lsp_subcommand_imports_the_language_server() -> None:
    """``lsp`` (pygls) is imported by ``cli.lsp_command`` alone, and uses ``core`` only."""
    graph = import_graph()
    importers = {module for module, targets in graph.items() if layer(module) != 'lsp'
                 for target in targets if layer(target) == 'lsp'}
    assert importers == {'urdf_tools_ros.cli.lsp_command'}
    assert {layer(target) for module, targets in graph.items() if layer(module) == 'lsp'
            for target in targets} <= {'core', 'lsp'}


def test_front_ends_import_each_other_only_to_start_one() -> None:
    """The CLI starts the server and the viewer, the GUI node the viewer; nothing else crosses."""
    front_ends = {'cli', 'lsp', 'gui', 'pytest_plugin', 'nodes'}
    crossing = {(module, target) for module, targets in import_graph(typing=True).items()
                for target in targets if {layer(module), layer(target)} <= front_ends
                and layer(module) != layer(target)}
    viewer = 'urdf_tools_ros.gui.viewer'
    assert crossing == {('urdf_tools_ros.cli.lsp_command', 'urdf_tools_ros.lsp.app'),
                        ('urdf_tools_ros.cli.view', viewer),
                        ('urdf_tools_ros.nodes.joint_state_publisher', viewer)}


def test_nodes_use_only_the_public_gui() -> None:
    wrong = [(module, target) for module, targets in import_graph().items()
             if layer(module) == 'nodes' for target in targets
             if layer(target) == 'gui' and target != 'urdf_tools_ros.gui.viewer']
    assert wrong == []


def test_public_api_is_one_import_away_and_lazy() -> None:
    """``urdf_tools_ros.core`` re-exports the API lazily: importing it loads none of it."""
    script = textwrap.dedent("""
        import sys
        import urdf_tools_ros.core as core
        loaded = sorted(name for name in ('numpy', 'lxml', 'xacro', 'urdf_parser_py',
                                          'urdf_tools_ros.core.source.loader',
                                          'urdf_tools_ros.core.kinematics.forward')
                        if name in sys.modules)
        from urdf_tools_ros.core import (check_description, JointStateTable, KinematicModel,
                                         load, RobotDescriptionError)
        from urdf_tools_ros.core.checks import check_description as checks_check
        from urdf_tools_ros.core.source import load as description_load
        from urdf_tools_ros.core.joint_state import JointStateTable as joint_state_table
        from urdf_tools_ros.core.kinematics import KinematicModel as kinematics_model
        same = (load is description_load, check_description is checks_check,
                JointStateTable is joint_state_table, KinematicModel is kinematics_model,
                issubclass(RobotDescriptionError, Exception))
        missing = [name for name in core.__all__ if not hasattr(core, name)]
        try:
            core.no_such_name
            unknown = 'no error'
        except AttributeError as exc:
            unknown = str(exc)
        print(loaded, same, missing, unknown, sep='|')
    """)
    done = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                          cwd=REPO, check=True)
    loaded, same, missing, unknown = done.stdout.strip().split('|')
    assert loaded == '[]'
    assert same == '(True, True, True, True, True)'
    assert missing == '[]'
    assert 'no_such_name' in unknown


#: What changes the cyclic garbage collector for the whole process (and rclpy's threads).
GC_STATE = {'disable', 'enable', 'freeze', 'unfreeze', 'set_threshold', 'collect'}


def gc_state_calls(source: str) -> list[str]:
    """The calls of :data:`GC_STATE` functions in ``source``, and any ``from gc import``."""
    tree = ast.parse(source)
    return [ast.unparse(node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in GC_STATE and ast.unparse(node.func.value) == 'gc'
            or isinstance(node, ast.ImportFrom) and node.module == 'gc']


def test_no_process_global_collector_state() -> None:
    assert sorted(gc_state_calls('import gc\ngc.disable()\nfrom gc import freeze')) == [
        'from gc import freeze', 'gc.disable()']
    assert [(str(path), call) for path in (REPO / PACKAGE).rglob('*.py')
            for call in gc_state_calls(path.read_text())] == []
