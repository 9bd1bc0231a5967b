"""
What the launch tests share: the installed package, a bringup, a probe node, a recorder.

:func:`install_prefix` is the sourced install or one ``colcon build`` makes; :func:`bringup`
includes an installed launch file; a :class:`Recorder` keeps what the processes print and how
they end; a :class:`Probe` is a node with a real ``tf2_ros.Buffer`` that reads parameters too.
ROS is imported inside the functions, so that this module imports where ROS is absent.
"""

from __future__ import annotations

from collections.abc import Callable
import os
from pathlib import Path
import shutil
import sys
import threading
import time
from typing import Any

import pytest

from conftest import missing, REPO, ros_domain_id

PACKAGE = 'urdf_tools_ros'
#: Seconds to wait for what a node publishes (discovery takes 0.5-3 s here).
WAIT = 30.0
#: Why the launch_pytest tests cannot run here, or None; their marks, and their fixture.
LAUNCH_MISSING = missing('rclpy', 'launch.actions', 'launch_ros.actions', 'launch_pytest',
                         'tf2_ros', 'urdf_parser_py', 'xacro')
LAUNCH_MARKS = [pytest.mark.slow, pytest.mark.ros_install,
                pytest.mark.skipif(LAUNCH_MISSING is not None, reason=str(LAUNCH_MISSING))]
if LAUNCH_MISSING is None:
    import launch_pytest
    launch_fixture: Any = launch_pytest.fixture
else:  # the tests skip; the fixtures are only defined
    launch_fixture = pytest.fixture
#: Runs a launch file (argv: the file, then name:=value arguments) as ``ros2 launch`` does.
RUN_LAUNCH = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from launch import LaunchService
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
service = LaunchService(noninteractive=True)
service.include_launch_description(IncludeLaunchDescription(
    PythonLaunchDescriptionSource(sys.argv[1]),
    launch_arguments=[argument.split(':=', 1) for argument in sys.argv[2:]]))
sys.exit(service.run())
"""


def installed_prefix() -> Path | None:
    """The install prefix of the package in the ament index, if it holds the node executables."""
    try:
        from ament_index_python.packages import get_package_prefix, PackageNotFoundError
    except ImportError:
        return None
    try:
        prefix = Path(get_package_prefix(PACKAGE))
    except (PackageNotFoundError, OSError, ValueError):  # OSError: AMENT_PREFIX_PATH unset
        return None
    return prefix if (prefix / 'lib' / PACKAGE / 'tf_broadcaster').is_file() else None


def install_prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's install prefix: the installed one, else one ``colcon build`` makes now."""
    prefix = installed_prefix()
    if prefix is not None:
        return prefix
    if os.environ.get('URDF_TOOLS_COLCON_INNER') == '1':
        pytest.skip('inside the colcon test of test_colcon.py, with the package not sourced')
    if missing('colcon_core') is not None:
        pytest.skip('the package is not installed and colcon is not there to build it: '
                    'pip install colcon-common-extensions, or source the workspace')
    from test_colcon import colcon, COPY_IGNORE

    workspace = tmp_path_factory.mktemp('launch_ws')
    shutil.copytree(REPO, workspace / 'src' / PACKAGE, ignore=COPY_IGNORE)
    done = colcon(workspace, 'build', '--packages-select', PACKAGE)
    assert done.returncode == 0, done.stdout + done.stderr
    return workspace / 'install' / PACKAGE


def site_packages(prefix: Path) -> Path:
    """The ``site-packages`` folder of an install prefix (for ``PYTHONPATH``)."""
    return prefix / 'lib' / f'python{sys.version_info[0]}.{sys.version_info[1]}' / \
        'site-packages'


def launch_environment(prefix: Path) -> dict[str, str]:
    """
    What a sourced workspace adds to this environment, on an isolated ROS domain.

    The rclpy wheels' start-up guard is dropped so that each node's Python sets itself up
    (``../shared/ros-src/SOURCES.md``, pitfall 4).
    """
    venv = Path(sys.executable).parent.parent
    inherited = {name: [part for part in os.environ.get(name, '').split(os.pathsep) if part]
                 for name in ('AMENT_PREFIX_PATH', 'PYTHONPATH')}
    ament = [str(prefix), str(venv), *inherited['AMENT_PREFIX_PATH']]
    python = [str(site_packages(prefix)), *inherited['PYTHONPATH']]
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id(120, 200)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST',
               AMENT_PREFIX_PATH=os.pathsep.join(dict.fromkeys(ament)),
               PYTHONPATH=os.pathsep.join(dict.fromkeys(python)))
    env.pop('ROS_LOCALHOST_ONLY', None)
    env.pop('_ROS_WHEELS_BOOTSTRAP_COMPLETE', None)
    return env


class Recorder:
    """What the launched processes print (line by line, by process) and how they end."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []
        self.exits: dict[str, int] = {}
        self.started: set[str] = set()
        self._lock = threading.Lock()

    def actions(self) -> list[Any]:
        """Launch actions that feed this recorder: add them before the bringup."""
        from launch.actions import RegisterEventHandler
        from launch.event_handlers import OnProcessExit, OnProcessIO, OnProcessStart

        def on_output(event: Any) -> None:
            with self._lock:
                for line in event.text.decode(errors='replace').splitlines():
                    self.lines.append((event.process_name, line))

        def on_start(event: Any, context: Any) -> None:
            with self._lock:
                self.started.add(event.process_name)

        def on_exit(event: Any, context: Any) -> None:
            with self._lock:
                self.exits[event.process_name] = event.returncode

        return [RegisterEventHandler(OnProcessIO(on_stdout=on_output, on_stderr=on_output)),
                RegisterEventHandler(OnProcessStart(on_start=on_start)),
                RegisterEventHandler(OnProcessExit(on_exit=on_exit))]

    def matching(self, *needles: str) -> list[str]:
        """Logged lines that contain every one of ``needles``."""
        with self._lock:
            return [f'{name}: {line}' for name, line in self.lines
                    if all(needle in line for needle in needles)]

    def text(self) -> str:
        with self._lock:
            return '\n'.join(f'{name}: {line}' for name, line in self.lines)[-6000:]

    def wait_for(self, *needles: str, timeout: float = WAIT) -> list[str]:
        """Wait until a logged line contains every one of ``needles``; return those lines."""
        deadline = time.monotonic() + timeout
        while not self.matching(*needles) and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.matching(*needles)


def bringup(prefix: Path, launch_file: str, recorder: Recorder, **arguments: str) -> Any:
    """The installed ``launch_file`` with ``arguments``, after the recorder's handlers."""
    from launch import LaunchDescription
    from launch.actions import IncludeLaunchDescription
    from launch.launch_description_sources import PythonLaunchDescriptionSource
    import launch_pytest

    path = prefix / 'share' / PACKAGE / 'launch' / launch_file
    return LaunchDescription([
        *recorder.actions(),
        IncludeLaunchDescription(PythonLaunchDescriptionSource(str(path)),
                                 launch_arguments=arguments.items()),
        launch_pytest.actions.ReadyToTest()])


class Probe:
    """A node of its own rclpy context in this process, spun by a thread, with a tf2 Buffer."""

    def __init__(self) -> None:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from rosgraph_msgs.msg import Clock
        from sensor_msgs.msg import JointState
        from std_msgs.msg import String
        from tf2_ros import Buffer, TransformListener

        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('launch_graph_probe', context=self.context)
        self.descriptions: list[str] = []
        self.joint_states: list[Any] = []
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.node.create_subscription(String, 'robot_description',
                                      lambda msg: self.descriptions.append(msg.data), latched)
        self.node.create_subscription(JointState, 'joint_states', self.joint_states.append, 10)
        self.clock = self.node.create_publisher(Clock, '/clock', 10)
        self.buffer = Buffer()
        self.listener = TransformListener(self.buffer, self.node, spin_thread=False)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while self.context.ok():
            try:
                self.executor.spin_once(timeout_sec=0.05)
            except Exception:  # the context is shut down under it
                return

    def wait(self, condition: Callable[[], bool], timeout: float = WAIT) -> bool:
        deadline = time.monotonic() + timeout
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.05)
        return condition()

    def parameters(self, node: str, names: list[str]) -> list[Any] | None:
        """The values of ``node``'s parameters ``names``; None: it answers no GetParameters."""
        from rcl_interfaces.srv import GetParameters
        from rclpy.parameter import parameter_value_to_python

        client = self.node.create_client(GetParameters, f'{node}/get_parameters')
        try:
            if not client.wait_for_service(timeout_sec=20.0):
                return None
            future = client.call_async(GetParameters.Request(names=names))
            if not self.wait(future.done, timeout=10.0) or future.result() is None:
                return None
            return [parameter_value_to_python(value) for value in future.result().values]
        finally:
            self.node.destroy_client(client)

    def lookup(self, root: str, link: str) -> Any | None:
        from rclpy.time import Time

        try:
            return self.buffer.lookup_transform(root, link, Time())
        except Exception:  # tf2 raises LookupException, ConnectivityException, ...
            return None

    def close(self) -> None:
        import rclpy

        self.listener.unregister()
        self.executor.shutdown()
        rclpy.try_shutdown(context=self.context)
        self._thread.join(timeout=5.0)


def parsed(xml: str) -> Any:
    """The description read by urdf_parser_py (the reference Python reader), quietly."""
    from urdf_parser_py import urdf
    from urdf_parser_py.xml_reflection import core

    saved, core.on_error = core.on_error, lambda message: None  # "Unknown attribute ..." lines
    try:
        return urdf.URDF.from_xml_string(xml.encode())
    finally:
        core.on_error = saved


def assert_ended_cleanly(recorder: Recorder, count: int) -> None:
    """After shutdown: ``count`` processes started, each exited 0, no traceback."""
    assert len(recorder.started) == count, recorder.started
    assert recorder.exits == {name: 0 for name in recorder.started}, recorder.text()
    assert not recorder.matching('Traceback'), recorder.text()
