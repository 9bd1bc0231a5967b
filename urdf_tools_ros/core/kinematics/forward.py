"""
Forward kinematics: the pose of every link in the root frame, for one or N configurations.

:class:`KinematicModel` compiles a robot once (:mod:`urdf_tools_ros.core.kinematics.fk_plan`) and
then computes, for joint values given by name or as an array:

* :meth:`~KinematicModel.link_poses` ``{link: T_root_link}`` and
  :meth:`~KinematicModel.link_pose_array` (L, 4, 4) in :attr:`~KinematicModel.link_names` order;
* :meth:`~KinematicModel.link_pose_batch` (N, L, 4, 4) for N configurations;
* :meth:`~KinematicModel.transform` ``T_source_target`` between any two links;
* :meth:`~KinematicModel.joint_transforms` ``{joint: T_parent_child}`` of the moving joints and
  :meth:`~KinematicModel.fixed_joint_transforms` of the fixed ones (what TF and TF static carry);
  :meth:`~KinematicModel.joint_transform_arrays` and
  :meth:`~KinematicModel.fixed_joint_transform_arrays` give the same as translation and
  quaternion arrays, the form TF messages carry, without building a matrix per joint.

Joint motion ``M(q)`` after the joint's origin
(:func:`~urdf_tools_ros.core.kinematics.fk_plan.joint_motion`, the one formulation all of these
evaluate), per type (URDF spec, joint): revolute and continuous rotate by q rad about the unit axis
(right-hand rule, Rodrigues' formula); prismatic translates by q m along it; fixed does nothing;
floating takes x, y, z (m) then roll, pitch, yaw (rad, REP 103) or with ``floating='quaternion'``
x, y, z then qx, qy, qz, qw (normalised); planar takes x, y (m) along the in-plane unit vectors
``u``, ``v`` of
:func:`~urdf_tools_ros.core.kinematics.fk_plan.planar_basis` (for axis z: x and y) and yaw (rad)
about the axis: ``M = [[Rot(axis, yaw), x u + y v], [0, 1]]``. Mimic joints follow their actuated
source (:mod:`urdf_tools_ros.core.kinematics.mimic`). An axis is normalised first, as KDL and
pinocchio do.

One configuration combines each link's constant terms first and then chains the levels; a batch
chains first (one BLAS product per level of the anchors' poses with the terms of the level's
links) and then combines: the same constants in the other order, equal to rounding.

A :class:`KinematicModel` is immutable after construction and keeps no scratch state: it may be
called from several threads at once.

Configuration vector: :attr:`~KinematicModel.variable_names` in order: each actuated joint (moving,
not mimic) in URDF file order; a single-DOF joint is one entry named like the joint, a planar
joint three (``<joint>/x``, ``/y``, ``/yaw``), a floating joint six or seven (``<joint>/x`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from .fk_plan import FkPlan, general_motion, Group, MAX_MAGNITUDE
from .mimic import ResolvedMimic
from .tree import KinematicTree
from ..errors import JointStateError, UnknownJointError, UnknownLinkError
from ..model.robot import Robot
from ..transforms import FloatArray, inverse, quaternions_of_rotations, transform_to_quaternion

__all__ = ['KinematicModel', 'forward_kinematics']

Positions = Mapping[str, float] | npt.ArrayLike | None


class KinematicModel:
    """
    A robot compiled for forward kinematics.

    :param robot: The model, or its :class:`~urdf_tools_ros.core.kinematics.tree.KinematicTree`.
    :param floating: How floating joints take values: ``'rpy'`` (x y z roll pitch yaw) or
        ``'quaternion'`` (x y z qx qy qz qw).
    :raises KinematicTreeError: if the links and joints are not a tree.
    :raises MimicError: if a ``<mimic>`` cannot be resolved (with the checker's code).
    :raises InvalidJointError: unknown joint type, zero axis, NaN/inf or a magnitude above
        1e150 in an origin, axis or mimic.
    """

    def __init__(self, robot: Robot | KinematicTree, *, floating: str = 'rpy') -> None:
        self.tree = robot if isinstance(robot, KinematicTree) else KinematicTree(robot)
        self._plan = FkPlan(self.tree, floating)
        plan = self._plan
        self._variable_index = {name: index for index, name in enumerate(plan.variable_names)}
        names = [joint.name if joint is not None else '' for joint in plan.joints]
        self._moving = [(names[index], int(index)) for index in plan.moving]
        self._fixed = {names[index]: plan.frames[index].copy() for index in plan.fixed_links}
        self._moving_names = tuple(name for name, _ in self._moving)
        #: ``origin @ A``, ``origin @ B``, ``origin @ C`` (M, 4, 4) of the moving joints, for
        #: joint transforms; C-contiguous.
        a, b, c = (np.ascontiguousarray(plan.frame_coef[plan.moving, term]) for term in range(3))
        self._moving_terms = (a, b, c)
        self._moving_general = tuple((row, int(index)) for row, index in enumerate(plan.moving)
                                     if plan.kinds[index] in ('floating', 'planar'))
        #: ``{mimic joint: row}`` in the moving joints; rows whose joint is prismatic.
        self._mimic_rows = {names[index]: row for row, index in enumerate(plan.moving)
                            if names[index] in plan.mimics}
        self._prismatic_rows = frozenset(
            np.flatnonzero(np.isin(plan.moving, plan.prismatic)).tolist())
        self._general = tuple((index, index) for index in plan.general)
        self._batch_groups = tuple(tuple(_BatchGroup(plan, group) for group in level.groups)
                                   for level in plan.levels)
        #: The revolute links of the batch groups, in group order: each group's rows of the
        #: batch's joint angles (``_BatchGroup.rows``), computed for all of them at once.
        revolute = [group for groups in self._batch_groups for group in groups
                    if group.kind == 'revolute']
        first = 0
        for group in revolute:
            group.rows = slice(first, first + group.stop - group.start)
            first = group.rows.stop
        self._revolute_src = np.concatenate([group.src for group in revolute]) if revolute \
            else np.zeros(0, dtype=np.intp)
        self._revolute_mult = np.concatenate([group.mult for group in revolute]) if revolute \
            else np.zeros((0, 1))
        self._revolute_off = np.concatenate([group.off for group in revolute]) if revolute \
            else np.zeros((0, 1))
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
    def _joint_matrices(self, values: FloatArray) -> FloatArray:
        """(L, 4, 4) ``F_l M_l`` (``F_l``: the constant frame from the link's anchor)."""
        plan = self._plan
        cos, sine = plan.theta(values)
        return self._combine(plan.terms, cos, sine, plan.fixed, self._general, values)

    def _combine(self, terms: tuple[FloatArray, FloatArray, FloatArray], cos: FloatArray,
                 sine: FloatArray, frames: FloatArray, general: tuple[tuple[int, int], ...],
                 values: FloatArray) -> FloatArray:
        """
        ``A + cos(θ) B + s(θ) C`` per row, then ``frame @ M(q)`` for floating and planar rows.

        :param terms: Three (R, 4, 4) C-contiguous arrays ``A, B, C``.
        :param cos, sine: (R,) from :meth:`FkPlan.theta`.
        :param general: ``(row, link)`` of the floating and planar links.
        :return: (R, 4, 4), a new array.
        """
        plan = self._plan
        a, b, c = terms
        result: FloatArray = b * cos[:, None, None]
        result += a
        result += c * sine[:, None, None]
        for row, index in general:
            result[row] = frames[index] @ general_motion(plan, index, values[None])[0]
        return result

    def link_pose_array(self, positions: Positions = None) -> FloatArray:
        """
        Pose of every link in the root frame for one configuration.

        :param positions: See :meth:`configuration`.
        :return: (L, 4, 4) float64 ``T_root_link`` in :attr:`link_names` order.
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        values = self.configuration(positions)
        matrices = self._joint_matrices(values)
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
        matrices = self._moving_matrices(self.configuration(positions))
        return dict(zip(self._moving_names, matrices))

    def _moving_matrices(self, values: FloatArray,
                         measured: Mapping[str, float] | None = None) -> FloatArray:
        """
        (M, 4, 4) ``T_parent_child = origin @ M(q)`` of the moving joints (a new array).

        :param measured: Positions of mimic joints to use instead of the ones derived from their
            source (see :meth:`joint_transform_arrays`).
        """
        plan = self._plan
        cos, sine = plan.theta(values, moving=True)
        for name, position in (measured or {}).items():
            row = self._mimic_rows.get(name)
            if row is None:
                raise UnknownJointError(f'"{name}" is not a mimic joint of the model')
            if not abs(position) <= MAX_MAGNITUDE:  # NaN too
                raise JointStateError(f'joint "{name}": position {position} is not finite or '
                                      'out of range')
            cos[row] = np.cos(position)
            sine[row] = position if row in self._prismatic_rows else np.sin(position)
        return self._combine(self._moving_terms, cos, sine, plan.frames, self._moving_general,
                             values)

    def fixed_joint_transforms(self) -> dict[str, FloatArray]:
        """``{joint: T_parent_child}`` (4, 4) float64 of every fixed joint (for /tf_static)."""
        return {name: matrix.copy() for name, matrix in self._fixed.items()}

    def joint_transform_arrays(self, positions: Positions = None,
                               measured: Mapping[str, float] | None = None
                               ) -> tuple[tuple[str, ...], FloatArray, FloatArray]:
        """
        ``T_parent_child`` of every moving joint as translation and quaternion arrays.

        The transforms of :meth:`joint_transforms` (same joints, same order), converted at the
        edge by :func:`~urdf_tools_ros.core.transforms.transform_to_quaternion` (the
        form TF messages carry).

        :param positions: See :meth:`configuration`.
        :param measured: ``{mimic joint: position}``, rad or m: positions of mimic joints that
            were measured (a driver's or simulator's ``joint_states`` carries every joint), used
            instead of ``multiplier * source + offset``, as robot_state_publisher does.
        :return: ``(joints, translation, quaternion)``: joint names in :meth:`joint_transforms`
            order, (J, 3) float64 translations in m and (J, 4) float64 unit quaternions
            ``(x, y, z, w)`` (geometry_msgs order) with ``w >= 0``; views of one new (J, 7)
            array (not C-contiguous).
        :raises UnknownJointError: see :meth:`configuration`; or a ``measured`` name that is not
            a mimic joint.
        :raises JointStateError: see :meth:`configuration`; or a ``measured`` value that is
            NaN/inf or above 1e150 in magnitude.
        """
        matrices = self._moving_matrices(self.configuration(positions), measured)
        return (self._moving_names, matrices[:, :3, 3].copy(),
                quaternions_of_rotations(matrices[:, :3, :3]))

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
            ``out`` when given, else a transposed view of a link-major buffer (not
            C-contiguous: use ``np.ascontiguousarray`` where C order matters).
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
        poses = self._batch_poses(values)
        if out is None:
            return poses
        out[...] = poses
        return out

    def _batch_poses(self, values: FloatArray) -> FloatArray:
        """
        (N, L, 4, 4) poses of (N, nq) configurations (see :meth:`link_pose_batch`).

        Buffer ``W[link, row, column, n]`` (L, 4, 4, N), returned as the view
        ``W.transpose(3, 0, 1, 2)``: one entry of one link's pose over all configurations is
        contiguous, so the joint values apply to whole contiguous runs. The bottom row is
        (0, 0, 0, 1) throughout. Per level and per run of links of one kind and axis pattern
        (:class:`_BatchGroup`): the anchors' top three rows times the run's constant columns,
        (k, 1, c, 4) @ (k, 3, 4, N), in one stacked product; then the joint values:
        revolute ``X_A + cos(θ) X_B + sin(θ) X_C`` on the columns where each term is not
        zero, prismatic ``X_A + θ X_C`` on the translation column, fixed ``X_A``, floating
        and planar ``X_A`` times their motion.
        """
        plan = self._plan
        count = values.shape[0]
        extended = np.zeros((plan.nq + 1, count))
        extended[:plan.nq] = values.T
        buffer = np.empty((len(plan.link_names), 4, 4, count))
        buffer[:, 3] = np.array([0.0, 0.0, 0.0, 1.0])[:, None]
        buffer[0, :3] = np.eye(4)[:3, :, None]
        cosines, sines = _cos_sin(extended[self._revolute_src] * self._revolute_mult
                                  + self._revolute_off)
        for level, groups in zip(plan.levels, self._batch_groups):
            anchors = buffer[level.anchors, :3]  # (1 or k, 3, 4, N)
            for group in groups:
                start, stop = group.start, group.stop
                mine = anchors if anchors.shape[0] == 1 else \
                    anchors[start - level.start:stop - level.start]
                product = group.columns @ mine   # (k, 3, c, N)
                target = buffer[start:stop, :3]  # (k, 3, 4, N)
                if group.kind == 'revolute':
                    turned = target[:, :, group.turned_columns]  # a view: written in place
                    np.multiply(product[:, :, group.b], cosines[group.rows, None, None],
                                out=turned)
                    turned += product[:, :, group.c] * sines[group.rows, None, None]
                    if group.a_also is not None:
                        into, source = group.a_also
                        turned[:, :, into] += product[:, :, source]
                    target[:, :, group.a_only_at] = product[:, :, group.a_only_from]
                elif group.kind == 'prismatic':
                    theta = (extended[group.src] * group.mult + group.off)[:, None, :]
                    target[...] = product[:, :, :4]
                    target[:, :, 3] += product[:, :, 4] * theta
                else:
                    target[...] = product
                    general = range(start, stop) if group.kind in ('floating', 'planar') \
                        else range(0)
                    for index in general:
                        motion = general_motion(plan, index, values)  # (N, 4, 4)
                        pose = buffer[index].transpose(2, 0, 1)        # (N, 4, 4)
                        buffer[index] = (pose @ motion).transpose(1, 2, 0)
        return buffer.transpose(3, 0, 1, 2)

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


Index = slice | list[int]


def _cos_sin(angles: FloatArray) -> tuple[FloatArray, FloatArray]:
    """
    ``cos`` and ``sin`` of ``angles`` (any shape, rad) from ``t = tan(θ / 2)``.

    ``cos θ = (1 - t²) / (1 + t²)``, ``sin θ = 2 t / (1 + t²)`` (the tangent half-angle
    substitution): numpy evaluates float64 ``tan`` with SIMD but ``cos`` and ``sin`` one value
    at a time, 10 times slower for a batch (bench/bench_fk.py). Within 2.3e-16 of ``np.cos``
    and ``np.sin`` for any finite angle (θ = ±π gives t ≈ ±1.6e16, cos -1, sin ±1.2e-16, as
    they do); written in place, so a batch allocates two arrays.
    """
    tangent = np.multiply(angles, 0.5)
    np.tan(tangent, out=tangent)
    cosines = np.multiply(tangent, tangent)
    scale = np.add(cosines, 1.0)
    np.divide(1.0, scale, out=scale)
    np.subtract(1.0, cosines, out=cosines)
    cosines *= scale
    tangent *= 2.0
    tangent *= scale
    return cosines, tangent


def _as_slice(indices: list[int]) -> Index:
    """``indices`` as a slice when they are evenly spaced (a view, not a copy), else the list."""
    if len(indices) == 1:
        return slice(indices[0], indices[0] + 1)
    step = indices[1] - indices[0] if len(indices) > 1 else 0
    if step > 0 and indices == list(range(indices[0], indices[-1] + 1, step)):
        return slice(indices[0], indices[-1] + 1, step)
    return indices


class _BatchGroup:
    """
    Constants of one run of links (level, kind, axis pattern) for the batch.

    Used by :meth:`KinematicModel._batch_poses`. ``columns`` (k, 1, c, 4): columns of the
    plan's ``F @ motion_terms`` ``(A, B, C)`` as rows, only those that are not exactly zero in
    the run (the same for each link of it): revolute ``A`` columns ``j`` with ``a_j != 0`` and
    the translation column, then ``B`` and ``C`` columns (both are zero exactly where the axis
    is parallel to ``e_j``); prismatic ``A0..A3, C3``; others ``A0..A3``. ``(columns @ P)[...,
    m, :]`` is that column of ``P @ (A | B | C)``. For revolute runs the index lists say which
    product rows make which rotation columns: ``turned_columns`` (from B and C, plus A where
    ``a_also`` says), ``a_only_at`` (from A alone).
    """

    def __init__(self, plan: FkPlan, group: Group) -> None:
        self.kind, self.start, self.stop = group.kind, group.start, group.stop
        coef = plan.coef[group.start:group.stop].transpose(0, 1, 3, 2)  # (k, 3, col, row)
        if group.kind == 'revolute':
            def used(term: int) -> list[int]:
                return [j for j in range(3) if coef[:, term, j].any()]

            a_columns, turned = used(0), used(1)
            self.a_only_columns = [j for j in a_columns if j not in turned]
            parts = [coef[:, 0, a_columns + [3]], coef[:, 1, turned], coef[:, 2, turned]]
            place = {j: index for index, j in enumerate(a_columns)}
            self.a_only = [place[j] for j in self.a_only_columns] + [len(a_columns)]
            self.a_only_columns = self.a_only_columns + [3]
            base = len(a_columns) + 1
            self.b = slice(base, base + len(turned))
            self.c = slice(base + len(turned), base + 2 * len(turned))
            into = [position for position, j in enumerate(turned) if j in place]
            self.a_also: tuple[Index, Index] | None = (
                (_as_slice(into), _as_slice([place[turned[p]] for p in into])) if into else None)
        elif group.kind == 'prismatic':
            parts = [coef[:, 0], coef[:, 2, 3:]]
        else:
            parts = [coef[:, 0]]
        self.columns = np.ascontiguousarray(np.concatenate(parts, axis=1))[:, None]
        if group.kind == 'revolute':  # evenly spaced index lists become slices (views)
            # Every subset of the columns (0, 1, 2) is evenly spaced, so this is a slice and
            # target[..., turned_columns] a view the batch writes into.
            columns = _as_slice(turned)
            if not isinstance(columns, slice):
                raise ValueError(f'rotation columns {turned} are not evenly spaced')
            self.turned_columns = columns
            self.a_only_at: Index = _as_slice(self.a_only_columns)
            self.a_only_from: Index = _as_slice(self.a_only)
        self.src = plan.src[group.start:group.stop]
        self.mult = plan.mult[group.start:group.stop, None]
        self.off = plan.off[group.start:group.stop, None]
        #: Revolute: this group's rows of the batch's angles (set by the model).
        self.rows = slice(0, 0)


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
