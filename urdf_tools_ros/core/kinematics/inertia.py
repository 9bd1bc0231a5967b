"""
Rotational inertia: solid primitives, principal moments, physical validity, formatting.

Every tensor is a symmetric (3, 3) float64 array in kg·m² about the centre of mass, or an
:class:`~urdf_tools_ros.core.model.robot.Inertia` (its six independent entries). The solid
formulas are those of a body of uniform density ("list of moments of inertia", e.g. Wikipedia, or
Meriam & Kraige, *Engineering Mechanics: Dynamics*, table D/4), with each primitive centred on
its element frame and shaped as URDF draws it (URDF spec, link/geometry).
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

#: Relative tolerance of the triangle inequality on principal moments, as a fraction of the
#: largest moment: covers values rounded to a few significant digits in a file.
TRIANGLE_RTOL = 1e-6


def box_inertia(mass: float, size: Sequence[float]) -> Inertia:
    """
    Return the inertia of a solid box about its centre, axes along its edges.

    ``ixx = m (y² + z²) / 12``, ``iyy = m (x² + z²) / 12``, ``izz = m (x² + y²) / 12``
    (moment of inertia of a solid cuboid, "list of moments of inertia").

    :param mass: Mass, kg.
    :param size: Side lengths ``(x, y, z)`` along the box frame axes, m.
    :return: The inertia tensor, kg·m²; products of inertia are 0.
    """
    x, y, z = (float(value) for value in size)
    return Inertia(ixx=mass * (y * y + z * z) / 12.0,
                   iyy=mass * (x * x + z * z) / 12.0,
                   izz=mass * (x * x + y * y) / 12.0)


def cylinder_inertia(mass: float, radius: float, length: float) -> Inertia:
    """
    Return the inertia of a solid cylinder about its centre, axis along z as URDF draws it.

    ``ixx = iyy = m (3 r² + h²) / 12``, ``izz = m r² / 2`` (moment of inertia of a solid
    cylinder, "list of moments of inertia").

    :param mass: Mass, kg.
    :param radius: Radius, m.
    :param length: Length along z, m.
    :return: The inertia tensor, kg·m²; products of inertia are 0.
    """
    side = mass * (3.0 * radius * radius + length * length) / 12.0
    return Inertia(ixx=side, iyy=side, izz=mass * radius * radius / 2.0)


def sphere_inertia(mass: float, radius: float) -> Inertia:
    """
    Return the inertia of a solid sphere about its centre: ``I = 2/5 m r²`` on every axis.

    Source: moment of inertia of a solid sphere, "list of moments of inertia".

    :param mass: Mass, kg.
    :param radius: Radius, m.
    :return: The inertia tensor, kg·m²; products of inertia are 0.
    """
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

    A cylinder of ``length`` and two hemispheres of ``radius`` of one density: with ``m_c`` and
    ``m_s`` from :func:`capsule_masses`, ``izz = m_c r²/2 + m_s 2r²/5`` and
    ``ixx = iyy = m_c (l²/12 + r²/4) + m_s (2r²/5 + l²/4 + 3lr/8)`` (each hemisphere's moment
    about a diameter of its flat face is ``2/5 m r²``; its centre of mass lies ``3r/8`` from
    that face, so the parallel-axis theorem moves it to the capsule's centre). Source: the
    solid cylinder and sphere of "list of moments of inertia" with the parallel-axis theorem;
    checked against numerical integration in ``test/test_urdf_versions.py``.

    :param mass: Mass, kg.
    :param radius: Radius of the cylinder and the hemispheres, m.
    :param length: Length of the cylinder (the caps not included), m.
    :return: The inertia tensor, kg·m²; products of inertia are 0.
    """
    m_c, m_s = capsule_masses(mass, radius, length)
    r2, l2 = radius * radius, length * length
    axial = m_c * r2 / 2.0 + m_s * 0.4 * r2
    transverse = (m_c * (l2 / 12.0 + r2 / 4.0)
                  + m_s * (0.4 * r2 + l2 / 4.0 + 3.0 * length * radius / 8.0))
    return Inertia(ixx=transverse, iyy=transverse, izz=axial)


def geometry_inertia(geometry: Geometry | None, mass: float) -> Inertia | None:
    """
    Return the inertia of a solid primitive of uniform density about its centre.

    :param geometry: A :class:`Box`, :class:`Cylinder` or :class:`Sphere`, in its own frame.
    :param mass: Mass, kg.
    :return: The tensor in the geometry frame, kg·m², or ``None`` for a mesh or no geometry
        (a mesh's volume is not known without reading the file).
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
    """
    Return the :class:`Inertia` of a (3, 3) tensor, symmetrized as ``(M + Mᵀ) / 2``.

    :param matrix: A (3, 3) array, kg·m².
    :raises ValueError: if ``matrix`` is not (3, 3).
    """
    array = np.asarray(matrix, dtype=np.float64)
    if array.shape != (3, 3):
        raise ValueError(f'an inertia tensor is (3, 3), got shape {array.shape}')
    sym = (array + array.T) / 2.0
    return Inertia(ixx=float(sym[0, 0]), ixy=float(sym[0, 1]), ixz=float(sym[0, 2]),
                   iyy=float(sym[1, 1]), iyz=float(sym[1, 2]), izz=float(sym[2, 2]))


def principal_moments(inertia: Inertia) -> FloatArray:
    """
    Return the principal moments of inertia: the eigenvalues of the tensor, ascending.

    :return: A (3,) float64 array, kg·m², smallest first; all NaN when an entry is not finite
        (:func:`principal_moment_values` as an array).
    """
    return np.array(principal_moment_values(inertia))


def principal_moment_values(inertia: Inertia) -> tuple[float, float, float]:
    """
    Return the principal moments of inertia as three floats, ascending, kg·m².

    The checks ask several times about each tensor (valid? refused by Gazebo? by MuJoCo?): the
    last tensors' moments are kept (:func:`_eigenvalues`), so each is computed once.

    :return: ``np.linalg.eigvalsh`` of the tensor, smallest first; three NaN when an entry is
        not finite.
    """
    entries = (inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz)
    if not all_finite(entries):
        return (math.nan, math.nan, math.nan)
    return _eigenvalues(struct.pack('6d', *entries))


@functools.lru_cache(maxsize=4096)
def _eigenvalues(entries: bytes) -> tuple[float, float, float]:
    """
    ``np.linalg.eigvalsh`` of a finite tensor, ascending.

    :param entries: ``ixx, ixy, ixz, iyy, iyz, izz`` packed as six doubles: the key is their
        bits (-0.0 and 0.0 are equal numbers, not equal keys).
    """
    ixx, ixy, ixz, iyy, iyz, izz = struct.unpack('6d', entries)
    values = np.linalg.eigvalsh(inertia_matrix(Inertia(ixx, ixy, ixz, iyy, iyz, izz)))
    return float(values[0]), float(values[1]), float(values[2])


def is_zero(inertia: Inertia) -> bool:
    """Whether every entry is 0 (a point mass, or a massless frame link)."""
    return not any((inertia.ixx, inertia.ixy, inertia.ixz, inertia.iyy, inertia.iyz, inertia.izz))


def entry_scale(inertia: Inertia) -> float:
    """
    Return the sum of the absolute entries of the (3, 3) tensor, kg·m².

    It bounds every principal moment: ``|λ| <= ‖I‖₂ <= Σ |I_ij|``.
    """
    return (abs(inertia.ixx) + abs(inertia.iyy) + abs(inertia.izz)
            + 2.0 * (abs(inertia.ixy) + abs(inertia.ixz) + abs(inertia.iyz)))


def is_positive_definite(inertia: Inertia) -> bool:
    """
    Whether the tensor is positive definite: every principal moment is > 0.

    The tensor is symmetric by construction (URDF gives six entries). A tensor with a zero
    principal moment (a point mass, an ideal rod) is only semi-definite and fails.
    """
    return principal_moment_values(inertia)[0] > 0.0


def triangle_inequality_violation(inertia: Inertia, rtol: float = TRIANGLE_RTOL) -> float:
    """
    Return by how much the principal moments break the triangle inequality.

    Any rigid body has ``I1 + I2 >= I3`` for every ordering of its principal moments, since
    ``I1 + I2 - I3 = 2 ∫ z² dm >= 0`` (e.g. Featherstone, *Rigid Body Dynamics Algorithms*,
    §2.14). With ascending moments ``a <= b <= c`` only ``a + b >= c`` can fail.

    :param rtol: Tolerance as a fraction of the largest moment ``c``.
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

    Rotation preserves the principal moments (a similarity transform).

    :param inertia: The tensor in frame ``b``, kg·m².
    :param R_a_b: (3, 3) rotation mapping ``b`` coordinates into ``a``.
    """
    rotation = np.asarray(R_a_b, dtype=np.float64)
    return inertia_from_matrix(rotation @ inertia_matrix(inertia) @ rotation.T)


def parallel_axis(inertia: Inertia, mass: float, offset: npt.ArrayLike) -> Inertia:
    """
    Move a tensor from the centre of mass to a point: ``I_p = I_c + m (|d|² E - d dᵀ)``.

    Source: parallel axis theorem (Huygens-Steiner), tensor form.

    :param inertia: Tensor about the centre of mass, kg·m².
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
    Return the inertia a solid primitive of mass ``mass`` implies in a link's inertial frame.

    The solid's tensor ``I_g`` (about its centre, in the geometry frame) is rotated into the
    inertial frame, ``I = R I_g Rᵀ`` with ``R = R_link_inertialᵀ R_link_geometry``, and shifted
    by the parallel axis theorem when the geometry's centre is away from the inertial origin.

    :param geometry: The primitive (usually the link's single collision geometry).
    :param mass: Mass, kg.
    :param geometry_origin: ``T_link_geometry`` (the visual/collision ``origin``).
    :param inertial_origin: ``T_link_inertial`` (the ``inertial/origin``).
    :return: The tensor about the inertial origin in the inertial frame axes, kg·m², or
        ``None`` when ``geometry`` is a mesh or missing.
    :raises TransformError: if an origin holds NaN or inf.
    """
    solid = geometry_inertia(geometry, mass)
    if solid is None:
        return None
    # A rotation of rpy 0 is the identity (cos 0 = 1, sin 0 = 0): multiplying finite numbers by
    # it changes none, so it is skipped.
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
        # Set entries below 1e-12 of the largest entry to 0 (rounding left by rotations).
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
    """
    Format a tensor as a URDF ``<inertia>`` element.

    :return: e.g. ``<inertia ixx="0.0025" ixy="0" ixz="0" iyy="0.0025" iyz="0" izz="0.001"/>``.
    """
    values = ' '.join(f'{name}="{format_number(getattr(inertia, name), digits)}"'
                      for name in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'))
    return f'<inertia {values}/>'


def describe_solid(geometry: Geometry, mass: float) -> str:
    """
    Describe a solid primitive and its mass in words.

    :return: e.g. ``a solid 0.1 × 0.1 × 0.2 m box of 0.6 kg``, ``a solid r=0.05 m × 0.3 m
        cylinder of 2 kg``, ``a solid r=0.1 m sphere of 1 kg``; a mesh gives its filename.
    """
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
    Lump rigidly joined parts into one body: total mass, centre of mass, tensor about it.

    ``I = Σ (R_i I_i R_iᵀ + m_i (|d_i|² E - d_i d_iᵀ))`` with ``d_i`` the part's centre of mass
    relative to the combined one (parallel axis theorem; what Gazebo's fixed-joint lumping,
    KDL's segment sums, MuJoCo's ``fusestatic`` and pinocchio's appended bodies compute).

    :param parts: ``(mass kg, tensor about the part's centre of mass in its own axes,
        T_body_com (4, 4))`` for each part, ``T_body_com`` placing the part's inertial frame in
        the body frame.
    :return: ``(mass, com (3,) in the body frame, tensor about com in body axes)``; a total mass
        of 0 gives the origin as centre and the plain sum of rotated tensors.
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
