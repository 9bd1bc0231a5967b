"""Batched FK backends: numba agrees with numpy to 1e-12; choosing one and falling back."""

from __future__ import annotations

import importlib
import math
from pathlib import Path
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from conftest import missing, REPO, SAMPLE_ROBOT, shared_model, SHARED_URDFS
from urdf_tools_ros.core import fk_numba
from urdf_tools_ros.core.description import load, load_string
from urdf_tools_ros.core.kinematics import KinematicModel

ALL_TYPES = Path(__file__).parent / 'urdf' / 'kinematics' / 'all_joint_types.urdf'
ATOL = 1e-12
MODELS = [*sorted(SHARED_URDFS), 'all_joint_types']


def model_path(name: str) -> Path:
    return ALL_TYPES if name == 'all_joint_types' else shared_model(name)


@pytest.fixture(scope='module')
def numba_module() -> Any:
    """The numba package; skips the test where it is not installed or cannot be imported."""
    reason = missing('numba')
    if reason is not None:
        pytest.skip(reason)
    return importlib.import_module('numba')


def models(name: str, floating: str) -> tuple[KinematicModel, KinematicModel]:
    robot = load(model_path(name)).robot
    return (KinematicModel(robot, floating=floating, backend='numpy'),
            KinematicModel(robot, floating=floating, backend='numba'))


FAMILIES = ['moderate', 'polynomial-edge', 'huge-angles', 'bound']


def configurations(model: KinematicModel, kind: str, count: int = 300) -> np.ndarray:
    """
    Random (count, nq) configurations of one family; rows 0-2 neutral, row 3 all +1e150.

    Quaternion ``qw`` is set to 1 where it is below 1e-6, so no quaternion is (near) zero.
    """
    rng = np.random.default_rng(FAMILIES.index(kind))
    if kind == 'moderate':
        values = rng.uniform(-4.0, 4.0, (count, model.nq))
    elif kind == 'polynomial-edge':   # |angle| up to the 1e5 edge of the sincos polynomial
        values = rng.uniform(-1e5, 1e5, (count, model.nq))
    elif kind == 'huge-angles':       # every decade up to the validation bound 1e150
        values = rng.choice([-1.0, 1.0], (count, model.nq)) * 10.0 ** rng.uniform(
            -300, 150, (count, model.nq))
    else:                             # 'bound': every value at +-1e150
        values = rng.choice([-1e150, 1e150], (count, model.nq))
    values[:3] = 0.0
    values[3, :] = 1e150
    for index, name in enumerate(model.variable_names):
        if name.endswith('/qw'):
            values[:, index] = np.where(np.abs(values[:, index]) < 1e-6, 1.0, values[:, index])
    return values


@pytest.mark.parametrize('kind', FAMILIES)
@pytest.mark.parametrize('floating', ['rpy', 'quaternion'])
@pytest.mark.parametrize('name', MODELS)
def test_numba_agrees_with_numpy(numba_module: Any, name: str, floating: str,
                                 kind: str) -> None:
    numpy_model, numba_model = models(name, floating)
    assert (numpy_model.backend, numba_model.backend) == ('numpy', 'numba')
    values = configurations(numpy_model, kind)
    expected = numpy_model.link_pose_batch(values)
    result = numba_model.link_pose_batch(values)
    assert result.shape == expected.shape and result.dtype == np.float64
    assert result.flags.c_contiguous
    assert np.isfinite(result).all() and np.isfinite(expected).all()
    # positions of 1e150 m give translations of ~1e150: compare relative to the largest entry
    scale = np.maximum(1.0, np.abs(expected).reshape(len(values), -1).max(axis=1))
    error = np.abs(result - expected).reshape(len(values), -1).max(axis=1) / scale
    assert error.max() <= ATOL, f'configuration {int(error.argmax())}: {error.max():.3g}'
    if kind == 'moderate':  # absolute, but for row 3 (all 1e150)
        np.testing.assert_allclose(np.delete(result, 3, 0), np.delete(expected, 3, 0),
                                   atol=ATOL, rtol=0)
    np.testing.assert_array_equal(result[:, :, 3], np.broadcast_to([0.0, 0.0, 0.0, 1.0],
                                                                   result[:, :, 3].shape))
    np.testing.assert_array_equal(result[:, 0], np.broadcast_to(np.eye(4), result[:, 0].shape))


def test_numba_matches_single_configurations_and_hand_values(numba_module: Any) -> None:
    model = KinematicModel(load(ALL_TYPES).robot, backend='numba')
    values = np.random.default_rng(3).uniform(-2.0, 2.0, (5, model.nq))
    batch = model.link_pose_batch(values)
    for row, configuration in enumerate(values):
        np.testing.assert_allclose(batch[row], model.link_pose_array(configuration), atol=ATOL)
    # a planar joint about x moves along y then z (planar_basis) and turns about x
    glide = model.link_index('glide')
    free = model.link_index('free')
    neutral = np.zeros((1, model.nq))
    moved = neutral.copy()
    for suffix, value in (('x', 0.3), ('y', -0.2), ('yaw', math.pi / 2)):
        moved[0, model.variable_names.index(f'glide_joint/{suffix}')] = value
    before, after = model.link_pose_batch(np.concatenate([neutral, moved]))[:, glide]
    step = np.linalg.inv(before) @ after
    np.testing.assert_allclose(step[:3, 3], (0.0, 0.3, -0.2), atol=ATOL)
    np.testing.assert_allclose(step[:3, :3], [[1, 0, 0], [0, 0, -1], [0, 1, 0]], atol=ATOL)
    assert model.link_pose_batch(neutral)[0, free, 0, 3] == pytest.approx(1.0)


MIMICS = """<robot name="mimics">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
  <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/>
    <origin xyz="0.1 0 0" rpy="0.2 0 0"/><axis xyz="0 1 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="slide_copy" type="prismatic"><parent link="b"/><child link="c"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="slide" multiplier="-0.5" offset="0.1"/></joint>
  <joint name="tilt" type="revolute"><parent link="c"/><child link="d"/>
    <origin xyz="0 0.2 0" rpy="0 0.3 0"/><axis xyz="1 2 3"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="tilt_copy" type="continuous"><parent link="d"/><child link="e"/>
    <axis xyz="-1 2 -3"/><mimic joint="tilt" multiplier="-1.5" offset="0.4"/></joint>
</robot>"""


def test_numba_mimic_signs_on_prismatic_and_general_axes(numba_module: Any) -> None:
    robot = load_string(MIMICS).robot
    values = np.random.default_rng(5).uniform(-3.0, 3.0, (200, 2))
    expected = KinematicModel(robot, backend='numpy').link_pose_batch(values)
    model = KinematicModel(robot, backend='numba')
    result = model.link_pose_batch(values)
    np.testing.assert_allclose(result, expected, atol=ATOL, rtol=0)
    np.testing.assert_allclose(result[7], model.link_pose_array(values[7]), atol=ATOL)


@pytest.mark.parametrize('count', [0, 1, fk_numba.BLOCK - 1, fk_numba.BLOCK,
                                   2 * fk_numba.BLOCK + 1])
def test_numba_batch_sizes(numba_module: Any, count: int) -> None:
    numpy_model, numba_model = models('all_joint_types', 'rpy')
    values = np.random.default_rng(count).uniform(-3.0, 3.0, (count, numpy_model.nq))
    result = numba_model.link_pose_batch(values)
    assert result.shape == (count, len(numba_model.link_names), 4, 4)
    np.testing.assert_allclose(result, numpy_model.link_pose_batch(values), atol=ATOL, rtol=0)
    if count:  # each call returns a new array and leaves the input alone
        copy = values.copy()
        again = numba_model.link_pose_batch(values)
        assert not np.shares_memory(result, again)
        np.testing.assert_array_equal(values, copy)


def test_backend_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    robot = load(ALL_TYPES).robot
    assert KinematicModel(robot, backend='numpy').backend == 'numpy'
    assert KinematicModel(robot).backend == ('numba' if fk_numba.AVAILABLE else 'numpy')
    with pytest.raises(ValueError, match="'auto', 'numpy', 'numba'"):
        KinematicModel(robot, backend='cuda')
    monkeypatch.setattr(fk_numba, 'AVAILABLE', False)
    assert KinematicModel(robot, backend='auto').backend == 'numpy'
    with pytest.raises(ImportError, match='numba'):
        KinematicModel(robot, backend='numba')


def run_python(code: str) -> str:
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_without_numba_auto_uses_numpy() -> None:
    code = ('import sys\n'
            'sys.modules["numba"] = None  # makes "import numba" raise ImportError\n'
            'from urdf_tools_ros.core import fk_numba\n'
            'from urdf_tools_ros.core.description import load\n'
            'from urdf_tools_ros.core.kinematics import KinematicModel\n'
            f'model = KinematicModel(load({str(ALL_TYPES)!r}).robot)\n'
            'poses = model.link_pose_batch([[0.0] * model.nq])\n'
            'print(fk_numba.AVAILABLE, model.backend, poses.shape)\n')
    assert run_python(code) == 'False numpy (1, 10, 4, 4)'


@pytest.mark.slow
def test_numba_runs_where_no_cache_directory_is_usable(numba_module: Any) -> None:
    # what numba does on a read-only install with no writable home: no cache locator at all
    code = ('import numba, numpy\n'
            'from numba.core import caching\n'
            'caching.CacheImpl._locator_classes = []\n'
            'try:\n'
            '    numba.njit(cache=True)(lambda: 0)\n'
            'except RuntimeError as exc:\n'
            '    refused = "no locator available" in str(exc)\n'
            'from urdf_tools_ros.core.description import load\n'
            'from urdf_tools_ros.core.kinematics import KinematicModel\n'
            f'robot = load({str(ALL_TYPES)!r}).robot\n'
            'model = KinematicModel(robot, backend="numba")\n'
            'values = [[0.1] * model.nq]\n'
            'poses = model.link_pose_batch(values)\n'
            'expected = KinematicModel(robot, backend="numpy").link_pose_batch(values)\n'
            'print(refused, poses.shape, numpy.abs(poses - expected).max() < 1e-12)\n')
    assert run_python(code) == 'True (1, 10, 4, 4) True'


@pytest.mark.parametrize('backend', ['numpy', 'numba'])
def test_out_buffer_is_filled_and_returned(backend: str) -> None:
    if backend == 'numba':
        reason = missing('numba')
        if reason is not None:
            pytest.skip(reason)
    model = KinematicModel(load(SAMPLE_ROBOT).robot, backend=backend)
    rng = np.random.default_rng(7)
    positions = rng.uniform(-1.0, 1.0, size=(5, model.nq))
    out = np.full((5, len(model.link_names), 4, 4), np.nan)
    result = model.link_pose_batch(positions, out=out)
    assert result is out
    np.testing.assert_allclose(out, model.link_pose_batch(positions), atol=1e-12)
    with pytest.raises(ValueError, match='out must be'):
        model.link_pose_batch(positions, out=np.empty((4, len(model.link_names), 4, 4)))
    with pytest.raises(ValueError, match='out must be'):
        model.link_pose_batch(positions, out=np.empty((5, len(model.link_names), 4, 4),
                                                      dtype=np.float32))
