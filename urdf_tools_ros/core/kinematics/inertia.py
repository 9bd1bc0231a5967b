"""
Rotational inertia: solid primitives, principal moments, physical validity, formatting.

Tensors are :class:`~urdf_tools_ros.core.model.robot.Inertia` or symmetric (3, 3) float64
arrays, kg·m², about the centre of mass. Solids have uniform density ("list of moments of
inertia"), centred on their element frame as URDF draws them (URDF spec, link/geometry).
"""

from __future__ import annotations

from collections.abc import Sequence
import functools
import math
import struct
from typing import TYPE_CHECKING

import numpy as np

from ..model.robot import Box, Capsule, Cylinder, Geometry, Inertia, Origin, Sphere
from ..model.values import all_finite
from ..transforms import FloatArray, rpy_to_rotation

if TYPE_CHECKING:
    import numpy.typing as npt

#: Tolerance of the triangle inequality, as a fraction of the largest principal moment.
TRIANGLE_RTOL = 1e-6


def box_inertia(mass: float, size: Sequence[float]) -> Inertia:
    """Inertia of a solid box of ``mass`` kg, sides ``size`` m: ``ixx = m (y² + z²) / 12`` ..."""
    x, y, z = (float(value) for value in size)
    return Inertia(ixx=mass * (y * y + z * z) / 12.0,
                   iyy=mass * (x * x + z * z) / 12.0,
                   izz=mass * (x * x + y * y) / 12.0)


def cylinder_inertia(mass: float, radius: float, length: float) -> Inertia:
    """Inertia of a solid cylinder along z: ``ixx = m (3 r² + h²) / 12``, ``izz = m r²/2``."""
    side = mass * (3.0 * radius * radius + length * length) / 12.0
    return Inertia(ixx=side, iyy=side, izz=mass * radius * radius / 2.0)


def sphere_inertia(mass: float, radius: float) -> Inertia:
    """Inertia of a solid sphere of ``mass`` kg and ``radius`` m: ``2/5 m r²`` on every axis."""
    moment = 0.4 * mass * radius * radius
    return Inertia(ixx=moment, iyy=moment, izz=moment)


def capsule_masses(mass: float, radius: float, length: float) -> tuple[float, float]:
    """
    Split a solid capsule's mass between its cylinder and its two hemispheres, by volume.

    :return: ``(cylinder, hemispheres)`` masses, kg: ``m·πr²l / V`` and ``m·(4/3)πr³ / V``
        with ``V = πr²l + (4/3)πr³``; all to the hemispheres when ``V`` is 0.
    """
    cylinder = math.pi * radius * radius * length
    spheres = 4.0 / 3.0 * math.pi * radius ** 3
    volume = cylinder + spheres
    if volume <= 0.0:
        return 0.0, mass
    return mass * cylinder / volume, mass * spheres / volume


def capsule_inertia(mass: float, radius: float, length: float) -> Inertia:
    """
    Return the inertia of a solid capsule (URDF 1.1 ``<capsule>``, axis z) about its centre.

    With ``m_c``, ``m_s`` from :func:`capsule_masses`: ``izz = m_c r²/2 + m_s 2r²/5``,
    ``ixx = iyy = m_c (l²/12 + r²/4) + m_s (2r²/5 + l²/4 + 3lr/8)`` (solid cylinder and
    hemispheres, moved to the centre by the parallel-axis theorem).

    :param length: Length of the cylinder (the caps not included), m.
    """
    m_c, m_s = capsule_masses(mass, radius, length)
    r2, l2 = radius * radius, length * length
    axial = m_c * r2 / 2.0 + m_s * 0.4 * r2
    transverse = (m_c * (l2 / 12.0 + r2 / 4.0)
                  + m_s * (0.4 * r2 + l2 / 4.0 + 3.0 * length * radius / 8.0))
    return Inertia(ixx=transverse, iyy=transverse, izz=axial)


def geometry_inertia(geometry: Geometry | None, mass: float) -> Inertia | None:
    """
    Return the inertia of a solid primitive about its centre, in the geometry frame, kg·m².

    :return: ``None`` for a mesh or no geometry.
    """
    if isinstance(geometry, Box):
        return box_inertia(mass, geometry.size)
    if isinstance(geometry, Cylinder):
        return cylinder_inertia(mass, geometry.radius, geometry.length)
    if isinstance(geometry, Sphere):
        return sphere_inertia(mass, geometry.radius)
    if isinstance(geometry, Capsule):
        return capsule_inertia(mass, geometry.radius, geometry.length)
    return None


def inertia_matrix(inertia: Inertia) -> FloatArray:
    """Return ``inertia`` as a symmetric (3, 3) float64 array, kg·m²."""
    return np.array(inertia.as_matrix(), dtype=np.float64)


def inertia_from_matrix(matrix: npt.ArrayLike) -> Inertia:
    """The :class:`Inertia` of a (3, 3) tensor, ``(M + Mᵀ) / 2``; :exc:`ValueError` if not 3x3."""
    array = np.asarray(matrix, dtype=np.float64)
    if array.shape != (3, 3):
        raise ValueError(f'an inertia tensor is (3, 3), got shape {array.shape}')
    sym = (array + array.T) / 2.0
    return Inertia(ixx=float(sym[0, 0]), ixy=float(sym[0, 1]), ixz=float(sym[0, 2]),
                   iyy=float(sym[1, 1]), iyz=float(sym[1, 2]), izz=float(sym[2, 2]))


def principal_moments(inertia: Inertia) -> FloatArray:
    """:func:`principal_moment_values` as a (3,) float64 array, kg·m²."""
    return np.array(principal_moment_values(inertia))


def principal_moment_values(inertia: Inertia) -> tuple[float, float, float]:
    """
    Return the principal moments of inertia (the tensor's eigenvalues), ascending, kg·m².

    The checks ask several times per tensor: the last 4,096 tensors' moments are kept.

    :return: Three floats; NaN when an entry is not finite.
    """
    entries = (inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz)
    if not all_finite(entries):
        return (math.nan, math.nan, math.nan)
    return _eigenvalues(struct.pack('6d', *entries))


@functools.lru_cache(maxsize=4096)
def _eigenvalues(entries: bytes) -> tuple[float, float, float]:
    """``eigvalsh`` of ``ixx, ixy, ixz, iyy, iyz, izz`` packed as six doubles (keyed by bits)."""
    ixx, ixy, ixz, iyy, iyz, izz = struct.unpack('6d', entries)
    values = np.linalg.eigvalsh(inertia_matrix(Inertia(ixx, ixy, ixz, iyy, iyz, izz)))
    return float(values[0]), float(values[1]), float(values[2])


def is_zero(inertia: Inertia) -> bool:
    """Whether every entry is 0 (a point mass, or a massless frame link)."""
    return not any((inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz))


def entry_scale(inertia: Inertia) -> float:
    """Return ``Σ |I_ij|`` over the (3, 3) tensor, kg·m², a bound of every principal moment."""
    return (abs(inertia.ixx) + abs(inertia.iyy) + abs(inertia.izz)
            + 2.0 * (abs(inertia.ixy) + abs(inertia.ixz) + abs(inertia.iyz)))


def is_positive_definite(inertia: Inertia) -> bool:
    """Whether every principal moment is > 0 (a point mass or an ideal rod is not)."""
    return principal_moment_values(inertia)[0] > 0.0


def triangle_inequality_violation(inertia: Inertia, rtol: float = TRIANGLE_RTOL) -> float:
    """
    Return by how much the principal moments ``a <= b <= c`` break ``a + b >= c``.

    Source: ``I1 + I2 - I3 = 2 ∫ z² dm >= 0`` (Featherstone, Rigid Body Dynamics Algorithms,
    §2.14).

    :param rtol: Tolerance as a fraction of ``c``.
    :return: ``c - (a + b)`` in kg·m² when it exceeds ``rtol * c``, else 0.
    """
    a, b, c = principal_moment_values(inertia)
    excess = c - (a + b)
    return excess if excess > rtol * abs(c) else 0.0


def is_physically_valid(inertia: Inertia, rtol: float = TRIANGLE_RTOL) -> bool:
    """Whether the tensor is positive definite and meets the triangle inequality (``rtol``)."""
    return is_positive_definite(inertia) and triangle_inequality_violation(inertia, rtol) == 0.0


def rotate(inertia: Inertia, R_a_b: npt.ArrayLike) -> Inertia:
    """
    Express a tensor given in frame ``b`` in frame ``a``: ``I_a = R_a_b I_b R_a_bᵀ``.

    :param R_a_b: (3, 3) rotation mapping ``b`` coordinates into ``a``.
    """
    rotation = np.asarray(R_a_b, dtype=np.float64)
    return inertia_from_matrix(rotation @ inertia_matrix(inertia) @ rotation.T)


def parallel_axis(inertia: Inertia, mass: float, offset: npt.ArrayLike) -> Inertia:
    """
    Move a tensor from the centre of mass to a point: ``I_c + m (|d|² E - d dᵀ)`` (parallel axis).

    :param mass: Mass, kg.
    :param offset: ``d``, the centre of mass relative to the new point, m, in the tensor's axes.
    """
    d = np.asarray(offset, dtype=np.float64)
    shift = mass * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return inertia_from_matrix(inertia_matrix(inertia) + shift)


def implied_inertia(geometry: Geometry | None, mass: float,
                    geometry_origin: Origin = Origin(),
                    inertial_origin: Origin = Origin()) -> Inertia | None:
    """
    Return the inertia a solid primitive of ``mass`` kg implies in a link's inertial frame.

    ``R I_g Rᵀ`` with ``R = R_link_inertialᵀ R_link_geometry``, shifted by the parallel axis
    theorem to the inertial origin; entries below 1e-12 of the largest are set to 0.

    :param geometry_origin: ``T_link_geometry`` (the visual/collision ``origin``).
    :param inertial_origin: ``T_link_inertial`` (the ``inertial/origin``).
    :return: kg·m², or ``None`` when ``geometry`` is a mesh or missing.
    :raises TransformError: if an origin holds NaN or inf.
    """
    solid = geometry_inertia(geometry, mass)
    if solid is None:
        return None
    # rpy 0 is the identity: not multiplied by.
    finite = all_finite((*geometry_origin.xyz, *inertial_origin.xyz))
    R_link_geometry = None if finite and geometry_origin.rpy == (0.0, 0.0, 0.0) \
        else rpy_to_rotation(geometry_origin.rpy)
    R_link_inertial = None if finite and inertial_origin.rpy == (0.0, 0.0, 0.0) \
        else rpy_to_rotation(inertial_origin.rpy)
    with np.errstate(all='ignore'):  # absurd sizes overflow to inf: that is the answer
        offset = (np.asarray(geometry_origin.xyz, dtype=np.float64)
                  - np.asarray(inertial_origin.xyz, dtype=np.float64))
        R_inertial_geometry = R_link_geometry
        if R_link_inertial is not None:
            offset = R_link_inertial.T @ offset
            R_inertial_geometry = np.ascontiguousarray(R_link_inertial.T) \
                if R_link_geometry is None else R_link_inertial.T @ R_link_geometry
        inertia = solid if R_inertial_geometry is None else rotate(solid, R_inertial_geometry)
        if offset.any():
            inertia = parallel_axis(inertia, mass, offset)
        matrix = inertia_matrix(inertia)
        if np.isfinite(matrix).all():
            magnitude = np.abs(matrix)
            matrix[magnitude < 1e-12 * magnitude.max()] = 0.0
    return inertia_from_matrix(matrix)


def format_number(value: float, digits: int = 6) -> str:
    """Format ``value`` to ``digits`` significant digits, 0 as ``0`` (``0.0125``, ``1e-09``)."""
    if value == 0.0:
        return '0'
    return f'{value:.{digits}g}'


def format_inertia_element(inertia: Inertia, digits: int = 6) -> str:
    """Format a tensor as ``<inertia ixx="0.0025" ixy="0" ... izz="0.001"/>``."""
    values = ' '.join(f'{name}="{format_number(getattr(inertia, name), digits)}"'
                      for name in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'))
    return f'<inertia {values}/>'


def describe_solid(geometry: Geometry, mass: float) -> str:
    """Describe a solid and its mass: ``a solid 0.1 × 0.1 × 0.2 m box of 0.6 kg``."""
    weight = f'{format_number(mass)} kg'
    if isinstance(geometry, Box):
        sides = ' × '.join(format_number(side) for side in geometry.size)
        return f'a solid {sides} m box of {weight}'
    if isinstance(geometry, Cylinder):
        return (f'a solid r={format_number(geometry.radius)} m × '
                f'{format_number(geometry.length)} m cylinder of {weight}')
    if isinstance(geometry, Sphere):
        return f'a solid r={format_number(geometry.radius)} m sphere of {weight}'
    if isinstance(geometry, Capsule):
        return (f'a solid r={format_number(geometry.radius)} m × '
                f'{format_number(geometry.length)} m capsule of {weight}')
    return f'a mesh {geometry.filename!r} of {weight}'


def describe_inertia(inertia: Inertia, digits: int = 4) -> str:
    """Format the diagonal (and any non-zero product) as ``ixx=…, iyy=…, izz=…``."""
    names = [name for name in ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')
             if name in ('ixx', 'iyy', 'izz') or getattr(inertia, name) != 0.0]
    return ', '.join(f'{name}={format_number(getattr(inertia, name), digits)}' for name in names)


def combine(parts: Sequence[tuple[float, Inertia, npt.ArrayLike]]) -> tuple[float, FloatArray,
                                                                            Inertia]:
    """
    Lump rigidly joined parts into one body: ``I = Σ R_i I_i R_iᵀ + m_i (|d_i|² E - d_i d_iᵀ)``.

    As Gazebo's fixed-joint lumping, KDL's segment sums and MuJoCo's ``fusestatic`` do;
    ``d_i`` is a part's centre of mass relative to the combined one.

    :param parts: ``(mass kg, tensor about the part's centre of mass, T_body_com (4, 4))``.
    :return: ``(mass, com (3,) in the body frame, tensor about com in body axes)``; a total mass
        of 0 gives the origin as centre.
    """
    mass = float(sum(part[0] for part in parts))
    frames = [np.asarray(part[2], dtype=np.float64) for part in parts]
    with np.errstate(all='ignore'):  # absurd values overflow to inf or NaN: that is the answer
        com = np.zeros(3)
        if mass != 0.0:
            for part, frame in zip(parts, frames):
                com = com + part[0] * frame[:3, 3]
            com = com / mass
        total = np.zeros((3, 3))
        for (part_mass, tensor, _), frame in zip(parts, frames):
            rotation = frame[:3, :3]
            total += rotation @ inertia_matrix(tensor) @ rotation.T
            offset = frame[:3, 3] - com
            total += part_mass * (float(offset @ offset) * np.eye(3) - np.outer(offset, offset))
    return mass, np.asarray(com, dtype=np.float64), inertia_from_matrix(total)
