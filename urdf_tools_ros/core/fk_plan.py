"""
The compiled form of a robot for forward kinematics: constants, link order and levels.

Used by :mod:`urdf_tools_ros.core.kinematics` and :mod:`urdf_tools_ros.core.fk_batch`; not a
public API. Everything here is computed once per model.

*Anchor and level.* The anchor of a link is its nearest ancestor that is the root or the child
of a moving joint. ``F_l`` is the constant transform from the anchor frame to the joint frame of
``l`` (fixed-joint origins on the way, then ``l``'s own origin), so
``T_root_l = T_root_anchor @ F_l @ M_l(q)`` with ``M_l`` the joint motion (identity for fixed).
The level of a link is one more than the level of its anchor (root: 0). Links of one level
depend only on lower levels, so each level is computed in one vectorised step.

*Link order* (:attr:`FkPlan.link_names`): by level, then by joint kind in the order of
:data:`KINDS`, then in the depth-first order of :class:`~urdf_tools_ros.core.tree.KinematicTree`.
Every link comes after its parent. Each (level, kind) is a contiguous run.

*Joint value.* A revolute, continuous or prismatic link moves by
``theta_l = mult_l * q[src_l] + off_l``: its own variable (mult 1, offset 0) or, for a mimic
joint, its actuated source's with the folded multiplier and offset. A rotation about -x, -y or
-z is a rotation about +x, +y or +z by ``-theta`` (folded into mult and off).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

import numpy as np

from .errors import InvalidJointError, TransformError
from .joint_validation import axis_problem, joint_type_problem
from .mimic import resolve_mimic
from .model import Joint
from .transforms import (axis_rotation, FloatArray, origin, quaternion_to_rotation,
                         rpy_to_rotation, unit_axis)
from .tree import KinematicTree

#: Joint kinds, in their order inside a level: fixed; rotation about x, y, z (either sign) or
#: another axis; prismatic (any axis); floating; planar.
KINDS = ('fixed', 'rx', 'ry', 'rz', 'r', 'p', 'floating', 'planar')
#: Variable suffixes of multi-DOF joints (``<joint>/<suffix>``).
FLOATING_RPY = ('x', 'y', 'z', 'roll', 'pitch', 'yaw')
FLOATING_QUATERNION = ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw')
PLANAR = ('x', 'y', 'yaw')


@dataclass(frozen=True)
class Group:
    """A run of links of one level and one kind: ``slice(start, stop)`` of the link order."""

    kind: str
    start: int
    stop: int


@dataclass(frozen=True)
class Level:
    """One level: links ``start:stop`` and their anchors (a slice when contiguous, or indices)."""

    start: int
    stop: int
    anchors: slice | np.ndarray
    groups: tuple[Group, ...]


def _cross(axis: FloatArray) -> FloatArray:
    x, y, z = axis
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def planar_basis(axis: FloatArray) -> tuple[FloatArray, FloatArray]:
    """
    The in-plane unit vectors ``(u, v)`` of a planar joint with unit normal ``axis``.

    Take the cyclic triple (x, y, z), (y, z, x) or (z, x, y) whose last member is the joint-frame
    axis most aligned with ``axis`` (ties: x, then y, then z); ``u`` is the first member projected
    onto the plane and normalised, and ``v = axis × u``. For axis z: u = x, v = y; axis x: u = y,
    v = z; axis y: u = z, v = x.
    """
    normal = int(np.argmax(np.abs(axis)))
    first = np.eye(3)[(normal + 1) % 3]
    u = first - np.dot(first, axis) * axis
    u = u / np.linalg.norm(u)
    return u, np.cross(axis, u)


def _where(joint: Joint) -> str:
    return f'{joint.location}: ' if joint.location is not None else ''


def _joint_origin(joint: Joint) -> FloatArray:
    try:
        return origin(joint.origin.xyz, joint.origin.rpy)
    except TransformError as exc:
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}": origin {exc}') from exc


def _joint_axis(joint: Joint) -> FloatArray:
    """The unit axis; the reason for a refusal is the checker's (``joint-axis-zero``)."""
    problem = axis_problem(joint.axis)
    if problem is not None:
        text = ' '.join(f'{component:g}' for component in joint.axis)
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}" ({joint.joint_type}): '
                                f'axis xyz="{text}" {problem}')
    return unit_axis(joint.axis, 'axis')


def _kind(joint: Joint, axis: FloatArray) -> tuple[str, float]:
    """Kind of the joint and the sign folded into its value."""
    problem = joint_type_problem(joint.joint_type)
    if problem is not None:
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}": {problem}')
    if joint.joint_type in ('revolute', 'continuous'):
        for index, name in enumerate(('rx', 'ry', 'rz')):
            if abs(abs(axis[index]) - 1.0) == 0.0:
                return name, float(axis[index])
        return 'r', 1.0
    if joint.joint_type == 'prismatic':
        return 'p', 1.0
    return joint.joint_type, 1.0


class FkPlan:
    """
    Constants for forward kinematics of one model (see module doc).

    :ivar link_names: Link order of every result.
    :ivar joint_names: Actuated joints (moving, not mimic) in URDF file order.
    :ivar variable_names: Entries of a configuration vector: a single-DOF joint's name, or
        ``joint/x`` ... for planar (``x y yaw``) and floating (``x y z roll pitch yaw`` or
        ``x y z qx qy qz qw``) joints.
    :raises InvalidJointError: unknown joint type, zero axis, NaN/inf in an origin, axis or mimic.
    :raises KinematicTreeError: if the model is not a tree; MimicError for bad mimic relations.
    """

    def __init__(self, tree: KinematicTree, floating: str = 'rpy') -> None:
        if floating not in ('rpy', 'quaternion'):
            raise ValueError(f"floating must be 'rpy' or 'quaternion', got {floating!r}")
        robot = tree.robot
        self.tree = tree
        self.mimics = resolve_mimic(robot)
        for mimic in self.mimics.values():
            joint = robot.joint(mimic.joint)
            if not (math.isfinite(mimic.multiplier) and math.isfinite(mimic.offset)):
                raise InvalidJointError(f'{_where(joint)}joint "{joint.name}": mimic multiplier '
                                        'or offset is not finite')
        self._variables(robot.joints, floating)
        self._links(tree)

    def _variables(self, joints: tuple[Joint, ...], floating: str) -> None:
        names: list[str] = []
        actuated: list[str] = []
        slices: dict[str, slice] = {}
        suffixes = {'floating': FLOATING_RPY if floating == 'rpy' else FLOATING_QUATERNION,
                    'planar': PLANAR}
        for joint in joints:
            if joint.joint_type == 'fixed' or joint.name in self.mimics:
                continue
            start = len(names)
            if joint.joint_type in suffixes:
                names.extend(f'{joint.name}/{suffix}' for suffix in suffixes[joint.joint_type])
            else:
                names.append(joint.name)
            actuated.append(joint.name)
            slices[joint.name] = slice(start, len(names))
        self.variable_names = tuple(names)
        self.joint_names = tuple(actuated)
        self.joint_slices = slices
        self.floating = floating
        self.nq = len(names)
        neutral = np.zeros(self.nq)
        for index, name in enumerate(names):
            if name.endswith('/qw'):
                neutral[index] = 1.0
        self.neutral = neutral

    def _links(self, tree: KinematicTree) -> None:
        tree_index = {link: index for index, link in enumerate(tree.links)}
        anchor: dict[str, str] = {}
        level = {tree.root: 0}
        chain = {tree.root: np.eye(4)}  # T_anchor(x)_x for every link x (identity for anchors)
        info: dict[str, tuple[Joint, FloatArray, FloatArray, str, float]] = {}
        for joint in tree.joints:
            parent, child = joint.parent, joint.child
            frame = _joint_origin(joint)
            axis = _joint_axis(joint) if joint.joint_type != 'fixed' and \
                joint.joint_type != 'floating' else np.array([1.0, 0.0, 0.0])
            kind, sign = _kind(joint, axis)
            parent_joint = tree.parent_joint(parent)
            is_anchor = parent_joint is None or parent_joint.joint_type != 'fixed'
            anchor[child] = parent if is_anchor else anchor[parent]
            f_matrix = chain[parent] @ frame
            chain[child] = f_matrix if kind == 'fixed' else np.eye(4)
            level[child] = level[anchor[child]] + 1
            info[child] = (joint, frame, f_matrix, kind, sign)

        def rank(link: str) -> tuple[int, int, int]:
            kind = KINDS.index(info[link][3]) if link in info else -1
            return level[link], kind, tree_index[link]

        order = sorted(tree.links, key=rank)
        self.link_names = tuple(order)
        self.link_index = {link: index for index, link in enumerate(order)}
        count = len(order)
        self.joints: tuple[Joint | None, ...] = tuple(info[link][0] if link in info else None
                                                      for link in order)
        self.kinds = tuple(info[link][3] if link in info else 'root' for link in order)
        self.anchor = np.array([self.link_index[anchor[link]] if link in anchor else 0
                                for link in order], dtype=np.intp)
        self.level = np.array([level[link] for link in order], dtype=np.intp)
        self.frames = np.stack([info[link][1] if link in info else np.eye(4) for link in order])
        self.fixed = np.stack([info[link][2] if link in info else np.eye(4) for link in order])
        self.axes = np.zeros((count, 3))
        self.src = np.full(count, self.nq, dtype=np.intp)   # index nq reads a constant 0
        self.mult = np.zeros(count)
        self.off = np.zeros(count)
        for index, link in enumerate(order):
            if link not in info:
                continue
            joint, _, _, kind, sign = info[link]
            if kind in ('fixed', 'floating'):
                continue
            self.axes[index] = _joint_axis(joint)
            if kind == 'planar':
                continue
            mimic = self.mimics.get(joint.name)
            source = mimic.source if mimic is not None else joint.name
            self.src[index] = self.joint_slices[source].start
            self.mult[index] = sign * (mimic.multiplier if mimic is not None else 1.0)
            self.off[index] = sign * (mimic.offset if mimic is not None else 0.0)
        self._levels()
        self._single_constants()

    def _levels(self) -> None:
        levels: list[Level] = []
        count = len(self.link_names)
        start = 1
        while start < count:
            stop = start
            while stop < count and self.level[stop] == self.level[start]:
                stop += 1
            groups: list[Group] = []
            first = start
            for index in range(start + 1, stop + 1):
                if index == stop or self.kinds[index] != self.kinds[first]:
                    groups.append(Group(self.kinds[first], first, index))
                    first = index
            levels.append(Level(start, stop, _slice_or_indices(self.anchor[start:stop]),
                                tuple(groups)))
            start = stop
        self.levels = tuple(levels)

    def _single_constants(self) -> None:
        """``J_l = A_l + cos(theta) B_l + s_l C_l``: s = sin(theta), or theta for prismatic."""
        count = len(self.link_names)
        self.coef_a = self.fixed.copy()
        self.coef_b = np.zeros((count, 4, 4))
        self.coef_c = np.zeros((count, 4, 4))
        self.frame_a = self.frames.copy()
        self.frame_b = np.zeros((count, 4, 4))
        self.frame_c = np.zeros((count, 4, 4))
        for index, kind in enumerate(self.kinds):
            if kind in ('rx', 'ry', 'rz', 'r'):
                cross = np.zeros((4, 4))
                axis = self.axes[index] if kind == 'r' else np.abs(self.axes[index])
                cross[:3, :3] = _cross(axis)
                square = cross @ cross
                for base, a, b, c in ((self.fixed, self.coef_a, self.coef_b, self.coef_c),
                                      (self.frames, self.frame_a, self.frame_b, self.frame_c)):
                    a[index] = base[index] + base[index] @ square
                    b[index] = -base[index] @ square
                    c[index] = base[index] @ cross
            elif kind == 'p':
                shift = np.zeros((4, 4))
                shift[:3, 3] = self.axes[index]
                self.coef_c[index] = self.fixed[index] @ shift
                self.frame_c[index] = self.frames[index] @ shift
        self.prismatic = np.array([index for index, kind in enumerate(self.kinds) if kind == 'p'],
                                  dtype=np.intp)
        self.general = tuple(index for index, kind in enumerate(self.kinds)
                             if kind in ('floating', 'planar'))
        self.moving = np.array([index for index, kind in enumerate(self.kinds)
                                if kind not in ('root', 'fixed')], dtype=np.intp)
        self.fixed_links = tuple(index for index, kind in enumerate(self.kinds) if kind == 'fixed')


def _slice_or_indices(indices: np.ndarray) -> slice | np.ndarray:
    """A slice selecting ``indices`` (broadcast when all equal), or the index array itself."""
    if (indices == indices[0]).all():
        return slice(int(indices[0]), int(indices[0]) + 1)
    if (np.diff(indices) == 1).all():
        return slice(int(indices[0]), int(indices[-1]) + 1)
    return indices


#: Largest magnitude accepted for a joint value or a model constant: products of two such stay
#: far below the float64 range, so no transform can overflow to inf.
MAX_MAGNITUDE = 1e150


def general_motion(plan: FkPlan, index: int, values: FloatArray) -> FloatArray:
    """
    Motion ``M(q)`` (N, 4, 4) of the floating or planar joint of link ``index``.

    Floating: ``[[R, (x, y, z)], [0, 1]]`` with R from (roll, pitch, yaw) (REP 103) or from the
    quaternion (qx, qy, qz, qw), normalised. Planar: ``[[Rot(n, yaw), x u + y v], [0, 1]]`` with
    ``n`` the unit axis and ``(u, v)`` from :func:`planar_basis`.

    :param values: (N, nq) configurations.
    """
    joint = plan.joints[index]
    if joint is None:
        raise ValueError('the root link has no joint')
    part = values[:, plan.joint_slices[joint.name]]
    motion = np.zeros((values.shape[0], 4, 4))
    motion[:, 3, 3] = 1.0
    if plan.kinds[index] == 'floating':
        motion[:, :3, 3] = part[:, :3]
        motion[:, :3, :3] = (rpy_to_rotation(part[:, 3:6]) if plan.floating == 'rpy'
                             else quaternion_to_rotation(part[:, 3:7]))
    else:
        normal = plan.axes[index]
        u, v = planar_basis(normal)
        motion[:, :3, :3] = axis_rotation(normal, part[:, 2])[:, :3, :3]
        motion[:, :3, 3] = part[:, 0:1] * u + part[:, 1:2] * v
    return motion
