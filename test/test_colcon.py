"""
``colcon build`` and ``colcon test`` of the package in a temporary workspace (colcon from PyPI).

A plain ``colcon build`` (no ``--symlink-install``) installs every console script under
``lib/urdf_tools_ros``, the launch, config and urdf files and the ament index entry; the
installed ``tf_broadcaster`` publishes to this process. ``colcon test`` runs
:data:`COLCON_TEST_SUBSET` and ``colcon test-result`` reports no failure; the copy sets
``URDF_TOOLS_COLCON_INNER`` so that this module skips itself inside it.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
import shutil
import signal
import subprocess
import sys
import time

import pytest
import yaml

from conftest import REPO, ros_domain_id

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec('colcon_core') is None,
                       reason='colcon is not installed: pip install colcon-common-extensions'),
    pytest.mark.skipif(os.environ.get('URDF_TOOLS_COLCON_INNER') == '1',
                       reason='already inside the colcon test of test_colcon.py'),
]

PACKAGE = 'urdf_tools_ros'
#: What ``colcon test`` runs here: launch/config checks and the TF node tests (real rclpy).
COLCON_TEST_SUBSET = ('test/test_launch_files.py', 'test/test_nodes_tf.py')
#: What a copy of the repository into a workspace leaves out (also test_launch_real.py's).
COPY_IGNORE = shutil.ignore_patterns('.git', '.venv', '.cache', 'build', 'install', 'log',
                                     'node_modules',
                                     '.pytest_cache', '.mypy_cache', '.hypothesis',
                                     'test-artifacts', '__pycache__', '*.egg-info', 'corpus')
_COLCON = ('import sys\nfrom colcon_core.command import main\nsys.exit(main())\n')


def colcon(workspace: Path, *args: str, timeout: float = 300.0) -> subprocess.CompletedProcess[
        str]:
    """Run colcon with this Python in ``workspace``."""
    env = dict(os.environ, URDF_TOOLS_COLCON_INNER='1', COLCON_HOME=str(workspace / '.colcon'))
    return subprocess.run([sys.executable, '-c', _COLCON, *args], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=timeout)


def setup_lists(*names: str) -> list[str]:
    """The string lists setup.py assigns to ``names`` (e.g. CLI_SCRIPTS), concatenated."""
    import ast

    tree = ast.parse((REPO / 'setup.py').read_text())
    found = {target.id: ast.literal_eval(node.value) for node in tree.body
             if isinstance(node, ast.Assign) for target in node.targets
             if isinstance(target, ast.Name) and target.id in names}
    assert set(found) == set(names), f'setup.py lacks {set(names) - set(found)}'
    return [item for name in names for item in found[name]]


def console_scripts() -> list[str]:
    """Names of every executable a colcon build installs (CLI, ``check`` and the nodes)."""
    return [script.split('=', 1)[0].strip()
            for script in setup_lists('CLI_SCRIPTS', 'ROS_SCRIPTS')]


@pytest.fixture(scope='module')
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with the package built in it."""
    workspace = tmp_path_factory.mktemp('colcon_ws')
    shutil.copytree(REPO, workspace / 'src' / PACKAGE, ignore=COPY_IGNORE)
    result = colcon(workspace, 'build', '--event-handlers', 'console_direct-')
    assert result.returncode == 0, result.stdout + result.stderr
    return workspace


def test_build_installs_the_package(workspace: Path) -> None:
    prefix = workspace / 'install' / PACKAGE
    share = prefix / 'share' / PACKAGE
    for script in console_scripts():
        assert (prefix / 'lib' / PACKAGE / script).is_file(), script
        assert not (prefix / 'bin' / script).exists(), script  # where ament looks, not PATH
    for relative in ['package.xml', 'launch/display.launch.py', 'launch/description.launch.py',
                     'config/display.rviz', 'config/robot_description.yaml',
                     'config/joint_state_publisher.yaml', 'config/tf_broadcaster.yaml',
                     'urdf/sample_robot.urdf.xacro']:
        assert (share / relative).is_file(), relative
    assert (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / PACKAGE).is_file()
    site = prefix / 'lib' / f'python{sys.version_info[0]}.{sys.version_info[1]}' / \
        'site-packages'
    assert (site / PACKAGE / 'nodes' / 'tf_broadcaster.py').is_file()


def test_colcon_test_passes(workspace: Path) -> None:
    result = colcon(workspace, 'test', '--packages-select', PACKAGE, '--event-handlers',
                    'console_direct-', '--pytest-args', *COLCON_TEST_SUBSET)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    report = colcon(workspace, 'test-result', '--verbose')
    assert report.returncode == 0, report.stdout[-4000:] + report.stderr[-4000:]
    assert ', 0 failures' in report.stdout and ', 0 errors' in report.stdout


def prepend(path: Path, variable: str | None) -> str:
    """``path`` before the entries of a search-path variable's value (``None``: unset)."""
    return os.pathsep.join([str(path), *(part for part in (variable or '').split(os.pathsep)
                                         if part)])


@pytest.mark.ros
def test_installed_tf_broadcaster_runs(workspace: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rclpy = pytest.importorskip('rclpy')
    import rclpy.executors
    from std_msgs.msg import String
    from tf2_msgs.msg import TFMessage

    from ros_helpers import MIMIC_URDF
    from urdf_tools_ros.ros import qos

    prefix = workspace / 'install' / PACKAGE
    script = prefix / 'lib' / PACKAGE / 'tf_broadcaster'
    assert script.is_file(), 'tf_broadcaster is not installed (console_scripts of setup.py)'
    parameters = tmp_path / 'parameters.yaml'
    parameters.write_text(yaml.safe_dump(
        {'tf_broadcaster': {'ros__parameters': {'robot_description': MIMIC_URDF}}}))
    domain = str(ros_domain_id())
    for name, value in [('ROS_DOMAIN_ID', domain), ('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST'),
                        ('ROS_LOG_DIR', str(tmp_path))]:
        monkeypatch.setenv(name, value)
    site = prefix / 'lib' / f'python{sys.version_info[0]}.{sys.version_info[1]}' / \
        'site-packages'
    # as sourcing install/setup.bash does: the workspace before what the environment has (a
    # sourced /opt/ros/<distro> underlay stays reachable), never instead of it
    env = dict(os.environ, PYTHONPATH=prepend(site, os.environ.get('PYTHONPATH')),
               AMENT_PREFIX_PATH=prepend(prefix,
                                         os.environ.get('AMENT_PREFIX_PATH', sys.prefix)))
    process = subprocess.Popen([str(script), '--ros-args', '--params-file', str(parameters)],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    context = rclpy.context.Context()
    rclpy.init(context=context)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    try:
        node = rclpy.create_node('colcon_probe', context=context)
        executor.add_node(node)
        descriptions: list[str] = []
        statics: list[TFMessage] = []
        node.create_subscription(String, 'robot_description',
                                 lambda msg: descriptions.append(msg.data),
                                 qos.LATCHED_DESCRIPTION)
        node.create_subscription(TFMessage, '/tf_static', statics.append, qos.TF_STATIC)
        deadline = time.monotonic() + 30.0
        while not (descriptions and statics) and time.monotonic() < deadline \
                and process.poll() is None:
            executor.spin_once(timeout_sec=0.1)
        assert process.poll() is None, process.communicate()[0]
        assert descriptions and 'mimic_bot' in descriptions[0]
        assert {t.child_frame_id for t in statics[0].transforms} == {'base', 'tool'}
        executor.remove_node(node)
        node.destroy_node()
    finally:
        executor.shutdown()
        rclpy.try_shutdown(context=context)
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
