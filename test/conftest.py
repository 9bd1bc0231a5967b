"""Shared fixtures: paths of the real robot models and of the package's own files."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: Real robot models (URDF/xacro) beside the repository: ../shared/models (see SOURCES.md).
SHARED_MODELS = REPO.parent / 'shared' / 'models'
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
