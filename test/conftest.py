"""
Shared fixtures: paths of the real robot models and of the package's own files.

Optional dependencies skip per test (:func:`missing` and ``pytest.mark.skipif``), never with a
module-level ``pytest.skip`` or ``importorskip``, which under launch_testing's plugin (pytest
7.4.4, colcon test on Jazzy) skips the whole session; a run that collects no test fails.
Markers: ``ros`` needs rclpy and the message packages (the PyPI wheels), ``ros_install`` what
only a ROS 2 install gives (launch*, ros2cli, tf2_ros). With ``URDF_TOOLS_REQUIRE_ROS=1`` a
skipped ``ros`` test fails the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
import importlib
import os
from pathlib import Path
import random
import socket
import subprocess
import sys
import time
from typing import Any

from paths import REPO, SHARED_MODELS
import pytest
import stage_report

SAMPLE_ROBOT = REPO / 'urdf' / 'sample_robot.urdf.xacro'

try:  # no per-example time limit: a test asserts behaviour, speed lives in bench/ (a loaded CI
    # machine made hypothesis' 200 ms deadline fail test_inertia)
    from hypothesis import settings as _hypothesis_settings
except ImportError:
    pass
else:
    _hypothesis_settings.register_profile('urdf_tools_ros', deadline=None)
    _hypothesis_settings.load_profile('urdf_tools_ros')

#: name -> path of every shared model that loads as is (robotiq_2f_85 is kept out: its
#: undeclared drake: prefix makes it a special case with a test of its own).
SHARED_URDFS = {
    'ur5_robot': SHARED_MODELS / 'ur5_robot.urdf',
    'panda': SHARED_MODELS / 'panda.urdf',
    'robotiq_2f_85_nsfix': SHARED_MODELS / 'robotiq_2f_85_nsfix.urdf',
    'talos_full_v2': SHARED_MODELS / 'talos_full_v2.urdf',
    'tiago_dual': SHARED_MODELS / 'tiago_dual.urdf',
    'cookie': SHARED_MODELS / 'cookie' / 'cookie.urdf',
}


@pytest.fixture(scope='session', autouse=True)
def _mesh_cache_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test and its subprocesses keep mesh facts in a temporary cache, never ~/.cache."""
    patch = pytest.MonkeyPatch()
    patch.setenv('XDG_CACHE_HOME', str(tmp_path_factory.mktemp('xdg-cache')))
    yield
    patch.undo()


def shared_model(name: str) -> Path:
    """Path of a shared model; skips the test when ../shared/models is not present."""
    path = SHARED_URDFS.get(name, SHARED_MODELS / name)
    if not path.exists():
        pytest.skip(f'shared model {path} is not present')
    return path


@pytest.fixture(params=sorted(SHARED_URDFS))
def shared_urdf(request: pytest.FixtureRequest) -> Path:
    """Each shared URDF model in turn."""
    return shared_model(request.param)


def missing(*modules: str) -> str | None:
    """
    Why the first of ``modules`` that cannot be imported cannot, or ``None`` when all import.

    Any ``ImportError`` counts (absent, or a native part that does not load).
    """
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            return f'{name} cannot be imported ({exc})'
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return int(sock.getsockname()[1])


def ros_domain_id(low: int = 1, high: int = 200) -> int:
    """
    A random ``ROS_DOMAIN_ID`` in ``[low, high]`` that no other pytest-xdist worker draws.

    Worker ``gwK`` of ``N`` (``pytest -n N``) draws only ids equal to ``K`` modulo ``N``, so the
    nodes of tests running at the same time in two workers never discover each other; without
    xdist any id of the range.
    """
    worker = os.environ.get('PYTEST_XDIST_WORKER', 'gw0')
    count = int(os.environ.get('PYTEST_XDIST_WORKER_COUNT', '1'))
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    return random.SystemRandom().choice(
        [domain for domain in range(low, high + 1) if domain % count == index % count])


def pytest_configure(config: pytest.Config) -> None:
    """Counts, grouped skip reasons and time of the run (:mod:`stage_report`)."""
    stage_report.register(config)


#: ``ros`` tests that skipped in this run: ``(test id, reason)``.
_SKIPPED_ROS: list[tuple[str, str]] = []


def ros_required() -> bool:
    """Whether this run must not skip a ``ros`` test (``URDF_TOOLS_REQUIRE_ROS=1``)."""
    return os.environ.get('URDF_TOOLS_REQUIRE_ROS') == '1'


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note every skipped ``ros`` test (see the module docstring)."""
    if report.skipped and 'ros' in report.keywords and 'ros_install' not in report.keywords \
            and not hasattr(report, 'wasxfail'):  # xfail: a known bug (compat_fastdds), run
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(
            report.longrepr)
        _SKIPPED_ROS.append((report.nodeid, reason))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say why a ``URDF_TOOLS_REQUIRE_ROS=1`` run failed."""
    if ros_required() and _SKIPPED_ROS:
        terminalreporter.section('ROS tests skipped with URDF_TOOLS_REQUIRE_ROS=1', red=True)
        for nodeid, reason in _SKIPPED_ROS:
            terminalreporter.write_line(f'{nodeid}: {reason}')


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """
    Fail a run that collected no test, or one that skipped a ROS test it must run.

    A session-wide skip must not pass as success; under ``URDF_TOOLS_REQUIRE_ROS=1`` neither
    must a skipped ``ros`` test.
    """
    if exitstatus == 0 and session.testscollected == 0 and not session.config.option.collectonly:
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
    if ros_required() and _SKIPPED_ROS and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# -- the installed package and a probe node, for the launch tests (launch_helpers.py) ----------
@pytest.fixture(scope='session')
def package_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's install prefix: the sourced one, else one ``colcon build`` makes once."""
    from launch_helpers import install_prefix

    return install_prefix(tmp_path_factory)


@pytest.fixture(scope='module')
def launch_prefix(package_install: Path) -> Iterator[Path]:
    """:func:`package_install`, with this process's environment that of a sourced workspace."""
    from launch_helpers import launch_environment

    environment = launch_environment(package_install)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in environment.items():
            if os.environ.get(name) != value:
                patch.setenv(name, value)
        for name in set(os.environ) - set(environment):
            patch.delenv(name)
        yield package_install


@pytest.fixture
def probe(launch_prefix: Path) -> Iterator[Any]:
    """A :class:`launch_helpers.Probe` node on the launch tests' ROS domain."""
    from launch_helpers import Probe

    node = Probe()
    yield node
    node.close()


def wait_for(condition: Callable[[], object], timeout: float = 15.0) -> bool:
    """Poll ``condition`` every 10 ms until it holds or ``timeout`` s pass; then its value."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return bool(condition())
        time.sleep(0.01)
    return True


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, str]]]:
    """Every ``loader.load`` while the test runs (the pipeline's): ``(source, xacro args)``."""
    from urdf_tools_ros.core.source import loader

    calls: list[tuple[str, dict[str, str]]] = []
    real = loader.load

    def counting(source: Any, **kwargs: Any) -> Any:
        calls.append((str(source), dict(kwargs.get('xacro_args') or {})))
        return real(source, **kwargs)

    monkeypatch.setattr(loader, 'load', counting)
    return calls


def rpy_matrix(rpy: tuple[float, float, float]) -> Any:
    """URDF rpy by hand, fixed axes: Rz(yaw) Ry(pitch) Rx(roll) (REP 103), a (3, 3) array."""
    import numpy as np

    (cr, cp, cy), (sr, sp, sy) = np.cos(rpy), np.sin(rpy)
    return (np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
            @ np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
            @ np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]]))


def run_cli(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``urdf-tools ARGS`` as a user runs it (in ``cwd``; ``env`` replaces the environment)."""
    return subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=timeout)
