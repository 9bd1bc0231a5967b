"""
How a joint moves, and the per-link constants of a robot for forward kinematics.

:func:`joint_motion`: one-DOF joints move by ``M(θ) = A + cos(θ) B + s(θ) C``
(:func:`motion_terms`), floating and planar ones by :func:`general_motion`. :class:`FkPlan`
premultiplies those constants by ``F_l``, the fixed transform from the link's *anchor* (its
nearest ancestor that is the root or a moving joint's child) to its joint frame, so
``T_root_l = T_root_anchor @ F_l @ M_l(θ_l)`` with ``θ_l = mult_l * q[src_l] + off_l`` (mimic
joints use their source). A link's level is its anchor's plus one; links are ordered by
level, joint kind (:data:`KINDS`), axis pattern, then tree order, each after its parent.
"""

from __future__ import annotations

import math

import numpy as np

from .mimic import resolve_mimic
from .tree import KinematicTree
from .validation import axis_problem, joint_type_problem
from ..errors import InvalidJointError, TransformError
from ..findings import Finding, Severity
from ..model.robot import Joint
from ..transforms import (axis_rotation, FloatArray, origin_transform, quaternion_to_rotation,
                          rpy_to_rotation, unit_axis)

#: Joint kinds, in their order inside a level: fixed; revolute (revolute and continuous);
#: prismatic; floating; planar.
KINDS = ('fixed', 'revolute', 'prismatic', 'floating', 'planar')
#: Variable suffixes of multi-DOF joints (``<joint>/<suffix>``).
FLOATING_RPY = ('x', 'y', 'z', 'roll', 'pitch', 'yaw')
FLOATING_QUATERNION = ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw')
PLANAR = ('x', 'y', 'yaw')


def motion_terms(kind: str, axis: FloatArray) -> FloatArray:
    """
    Constants ``(A, B, C)`` of a one-DOF joint: ``M(θ) = A + cos(θ) B + s(θ) C``.

    Revolute: Rodrigues' formula with ``K = [a]×``: ``A = I + K²``, ``B = -K²``, ``C = K``,
    ``s = sin``. Prismatic: ``A = I``, ``B = 0``, ``C`` = ``a`` in the translation column,
    ``s(θ) = θ``. Source: URDF spec, joint (axis; rad, m).

    :param kind: ``'revolute'`` or ``'prismatic'`` (:data:`KINDS`).
    :param axis: (3,) unit axis in the joint frame.
    :return: (3, 4, 4) float64 ``A, B, C``.
    :raises ValueError: for another kind.
    """
    terms = np.zeros((3, 4, 4))
    terms[0] = np.eye(4)
    if kind == 'revolute':
        x, y, z = axis
        cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
        square = cross @ cross
        terms[0, :3, :3] += square
        terms[1, :3, :3] = -square
        terms[2, :3, :3] = cross
    elif kind == 'prismatic':
        terms[2, :3, 3] = axis
    else:
        raise ValueError(f'{kind!r} is not a one-DOF joint kind')
    return terms


def joint_motion(joint_type: str, axis: FloatArray, values: FloatArray,
                 floating: str = 'rpy') -> FloatArray:
    """
    Motion ``M`` of a joint after its origin: ``T_parent_child = origin @ M``.

    Revolute and continuous rotate by θ rad about the unit ``axis`` (right-hand rule),
    prismatic translates by θ m (:func:`motion_terms`); floating and planar as
    :func:`general_motion`; fixed is identity.

    :param joint_type: A URDF joint type.
    :param axis: (3,) unit axis (ignored for fixed and floating).
    :param values: (...,) θ for one-DOF joints, (..., 3) ``x y yaw`` for planar, (..., 6)
        ``x y z roll pitch yaw`` or (..., 7) ``x y z qx qy qz qw`` for floating.
    :param floating: ``'rpy'`` or ``'quaternion'``: the form of a floating joint's values.
    :return: (..., 4, 4) float64.
    :raises ValueError: for an unknown joint type.
    """
    values = np.asarray(values, dtype=np.float64)
    kind = 'revolute' if joint_type == 'continuous' else joint_type
    if kind in ('revolute', 'prismatic'):
        a, b, c = motion_terms(kind, axis)
        sine = np.sin(values) if kind == 'revolute' else values
        return a + np.cos(values)[..., None, None] * b + sine[..., None, None] * c
    if kind == 'fixed':
        return np.broadcast_to(np.eye(4), values.shape + (4, 4)).copy()
    if kind in ('floating', 'planar'):
        flat = values.reshape(-1, values.shape[-1])
        return _multi_dof_motion(kind, axis, flat, floating).reshape(values.shape[:-1] + (4, 4))
    raise ValueError(f'unknown joint type {joint_type!r}')


def planar_basis(axis: FloatArray) -> tuple[FloatArray, FloatArray]:
    """
    The in-plane unit vectors ``(u, v)`` of a planar joint with unit normal ``axis``.

    ``u`` is the axis after the one most aligned with ``axis`` (cyclic x, y, z), projected onto
    the plane; ``v = axis × u`` (axis z: u = x, v = y).
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
        return origin_transform(joint.origin)
    except TransformError as exc:
        raise InvalidJointError(f'{_where(joint)}joint "{joint.name}": origin {exc}') from exc


def _refuse(joint: Joint, code: str, message: str) -> InvalidJointError:
    """The error for ``joint``, carrying the checker's finding ``code`` for the same problem."""
    location = joint.axis_location if code == 'joint-axis-zero' and joint.axis_location \
        else joint.location
    finding = Finding(code, Severity.ERROR, f'joint:{joint.name}', message, location)
    return InvalidJointError(f'{_where(joint)}{message}', finding=finding)


def _joint_axis(joint: Joint) -> FloatArray:
    """The unit axis; the reason for a refusal is the checker's (``joint-axis-zero``)."""
    problem = axis_problem(joint.axis)
    if problem is not None:
        text = ' '.join(f'{component:g}' for component in joint.axis)
        raise _refuse(joint, 'joint-axis-zero', f'joint "{joint.name}" ({joint.joint_type}): '
                      f'axis xyz="{text}" {problem}')
    return unit_axis(joint.axis, 'axis')


def _kind(joint: Joint) -> str:
    """Kind of the joint (:data:`KINDS`)."""
    problem = joint_type_problem(joint.joint_type)
    if problem is not None:
        raise _refuse(joint, 'joint-type-unknown', f'joint "{joint.name}": {problem}')
    return 'revolute' if joint.joint_type == 'continuous' else joint.joint_type


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
        info: dict[str, tuple[Joint, FloatArray, FloatArray, str]] = {}
        for joint in tree.joints:
            parent, child = joint.parent, joint.child
            frame = _joint_origin(joint)
            kind = _kind(joint)
            parent_joint = tree.parent_joint(parent)
            is_anchor = parent_joint is None or parent_joint.joint_type != 'fixed'
            anchor[child] = parent if is_anchor else anchor[parent]
            f_matrix = chain[parent] @ frame
            chain[child] = f_matrix if kind == 'fixed' else np.eye(4)
            level[child] = level[anchor[child]] + 1
            info[child] = (joint, frame, f_matrix, kind)

        def rank(link: str) -> tuple[int, int, tuple[bool, ...], int]:
            kind = KINDS.index(info[link][3]) if link in info else -1
            return level[link], kind, pattern(link), tree_index[link]

        def pattern(link: str) -> tuple[bool, ...]:
            if link not in info or info[link][3] not in ('revolute', 'prismatic'):
                return ()
            return tuple(bool(component != 0.0) for component in _joint_axis(info[link][0]))

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
        # Links without a one-DOF joint read variable 0 times 0 (values are finite), so θ = 0.
        self.src = np.zeros(count, dtype=np.intp)
        self.mult = np.zeros(count)
        self.off = np.zeros(count)
        for index, link in enumerate(order):
            if link not in info:
                continue
            joint, _, _, kind = info[link]
            if kind in ('fixed', 'floating'):
                continue
            self.axes[index] = _joint_axis(joint)
            if kind == 'planar':
                continue
            mimic = self.mimics.get(joint.name)
            source = mimic.source if mimic is not None else joint.name
            self.src[index] = self.joint_slices[source].start
            self.mult[index] = mimic.multiplier if mimic is not None else 1.0
            self.off[index] = mimic.offset if mimic is not None else 0.0
        self._levels()
        self._constants()

    def _levels(self) -> None:
        """:attr:`levels`: ``(start, stop, anchors)`` of each run of links of one level."""
        levels: list[tuple[int, int, np.ndarray]] = []
        count = len(self.link_names)
        start = 1
        while start < count:
            stop = start
            while stop < count and self.level[stop] == self.level[start]:
                stop += 1
            levels.append((start, stop, self.anchor[start:stop]))
            start = stop
        self.levels = tuple(levels)

    def _constants(self) -> None:
        """
        Premultiply :func:`motion_terms` by the constant frame before each link's motion.

        :attr:`terms` (3, L, 4, 4) ``F_anchor @ (A, B, C)`` for link poses, :attr:`frame_terms`
        ``origin @ (A, B, C)`` for joint transforms; ``(F, 0, 0)`` for links without one DOF.
        """
        count = len(self.link_names)
        self.terms = np.zeros((3, count, 4, 4))
        self.frame_terms = np.zeros((3, count, 4, 4))
        self.terms[0] = self.fixed
        self.frame_terms[0] = self.frames
        for index, kind in enumerate(self.kinds):
            if kind in ('revolute', 'prismatic'):
                terms = motion_terms(kind, self.axes[index])
                self.terms[:, index] = self.fixed[index] @ terms
                self.frame_terms[:, index] = self.frames[index] @ terms
        self.prismatic = np.array([index for index, kind in enumerate(self.kinds)
                                   if kind == 'prismatic'], dtype=np.intp)
        self.general = tuple(index for index, kind in enumerate(self.kinds)
                             if kind in ('floating', 'planar'))
        self.moving = np.array([index for index, kind in enumerate(self.kinds)
                                if kind not in ('root', 'fixed')], dtype=np.intp)
        self.fixed_links = tuple(index for index, kind in enumerate(self.kinds) if kind == 'fixed')

    def theta(self, values: FloatArray) -> tuple[FloatArray, FloatArray]:
        """
        ``cos(θ)`` and ``s(θ)`` of every link for ``values``.

        :param values: (..., nq) configurations.
        :return: Two (..., L) float64 arrays; ``s`` is ``sin(θ)`` for revolute links and ``θ``
            for prismatic ones; links without a one-DOF joint read θ = 0 (their B, C are 0).
        """
        if self.nq:
            theta = values[..., self.src] * self.mult + self.off
        else:
            theta = np.broadcast_to(self.off, values.shape[:-1] + self.off.shape).copy()
        sine = np.sin(theta)
        if self.prismatic.size:
            sine[..., self.prismatic] = theta[..., self.prismatic]
        return np.cos(theta), sine


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
    return _multi_dof_motion(plan.kinds[index], plan.axes[index],
                             values[:, plan.joint_slices[joint.name]], plan.floating)


def _multi_dof_motion(kind: str, axis: FloatArray, part: FloatArray,
                      floating: str) -> FloatArray:
    """(N, 4, 4) motion of a floating or planar joint from its (N, 3 | 6 | 7) values."""
    motion = np.zeros((part.shape[0], 4, 4))
    motion[:, 3, 3] = 1.0
    if kind == 'floating':
        motion[:, :3, 3] = part[:, :3]
        motion[:, :3, :3] = (rpy_to_rotation(part[:, 3:6]) if floating == 'rpy'
                             else quaternion_to_rotation(part[:, 3:7]))
    else:
        u, v = planar_basis(axis)
        motion[:, :3, :3] = axis_rotation(axis, part[:, 2])[:, :3, :3]
        motion[:, :3, 3] = part[:, 0:1] * u + part[:, 1:2] * v
    return motion
