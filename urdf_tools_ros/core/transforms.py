"""
Rigid transforms on ``(..., 4, 4)`` float64 arrays: origins, axis rotations, inverse, quaternions.

REP 103: m, rad; ``rpy`` is fixed-axis roll, pitch, yaw, ``R = Rz(yaw) Ry(pitch) Rx(roll)``
(URDF spec, origin/@rpy). Quaternions are ``(x, y, z, w)`` (geometry_msgs). ``T_a_b`` maps
b-frame coordinates into frame a. Functions take leading batch dimensions, return new arrays,
and raise :class:`~urdf_tools_ros.core.errors.TransformError` on non-finite input, a zero axis
or a zero quaternion.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

import numpy as np

from .errors import TransformError

if TYPE_CHECKING:
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]
    ArrayLike = npt.ArrayLike
else:  # numpy.typing is not imported at run time
    FloatArray = np.ndarray
    ArrayLike = object

__all__ = ['FloatArray', 'axis_rotation', 'homogeneous', 'inverse', 'origin', 'origin_transform',
           'quaternion_to_rotation', 'rotation_to_quaternion', 'rotation_to_rpy',
           'rpy_to_rotation', 'transform_from_quaternion', 'transform_to_quaternion',
           'unit_axis']


def _finite(value: ArrayLike, name: str, tail: tuple[int, ...]) -> FloatArray:
    """Return ``value`` as a float64 array whose last dimensions are ``tail``, all finite."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TransformError(f'{name}: not an array of numbers: {exc}') from exc
    if array.ndim < len(tail) or array.shape[array.ndim - len(tail):] != tail:
        raise TransformError(f'{name}: expected shape (..., {", ".join(map(str, tail))}), '
                             f'got {array.shape}')
    if not np.isfinite(array).all():
        raise TransformError(f'{name}: contains NaN or inf')
    return array


def unit_axis(axis: ArrayLike, name: str = 'axis') -> FloatArray:
    """
    Normalise ``axis``, as KDL and pinocchio do with a joint axis.

    :param axis: (..., 3) direction, any non-zero length.
    :return: (..., 3) float64 unit vectors.
    :raises TransformError: if an axis is zero, NaN or inf, or the shape is not (..., 3).
    """
    array = _finite(axis, name, (3,))
    norm = np.linalg.norm(array, axis=-1, keepdims=True)
    if (norm <= 1e-12).any():
        raise TransformError(f'{name}: zero-length axis {array.tolist()}')
    result: FloatArray = array / norm
    return result


def rpy_to_rotation(rpy: ArrayLike) -> FloatArray:
    """
    Rotation matrix of fixed-axis roll, pitch, yaw: ``Rz(yaw) @ Ry(pitch) @ Rx(roll)`` (REP 103).

    :param rpy: (..., 3) roll, pitch, yaw in rad.
    :return: (..., 3, 3) float64 rotation matrices.
    :raises TransformError: on NaN/inf or a shape other than (..., 3).
    """
    angles = _finite(rpy, 'rpy', (3,))
    cr, cp, cy = np.cos(angles[..., 0]), np.cos(angles[..., 1]), np.cos(angles[..., 2])
    sr, sp, sy = np.sin(angles[..., 0]), np.sin(angles[..., 1]), np.sin(angles[..., 2])
    result = np.empty(angles.shape[:-1] + (3, 3))
    result[..., 0, 0] = cy * cp
    result[..., 0, 1] = cy * sp * sr - sy * cr
    result[..., 0, 2] = cy * sp * cr + sy * sr
    result[..., 1, 0] = sy * cp
    result[..., 1, 1] = sy * sp * sr + cy * cr
    result[..., 1, 2] = sy * sp * cr - cy * sr
    result[..., 2, 0] = -sp
    result[..., 2, 1] = cp * sr
    result[..., 2, 2] = cp * cr
    return result


def rotation_to_rpy(rotation: ArrayLike) -> FloatArray:
    """
    Fixed-axis roll, pitch, yaw of a rotation matrix (inverse of :func:`rpy_to_rotation`).

    Pitch in [-π/2, π/2], roll and yaw in (-π, π]; at gimbal lock roll is 0.

    :param rotation: (..., 3, 3) rotation matrices (or the upper-left block of (..., 4, 4)).
    :return: (..., 3) float64 roll, pitch, yaw in rad.
    :raises TransformError: on NaN/inf or a wrong shape.
    """
    array = np.asarray(rotation, dtype=np.float64)
    if array.shape[-2:] == (4, 4):
        array = array[..., :3, :3]
    matrix = _finite(array, 'rotation', (3, 3))
    r00, r10, r20 = matrix[..., 0, 0], matrix[..., 1, 0], matrix[..., 2, 0]
    cos_pitch = np.hypot(r00, r10)
    pitch = np.arctan2(-r20, cos_pitch)
    locked = cos_pitch < 1e-10
    roll = np.where(locked, 0.0, np.arctan2(matrix[..., 2, 1], matrix[..., 2, 2]))
    yaw = np.where(locked, np.arctan2(-matrix[..., 0, 1], matrix[..., 1, 1]),
                   np.arctan2(r10, r00))
    return np.stack([roll, pitch, yaw], axis=-1)


def homogeneous(rotation: ArrayLike, translation: ArrayLike) -> FloatArray:
    """
    Build ``T = [[R, p], [0, 0, 0, 1]]``.

    :param rotation: (..., 3, 3) rotation matrices.
    :param translation: (..., 3) translations in m; broadcast against ``rotation``.
    :return: (..., 4, 4) float64 homogeneous transforms.
    :raises TransformError: on NaN/inf or wrong shapes.
    """
    matrix = _finite(rotation, 'rotation', (3, 3))
    vector = _finite(translation, 'translation', (3,))
    batch = np.broadcast_shapes(matrix.shape[:-2], vector.shape[:-1])
    result = np.zeros(batch + (4, 4))
    result[..., :3, :3] = matrix
    result[..., :3, 3] = vector
    result[..., 3, 3] = 1.0
    return result


def origin(xyz: ArrayLike = (0.0, 0.0, 0.0), rpy: ArrayLike = (0.0, 0.0, 0.0)) -> FloatArray:
    """
    Transform of a URDF ``<origin xyz rpy>``: ``T = [[Rz(y) Ry(p) Rx(r), xyz], [0, 1]]``.

    :param xyz: (..., 3) translation in m.
    :param rpy: (..., 3) fixed-axis roll, pitch, yaw in rad; broadcast against ``xyz``.
    :return: (..., 4, 4) float64 ``T_parent_origin``.
    :raises TransformError: on NaN/inf or wrong shapes.
    """
    return homogeneous(rpy_to_rotation(rpy), xyz)


def origin_transform(element_origin: Any) -> FloatArray:
    """``T_parent_origin`` (4, 4) of an ``Origin`` (quaternion if any); TransformError on NaN."""
    quaternion = getattr(element_origin, 'quat_xyzw', None)
    if quaternion is not None:
        return transform_from_quaternion(_finite(element_origin.xyz, 'xyz', (3,)), quaternion)
    return origin(element_origin.xyz, element_origin.rpy)


def axis_rotation(axis: ArrayLike, angle: ArrayLike) -> FloatArray:
    """
    Rotation by ``angle`` about ``axis`` (right-hand rule, Rodrigues' formula).

    :param axis: (..., 3) direction (normalised here); broadcast against ``angle``.
    :param angle: (...) angle in rad.
    :return: (..., 4, 4) float64 transforms with zero translation.
    :raises TransformError: on a zero axis, NaN/inf or wrong shapes.
    """
    unit = unit_axis(axis)
    theta = _finite(angle, 'angle', ())
    batch = np.broadcast_shapes(unit.shape[:-1], theta.shape)
    unit = np.broadcast_to(unit, batch + (3,))
    cos, sin = np.cos(theta)[..., None, None], np.sin(theta)[..., None, None]
    x, y, z = unit[..., 0], unit[..., 1], unit[..., 2]
    zero = np.zeros(batch)
    cross = np.stack([np.stack([zero, -z, y], -1), np.stack([z, zero, -x], -1),
                      np.stack([-y, x, zero], -1)], -2)
    result = np.zeros(batch + (4, 4))
    result[..., :3, :3] = np.eye(3) + sin * cross + (1.0 - cos) * (cross @ cross)
    result[..., 3, 3] = 1.0
    return result


def inverse(transform: ArrayLike) -> FloatArray:
    """
    Inverse of rigid transforms: ``T_b_a = [[R.T, -R.T p], [0, 1]]`` for ``T_a_b = [[R, p], ...]``.

    :param transform: (..., 4, 4) rigid transforms (the bottom row is not read).
    :return: (..., 4, 4) float64 inverses.
    :raises TransformError: on NaN/inf or a wrong shape.
    """
    matrix = _finite(transform, 'transform', (4, 4))
    rotation_t = np.swapaxes(matrix[..., :3, :3], -1, -2)
    result = np.zeros(matrix.shape)
    result[..., :3, :3] = rotation_t
    result[..., :3, 3] = -(rotation_t @ matrix[..., :3, 3:4])[..., 0]
    result[..., 3, 3] = 1.0
    return result


def quaternion_to_rotation(quaternion: ArrayLike) -> FloatArray:
    """
    Rotation matrix of a quaternion ``(x, y, z, w)`` (geometry_msgs order), normalised first.

    :param quaternion: (..., 4) quaternions, any non-zero norm.
    :return: (..., 3, 3) float64 rotation matrices.
    :raises TransformError: on a zero quaternion, NaN/inf or a wrong shape.
    """
    array = _finite(quaternion, 'quaternion', (4,))
    norm = np.linalg.norm(array, axis=-1, keepdims=True)
    if (norm <= 1e-12).any():
        raise TransformError(f'quaternion: zero norm {array.tolist()}')
    x, y, z, w = np.moveaxis(array / norm, -1, 0)
    result = np.empty(array.shape[:-1] + (3, 3))
    result[..., 0, 0] = 1.0 - 2.0 * (y * y + z * z)
    result[..., 0, 1] = 2.0 * (x * y - z * w)
    result[..., 0, 2] = 2.0 * (x * z + y * w)
    result[..., 1, 0] = 2.0 * (x * y + z * w)
    result[..., 1, 1] = 1.0 - 2.0 * (x * x + z * z)
    result[..., 1, 2] = 2.0 * (y * z - x * w)
    result[..., 2, 0] = 2.0 * (x * z - y * w)
    result[..., 2, 1] = 2.0 * (y * z + x * w)
    result[..., 2, 2] = 1.0 - 2.0 * (x * x + y * y)
    return result


def rotation_to_quaternion(rotation: ArrayLike) -> FloatArray:
    """
    Unit quaternion ``(x, y, z, w)`` of a rotation matrix, with ``w >= 0`` (Shepperd's method).

    :param rotation: (..., 3, 3) rotation matrices (or the upper-left block of (..., 4, 4)).
    :return: (..., 4) float64 unit quaternions.
    :raises TransformError: on NaN/inf or a wrong shape.
    """
    array = np.asarray(rotation, dtype=np.float64)
    if array.shape[-2:] == (4, 4):
        array = array[..., :3, :3]
    m = _finite(array, 'rotation', (3, 3))
    return quaternions_of_rotations(m.reshape(-1, 3, 3)).reshape(m.shape[:-2] + (4,))


def quaternions_of_rotations(rotations: FloatArray) -> FloatArray:
    """
    :func:`rotation_to_quaternion` of (n, 3, 3) finite rotations, without input checks.

    Each entry of ``4 q qᵀ`` is linear in the matrix entries; the row of the largest diagonal
    entry, divided by twice its square root, is ``q``.

    :return: (n, 4) float64 ``(x, y, z, w)``, ``w >= 0``.
    """
    outer = rotations.reshape(-1, 9) @ _OUTER[1:]               # 4 q qᵀ - its constant part
    outer += _OUTER[0]                                          # (n, 16), row-major 4 x 4
    best = np.argmax(outer[:, ::5], axis=-1)                    # largest diagonal entry
    index = np.arange(len(best))
    rows: FloatArray = outer.reshape(-1, 4, 4)[index, best]     # 4 q_best q, (n, 4)
    scale = 0.5 / np.sqrt(np.maximum(rows[index, best], 1e-300))
    rows *= np.copysign(scale, rows[:, 3])[:, None]             # w >= 0
    return rows


def _outer_coefficients() -> FloatArray:
    """(10, 16): ``vec(4 q qᵀ) = c[0] + (m00 .. m22) @ c[1:]`` for a rotation's quaternion q."""
    c = np.zeros((10, 4, 4))
    m = {name: 1 + index for index, name in enumerate(
        ('00', '01', '02', '10', '11', '12', '20', '21', '22'))}
    c[0] = np.eye(4)                                   # 4 x² = 1 + m00 - m11 - m22, ...
    for i, signs in enumerate(((1, -1, -1), (-1, 1, -1), (-1, -1, 1), (1, 1, 1))):
        for name, sign in zip(('00', '11', '22'), signs):
            c[m[name], i, i] = sign
    for (i, j), plus, minus in (((0, 1), '10', '01'), ((0, 2), '02', '20'),
                                ((1, 2), '21', '12')):
        c[m[plus], i, j] = c[m[plus], j, i] = c[m[minus], i, j] = c[m[minus], j, i] = 1.0
    for i, plus, minus in ((0, '21', '12'), (1, '02', '20'), (2, '10', '01')):
        c[m[plus], i, 3] = c[m[plus], 3, i] = 1.0      # 4 x w = m21 - m12, ...
        c[m[minus], i, 3] = c[m[minus], 3, i] = -1.0
    return c.reshape(10, 16)


_OUTER = _outer_coefficients()


def transform_from_quaternion(translation: ArrayLike, quaternion: ArrayLike) -> FloatArray:
    """
    Build a transform from a translation and an ``(x, y, z, w)`` quaternion (normalised first).

    :param translation: (..., 3) in m.
    :param quaternion: (..., 4) ``(x, y, z, w)``; broadcast against ``translation``.
    :return: (..., 4, 4) float64 transforms.
    :raises TransformError: on a zero quaternion, NaN/inf or wrong shapes.
    """
    return homogeneous(quaternion_to_rotation(quaternion), translation)


def transform_to_quaternion(transform: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """
    Split transforms into translation and ``(x, y, z, w)`` quaternion (``w >= 0``).

    :param transform: (..., 4, 4) rigid transforms.
    :return: ``(translation (..., 3), quaternion (..., 4))``, float64.
    :raises TransformError: on NaN/inf or a wrong shape.
    """
    matrix = _finite(transform, 'transform', (4, 4))
    rotations = matrix[..., :3, :3].reshape(-1, 3, 3)
    return (matrix[..., :3, 3].copy(),
            quaternions_of_rotations(rotations).reshape(matrix.shape[:-2] + (4,)))
