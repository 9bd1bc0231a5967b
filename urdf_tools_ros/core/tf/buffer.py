"""
Link poses from received TF transforms, ROS-free: what a view that follows ``/tf`` draws.

:class:`TfFrameStore` keeps the last ``T_parent_child`` received for each child frame, as
``/tf`` and ``/tf_static`` carry them (``header.frame_id`` is the parent, ``child_frame_id`` the
child; tf2_msgs/TFMessage), and chains them along a robot's
:class:`~urdf_tools_ros.core.kinematics.tree.KinematicTree` into ``{link: T_root_link}``.

Rules:

* A frame id must start with the store's ``frame_prefix`` (robot_state_publisher's parameter of
  that name), which is stripped; frames without it belong to another robot and are ignored.
* For each child frame the transform received last is used, from ``/tf`` or ``/tf_static``
  alike (as tf2's buffer replaces a static frame's value). Nothing expires by time: the store
  has no clock, so a broadcaster that stops leaves its last transforms in place.
* :meth:`TfFrameStore.reset` forgets the ``/tf`` (dynamic) transforms and by default keeps the
  ``/tf_static`` ones: those are latched and sent once, so a new robot description must not
  lose them (a publisher of static transforms does not send them again).
* A link is posed when every joint between it and the root has a transform whose parent is
  the joint's URDF ``parent`` (a transform naming another parent does not count); otherwise it
  is left out, or posed by a ``fallback`` ``T_parent_child`` of its joint when one is given.
* Nothing non-finite is stored or returned: a transform with NaN/inf, a zero quaternion or a
  matrix that is not rigid is dropped with the reason, and a link whose chained pose overflows
  is left out with its subtree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..kinematics.forward import KinematicModel
from ..kinematics.transforms import FloatArray, transform_from_quaternion
from ..kinematics.tree import KinematicTree

__all__ = ['TfFrameStore', 'joint_edges']

_RIGID_TOLERANCE = 1e-6  # |R^T R - I| and the last row of a matrix given to TfFrameStore.add


@dataclass(frozen=True)
class _Edge:
    """One received transform: the parent frame (prefix stripped) and ``T_parent_child``."""

    parent: str
    T_parent_child: FloatArray
    static: bool


class TfFrameStore:
    """
    The last transform received for each TF child frame, chained into link poses.

    Not thread-safe: feed it and read it from one thread (a node's callbacks in its default,
    mutually exclusive callback group are).

    :param frame_prefix: Prefix of every frame id of this robot (``'r1/'``), stripped before
        matching link names; ``''`` takes frame ids as link names.
    """

    def __init__(self, frame_prefix: str = '') -> None:
        self._prefix = frame_prefix
        self._edges: dict[str, _Edge] = {}
        self._version = 0

    @property
    def frame_prefix(self) -> str:
        """The prefix stripped from frame ids."""
        return self._prefix

    @property
    def version(self) -> int:
        """A counter that grows with every change of the stored transforms."""
        return self._version

    def __len__(self) -> int:
        """Number of child frames with a stored transform."""
        return len(self._edges)

    def _strip(self, frame: str) -> str | None:
        if not frame.startswith(self._prefix):
            return None
        return frame[len(self._prefix):]

    def _frames(self, parent_frame: str, child_frame: str) -> tuple[str, str] | None:
        parent, child = self._strip(parent_frame), self._strip(child_frame)
        if parent is None or child is None or not child:
            return None
        return parent, child

    def add(self, parent_frame: str, child_frame: str, T_parent_child: npt.ArrayLike, *,
            static: bool = False) -> str | None:
        """
        Store one transform, replacing the one stored for ``child_frame``.

        :param parent_frame: ``header.frame_id``, with the frame prefix.
        :param child_frame: ``child_frame_id``, with the frame prefix.
        :param T_parent_child: (4, 4) rigid transform mapping child-frame coordinates into the
            parent frame (m); copied.
        :param static: Whether it came from ``/tf_static`` (kept by :meth:`reset`).
        :return: ``None`` when stored or ignored (a frame without the prefix); otherwise why
            it was dropped (wrong shape, NaN/inf, not rigid).
        """
        frames = self._frames(parent_frame, child_frame)
        if frames is None:
            return None
        name = f'transform {parent_frame!r} -> {child_frame!r}'
        try:
            matrix = np.array(T_parent_child, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            return f'{name}: not an array of numbers ({exc})'
        if matrix.shape != (4, 4):
            return f'{name}: expected shape (4, 4), got {matrix.shape}'
        if not np.isfinite(matrix).all():
            return f'{name}: contains NaN or inf'
        rotation = matrix[:3, :3]
        if (np.abs(matrix[3] - (0.0, 0.0, 0.0, 1.0)).max() > _RIGID_TOLERANCE
                or np.abs(rotation.T @ rotation - np.eye(3)).max() > _RIGID_TOLERANCE
                or np.linalg.det(rotation) < 0.0):
            return f'{name}: not a rigid transform'
        self._store(frames, matrix, static)
        return None

    def add_quaternions(self, parent_frames: Sequence[str], child_frames: Sequence[str],
                        translation: npt.ArrayLike, quaternion: npt.ArrayLike, *,
                        static: bool = False) -> list[str]:
        """
        Store N transforms given as a TF message carries them, each replacing its child's.

        Later entries win over earlier ones for the same child frame.

        :param parent_frames: N ``header.frame_id``, with the frame prefix.
        :param child_frames: N ``child_frame_id``, with the frame prefix.
        :param translation: (N, 3) ``T_parent_child`` translations, m.
        :param quaternion: (N, 4) ``(x, y, z, w)`` rotations (geometry_msgs order); normalised.
        :param static: Whether they came from ``/tf_static`` (kept by :meth:`reset`).
        :return: Why entries were dropped (NaN/inf, zero quaternion; mismatched list lengths
            drop all), empty when none were. Frames without the prefix are ignored silently.
        """
        count = len(child_frames)
        xyz = np.asarray(translation, dtype=np.float64)
        quat = np.asarray(quaternion, dtype=np.float64)
        if len(parent_frames) != count or xyz.shape != (count, 3) or quat.shape != (count, 4):
            return [f'transforms: {len(parent_frames)} parents, {count} children, translation '
                    f'{xyz.shape} and quaternion {quat.shape} do not match; all dropped']
        finite = np.asarray(np.isfinite(xyz).all(axis=1) & np.isfinite(quat).all(axis=1))
        with np.errstate(invalid='ignore', over='ignore'):
            good = finite & (np.linalg.norm(quat, axis=1) > 1e-12)
        problems = [f'transform {parent_frames[i]!r} -> {child_frames[i]!r}: '
                    + ('zero quaternion' if finite[i] else 'contains NaN or inf')
                    for i in map(int, np.flatnonzero(~good))]
        rows = np.flatnonzero(good)
        if rows.size:
            matrices = transform_from_quaternion(xyz[rows], quat[rows])
            for row, matrix in zip(map(int, rows), matrices):
                frames = self._frames(parent_frames[row], child_frames[row])
                if frames is not None:
                    self._store(frames, matrix, static)
        return problems

    def _store(self, frames: tuple[str, str], matrix: FloatArray, static: bool) -> None:
        parent, child = frames
        self._edges[child] = _Edge(parent, matrix, static)
        self._version += 1

    def transform(self, child: str) -> tuple[str, FloatArray] | None:
        """
        The transform stored for a child frame.

        :param child: Frame name without the prefix (a link name).
        :return: ``(parent, T_parent_child)`` with the parent's prefix stripped and a copy of
            the (4, 4) float64 transform, or ``None`` when none was received.
        """
        edge = self._edges.get(child)
        return None if edge is None else (edge.parent, edge.T_parent_child.copy())

    def reset(self, *, keep_static: bool = True) -> None:
        """
        Forget the dynamic (``/tf``) transforms, and the static ones unless ``keep_static``.

        :param keep_static: Keep what came from ``/tf_static`` (latched, so not sent again).
        """
        self._edges = {child: edge for child, edge in self._edges.items()
                       if keep_static and edge.static}
        self._version += 1

    def link_poses(self, tree: KinematicTree,
                   fallback: Mapping[str, FloatArray] | None = None) -> dict[str, FloatArray]:
        """
        Chain the stored transforms along the tree: the pose of each link in the root frame.

        ``T_root_link = T_root_parent @ T_parent_link``, parents first (tree order). A link's
        ``T_parent_link`` is the stored transform of the link when its parent frame is the
        URDF parent of the link's joint, else ``fallback[joint]`` when given.

        :param tree: The robot's kinematic tree.
        :param fallback: ``{joint: T_parent_child}`` (4, 4) float64 to use for joints without a
            matching transform (e.g. :func:`joint_edges` of the joint state), or ``None``.
        :return: ``{link: T_root_link}``, new (4, 4) float64 finite arrays, for the root
            (identity) and each link whose whole chain to the root is known; the others are
            left out.
        """
        poses: dict[str, FloatArray] = {tree.root: np.eye(4)}
        fallback = fallback or {}
        for joint in tree.joints:
            T_root_parent = poses.get(joint.parent)
            if T_root_parent is None:
                continue
            edge = self._edges.get(joint.child)
            T_parent_child = edge.T_parent_child if edge is not None and \
                edge.parent == joint.parent else fallback.get(joint.name)
            if T_parent_child is None:
                continue
            with np.errstate(invalid='ignore', over='ignore'):
                T_root_child: FloatArray = T_root_parent @ T_parent_child
            if np.isfinite(T_root_child).all():
                poses[joint.child] = T_root_child
        return poses


def joint_edges(model: KinematicModel, positions: Mapping[str, float]) -> dict[str, FloatArray]:
    """
    ``T_parent_child`` of every joint at a joint state: the fallback of a view following TF.

    :param model: Forward kinematics of the robot.
    :param positions: ``{joint: position}``, rad or m, e.g. a joint-state table's sample;
        names that are not variables of ``model`` (mimic joints, which follow their source,
        and joints of other robots) are ignored, missing joints are at 0.
    :return: ``{joint: T_parent_child}``, (4, 4) float64, for moving and fixed joints.
    :raises JointStateError: for NaN/inf or a magnitude above 1e150 (see
        :meth:`~urdf_tools_ros.core.kinematics.forward.KinematicModel.configuration`).
    """
    variables = set(model.variable_names)
    edges = model.joint_transforms({name: value for name, value in positions.items()
                                    if name in variables})
    edges.update(model.fixed_joint_transforms())
    return edges
