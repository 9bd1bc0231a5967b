"""
Launch files, parameter files and the RViz configuration, checked without launch or RViz.

The launch files are read with ``ast`` (launch and launch_ros are not on PyPI): every argument
has a description, booleans have choices, every executable is a console script, every package
file they name exists, and nothing runs at import time. Each parameter file is loaded by rcl's
own parser into its node (where rclpy is installed): every key is a declared parameter and takes.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import REPO

pytestmark = pytest.mark.installed

LAUNCH_FILES = sorted((REPO / 'launch').glob('*.launch.py'))
CONFIG = REPO / 'config'
#: Parameter file -> (node module, node class, node name).
PARAMETER_FILES = {
    'robot_description.yaml': ('urdf_tools_ros.nodes.robot_description', 'RobotDescriptionNode',
                               'robot_description_publisher'),
    'joint_state_publisher.yaml': ('urdf_tools_ros.nodes.joint_state_publisher',
                                   'JointStatePublisherNode', 'joint_state_publisher'),
    'tf_broadcaster.yaml': ('urdf_tools_ros.nodes.tf_broadcaster', 'TfBroadcasterNode',
                            'tf_broadcaster'),
}


def calls(tree: ast.AST, name: str) -> list[ast.Call]:
    """Every call of a function or class called ``name``."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and
            getattr(node.func, 'id', getattr(node.func, 'attr', None)) == name]


def keyword(call: ast.Call, name: str) -> Any:
    """The literal value of keyword argument ``name``, or ``None`` when absent."""
    for item in call.keywords:
        if item.arg == name:
            return ast.literal_eval(item.value) if not isinstance(item.value, ast.Call) \
                else item.value
    return None


def console_scripts() -> dict[str, str]:
    """``{executable: 'module:function'}`` of setup.py's console_scripts entry points."""
    from test_colcon import setup_lists

    scripts = setup_lists('CLI_SCRIPTS', 'ROS_SCRIPTS')
    return {name.strip(): target.strip() for name, target in
            (script.split('=', 1) for script in scripts)}


@pytest.fixture(params=LAUNCH_FILES, ids=lambda path: path.name)
def launch_tree(request: pytest.FixtureRequest) -> ast.Module:
    return ast.parse(request.param.read_text(), str(request.param))


def test_launch_files_exist() -> None:
    assert {path.name for path in LAUNCH_FILES} >= {'display.launch.py',
                                                    'description.launch.py'}


def test_only_definitions_at_import_time(launch_tree: ast.Module) -> None:
    for statement in launch_tree.body:
        assert isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef)) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)), \
            ast.dump(statement)[:80]
    assert [f.name for f in launch_tree.body if isinstance(f, ast.FunctionDef)] == [
        'generate_launch_description']


def test_arguments_described_and_booleans_have_choices(launch_tree: ast.Module) -> None:
    arguments = calls(launch_tree, 'DeclareLaunchArgument')
    assert arguments
    for argument in arguments:
        name = ast.literal_eval(argument.args[0])
        description = keyword(argument, 'description')
        assert isinstance(description, str) and description.strip(), name
        default = keyword(argument, 'default_value')
        if default in ('true', 'false'):
            assert keyword(argument, 'choices') == ['true', 'false'], name


def test_display_arguments() -> None:
    tree = ast.parse((REPO / 'launch' / 'display.launch.py').read_text())
    names = {ast.literal_eval(call.args[0]) for call in calls(tree, 'DeclareLaunchArgument')}
    assert names >= {'model', 'xacro_args', 'gui', 'rviz', 'rvizconfig', 'use_sim_time',
                     'frame_prefix'}


def test_executables_are_console_scripts(launch_tree: ast.Module) -> None:
    scripts = console_scripts()
    ours = [call for call in calls(launch_tree, 'Node')
            if keyword(call, 'package') == 'urdf_tools_ros']
    assert ours
    for call in ours:
        executable = keyword(call, 'executable')
        assert executable in scripts, f'{executable} is not a console script of setup.py'
        module, function = scripts[executable].split(':')
        source = REPO / (module.replace('.', '/') + '.py')
        assert function in {f.name for f in ast.parse(source.read_text()).body
                            if isinstance(f, ast.FunctionDef)}


def test_package_files_exist(launch_tree: ast.Module) -> None:
    paths = []
    for call in calls(launch_tree, 'PathJoinSubstitution'):
        parts = call.args[0]
        assert isinstance(parts, ast.List)
        if getattr(parts.elts[0], 'id', None) == 'share':
            paths.append(REPO.joinpath(*(ast.literal_eval(part) for part in parts.elts[1:])))
    assert paths
    for path in paths:
        assert path.is_file(), path


def test_rviz_config() -> None:
    config = yaml.safe_load((CONFIG / 'display.rviz').read_text())
    manager = config['Visualization Manager']
    assert manager['Global Options']['Fixed Frame'] == 'world'  # the sample robot's root
    displays = {display['Class']: display for display in manager['Displays']}
    assert set(displays) >= {'rviz_default_plugins/Grid', 'rviz_default_plugins/RobotModel',
                             'rviz_default_plugins/TF'}
    model = displays['rviz_default_plugins/RobotModel']
    assert model['Description Source'] == 'Topic'
    assert model['Description Topic']['Value'] == '/robot_description'
    assert model['Description Topic']['Durability Policy'] == 'Transient Local'


def flatten(values: dict[str, Any], prefix: str = '') -> dict[str, Any]:
    """Nested parameter dicts as dotted names, as ROS reads them."""
    result: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            result.update(flatten(value, f'{prefix}{key}.'))
        else:
            result[f'{prefix}{key}'] = value
    return result


@pytest.mark.parametrize('filename', sorted(PARAMETER_FILES))
def test_parameter_file_keys_are_declared(filename: str) -> None:
    module, _, node_name = PARAMETER_FILES[filename]
    content = yaml.safe_load((CONFIG / filename).read_text())
    # Keyed /**: a file keyed by node name would override the launch files' own values once a
    # bringup sets a global parameter (SetParameter(use_sim_time)).
    assert list(content) == ['/**']
    values = flatten(content['/**']['ros__parameters'])
    assert values
    specs = pytest.importorskip('urdf_tools_ros.ros.parameters')
    declared = {
        'robot_description_publisher': specs.DESCRIPTION_PARAMETERS,
        'joint_state_publisher': specs.JOINT_STATE_PARAMETERS,
        'tf_broadcaster': specs.TF_PARAMETERS}[node_name]
    for key, value in values.items():
        spec = specs.spec(declared, key)
        assert type(value) is type(spec.default) or spec.dynamic_typing, key
        assert value == spec.default, f'{filename}: {key} is not the default'


@pytest.mark.ros
@pytest.mark.parametrize('filename', sorted(PARAMETER_FILES))
def test_parameter_file_loads_into_its_node(filename: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rclpy = pytest.importorskip('rclpy')
    import importlib

    module, class_name, node_name = PARAMETER_FILES[filename]
    node_class = getattr(importlib.import_module(module), class_name)
    monkeypatch.setenv('ROS_LOG_DIR', str(tmp_path))
    monkeypatch.setenv('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    context = rclpy.context.Context()
    rclpy.init(args=['--ros-args', '--params-file', str(CONFIG / filename)], context=context)
    try:
        node = node_class(context=context)
        try:
            assert node.get_name() == node_name
            values = flatten(yaml.safe_load((CONFIG / filename).read_text())['/**'][
                'ros__parameters'])
            for key, value in values.items():
                assert node.has_parameter(key), key
                assert node.get_parameter(key).value == value, key
        finally:
            node.destroy_node()
    finally:
        rclpy.try_shutdown(context=context)


def test_settings_classes_hold_every_parameter_of_their_table() -> None:
    """Each node reads its parameters once into a frozen dataclass with one field per parameter."""
    import dataclasses

    specs = pytest.importorskip('urdf_tools_ros.ros.parameters')
    assert len(specs.SETTINGS_TABLES) == 3
    for kind, table in specs.SETTINGS_TABLES.items():
        assert [field.name for field in dataclasses.fields(kind)] == [s.name for s in table]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(kind(*(s.default for s in table)), table[0].name, None)
