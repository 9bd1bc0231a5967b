"""
Shared fixtures: paths of the real robot models and of the package's own files.

Optional dependencies are skipped per test, never with a module-level ``pytest.skip`` or
``importorskip`` (under pytest 7.4.4 with the launch_testing plugin, as ``colcon test`` runs
on Jazzy, such a skip escapes the collection hook and skips the whole session): a test module
asks :func:`missing` and marks its tests with ``pytest.mark.skipif``. A run that collects no
test at all fails (:func:`pytest_sessionfinish`).
"""

from __future__ import annotations

from collections.abc import Iterator
import importlib
import os
from pathlib import Path
from typing import Any

from paths import REPO, SHARED_MODELS
import pytest

SAMPLE_ROBOT = REPO / 'urdf' / 'sample_robot.urdf.xacro'

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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a run that collected no test: a session-wide skip must not pass as success."""
    if exitstatus == 0 and session.testscollected == 0 and not session.config.option.collectonly:
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED


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
