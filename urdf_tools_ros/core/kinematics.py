"""
Forward kinematics: the pose of every link in the root frame, for one or N configurations.

:class:`KinematicModel` compiles a robot once (:mod:`urdf_tools_ros.core.fk_plan`) and then
computes, for joint values given by name or as an array:

* :meth:`~KinematicModel.link_poses` ``{link: T_root_link}`` and
  :meth:`~KinematicModel.link_pose_array` (L, 4, 4) in :attr:`~KinematicModel.link_names` order;
* :meth:`~KinematicModel.link_pose_batch` (N, L, 4, 4) for N configurations;
* :meth:`~KinematicModel.transform` ``T_source_target`` between any two links;
* :meth:`~KinematicModel.joint_transforms` ``{joint: T_parent_child}`` of the moving joints and
  :meth:`~KinematicModel.fixed_joint_transforms` of the fixed ones (what TF and TF static carry);
  :meth:`~KinematicModel.joint_transform_arrays` and
  :meth:`~KinematicModel.fixed_joint_transform_arrays` give the same as translation and
  quaternion arrays, the form TF messages carry, without building a matrix per joint.

Joint motion ``M(q)`` after the joint's origin, per type (URDF spec, joint): revolute and
continuous rotate by q rad about the unit axis (right-hand rule); prismatic translates by q m
along it; fixed does nothing; floating takes x, y, z (m) then roll, pitch, yaw (rad, REP 103) or
with ``floating='quaternion'`` x, y, z then qx, qy, qz, qw (normalised); planar takes x, y (m)
along the in-plane unit vectors ``u``, ``v`` of :func:`~urdf_tools_ros.core.fk_plan.planar_basis`
(for axis z: x and y) and yaw (rad) about the axis: ``M = [[Rot(axis, yaw), x u + y v], [0, 1]]``.
Mimic joints follow their actuated source (:mod:`urdf_tools_ros.core.mimic`). An axis is
normalised first, as KDL and pinocchio do.

Configuration vector: :attr:`~KinematicModel.variable_names` in order: each actuated joint (moving,
not mimic) in URDF file order; a single-DOF joint is one entry named like the joint, a planar
joint three (``<joint>/x``, ``/y``, ``/yaw``), a floating joint six or seven (``<joint>/x`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from .errors import JointStateError, UnknownJointError, UnknownLinkError
from .fk_batch import BACKENDS, batch_engine, BatchEngine
from .fk_plan import FkPlan, general_motion, MAX_MAGNITUDE
from .mimic import ResolvedMimic
from .model import Robot
from .transforms import FloatArray, inverse, rotation_to_quaternion, transform_to_quaternion
from .tree import KinematicTree

__all__ = ['KinematicModel', 'forward_kinematics']

Positions = Mapping[str, float] | npt.ArrayLike | None


class KinematicModel:
    """
    A robot compiled for forward kinematics.

    :param robot: The model, or its :class:`~urdf_tools_ros.core.tree.KinematicTree`.
    :param floating: How floating joints take values: ``'rpy'`` (x y z roll pitch yaw) or
        ``'quaternion'`` (x y z qx qy qz qw).
    :param backend: Engine of :meth:`link_pose_batch`: ``'numpy'``, ``'numba'`` (the optional
        compiled kernel, ``pip install numba``) or ``'auto'``: numba when it imports, else
        numpy, decided on the first batch. Both give the same poses to 1e-12.
    :raises ImportError: for ``backend='numba'`` when numba cannot be imported.
    :raises KinematicTreeError: if the links and joints are not a tree.
    :raises MimicError: if a ``<mimic>`` cannot be resolved (with the checker's code).
    :raises InvalidJointError: unknown joint type, zero axis, NaN/inf or a magnitude above
        1e150 in an origin, axis or mimic.
    """

    def __init__(self, robot: Robot | KinematicTree, *, floating: str = 'rpy',
                 backend: str = 'auto') -> None:
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, "
                             f'got {backend!r}')
        self.tree = robot if isinstance(robot, KinematicTree) else KinematicTree(robot)
        self._plan = FkPlan(self.tree, floating)
        self._backend = backend
        self._batch: tuple[str, BatchEngine] | None = None
        if backend == 'numba':
            self._batch = batch_engine(self._plan, backend)
        plan = self._plan
        self._variable_index = {name: index for index, name in enumerate(plan.variable_names)}
        names = [joint.name if joint is not None else '' for joint in plan.joints]
        self._moving = [(names[index], int(index)) for index in plan.moving]
        self._fixed = {names[index]: plan.frames[index].copy() for index in plan.fixed_links}
        self._extended = np.zeros(plan.nq + 1)
        self._moving_names = tuple(name for name, _ in self._moving)
        self._quaternion_plan = _QuaternionPlan(plan)
        fixed = list(self._fixed.values())
        xyz, quat = transform_to_quaternion(np.stack(fixed)) if fixed else \
            (np.zeros((0, 3)), np.zeros((0, 4)))
        self._fixed_arrays = (tuple(self._fixed), xyz, quat)

    # -- description --------------------------------------------------------------------
    @property
    def link_names(self) -> tuple[str, ...]:
        """Link order of array results: by level, joint kind, then tree order (see fk_plan)."""
        return self._plan.link_names

    @property
    def root(self) -> str:
        """The root link (identity pose)."""
        return self.tree.root

    @property
    def joint_names(self) -> tuple[str, ...]:
        """Actuated joints (moving, not mimic) in URDF file order."""
        return self._plan.joint_names

    @property
    def variable_names(self) -> tuple[str, ...]:
        """Names of the entries of a configuration vector (see module doc)."""
        return self._plan.variable_names

    @property
    def mimics(self) -> Mapping[str, ResolvedMimic]:
        """Mimic joints by name, folded onto their actuated source."""
        return self._plan.mimics

    @property
    def nq(self) -> int:
        """Length of a configuration vector."""
        return self._plan.nq

    @property
    def backend(self) -> str:
        """Engine of :meth:`link_pose_batch`, ``'numpy'`` or ``'numba'`` (resolves ``'auto'``)."""
        if self._batch is None:
            self._batch = batch_engine(self._plan, self._backend)
        return self._batch[0]

    def neutral(self) -> FloatArray:
        """The (nq,) configuration with every value 0 (quaternions: identity)."""
        return self._plan.neutral.copy()

    def link_index(self, link: str) -> int:
        """
        Index of ``link`` in :attr:`link_names`.

        :raises UnknownLinkError: if there is no such link.
        """
        try:
            return self._plan.link_index[link]
        except KeyError:
            raise UnknownLinkError(f'robot "{self.tree.robot.name}" has no link "{link}"') \
                from None

    # -- input ----------------------------------------------------------------------------
    def configuration(self, positions: Positions = None) -> FloatArray:
        """
        Turn positions into a validated (nq,) configuration vector.

        :param positions: ``None`` (neutral); a mapping from variable name (a joint name for
            single-DOF joints) to value, rad or m, others at 0; or an (nq,) array in
            :attr:`variable_names` order. Values of mimic joints are ignored (they follow their
            source).
        :return: A new (nq,) float64 array.
        :raises UnknownJointError: for a name that is no joint or variable of the model.
        :raises JointStateError: for a wrong shape, a non-number, NaN/inf, a magnitude above
            1e150, a fixed joint, or a floating/planar joint given without its suffix.
        """
        plan = self._plan
        if positions is None:
            return plan.neutral.copy()
        if isinstance(positions, Mapping):
            result = plan.neutral.copy()
            index_of = self._variable_index
            for name, value in positions.items():
                index = index_of.get(name)
                if index is None:
                    self._refuse_name(name)
                    continue
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    raise JointStateError(f'joint "{name}": position {value!r} is not a number') \
                        from None
                if not abs(number) <= MAX_MAGNITUDE:
                    raise JointStateError(f'joint "{name}": position {number} is not finite or '
                                          'out of range')
                result[index] = number
        else:
            result = self._array(positions, (plan.nq,))
        self._check_quaternions(result[None])
        return result

    def configurations(self, positions: npt.ArrayLike) -> FloatArray:
        """
        Validate N configurations.

        :param positions: (N, nq) values in :attr:`variable_names` order.
        :return: A new (N, nq) float64 array.
        :raises JointStateError: for a wrong shape, NaN/inf or a magnitude above 1e150 (the
            message names the joint and the row).
        """
        result = self._array(positions, (-1, self._plan.nq))
        self._check_quaternions(result)
        return result

    def _array(self, positions: npt.ArrayLike, shape: tuple[int, ...]) -> FloatArray:
        try:
            array = np.array(positions, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise JointStateError(f'positions: not an array of numbers: {exc}') from None
        if array.ndim != len(shape) or array.shape[-1] != shape[-1]:
            expected = ', '.join('N' if size < 0 else str(size) for size in shape)
            expected += ',' if len(shape) == 1 else ''
            raise JointStateError(f'positions: expected shape ({expected}) in the order of '
                                  f'variable_names, got {array.shape}')
        good = np.abs(array) <= MAX_MAGNITUDE
        if not good.all():
            where = np.argwhere(~good)[0]
            name = self._plan.variable_names[int(where[-1])]
            row = f' (configuration {int(where[0])})' if array.ndim == 2 else ''
            raise JointStateError(f'joint "{name}": position {array[tuple(where)]} is not '
                                  f'finite or out of range{row}')
        return array

    def _refuse_name(self, name: str) -> None:
        plan = self._plan
        if name in plan.mimics:
            return
        joint = self.tree.robot.joint_map.get(name)
        if joint is None:
            raise UnknownJointError(f'robot "{self.tree.robot.name}" has no joint "{name}"')
        if joint.joint_type == 'fixed':
            raise JointStateError(f'joint "{name}" is fixed and has no position')
        suffixes = [variable for variable in plan.variable_names
                    if variable.startswith(f'{name}/')]
        raise JointStateError(f'joint "{name}" ({joint.joint_type}) takes several values: '
                              + ', '.join(suffixes))

    def _check_quaternions(self, values: FloatArray) -> None:
        if self._plan.floating != 'quaternion':
            return
        for name in self._plan.joint_names:
            part = values[:, self._plan.joint_slices[name]]
            if part.shape[1] == 7 and (np.linalg.norm(part[:, 3:7], axis=1) < 1e-12).any():
                raise JointStateError(f'joint "{name}": quaternion (qx, qy, qz, qw) is zero')

    # -- one configuration ----------------------------------------------------------------
    def _joint_matrices(self, values: FloatArray, frames: bool) -> FloatArray:
        """(L, 4, 4) ``F_l M_l`` (or ``origin_l M_l`` when ``frames``) for one configuration."""
        plan = self._plan
        extended = self._extended
        extended[:plan.nq] = values
        theta = extended[plan.src] * plan.mult + plan.off
        cos = np.cos(theta)[:, None, None]
        sin = np.sin(theta)
        if plan.prismatic.size:
            sin[plan.prismatic] = theta[plan.prismatic]
        if frames:
            result = plan.frame_a + cos * plan.frame_b + sin[:, None, None] * plan.frame_c
        else:
            result = plan.coef_a + cos * plan.coef_b + sin[:, None, None] * plan.coef_c
        for index in plan.general:
            base = plan.frames[index] if frames else plan.fixed[index]
            result[index] = base @ general_motion(plan, index, values[None])[0]
        return result

    def link_pose_array(self, positions: Positions = None) -> FloatArray:
        """
        Pose of every link in the root frame for one configuration.

        :param positions: See :meth:`configuration`.
        :return: (L, 4, 4) float64 ``T_root_link`` in :attr:`link_names` order.
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        values = self.configuration(positions)
        matrices = self._joint_matrices(values, False)
        poses = np.empty_like(matrices)
        poses[0] = np.eye(4)
        for level in self._plan.levels:
            np.matmul(poses[level.anchors], matrices[level.start:level.stop],
                      out=poses[level.start:level.stop])
        return poses

    def link_poses(self, positions: Positions = None) -> dict[str, FloatArray]:
        """
        Pose of every link in the root frame, by link name.

        :param positions: See :meth:`configuration`.
        :return: ``{link: T_root_link}``, each a (4, 4) float64 array (views of one new array).
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        poses = self.link_pose_array(positions)
        return dict(zip(self._plan.link_names, poses))

    def transform(self, positions: Positions, source: str, target: str) -> FloatArray:
        """
        Transform between two links for one configuration.

        :param positions: See :meth:`configuration`.
        :param source: The frame the result maps into.
        :param target: The frame the result maps from.
        :return: (4, 4) float64 ``T_source_target = inverse(T_root_source) @ T_root_target``.
        :raises UnknownLinkError: if either link is unknown.
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        first, second = self.link_index(source), self.link_index(target)
        poses = self.link_pose_array(positions)
        result: FloatArray = inverse(poses[first]) @ poses[second]
        return result

    def joint_transforms(self, positions: Positions = None) -> dict[str, FloatArray]:
        """
        ``T_parent_child`` of every moving joint (mimic joints included), as TF publishes them.

        :param positions: See :meth:`configuration`.
        :return: ``{joint: T_parent_child}`` (4, 4) float64, in :attr:`link_names` order.
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        matrices = self._joint_matrices(self.configuration(positions), True)
        return {name: matrices[index] for name, index in self._moving}

    def fixed_joint_transforms(self) -> dict[str, FloatArray]:
        """``{joint: T_parent_child}`` (4, 4) float64 of every fixed joint (for /tf_static)."""
        return {name: matrix.copy() for name, matrix in self._fixed.items()}

    def joint_transform_arrays(self, positions: Positions = None
                               ) -> tuple[tuple[str, ...], FloatArray, FloatArray]:
        """
        ``T_parent_child`` of every moving joint as translation and quaternion arrays.

        The same transforms as :meth:`joint_transforms` (same joints, same order), split as
        :func:`~urdf_tools_ros.core.transforms.transform_to_quaternion` splits them, but
        computed without matrices: a revolute or continuous joint's rotation is the origin's
        quaternion times ``(sin(θ/2) axis, cos(θ/2))``, a prismatic joint's translation is the
        origin's plus ``θ R_origin axis`` (floating and planar joints go through their
        matrix). One vectorised step for all joints (talos, 44 joints: about 25 µs with the
        validation, where :meth:`joint_transforms` and the conversion cost about 150 µs). Agrees
        with the conversion of :meth:`joint_transforms` to 1e-15 up to the quaternion's sign,
        which can differ only where ``w`` is 0 to rounding.

        :param positions: See :meth:`configuration`.
        :return: ``(joints, translation, quaternion)``: joint names in :meth:`joint_transforms`
            order, (J, 3) float64 translations in m and (J, 4) float64 unit quaternions
            ``(x, y, z, w)`` (geometry_msgs order) with ``w >= 0``; views of one new (J, 7)
            array (not C-contiguous).
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        values = self.configuration(positions)
        extended = self._extended
        extended[:self._plan.nq] = values
        xyz, quat = self._quaternion_plan.compute(extended)
        for row, index in self._quaternion_plan.general:
            matrix = self._plan.frames[index] @ general_motion(self._plan, index, values[None])[0]
            xyz[row], quat[row] = transform_to_quaternion(matrix)
        return self._moving_names, xyz, quat

    def fixed_joint_transform_arrays(self) -> tuple[tuple[str, ...], FloatArray, FloatArray]:
        """
        ``T_parent_child`` of every fixed joint as translation and quaternion arrays.

        :return: ``(joints, translation, quaternion)``: names in :meth:`fixed_joint_transforms`
            order, (F, 3) float64 in m and (F, 4) float64 ``(x, y, z, w)`` with ``w >= 0``;
            new arrays.
        """
        names, xyz, quat = self._fixed_arrays
        return names, xyz.copy(), quat.copy()

    # -- N configurations -----------------------------------------------------------------
    def link_pose_batch(self, positions: npt.ArrayLike,
                        out: FloatArray | None = None) -> FloatArray:
        """
        Pose of every link in the root frame for N configurations.

        :param positions: (N, nq) configurations in :attr:`variable_names` order.
        :param out: Optional C-contiguous (N, L, 4, 4) float64 array to write the result into
            and return, so that repeated calls reuse one buffer (at N = 10,000 allocating the
            result costs as much as computing it).
        :return: (N, L, 4, 4) float64 ``T_root_link``, links in :attr:`link_names` order:
            ``out`` when given; else with the numba :attr:`backend` a C-contiguous array, with
            numpy a transposed view of a link-major buffer (not C-contiguous: use
            ``np.ascontiguousarray`` where C order matters).
        :raises JointStateError: see :meth:`configurations`.
        :raises ValueError: if ``out`` is not a C-contiguous float64 array of that shape.
        """
        values = self.configurations(positions)
        if out is not None:
            shape = (values.shape[0], len(self.link_names), 4, 4)
            if not (isinstance(out, np.ndarray) and out.shape == shape
                    and out.dtype == np.float64 and out.flags.c_contiguous
                    and out.flags.writeable):
                raise ValueError(f'out must be a writeable C-contiguous float64 array of shape '
                                 f'{shape}')
        if self._batch is None:
            self._batch = batch_engine(self._plan, self._backend)
        return self._batch[1](values, out)

    def transform_batch(self, positions: npt.ArrayLike, source: str,
                        target: str) -> FloatArray:
        """
        ``T_source_target`` for N configurations.

        :return: (N, 4, 4) float64.
        :raises UnknownLinkError, JointStateError: as :meth:`transform`, :meth:`configurations`.
        """
        first, second = self.link_index(source), self.link_index(target)
        poses = self.link_pose_batch(positions)
        result: FloatArray = inverse(poses[:, first]) @ poses[:, second]
        return result


class _QuaternionPlan:
    """
    Constants of :meth:`KinematicModel.joint_transform_arrays` for the moving joints.

    Row j (moving link l) of the 7 values ``(tx, ty, tz, qx, qy, qz, qw)`` is
    ``base + lin slide + cos(h) q0 + sin(h) q1`` with ``θ = mult q[src] + off`` (fk_plan),
    ``h = θ / 2`` for a rotation (else 0) and ``lin = θ`` for a prismatic joint (else 0). With
    ``(v, w)`` the origin's quaternion and ``a`` the unit axis, the Hamilton product
    ``(v, w) (sin(h) a, cos(h)) = (cos(h) v + sin(h) (w a + v × a), cos(h) w - sin(h) v·a)``
    gives ``q0 = (0, v, w)`` and ``q1 = (0, w a + v × a, -v·a)``; ``base`` and ``slide`` are
    the translation columns of fk_plan's ``frame_a`` and ``frame_c``.
    """

    def __init__(self, plan: FkPlan) -> None:
        moving = plan.moving
        count = len(moving)
        kinds = [plan.kinds[index] for index in moving]
        rotation = np.array([kind in ('rx', 'ry', 'rz', 'r') for kind in kinds], dtype=bool)
        self.src = plan.src[moving]
        self.mult = plan.mult[moving]
        self.off = plan.off[moving]
        self.half = np.where(rotation, 0.5, 0.0)
        self.linear = np.array([kind == 'p' for kind in kinds], dtype=np.float64)
        axes = plan.axes[moving].copy()
        signed = np.array([kind in ('rx', 'ry', 'rz') for kind in kinds], dtype=bool)
        axes[signed] = np.abs(axes[signed])  # the sign is folded into mult and off
        origin_quaternion = rotation_to_quaternion(plan.frames[moving]) if count else \
            np.zeros((0, 4))
        vector, scalar = origin_quaternion[:, :3], origin_quaternion[:, 3:]
        #: (4, J, 7): base, slide, q0, q1 (see the class doc).
        self.terms = np.zeros((4, count, 7))
        self.terms[0, :, :3] = plan.frame_a[moving, :3, 3]
        self.terms[1, :, :3] = plan.frame_c[moving, :3, 3] * self.linear[:, None]
        self.terms[2, :, 3:] = origin_quaternion
        self.terms[3, :, 3:6] = (scalar * axes + np.cross(vector, axes)) * rotation[:, None]
        self.terms[3, :, 6] = -np.einsum('ij,ij->i', vector, axes) * rotation
        #: ``(row, link index)`` of floating and planar joints, computed through matrices.
        self.general = tuple((row, int(index)) for row, index in enumerate(moving)
                             if plan.kinds[index] in ('floating', 'planar'))

    def compute(self, extended: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(J, 3) translations and (J, 4) quaternions (w >= 0), views of one new array."""
        theta = extended[self.src] * self.mult + self.off
        factors = np.empty((4, len(theta)))
        factors[0] = 1.0
        np.multiply(theta, self.linear, out=factors[1])
        half = theta * self.half
        np.cos(half, out=factors[2])
        np.sin(half, out=factors[3])
        out = (factors[:, :, None] * self.terms).sum(axis=0)
        quaternion = out[:, 3:]
        np.negative(quaternion, out=quaternion, where=quaternion[:, 3:] < 0.0)
        return out[:, :3], quaternion


def forward_kinematics(robot: Robot | KinematicTree,
                       positions: Positions = None) -> dict[str, FloatArray]:
    """
    Compute the pose of every link in the root link frame (compiles the model each call).

    :param robot: The model or its kinematic tree; keep a :class:`KinematicModel` for speed.
    :param positions: Position of each actuated joint by name (rad or m) or an (nq,) array;
        mimic joints follow their source; missing joints are at 0.
    :return: ``T_root_link`` for every link, a (4, 4) float64 homogeneous transform.
    :raises UnknownJointError: if ``positions`` names a joint that is not in the model.
    :raises JointStateError: NaN/inf, wrong shape (see :meth:`KinematicModel.configuration`).
    """
    return KinematicModel(robot).link_poses(positions)
