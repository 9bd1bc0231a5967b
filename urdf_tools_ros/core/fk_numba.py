"""
Batched forward kinematics compiled with numba: one configuration at a time, in native code.

Optional, not a public API: :meth:`~urdf_tools_ros.core.kinematics.KinematicModel.link_pose_batch`
uses it when numba imports (``backend='auto'`` or ``'numba'``), else the numpy engine of
:mod:`urdf_tools_ros.core.fk_batch`. This module imports without numba; then :data:`AVAILABLE` is
false and nothing here may be called.

The kernel takes the plan (:mod:`urdf_tools_ros.core.fk_plan`) as two flat tables in link order
(every link after its anchor, see :class:`NumbaPlan`) and fills a C-contiguous (N, L, 4, 4)
array. Per block of :data:`BLOCK` configurations it first computes every distinct sin/cos of
the block (the polynomial of :func:`~urdf_tools_ros.core.fk_batch.sincos`, in a loop the
compiler vectorises), then for each configuration and link
``T_root_l = T_root_anchor @ F_l @ M_l(q)``, three rows only (the bottom row is set to
``(0, 0, 0, 1)``): ``T_root_anchor @ F_l`` (the rotation part skipped when ``F_l`` has none),
then the motion: two columns turned for a rotation about x, y or z; Rodrigues' 3x3 for another
axis; ``d R a`` added for prismatic; floating and planar as in
:func:`~urdf_tools_ros.core.fk_plan.general_motion`. Input validation stays in Python, before the
kernel (finite values, magnitudes <= 1e150, non-zero quaternions).

One thread per call: ``parallel=True`` with ``prange`` over blocks was measured on the 2-core
development machine and did not pay (0.2x to 1.0x of serial under load, at best 2x when idle),
and numba's thread pools are not fork-safe. The kernel releases the GIL (``nogil``), so callers
can run batches on several Python threads themselves.

Compiled code is cached on disk (numba ``cache=True``) where numba finds a writable cache
directory (next to this file, else ``$NUMBA_CACHE_DIR`` or the user cache); where none is usable
(read-only install, no writable home) the kernel is compiled in memory on first use instead.
"""

from __future__ import annotations

from collections.abc import Callable
import importlib
import math
import time
from typing import Any

import numpy as np

from .fk_batch import (COS_COEFFICIENTS, PIO2_HIGH, PIO2_LOW, SIN_COEFFICIENTS, SINCOS_RANGE,
                       TWO_OVER_PI)
from .fk_plan import FkPlan, KINDS, planar_basis
from .transforms import FloatArray

__all__ = ['AVAILABLE', 'BLOCK', 'NumbaPlan', 'numba_link_poses', 'warm_up']

numba: Any
try:
    # numba has no stubs: imported by name so that mypy sees Any whether or not it is installed
    numba = importlib.import_module('numba')
except ImportError:  # not installed, or not loadable with this numpy
    numba = None

#: Whether numba imported, so the compiled kernel can be used.
AVAILABLE = numba is not None
#: Configurations per block: the sin/cos table of a block stays in the L1 cache.
BLOCK = 64

_FIXED, _RX, _RY, _RZ, _R, _P, _FLOATING, _PLANAR = range(len(KINDS))
# Columns of NumbaPlan.ints and NumbaPlan.consts (the frame F_l takes consts[:, 0:12]).
_I_KIND, _I_ANCHOR, _I_TRIG, _I_SRC, _I_START, _I_TURNED, _I_COUNT = 0, 1, 2, 5, 6, 7, 8
_C_SIGN, _C_MULT, _C_OFF, _C_AXIS, _C_RODRIGUES, _C_PLANE, _C_COUNT = 12, 13, 14, 15, 18, 45, 51
_S0, _S1, _S2, _S3, _S4, _S5 = SIN_COEFFICIENTS
_C0, _C1, _C2, _C3, _C4, _C5 = COS_COEFFICIENTS


def _jit(function: Callable[..., Any], **options: Any) -> Any:
    """``numba.njit`` with the on-disk cache when a cache directory is usable, else without."""
    try:
        return numba.njit(cache=True, nogil=True, **options)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available for file ..."
        return numba.njit(cache=False, nogil=True, **options)(function)


def _sincos_block(values: FloatArray, first: int, last: int, trig_src: np.ndarray,
                  trig_mult: FloatArray, trig_off: FloatArray, sin: FloatArray,
                  cos: FloatArray) -> None:
    """
    ``sin``/``cos`` (T, BLOCK) of ``mult[t] * values[n, src[t]] + off[t]``, n in first:last.

    The fdlibm polynomial of :func:`~urdf_tools_ros.core.fk_batch.sincos`, branch-free; a row
    with some ``|angle| > 1e5`` uses ``math.sin``/``math.cos`` instead.
    """
    count = last - first
    angle = np.empty(count)
    for row in range(trig_src.shape[0]):
        source, mult, off = trig_src[row], trig_mult[row], trig_off[row]
        largest = 0.0
        for b in range(count):
            value = mult * values[first + b, source] + off
            angle[b] = value
            largest = max(largest, abs(value))
        if largest > SINCOS_RANGE:
            for b in range(count):
                sin[row, b] = math.sin(angle[b])
                cos[row, b] = math.cos(angle[b])
            continue
        for b in range(count):
            x = angle[b]
            turns = np.rint(x * TWO_OVER_PI)
            reduced = x + turns * -PIO2_HIGH
            reduced -= turns * PIO2_LOW
            z = reduced * reduced
            s = z * _S0
            s = (s + _S1) * z
            s = (s + _S2) * z
            s = (s + _S3) * z
            s = (s + _S4) * z
            s = (s + _S5) * z
            s = s * reduced + reduced
            c = z * _C0
            c = (c + _C1) * z
            c = (c + _C2) * z
            c = (c + _C3) * z
            c = (c + _C4) * z
            c = (c + _C5) * z
            c = c * z
            c = (c - z * 0.5) + 1.0
            quadrant = turns + np.floor(turns * 0.25) * -4.0      # 0, 1, 2, 3
            half = np.floor(quadrant * 0.5)                      # 1 in quadrants 2, 3
            odd = quadrant + half * -2.0                         # 1 where sin and cos swap
            swap = (c - s) * odd
            s += swap
            c -= swap
            odd += half                                          # 1 exactly in quadrants 1, 2
            sin[row, b] = s * (half * -2.0 + 1.0)
            cos[row, b] = c * ((2.0 - odd) * odd * -2.0 + 1.0)


def _block(values: FloatArray, out: FloatArray, first: int, last: int, ints: np.ndarray,
           consts: FloatArray, trig_src: np.ndarray, trig_mult: FloatArray, trig_off: FloatArray,
           quaternion: bool) -> None:
    """Fill rows ``first:last`` (at most :data:`BLOCK`) of ``out`` (N, L * 16); see NumbaPlan."""
    links = ints.shape[0]
    sin = np.empty((trig_src.shape[0], BLOCK))
    cos = np.empty((trig_src.shape[0], BLOCK))
    sincos_block(values, first, last, trig_src, trig_mult, trig_off, sin, cos)
    for n in range(first, last):
        b = n - first
        for i in range(16):
            out[n, i] = 1.0 if i % 5 == 0 else 0.0
        for link in range(1, links):
            a = ints[link, _I_ANCHOR] * 16
            p = out[n, a:a + 12]    # T_root_anchor, top rows (row-major 3x4)
            f = consts[link, :12]   # F_link, top rows
            # top rows of T_root_anchor @ F_link (both rigid: bottom rows (0, 0, 0, 1))
            p00, p01, p02, p03 = p[0], p[1], p[2], p[3]
            p10, p11, p12, p13 = p[4], p[5], p[6], p[7]
            p20, p21, p22, p23 = p[8], p[9], p[10], p[11]
            if ints[link, _I_TURNED]:
                m00 = p00 * f[0] + p01 * f[4] + p02 * f[8]
                m01 = p00 * f[1] + p01 * f[5] + p02 * f[9]
                m02 = p00 * f[2] + p01 * f[6] + p02 * f[10]
                m10 = p10 * f[0] + p11 * f[4] + p12 * f[8]
                m11 = p10 * f[1] + p11 * f[5] + p12 * f[9]
                m12 = p10 * f[2] + p11 * f[6] + p12 * f[10]
                m20 = p20 * f[0] + p21 * f[4] + p22 * f[8]
                m21 = p20 * f[1] + p21 * f[5] + p22 * f[9]
                m22 = p20 * f[2] + p21 * f[6] + p22 * f[10]
            else:  # F_link has no rotation (origin rpy 0 0 0 on the way: most links)
                m00, m01, m02 = p00, p01, p02
                m10, m11, m12 = p10, p11, p12
                m20, m21, m22 = p20, p21, p22
            m03 = p00 * f[3] + p01 * f[7] + p02 * f[11] + p03
            m13 = p10 * f[3] + p11 * f[7] + p12 * f[11] + p13
            m23 = p20 * f[3] + p21 * f[7] + p22 * f[11] + p23
            k = ints[link, _I_KIND]
            if k == _RZ or k == _RX or k == _RY:
                c = cos[ints[link, _I_TRIG], b]
                s = sin[ints[link, _I_TRIG], b] * consts[link, _C_SIGN]
                if k == _RZ:    # (col0, col1) <- (c col0 + s col1, c col1 - s col0)
                    m00, m01 = c * m00 + s * m01, c * m01 - s * m00
                    m10, m11 = c * m10 + s * m11, c * m11 - s * m10
                    m20, m21 = c * m20 + s * m21, c * m21 - s * m20
                elif k == _RX:  # (col1, col2) <- (c col1 + s col2, c col2 - s col1)
                    m01, m02 = c * m01 + s * m02, c * m02 - s * m01
                    m11, m12 = c * m11 + s * m12, c * m12 - s * m11
                    m21, m22 = c * m21 + s * m22, c * m22 - s * m21
                else:           # (col0, col2) <- (c col0 - s col2, c col2 + s col0)
                    m00, m02 = c * m00 - s * m02, c * m02 + s * m00
                    m10, m12 = c * m10 - s * m12, c * m12 + s * m10
                    m20, m22 = c * m20 - s * m22, c * m22 + s * m20
            elif k == _P:
                d = consts[link, _C_MULT] * values[n, ints[link, _I_SRC]] + consts[link, _C_OFF]
                ax, ay, az = consts[link, _C_AXIS:_C_AXIS + 3]
                m03 += d * (m00 * ax + m01 * ay + m02 * az)
                m13 += d * (m10 * ax + m11 * ay + m12 * az)
                m23 += d * (m20 * ax + m21 * ay + m22 * az)
            elif k != _FIXED:
                # general rotation R and translation t of the motion, then M <- M @ [R, t]
                tx = ty = tz = 0.0
                if k == _FLOATING:
                    q = ints[link, _I_START]
                    tx, ty, tz = values[n, q], values[n, q + 1], values[n, q + 2]
                    if quaternion:
                        x, y, z, w = (values[n, q + 3], values[n, q + 4], values[n, q + 5],
                                      values[n, q + 6])
                        norm = math.sqrt(x * x + y * y + z * z + w * w)
                        x, y, z, w = x / norm, y / norm, z / norm, w / norm
                        r00 = 1.0 - 2.0 * (y * y + z * z)
                        r01 = 2.0 * (x * y - z * w)
                        r02 = 2.0 * (x * z + y * w)
                        r10 = 2.0 * (x * y + z * w)
                        r11 = 1.0 - 2.0 * (x * x + z * z)
                        r12 = 2.0 * (y * z - x * w)
                        r20 = 2.0 * (x * z - y * w)
                        r21 = 2.0 * (y * z + x * w)
                        r22 = 1.0 - 2.0 * (x * x + y * y)
                    else:  # Rz(yaw) Ry(pitch) Rx(roll), REP 103
                        cr, sr = cos[ints[link, _I_TRIG], b], sin[ints[link, _I_TRIG], b]
                        cp, sp = cos[ints[link, _I_TRIG + 1], b], sin[ints[link, _I_TRIG + 1], b]
                        cy, sy = cos[ints[link, _I_TRIG + 2], b], sin[ints[link, _I_TRIG + 2], b]
                        r00, r01, r02 = cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr
                        r10, r11, r12 = sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr
                        r20, r21, r22 = -sp, cp * sr, cp * cr
                else:  # 'r' (Rodrigues about the unit axis) or planar (and x u + y v)
                    c = cos[ints[link, _I_TRIG], b]
                    s = sin[ints[link, _I_TRIG], b] * consts[link, _C_SIGN]
                    g = consts[link, _C_RODRIGUES:_C_RODRIGUES + 27]
                    r00 = g[0] + c * g[9] + s * g[18]
                    r01 = g[1] + c * g[10] + s * g[19]
                    r02 = g[2] + c * g[11] + s * g[20]
                    r10 = g[3] + c * g[12] + s * g[21]
                    r11 = g[4] + c * g[13] + s * g[22]
                    r12 = g[5] + c * g[14] + s * g[23]
                    r20 = g[6] + c * g[15] + s * g[24]
                    r21 = g[7] + c * g[16] + s * g[25]
                    r22 = g[8] + c * g[17] + s * g[26]
                    if k == _PLANAR:
                        q = ints[link, _I_START]
                        x, y = values[n, q], values[n, q + 1]
                        tx = x * consts[link, _C_PLANE + 0] + y * consts[link, _C_PLANE + 3]
                        ty = x * consts[link, _C_PLANE + 1] + y * consts[link, _C_PLANE + 4]
                        tz = x * consts[link, _C_PLANE + 2] + y * consts[link, _C_PLANE + 5]
                m03 += m00 * tx + m01 * ty + m02 * tz
                m13 += m10 * tx + m11 * ty + m12 * tz
                m23 += m20 * tx + m21 * ty + m22 * tz
                m00, m01, m02 = (m00 * r00 + m01 * r10 + m02 * r20,
                                 m00 * r01 + m01 * r11 + m02 * r21,
                                 m00 * r02 + m01 * r12 + m02 * r22)
                m10, m11, m12 = (m10 * r00 + m11 * r10 + m12 * r20,
                                 m10 * r01 + m11 * r11 + m12 * r21,
                                 m10 * r02 + m11 * r12 + m12 * r22)
                m20, m21, m22 = (m20 * r00 + m21 * r10 + m22 * r20,
                                 m20 * r01 + m21 * r11 + m22 * r21,
                                 m20 * r02 + m21 * r12 + m22 * r22)
            pose = out[n, link * 16:link * 16 + 16]
            pose[0], pose[1], pose[2], pose[3] = m00, m01, m02, m03
            pose[4], pose[5], pose[6], pose[7] = m10, m11, m12, m13
            pose[8], pose[9], pose[10], pose[11] = m20, m21, m22, m23
            pose[12], pose[13], pose[14], pose[15] = 0.0, 0.0, 0.0, 1.0


def _serial_kernel(values: FloatArray, out: FloatArray, *plan: Any) -> None:
    """Fill ``out`` (N, L * 16), the result flattened per configuration, for ``values`` (N, nq)."""
    for first in range(0, values.shape[0], BLOCK):
        block(values, out, first, min(first + BLOCK, values.shape[0]), *plan)


if AVAILABLE:
    sincos_block = _jit(_sincos_block)
    # 'contract' lets LLVM fuse a * b + c into one FMA (one rounding instead of two): ~15 % faster
    block = _jit(_block, fastmath={'contract'})
    _serial = _jit(_serial_kernel)


class NumbaPlan:
    """
    The plan of one model as two flat tables for the kernel, computed once per model.

    ``ints`` (L, 8) int64 and ``consts`` (L, 51) float64, one row per link in link order (link 0
    is the root); the columns are named by the ``_I_*`` and ``_C_*`` offsets of this module:
    kind (index in :data:`~urdf_tools_ros.core.fk_plan.KINDS`), anchor (index of an earlier
    link), rows of the sin/cos table (rotation and planar: the first; floating rpy: roll, pitch,
    yaw), ``src`` of a prismatic joint's variable, ``start`` of a floating or planar joint's
    variables, and whether ``F_l`` rotates; ``F_l``'s top rows (3, 4), the sign of the sine,
    ``mult``/``off`` of a prismatic displacement ``mult * q[src] + off`` (m), the unit axis (3,),
    ``I + K²``, ``-K²``, ``K`` with ``K = [axis]×`` (3, 3) each (axis 'r' and planar) and the
    planar ``u``, ``v`` (3,) each. Sin/cos table (T rows):
    ``sin(trig_mult * q[trig_src] + trig_off)``, one row per distinct
    ``(source, |multiplier|, ±offset)``, as in :class:`~urdf_tools_ros.core.fk_batch.BatchPlan`.
    """

    def __init__(self, plan: FkPlan) -> None:
        links = len(plan.link_names)
        ints = np.zeros((links, _I_COUNT), dtype=np.int64)
        consts = np.zeros((links, _C_COUNT))
        ints[:, _I_KIND] = [KINDS.index(kind) if kind in KINDS else _FIXED for kind in plan.kinds]
        ints[:, _I_ANCHOR] = plan.anchor
        ints[:, _I_TURNED] = [not np.array_equal(matrix[:3, :3], np.eye(3))
                              for matrix in plan.fixed]
        consts[:, :12] = plan.fixed[:, :3, :].reshape(links, 12)
        consts[:, _C_SIGN] = 1.0
        consts[:, _C_AXIS:_C_AXIS + 3] = plan.axes
        keys: dict[tuple[int, float, float], int] = {}

        def row(source: int, multiplier: float, offset: float) -> int:
            return keys.setdefault((source, multiplier, offset), len(keys))

        for index, kind in enumerate(plan.kinds):
            joint = plan.joints[index]
            if joint is None or kind == 'fixed':
                continue
            start = plan.joint_slices[joint.name].start if kind in ('floating', 'planar') else 0
            ints[index, _I_START] = start
            if kind in ('rx', 'ry', 'rz', 'r'):
                mult, off = float(plan.mult[index]), float(plan.off[index])
                # theta = m q + o with m < 0 is -(|m| q - o): same cosine, opposite sine
                consts[index, _C_SIGN] = -1.0 if mult < 0.0 else 1.0
                ints[index, _I_TRIG] = row(int(plan.src[index]), abs(mult),
                                           -off if mult < 0.0 else off)
            elif kind == 'p':
                ints[index, _I_SRC] = plan.src[index]
                consts[index, _C_MULT] = plan.mult[index]
                consts[index, _C_OFF] = plan.off[index]
            elif kind == 'floating' and plan.floating == 'rpy':
                for angle in range(3):
                    ints[index, _I_TRIG + angle] = row(start + 3 + angle, 1.0, 0.0)
            elif kind == 'planar':
                ints[index, _I_TRIG] = row(start + 2, 1.0, 0.0)
                u, v = planar_basis(plan.axes[index])
                consts[index, _C_PLANE:_C_PLANE + 6] = np.concatenate([u, v])
            if kind in ('r', 'planar'):
                x, y, z = plan.axes[index]
                cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
                square = cross @ cross
                consts[index, _C_RODRIGUES:_C_RODRIGUES + 27] = np.concatenate(
                    [(np.eye(3) + square).ravel(), -square.ravel(), cross.ravel()])
        self.ints = ints
        self.consts = consts
        self.trig_src = np.array([key[0] for key in keys], dtype=np.int64)
        self.trig_mult = np.array([key[1] for key in keys], dtype=np.float64)
        self.trig_off = np.array([key[2] for key in keys], dtype=np.float64)
        self.quaternion = plan.floating == 'quaternion'

    def arguments(self) -> tuple[Any, ...]:
        """The kernel's arguments after ``values`` and ``out``."""
        return (self.ints, self.consts, self.trig_src, self.trig_mult, self.trig_off,
                self.quaternion)


def numba_link_poses(batch: NumbaPlan, values: FloatArray,
                     out: FloatArray | None = None) -> FloatArray:
    """
    Poses of every link for N configurations, computed by the compiled kernel.

    :param batch: The model's flat plan.
    :param values: (N, nq) validated configurations (finite, magnitude <= 1e150, quaternions
        not zero), in ``variable_names`` order; rad or m.
    :param out: A C-contiguous (N, L, 4, 4) float64 array to fill (benchmarks), or ``None``.
    :return: ``out`` or a new C-contiguous (N, L, 4, 4) float64 array of ``T_root_link``.
    :raises RuntimeError: if numba is not available (:data:`AVAILABLE`).
    """
    if not AVAILABLE:
        raise RuntimeError('numba is not available')
    values = np.ascontiguousarray(values, dtype=np.float64)
    count, links = values.shape[0], batch.ints.shape[0]
    if out is None:
        out = np.empty((count, links, 4, 4))
    _serial(values, out.reshape(count, links * 16), *batch.arguments())
    return out


def warm_up() -> float:
    """
    Compile the kernel (or load it from numba's on-disk cache) now instead of on first use.

    :return: The time it took, s.
    :raises RuntimeError: if numba is not available (:data:`AVAILABLE`).
    """
    if not AVAILABLE:
        raise RuntimeError('numba is not available')
    begin = time.perf_counter()
    ints = np.zeros((1, _I_COUNT), dtype=np.int64)
    _serial(np.zeros((1, 0)), np.empty((1, 16)), ints, np.zeros((1, _C_COUNT)),
            np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0), False)
    return time.perf_counter() - begin
