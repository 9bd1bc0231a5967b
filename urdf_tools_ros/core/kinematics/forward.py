"""
Forward kinematics: the pose of every link in the root frame, for one or N configurations.

:class:`KinematicModel` compiles a robot once (:mod:`.fk_plan`: how each joint type moves,
URDF spec, joint; REP 103), then gives link poses, ``T_source_target`` and the
``T_parent_child`` of the moving and fixed joints (what TF carries); mimic joints follow their
source. It is immutable: several threads may call it at once.

Configuration vector (:attr:`~KinematicModel.variable_names`): each actuated joint in file
order; a planar joint is three entries (``<joint>/x``, ``/y``, ``/yaw``), a floating one six or
seven (``<joint>/x`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from .fk_plan import FkPlan, general_motion, MAX_MAGNITUDE
from .mimic import ResolvedMimic
from .tree import KinematicTree
from ..errors import JointStateError, UnknownJointError, UnknownLinkError
from ..model.robot import Robot
from ..transforms import FloatArray, inverse, quaternions_of_rotations

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
        self._fixed = {names[index]: plan.frames[index].copy() for index in plan.fixed_links}
        self._moving_names = tuple(names[index] for index in plan.moving)
        #: ``origin @ (A, B, C)`` (3, M, 4, 4) of the moving joints, for joint transforms.
        self._moving_terms = plan.frame_terms[:, plan.moving]
        self._moving_general = tuple((row, int(index)) for row, index in enumerate(plan.moving)
                                     if plan.kinds[index] in ('floating', 'planar'))
        #: ``{mimic joint: row}`` in the moving joints; rows whose joint is prismatic.
        self._mimic_rows = {names[index]: row for row, index in enumerate(plan.moving)
                            if names[index] in plan.mimics}
        self._prismatic_rows = frozenset(
            np.flatnonzero(np.isin(plan.moving, plan.prismatic)).tolist())
        self._general = tuple((index, index) for index in plan.general)

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
        """Index of ``link`` in :attr:`link_names`; :exc:`UnknownLinkError` if there is none."""
        try:
            return self._plan.link_index[link]
        except KeyError:
            raise UnknownLinkError(f'robot "{self.tree.robot.name}" has no link "{link}"') \
                from None

    # -- input ----------------------------------------------------------------------------
    def configuration(self, positions: Positions = None) -> FloatArray:
        """
        Turn positions into a validated (nq,) configuration vector.

        :param positions: ``None`` (neutral); ``{variable name: value}``, rad or m, others at 0
            (mimic joints ignored); or an (nq,) array in :attr:`variable_names` order.
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
        """Validate (N, nq) configurations into a new array, as :meth:`configuration` does."""
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

    # -- poses -----------------------------------------------------------------------------
    def _combine(self, terms: FloatArray, cos: FloatArray, sine: FloatArray,
                 frames: FloatArray, general: tuple[tuple[int, int], ...],
                 values: FloatArray) -> FloatArray:
        """
        ``A + cos(θ) B + s(θ) C`` per row, then ``frame @ M(q)`` for floating and planar rows.

        :param terms: (3, R, 4, 4) ``A, B, C``; ``cos``, ``sine``: (..., R).
        :param general: ``(row, link)`` of the floating and planar links.
        :return: (..., R, 4, 4), a new array.
        """
        a, b, c = terms
        result: FloatArray = b * cos[..., None, None]
        result += a
        result += c * sine[..., None, None]
        for row, index in general:
            motion = general_motion(self._plan, index, values.reshape(-1, values.shape[-1]))
            result[..., row, :, :] = frames[index] @ motion
        return result

    def _poses(self, values: FloatArray) -> FloatArray:
        """(..., L, 4, 4) ``T_root_link`` of (..., nq) configurations."""
        plan = self._plan
        cos, sine = plan.theta(values)
        matrices = self._combine(plan.terms, cos, sine, plan.fixed, self._general, values)
        poses = np.empty_like(matrices)
        poses[..., 0, :, :] = np.eye(4)
        for start, stop, anchors in plan.levels:
            np.matmul(poses[..., anchors, :, :], matrices[..., start:stop, :, :],
                      out=poses[..., start:stop, :, :])
        return poses

    def link_pose_array(self, positions: Positions = None) -> FloatArray:
        """
        Pose of every link in the root frame for one configuration.

        :param positions: See :meth:`configuration`.
        :return: (L, 4, 4) float64 ``T_root_link`` in :attr:`link_names` order.
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        return self._poses(self.configuration(positions))

    def link_poses(self, positions: Positions = None) -> dict[str, FloatArray]:
        """
        Pose of every link in the root frame, by link name.

        :param positions: See :meth:`configuration`.
        :return: ``{link: T_root_link}``, each a (4, 4) float64 array (views of one new array).
        :raises UnknownJointError, JointStateError: see :meth:`configuration`.
        """
        poses = self.link_pose_array(positions)
        return dict(zip(self._plan.link_names, poses))

    def link_pose_batch(self, positions: npt.ArrayLike) -> FloatArray:
        """
        Pose of every link in the root frame for N configurations.

        :param positions: (N, nq) configurations in :attr:`variable_names` order.
        :return: (N, L, 4, 4) float64 ``T_root_link``, links in :attr:`link_names` order.
        :raises JointStateError: see :meth:`configurations`.
        """
        return self._poses(self.configurations(positions))

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

    # -- joint transforms -------------------------------------------------------------------
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
        """(M, 4, 4) ``T_parent_child`` of the moving joints; ``measured`` as below."""
        plan = self._plan
        cos, sine = (array[plan.moving] for array in plan.theta(values))
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
        :meth:`joint_transforms` as translation and quaternion arrays, as TF messages carry them.

        :param positions: See :meth:`configuration`.
        :param measured: ``{mimic joint: position}``, rad or m, used instead of
            ``multiplier * source + offset`` (as robot_state_publisher does).
        :return: ``(joints, translation (J, 3) m, quaternion (J, 4) (x, y, z, w), w >= 0)``.
        :raises UnknownJointError: see :meth:`configuration`; or a ``measured`` name that is not
            a mimic joint.
        :raises JointStateError: see :meth:`configuration`; or a ``measured`` value that is
            NaN/inf or above 1e150 in magnitude.
        """
        matrices = self._moving_matrices(self.configuration(positions), measured)
        return (self._moving_names, matrices[:, :3, 3].copy(),
                quaternions_of_rotations(matrices[:, :3, :3]))


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
