"""Joint transforms as translation + quaternion arrays agree with the matrix path, to 1e-12."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, SHARED_MODELS, SHARED_URDFS
from urdf_tools_ros.core.errors import JointStateError
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.core.transforms import FloatArray, transform_to_quaternion

pytestmark = pytest.mark.portability

ALL_JOINT_TYPES = REPO / 'test' / 'urdf' / 'kinematics' / 'all_joint_types.urdf'


def expected(model: KinematicModel,
             q: FloatArray) -> tuple[tuple[str, ...], FloatArray, FloatArray]:
    """The reference: :meth:`joint_transforms` converted by ``transform_to_quaternion``."""
    transforms = model.joint_transforms(q)
    if not transforms:
        return (), np.zeros((0, 3)), np.zeros((0, 4))
    translation, quaternion = transform_to_quaternion(np.stack(list(transforms.values())))
    return tuple(transforms), translation, quaternion


def assert_agree(model: KinematicModel, q: FloatArray) -> None:
    joints, translation, quaternion = model.joint_transform_arrays(q)
    names, want_translation, want_quaternion = expected(model, q)
    assert joints == names
    assert translation.shape == (len(names), 3) and quaternion.shape == (len(names), 4)
    assert translation.dtype == quaternion.dtype == np.float64
    assert (quaternion[:, 3] >= 0.0).all()
    np.testing.assert_allclose(translation, want_translation, rtol=0, atol=1e-12)
    # q and -q are the same rotation; the sign can differ only where w is 0 to rounding.
    sign = np.where(np.sum(quaternion * want_quaternion, axis=1) < 0.0, -1.0, 1.0)
    assert (np.abs(quaternion[:, 3][sign < 0]) < 1e-12).all()
    np.testing.assert_allclose(quaternion * sign[:, None], want_quaternion, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(quaternion, axis=1), 1.0, rtol=0, atol=1e-15)


def model_paths() -> list[Path]:
    return [*SHARED_URDFS.values(), SHARED_MODELS / 'robotiq_2f_85.urdf', ALL_JOINT_TYPES]


@pytest.fixture(scope='module', params=model_paths(), ids=lambda path: path.stem)
def models(request: pytest.FixtureRequest) -> tuple[KinematicModel, KinematicModel]:
    """The model with floating joints as rpy and as quaternions."""
    path: Path = request.param
    if not path.exists():
        pytest.skip(f'model {path} is not present')
    robot = load(path).robot
    return KinematicModel(robot), KinematicModel(robot, floating='quaternion')


@pytest.mark.parametrize('scale', [0.0, 0.5, 3.0, 100.0, 1e6])
def test_agrees_with_matrices_on_every_model(models: tuple[KinematicModel, KinematicModel],
                                             scale: float) -> None:
    rng = np.random.default_rng(int(scale) + 7)
    for model in models:
        for _ in range(20):
            assert_agree(model, model.neutral() + scale * rng.standard_normal(model.nq))


def test_all_joint_types_cover_floating_and_planar() -> None:
    model = KinematicModel(load(ALL_JOINT_TYPES).robot)
    kinds = {model.tree.robot.joint_map[joint].joint_type
             for joint in model.joint_transform_arrays()[0]}
    assert {'revolute', 'continuous', 'prismatic', 'floating', 'planar'} <= kinds


def test_mimic_negative_axis_and_half_turns() -> None:
    """Angles where w crosses 0 (θ = ±π) and axes along -z keep w >= 0 and agree."""
    model = KinematicModel(load(ALL_JOINT_TYPES).robot)
    for angle in (np.pi, -np.pi, 2 * np.pi, 3 * np.pi, np.nextafter(np.pi, 0.0), 1e150):
        assert_agree(model, np.full(model.nq, angle))


def test_results_are_new_arrays_and_input_is_validated() -> None:
    model = KinematicModel(load(ALL_JOINT_TYPES).robot)
    _, first, quaternion = model.joint_transform_arrays()
    first[...] = np.nan
    quaternion[...] = np.nan
    _, again, quaternion = model.joint_transform_arrays()
    assert np.isfinite(again).all() and np.isfinite(quaternion).all()
    with pytest.raises(JointStateError, match='not finite'):
        model.joint_transform_arrays(np.full(model.nq, np.nan))
    with pytest.raises(JointStateError, match='expected shape'):
        model.joint_transform_arrays(np.zeros(model.nq + 1))
