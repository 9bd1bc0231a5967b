"""
The real-robot corpus (``test/corpus``, ``corpus_models.py``) against the consumers, live.

Each error under ``ros`` is confirmed by the consumer it names, the recorded verdicts still
hold, and each refusal of MuJoCo or Gazebo is an error under that target.
"""

from __future__ import annotations

from pathlib import Path

from consumer_breaks import breaks, gazebo_breaks
from corpus_models import CorpusModel, MODELS, PACKAGE_PATHS
import oracles
import pytest

from urdf_tools_ros.core.checks import check_description, TARGETS
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.source.loader import load

#: Not in the default run: CI runs this matrix as a job of its own (``pytest -m oracle``).
pytestmark = pytest.mark.oracle

#: MuJoCo refusals about mesh file contents, which the checker does not read.
MESH_REFUSALS = ('stl_decoder',)


def model_id(model: CorpusModel) -> str:
    return model.path.stem


def errors(model: CorpusModel, target: str) -> list[Finding]:
    description = load(model.path, package_paths=PACKAGE_PATHS)
    return [f for f in check_description(description, target) if f.severity is Severity.ERROR]


@pytest.fixture(params=MODELS, ids=model_id)
def model(request: pytest.FixtureRequest) -> CorpusModel:
    return request.param  # type: ignore[no-any-return]


def test_the_corpus_is_complete() -> None:
    assert len(MODELS) >= 12
    for entry in MODELS:  # in the repository: ROBOTS of test_gui_real_robots among them
        assert entry.path.is_file() and Path(__file__).parent in entry.path.parents, entry.path
    assert {'floating-base', 'placeholder-root-inertia', 'mimic-gripper', 'object'} \
        <= {entry.kind for entry in MODELS}


@pytest.mark.slow
def test_every_ros_error_is_confirmed_by_the_consumer_it_names(model: CorpusModel) -> None:
    for finding in errors(model, 'ros'):
        named = [name for name in finding.consumers or () if name in TARGETS['ros']]
        answers = {name: breaks(name, model.path, PACKAGE_PATHS) for name in named}
        if not any(answers.values()) and None in answers.values():
            pytest.skip(f'a consumer of {finding.code} is not installed here')
        assert any(answers.values()), f'{finding} names {named}; none breaks: {answers}'


@pytest.mark.slow
def test_recorded_verdicts_still_hold(model: CorpusModel) -> None:
    for version in ('3', '6'):
        verdict = oracles.urdfdom(model.path, version)
        if verdict is not None:
            assert verdict.loaded is model.urdfdom_loads, (version, verdict.message)
    verdict = oracles.pinocchio(model.path)
    if verdict is not None:
        assert verdict.loaded is model.pinocchio_loads, verdict.message
    verdict = oracles.mujoco(model.path, PACKAGE_PATHS)
    if verdict is not None:
        assert verdict.loaded is model.mujoco_loads, verdict.message
        if model.mujoco_refusal is not None:
            assert model.mujoco_refusal in verdict.message


@pytest.mark.slow
def test_a_mujoco_refusal_is_an_error_for_mujoco(model: CorpusModel) -> None:
    verdict = oracles.mujoco(model.path, PACKAGE_PATHS)
    if verdict is None:
        pytest.skip('MuJoCo is not installed')
    if verdict.loaded or any(text in verdict.message for text in MESH_REFUSALS):
        return
    assert errors(model, 'mujoco'), verdict.message


@pytest.mark.slow
def test_a_gazebo_refusal_or_drop_is_an_error_for_gazebo(model: CorpusModel) -> None:
    broken = gazebo_breaks(model.path)
    if broken is None:
        pytest.skip('the SDFormat probe is not built')
    found = errors(model, 'gazebo')
    assert bool(found) is broken, (oracles.gazebo(model.path), found)
