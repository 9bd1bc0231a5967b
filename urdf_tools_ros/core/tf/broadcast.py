"""
What a TF broadcaster computes, ROS-free.

Which joints a ``joint_states`` message moves, their transforms, and robot_state_publisher's
rate limit.
:class:`TfFrames` holds one description's kinematics and turns the names and positions of a
``joint_states`` message into the ``T_parent_child`` of the joints it moves, as the translation
and quaternion arrays a ``tf2_msgs/TFMessage`` carries (:class:`MovingTransforms`).
:class:`TfThrottle` decides by message stamps whether a message is published at all. The rules
are robot_state_publisher's: names that are not moving joints of the model are ignored (one
``joint_states`` topic often carries several robots); a mimic joint the message names is
published at the measured value it gives (a driver or simulator publishes every joint), one it
does not name follows its source when the message names that (``multiplier * source + offset``);
floating and planar joints move by the variables of
:class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` (``<joint>/x``, ...; missing ones
at 0) and are published only by a message that names one of them (never at a made-up zero). A
NaN, infinite or out-of-range value is refused for its joint and a message whose ``position``
and ``name`` lengths differ is refused whole; both are reported as problems, never raised, and
nothing non-finite is ever returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..kinematics.fk_plan import MAX_MAGNITUDE
from ..kinematics.forward import KinematicModel
from ..kinematics.mimic import resolve_mimic
from ..source.loader import RobotDescription
from ..transforms import FloatArray

__all__ = ['MovingTransforms', 'TfFrames', 'TfThrottle']

_PLAN_CACHE = 16  # a topic carries few distinct name lists


@dataclass(frozen=True)
class MovingTransforms:
    """
    ``T_parent_child`` of the joints one ``joint_states`` message moves.

    :ivar joints: Joint names, in :attr:`TfFrames.moving` order.
    :ivar translation: (J, 3) float64, m.
    :ivar quaternion: (J, 4) float64 unit ``(x, y, z, w)`` (geometry_msgs order), ``w >= 0``.
    :ivar problems: Why entries or the whole message were ignored (empty when none were).
    """

    joints: tuple[str, ...]
    translation: FloatArray
    quaternion: FloatArray
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class _MessagePlan:
    """For one list of names: the entries the model moves, their variables, joints and rows."""

    entries: npt.NDArray[np.intp]
    variables: npt.NDArray[np.intp]
    owners: tuple[tuple[str, ...], ...]
    rows: npt.NDArray[np.intp]
    joints: tuple[str, ...]
    #: Entries that name a mimic joint (a measured position), and those joints.
    mimic_entries: npt.NDArray[np.intp]
    mimic_joints: tuple[str, ...]


class TfFrames:
    """
    What TF needs of one description: kinematics, each joint's frames, the joints a message moves.

    :param description: A loaded description.
    :raises RobotDescriptionError: if the model has no valid kinematics (not a tree, bad mimic,
        zero axis, NaN in an origin, ...).
    """

    def __init__(self, description: RobotDescription) -> None:
        robot = description.robot
        self.description = description
        self.model = KinematicModel(robot)
        #: ``{joint: (parent link, child link)}`` of every joint.
        self.edges = {joint.name: (joint.parent, joint.child) for joint in robot.joints}
        followers: dict[str, list[str]] = {}
        for mimic in resolve_mimic(robot).values():
            followers.setdefault(mimic.source, []).append(mimic.joint)
        owners: dict[str, tuple[str, ...]] = {}
        for joint in self.model.joint_names:
            moved = (joint, *followers.get(joint, ()))
            for variable in self.model.variable_names:
                if variable == joint or variable.startswith(joint + '/'):
                    owners[variable] = moved
        self._owners = owners
        self._variable_index = {name: index for index, name in
                                enumerate(self.model.variable_names)}
        self._neutral = self.model.neutral()
        #: Moving joints (mimic joints included) in :meth:`KinematicModel.joint_transforms` order.
        self.moving: tuple[str, ...] = self.model.joint_transform_arrays()[0]
        self._row = {joint: row for row, joint in enumerate(self.moving)}
        self._plans: dict[tuple[str, ...], _MessagePlan] = {}

    def multi_dof_joints(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """
        The floating and planar joints: ``(joint, joint_type, variable names)`` each.

        They move only by a message that names one of their variables (``<joint>/x``, ...).
        """
        robot = self.description.robot
        return tuple((name, robot.joint(name).joint_type,
                      tuple(variable for variable in self.model.variable_names
                            if variable.startswith(name + '/')))
                     for name in self.moving
                     if robot.joint(name).joint_type in ('floating', 'planar'))

    def static_transforms(self) -> dict[str, FloatArray]:
        """``{joint: T_parent_child}`` (4, 4) float64 of every fixed joint (for /tf_static)."""
        return self.model.fixed_joint_transforms()

    def _rows(self, moved: set[str]) -> tuple[npt.NDArray[np.intp], tuple[str, ...]]:
        """Rows of :attr:`moving` that are in ``moved``, and their joints, in that order."""
        joints = tuple(joint for joint in self.moving if joint in moved)
        return np.array([self._row[joint] for joint in joints], dtype=np.intp), joints

    def _plan(self, names: tuple[str, ...]) -> _MessagePlan:
        """The plan of a message with ``names``, made once per distinct list of names."""
        plan = self._plans.get(names)
        if plan is None:
            entries = [index for index, name in enumerate(names) if name in self._owners]
            owners = tuple(self._owners[names[index]] for index in entries)
            mimic_entries = [index for index, name in enumerate(names)
                             if name in self.model.mimics]
            mimic_joints = tuple(names[index] for index in mimic_entries)
            rows, joints = self._rows({joint for owner in owners for joint in owner}
                                      | set(mimic_joints))
            plan = _MessagePlan(
                np.array(entries, dtype=np.intp),
                np.array([self._variable_index[names[index]] for index in entries],
                         dtype=np.intp),
                owners, rows, joints, np.array(mimic_entries, dtype=np.intp), mimic_joints)
            if len(self._plans) >= _PLAN_CACHE:
                self._plans.clear()
            self._plans[names] = plan
        return plan

    def moving_transforms(self, names: Sequence[str],
                          positions: Sequence[float] | FloatArray) -> MovingTransforms:
        """
        Transforms of the joints moved by a ``joint_states`` message.

        :param names: Joint (or variable) names of the message.
        :param positions: Their positions, rad or m; as long as ``names``.
        :return: The moved joints (in :attr:`moving` order) with translations and quaternions,
            and the problems: NaN/inf or out-of-range values (that joint is ignored), mismatched
            lengths (the message is ignored). Names the model does not move are ignored
            silently.
        """
        if len(positions) != len(names):
            return self._empty(f'{len(positions)} positions for {len(names)} names; '
                               'message ignored')
        plan = self._plan(names if isinstance(names, tuple) else tuple(names))
        given = np.asarray(positions, dtype=np.float64)
        values = given[plan.entries]
        measured = given[plan.mimic_entries]
        good = np.abs(values) <= MAX_MAGNITUDE  # False for NaN too
        good_measured = np.abs(measured) <= MAX_MAGNITUDE
        rows, joints = plan.rows, plan.joints
        problems: tuple[str, ...] = ()
        if not (good.all() and good_measured.all()):
            problems = tuple(
                f'joint "{names[entry]}": position {given[entry]} is not finite or out of '
                'range; joint ignored'
                for entry in (*plan.entries[~good], *plan.mimic_entries[~good_measured]))
            rows, joints = self._rows(
                {joint for owner, ok in zip(plan.owners, good) if ok for joint in owner}
                | {joint for joint, ok in zip(plan.mimic_joints, good_measured) if ok})
        if not joints:
            return self._empty(*problems)
        configuration = self._neutral.copy()
        configuration[plan.variables[good]] = values[good]
        _, translation, quaternion = self.model.joint_transform_arrays(
            configuration, {joint: float(value) for joint, value, ok
                            in zip(plan.mimic_joints, measured, good_measured) if ok})
        if len(joints) < len(self.moving):
            translation, quaternion = translation[rows], quaternion[rows]
        return MovingTransforms(joints, translation, quaternion, problems)

    @staticmethod
    def _empty(*problems: str) -> MovingTransforms:
        return MovingTransforms((), np.zeros((0, 3)), np.zeros((0, 4)), problems)


class TfThrottle:
    """
    robot_state_publisher's rate limit by message stamps.

    A message's transforms are published when its stamp is at least ``1 / publish_frequency``
    after the last publication of the least recently published joint it names (a joint never
    published counts as published at time 0). Time running backwards (a bag played again)
    starts over.

    :param publish_frequency: Hz; 0 (or less) for no limit.
    :param ignore_timestamp: Publish every message.
    """

    def __init__(self, publish_frequency: float, ignore_timestamp: bool) -> None:
        self.interval_ns = 0 if publish_frequency <= 0.0 else int(1e9 / publish_frequency)
        self.ignore_timestamp = ignore_timestamp
        self._published: dict[str, int] = {}
        self._last_now = 0

    @property
    def limits(self) -> bool:
        """Whether :meth:`admit` can refuse a message (a rate limit applies)."""
        return not (self.ignore_timestamp or self.interval_ns == 0)

    def reset(self) -> None:
        """Forget every publication (a new description)."""
        self._published.clear()
        self._last_now = 0

    def admit(self, names: Sequence[str], stamp_ns: int, now_ns: int) -> bool:
        """
        Whether to publish a message; if so, record its joints as published at ``stamp_ns``.

        Without a limit (:attr:`limits` False) every message is admitted and nothing is recorded.

        :param names: The joint names of the message.
        :param stamp_ns: Its header stamp, integer ns.
        :param now_ns: The receiving clock's time, integer ns (detects time running backwards).
        """
        if not self.limits:
            return True
        if now_ns < self._last_now:
            self._published.clear()
        self._last_now = now_ns
        oldest = min((self._published.get(name, 0) for name in names), default=0)
        if stamp_ns < min(oldest, now_ns) + self.interval_ns:
            return False
        published = self._published
        for name in names:
            published[name] = stamp_ns
        return True
