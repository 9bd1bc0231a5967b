"""
Batched forward kinematics: N configurations at once, vectorised over N with numpy.

Not a public API: :meth:`urdf_tools_ros.core.kinematics.KinematicModel.link_pose_batch` calls it.

Layout. Poses are computed in a buffer ``W[link, row, n, column]`` of shape (L, 4, N, 4) and
returned as the view ``W.transpose(2, 0, 1, 3)`` of shape (N, L, 4, 4). Per level of the plan
(:mod:`urdf_tools_ros.core.fk_plan`):

1. ``T_anchor @ K`` for every link of the level: one stacked product of the anchors' top three
   rows, (k, 3N, 4) @ (k, 4, 4), by BLAS; the constant bottom rows are never touched;
2. the joint motion. A rotation about z changes columns 0 and 1, about x columns 1 and 2:
   viewed as one complex number ``col_j + i col_k``, the rotated pair is that number times
   ``exp(-i theta)``, one complex product for all links and configurations of the group. A
   rotation about y is computed as one about z in a frame turned by the constant ``P`` with
   ``Ry(theta) = P Rz(theta) P.T`` (``K`` absorbs ``P``; the columns are put back in order at
   the end). Other axes apply Rodrigues' matrix; prismatic joints add ``d (R a)`` to the
   translation; floating and planar joints multiply by their (N, 4, 4) motion.

cos and sin are computed once per distinct ``(source, |multiplier|, offset)``, so mimic joints
with multiplier ±1 reuse their source's, by :func:`sincos`.

Backends. :func:`batch_engine` picks this engine or the optional numba kernel of
:mod:`urdf_tools_ros.core.fk_numba` (same results to 1e-12, C-contiguous output).
"""

from __future__ import annotations

from collections.abc import Callable
import threading

import numpy as np

from .fk_plan import FkPlan, general_motion
from .transforms import FloatArray

#: Offset of the complex pair (col_j + i col_k) a rotation mixes, by kind.
_OFFSET = {'rx': 1, 'rz': 0, 'ry': 0}
#: ``Ry(θ) = P Rz(θ) P.T``: P maps x→z, y→x, z→y (a cyclic permutation, a rotation).
_P_Y = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0],
                 [0.0, 0.0, 0.0, 1.0]])

#: fdlibm's reduction by π/2 (``x - k π/2``, π/2 in two parts) and its kernels of sin and cos on
#: [-π/4, π/4] (``k_sin.c``, ``k_cos.c``): shared by :func:`sincos` and the numba kernel.
TWO_OVER_PI = 0.63661977236758134308
PIO2_HIGH = 1.57079632673412561417e+00
PIO2_LOW = 6.07710050650619224932e-11
SIN_COEFFICIENTS = (1.58969099521155010221e-10, -2.50507602534068634195e-08,
                    2.75573137070700676789e-06, -1.98412698298579493134e-04,
                    8.33333333332248946124e-03, -1.66666666666666324348e-01)
COS_COEFFICIENTS = (-1.13596475577881948265e-11, 2.08757232129817482790e-09,
                    -2.75573143513906633035e-07, 2.48015872894767294178e-05,
                    -1.38888888888741095749e-03, 4.16666666666666019037e-02)
#: Largest |angle| for the polynomial path (quadrant count well below 2**20); beyond, numpy.
SINCOS_RANGE = 1e5


def sincos(angles: FloatArray,
           scratch: tuple[FloatArray, ...] | None = None) -> tuple[FloatArray, FloatArray]:
    """
    ``(sin(angles), cos(angles))`` to about 1 ulp, several times faster than numpy's on AVX2.

    Cody-Waite reduction by π/2 and fdlibm's polynomial kernels (``k_sin.c``, ``k_cos.c``), all
    in place on six arrays of the shape of ``angles`` (``scratch``, allocated when ``None``;
    the last two hold the results); falls back to ``np.sin``/``np.cos`` when some
    ``|angle| > 1e5``.
    """
    if angles.size == 0 or not np.abs(angles).max() <= SINCOS_RANGE:
        return np.sin(angles), np.cos(angles)
    if scratch is None:
        scratch = tuple(np.empty_like(angles) for _ in range(6))
    turns, reduced, work, square, sin, cos = scratch
    np.multiply(angles, TWO_OVER_PI, out=turns)
    np.rint(turns, out=turns)
    np.multiply(turns, -PIO2_HIGH, out=reduced)
    reduced += angles
    np.multiply(turns, PIO2_LOW, out=work)
    reduced -= work
    np.multiply(reduced, reduced, out=square)
    np.multiply(square, SIN_COEFFICIENTS[0], out=sin)
    np.multiply(square, COS_COEFFICIENTS[0], out=cos)
    for sin_coefficient, cos_coefficient in zip(SIN_COEFFICIENTS[1:], COS_COEFFICIENTS[1:]):
        sin += sin_coefficient
        sin *= square
        cos += cos_coefficient
        cos *= square
    sin *= reduced
    sin += reduced
    cos *= square
    square *= 0.5
    cos -= square
    cos += 1.0
    np.multiply(turns, 0.25, out=work)
    np.floor(work, out=work)
    work *= -4.0
    turns += work                                       # quadrant 0, 1, 2, 3
    half = np.multiply(turns, 0.5, out=reduced)
    np.floor(half, out=half)                            # 1 in quadrants 2, 3
    odd = np.multiply(half, -2.0, out=square)
    odd += turns                                        # 1 where sin and cos swap
    np.subtract(cos, sin, out=work)
    work *= odd
    sin += work
    cos -= work
    odd += half                                         # 1 exactly in quadrants 1, 2
    np.multiply(half, -2.0, out=work)
    work += 1.0
    sin *= work
    np.subtract(2.0, odd, out=work)
    work *= odd
    work *= -2.0
    work += 1.0
    cos *= work
    return sin, cos


def _rows(indices: np.ndarray) -> slice | np.ndarray:
    if indices.size and (np.diff(indices) == 1).all():
        return slice(int(indices[0]), int(indices[-1]) + 1)
    return indices


class BatchPlan:
    """Constants and index tables for :func:`batch_link_poses`, computed once per model."""

    def __init__(self, plan: FkPlan) -> None:
        self.plan = plan
        kinds = plan.kinds
        rotations = [index for index, kind in enumerate(kinds) if kind in ('rx', 'ry', 'rz', 'r')]
        keys: dict[tuple[int, float, float], int] = {}
        rows: dict[int, int] = {}
        negative: dict[int, bool] = {}
        for index in rotations:
            src, mult, off = int(plan.src[index]), float(plan.mult[index]), float(plan.off[index])
            # theta = m q + o with m < 0 is -(|m| q - o): the conjugate turn of that angle
            negative[index] = mult < 0.0
            key = (src, abs(mult), -off if negative[index] else off)
            rows[index] = keys.setdefault(key, len(keys))
        count = len(keys)
        self.trig_src = np.array([key[0] for key in keys], dtype=np.intp)
        self.trig_mult = np.array([key[1] for key in keys])[:, None]
        self.trig_off = np.array([key[2] for key in keys])[:, None]
        self.trig_count = count
        self.trig: dict[int, slice | np.ndarray] = {}
        for level in plan.levels:
            for group in level.groups:
                if group.kind in ('rx', 'ry', 'rz', 'r'):
                    table = np.array([rows[i] + (count if negative[i] else 0)
                                      for i in range(group.start, group.stop)], dtype=np.intp)
                    self.trig[group.start] = _rows(table)
        turned = [kind == 'ry' for kind in kinds]
        frames = plan.fixed.copy()
        for index, kind in enumerate(kinds):
            if index == 0:
                continue
            if turned[int(plan.anchor[index])]:
                frames[index] = _P_Y.T @ frames[index]
            if turned[index]:
                frames[index] = frames[index] @ _P_Y
        self.frames = frames
        self.turned = np.array([i for i, flag in enumerate(turned) if flag], dtype=np.intp)
        self.rodrigues: dict[int, tuple[FloatArray, FloatArray, FloatArray]] = {}
        for index in rotations:
            if kinds[index] == 'r':
                x, y, z = plan.axes[index]
                cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
                square = cross @ cross
                self.rodrigues[index] = (np.eye(3) + square, -square, cross)
        self.lock = threading.Lock()
        self.workspace: _Workspace | None = None


class _Workspace:
    """Scratch arrays of one batch size, carved from one block and reused between calls."""

    def __init__(self, batch: BatchPlan, count: int) -> None:
        plan = batch.plan
        trig = batch.trig_count
        widest = max((level.stop - level.start for level in plan.levels
                      if not isinstance(level.anchors, slice)), default=0)
        sizes = {'extended': (plan.nq + 1, count), 'trig': (7, trig, count),
                 'turns': (2 * trig, count, 2), 'gather': (widest, 4, count, 4),
                 'pairs': (_widest_rotation(plan), count, 2),
                 'turned': (batch.turned.size, 4, count, 4)}
        total = sum(int(np.prod(shape)) for shape in sizes.values())
        block = np.empty(total)
        self.count = count
        self.nbytes = block.nbytes
        views: dict[str, FloatArray] = {}
        start = 0
        for name, shape in sizes.items():
            size = int(np.prod(shape))
            views[name] = block[start:start + size].reshape(shape)
            start += size
        self.extended = views['extended']
        self.trig = views['trig']
        self.turns = views['turns'].view(np.complex128)[..., 0]
        self.gather = views['gather']
        self.pairs = views['pairs'].view(np.complex128)[..., 0]
        self.turned = views['turned']


def _widest_rotation(plan: FkPlan) -> int:
    return max((group.stop - group.start for level in plan.levels for group in level.groups
                if group.kind in ('rx', 'ry', 'rz', 'r')), default=0)


#: Workspaces up to this size (bytes) are kept for the next call of the same batch size.
_KEEP_WORKSPACE = 64 * 1024 * 1024


def batch_link_poses(batch: BatchPlan, values: FloatArray) -> FloatArray:
    """
    Poses of every link for N configurations.

    :param batch: The model's batch plan.
    :param values: (N, nq) validated configurations (finite, within range).
    :return: (N, L, 4, 4) float64 ``T_root_link``, a view of a link-major buffer.
    """
    count = values.shape[0]
    with batch.lock:
        space = batch.workspace
        if space is None or space.count != count:
            space = _Workspace(batch, count)
            batch.workspace = space if space.nbytes <= _KEEP_WORKSPACE else None
        return _compute(batch, space, values)


def _compute(batch: BatchPlan, space: _Workspace, values: FloatArray) -> FloatArray:
    plan = batch.plan
    count = values.shape[0]
    links = len(plan.link_names)
    buffer = np.empty((links, 4, count, 4))
    buffer[:, 3] = (0.0, 0.0, 0.0, 1.0)
    buffer[0] = np.eye(4)[:, None, :]
    rows = buffer.reshape(links, 4 * count, 4)[:, :3 * count]
    extended = space.extended
    extended[:plan.nq] = values.T
    extended[plan.nq] = 0.0
    turns = space.turns
    trig = batch.trig_count
    if trig:
        angles = space.trig[6]
        np.take(extended, batch.trig_src, axis=0, out=angles, mode='clip')
        angles *= batch.trig_mult
        angles += batch.trig_off
        sin, cos = sincos(angles, tuple(space.trig[:6]))
        turns.real[:trig] = cos
        np.negative(sin, out=turns.imag[:trig])
        np.conjugate(turns[:trig], out=turns[trig:])
    for level in plan.levels:
        start, stop = level.start, level.stop
        if isinstance(level.anchors, slice):
            anchors = rows[level.anchors]
        else:
            # take from the C-contiguous buffer: np.take copies a strided source whole first
            gathered = space.gather[:stop - start]
            np.take(buffer, level.anchors, axis=0, out=gathered, mode='clip')
            anchors = gathered.reshape(stop - start, 4 * count, 4)[:, :3 * count]
        np.matmul(anchors, batch.frames[start:stop], out=rows[start:stop])
        for group in level.groups:
            kind, first, last = group.kind, group.start, group.stop
            if kind in _OFFSET or kind == 'r':
                selected = batch.trig[first]
                if isinstance(selected, slice):
                    factors = turns[selected]
                else:
                    factors = space.pairs[:last - first]
                    np.take(turns, selected, axis=0, out=factors, mode='clip')
                if kind == 'r':
                    _rotate_general(batch, buffer, first, last, factors)
                    continue
                offset = _OFFSET[kind]
                pair = buffer[first:last, :3, :, offset:offset + 2].view(np.complex128)[..., 0]
                pair *= factors[:, None, :]
            elif kind == 'p':
                members = slice(first, last)
                shift = extended[plan.src[members]] * plan.mult[members, None] \
                    + plan.off[members, None]
                axes = plan.axes[members][:, None, None, :]
                direction = (buffer[members, :3, :, :3] * axes).sum(axis=-1)
                buffer[members, :3, :, 3] += direction * shift[:, None, :]
            elif kind in ('floating', 'planar'):
                for index in range(first, last):
                    motion = general_motion(plan, index, values)
                    buffer[index, :3] = np.matmul(buffer[index, :3, :, None, :],
                                                  motion[None])[:, :, 0, :]
    if batch.turned.size:
        saved = space.turned
        np.take(buffer, batch.turned, axis=0, out=saved, mode='clip')
        for column, stored in enumerate((1, 2, 0)):
            buffer[batch.turned, :3, :, column] = saved[:, :3, :, stored]
    result: FloatArray = buffer.transpose(2, 0, 1, 3)
    return result


def _rotate_general(batch: BatchPlan, buffer: FloatArray, first: int, last: int,
                    turns: np.ndarray) -> None:
    """Right-multiply links ``first:last`` by Rodrigues' rotation about their own axes."""
    for offset, index in enumerate(range(first, last)):
        fixed, cos_part, sin_part = batch.rodrigues[index]
        cos, sin = turns[offset].real, -turns[offset].imag
        rotation = fixed + cos[:, None, None] * cos_part + sin[:, None, None] * sin_part
        old = buffer[index, :3, :, None, :3]
        buffer[index, :3, :, :3] = np.matmul(old, rotation[None])[:, :, 0, :]


#: Names accepted by :func:`batch_engine` (and ``KinematicModel(..., backend=...)``).
BACKENDS = ('auto', 'numpy', 'numba')


#: ``engine(values (N, nq), out (N, L, 4, 4) or None) -> (N, L, 4, 4)``.
BatchEngine = Callable[[FloatArray, 'FloatArray | None'], FloatArray]


def batch_engine(plan: FkPlan, backend: str) -> tuple[str, BatchEngine]:
    """
    The batched forward kinematics of one model with the chosen backend.

    ``'numba'`` and ``'auto'`` import numba here (about 1 s); the kernel is compiled on its first
    call (a few s), or loaded from numba's on-disk cache (under 1 s).

    :param plan: The model's plan.
    :param backend: ``'numpy'`` (this module), ``'numba'`` (:mod:`.fk_numba`), or ``'auto'``:
        numba when it imports, else numpy.
    :return: ``(name, engine)``: the backend used (``'numpy'`` or ``'numba'``) and a function
        ``engine(values, out)`` from (N, nq) validated configurations to (N, L, 4, 4) float64
        ``T_root_link``, written into ``out`` (a checked C-contiguous array) when given.
    :raises ValueError: for an unknown backend name.
    :raises ImportError: for ``'numba'`` when numba cannot be imported.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, "
                         f'got {backend!r}')
    if backend != 'numpy':
        from . import fk_numba  # imports numba: only when asked for
        if fk_numba.AVAILABLE:
            kernel = fk_numba.NumbaPlan(plan)
            return 'numba', lambda values, out: fk_numba.numba_link_poses(kernel, values, out)
        if backend == 'numba':
            raise ImportError("backend='numba' needs the numba package (pip install numba), "
                              'which cannot be imported')
    batch = BatchPlan(plan)

    def numpy_engine(values: FloatArray, out: FloatArray | None) -> FloatArray:
        result = batch_link_poses(batch, values)
        if out is None:
            return result
        np.copyto(out, result)
        return out
    return 'numpy', numpy_engine
