"""
The joint-state table behind the joint-state publisher and its sliders (no ROS messages here).

As joint_state_publisher 2.4: the published joints are the revolute, continuous and prismatic
joints in file order, and joints of a type URDF does not know that have a ``<limit>``; with
``use_mimic_tags`` a mimic joint follows its source. Each actuated joint starts at ``zeros`` or
its default position; velocity and effort lists are published once some joint has a value
(positions too whenever mimic joints are derived). Ranges are
:func:`~urdf_tools_ros.core.kinematics.limits.effective_limits`. Unlike joint_state_publisher,
bad input is refused per joint and returned as findings (:func:`refusal`); a
:class:`ClampPolicy` decides whether accepted values are clamped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import dataclasses
from dataclasses import dataclass
import enum
import functools
import math
import threading
from typing import Any, Callable, TypeVar

import numpy as np

from ..findings import Finding, Severity
from ..kinematics.limits import effective_limits, JointLimits
from ..kinematics.mimic import resolve_mimic, ResolvedMimic
from ..model.robot import Joint, JOINT_TYPES, Robot, SINGLE_DOF_JOINT_TYPES

__all__ = ['ClampPolicy', 'JointStateSample', 'JointStateTable', 'LISTS_MISMATCH', 'NAME_REFUSED',
           'NO_STATE', 'VALUE_REFUSED', 'refusal']

_FIELDS = ('position', 'velocity', 'effort')
_Method = TypeVar('_Method', bound=Callable[..., Any])


def _locked(method: _Method) -> _Method:
    """Run ``method`` holding the table's lock."""
    @functools.wraps(method)
    def run(self: 'JointStateTable', *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            return method(self, *args, **kwargs)
    return run  # type: ignore[return-value]


class ClampPolicy(str, enum.Enum):
    """What is clamped when a value is set."""

    #: Nothing (joint_state_publisher's behaviour).
    NONE = 'none'
    #: Position into the effective range [lower, upper] (continuous joints never).
    POSITION = 'position'
    #: Position as above, then velocity and effort into the safety controller's bounds
    #: (:class:`~urdf_tools_ros.core.kinematics.limits.JointLimits`).
    SAFETY_CONTROLLER = 'safety_controller'

    @classmethod
    def parse(cls, text: str) -> ClampPolicy:
        """The policy named ``text`` (``clamp``); :exc:`ValueError` naming the choices if none."""
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f'clamp: {text!r} is not one of '
                             f'{", ".join(policy.value for policy in cls)}') from None


#: Codes of runtime refusals (not check rules): a name that is no actuated joint, a value that
#: is not finite, lists of another length than the names, no usable state at all.
NAME_REFUSED = 'joint-state-name-refused'
VALUE_REFUSED = 'joint-state-value-refused'
LISTS_MISMATCH = 'joint-state-lists-mismatch'
NO_STATE = 'joint-state-unavailable'


def refusal(code: str, joint: str | None, reason: str) -> Finding:
    """
    A refused input as a warning finding at ``joint:<name>`` (or ``joint_states``).

    :param code: :data:`NAME_REFUSED`, :data:`VALUE_REFUSED`, :data:`LISTS_MISMATCH` or
        :data:`NO_STATE`.
    :param joint: The joint name as given, or ``None`` for a problem of the whole input.
    """
    return Finding(code, Severity.WARNING, 'joint_states' if joint is None else f'joint:{joint}',
                   reason)


@dataclass(frozen=True, slots=True)
class JointStateSample:
    """
    One joint state: names with positions (rad or m), velocities (rad/s or m/s), efforts.

    A value list is empty when no joint has such a value, else as long as ``name``.
    """

    name: tuple[str, ...]
    position: tuple[float, ...]
    velocity: tuple[float, ...]
    effort: tuple[float, ...]


class JointStateTable:
    """
    Positions, velocities and efforts of a robot's actuated joints, with mimic joints derived.

    Keyword parameters are joint_state_publisher's (``zeros``, ``use_mimic_tags``,
    ``use_smallest_joint_limits``, ``publish_default_*``) and the ``clamp`` policy.

    :ivar joint_names: Actuated joints, URDF order.
    :ivar names: Every published joint (actuated and mimic), URDF order.
    :ivar limits: :class:`JointLimits` of every actuated joint.
    :ivar refused_zeros: ``zeros`` entries that were not taken.
    :ivar unknown_type_joints: Published joints whose type URDF does not know (module doc).
    :ivar lock: The table's re-entrant lock, held by every method (several threads may use the
        table); hold it yourself to make several calls one step.
    :raises MimicError: with ``use_mimic_tags``, for a ``<mimic>`` that cannot be resolved.
    :raises InvalidJointError: for a joint without usable limits.
    """

    def __init__(self, robot: Robot, *, zeros: Mapping[str, float] | None = None,
                 use_mimic_tags: bool = True, use_smallest_joint_limits: bool = True,
                 publish_default_positions: bool = True, publish_default_velocities: bool = False,
                 publish_default_efforts: bool = False,
                 clamp: ClampPolicy = ClampPolicy.NONE) -> None:
        joints = [published for published in map(_published, robot.joints)
                  if published is not None]
        self.unknown_type_joints = tuple(joint.name for joint in joints
                                         if robot.joint(joint.name).joint_type not in JOINT_TYPES)
        self.mimics: dict[str, ResolvedMimic] = resolve_mimic(robot) if use_mimic_tags else {}
        self.names = tuple(joint.name for joint in joints)
        self.joint_names = tuple(name for name in self.names if name not in self.mimics)
        self.limits: dict[str, JointLimits] = {
            joint.name: effective_limits(joint, use_smallest_joint_limits)
            for joint in joints if joint.name not in self.mimics}
        self.clamp = ClampPolicy(clamp)
        self.lock = threading.RLock()
        self._robot = robot
        self._forward = {name: True for name in self.joint_names}
        defaults = {name: limits.default_position() for name, limits in self.limits.items()}
        refused: list[Finding] = []
        for name, value in (zeros or {}).items():
            reason = self._refuse_name(name) or _bad_number('zero', value)
            if reason:
                code = NAME_REFUSED if self._refuse_name(name) else VALUE_REFUSED
                refused.append(refusal(code, name, reason))
            else:
                defaults[name] = float(value)
        self.refused_zeros = tuple(refused)
        self.defaults = defaults
        self._values: dict[str, dict[str, float]] = {field: {} for field in _FIELDS}
        if publish_default_positions:
            self._values['position'] = dict(defaults)
        if publish_default_velocities:
            self._values['velocity'] = {name: 0.0 for name in self.joint_names}
        if publish_default_efforts:
            self._values['effort'] = {name: 0.0 for name in self.joint_names}

    # -- reading -------------------------------------------------------------------------
    @_locked
    def positions(self) -> dict[str, float]:
        """Positions of the actuated joints that have one, by name (rad or m)."""
        return dict(self._values['position'])

    @_locked
    def value(self, name: str, field: str = 'position') -> float | None:
        """The position, velocity or effort of actuated joint ``name``, or ``None``."""
        return self._values[field].get(name)

    @_locked
    def sample(self) -> JointStateSample:
        """The full state: every published joint, mimic joints derived, in URDF order."""
        lists: dict[str, tuple[float, ...]] = {}
        for field in _FIELDS:
            values = self._values[field]
            # joint_state_publisher: positions whenever a joint is derived from another
            if not values and not (field == 'position' and self.mimics):
                lists[field] = ()
                continue
            row: list[float] = []
            for name in self.names:
                mimic = self.mimics.get(name)
                source = values.get(mimic.source if mimic else name)
                if source is None:
                    row.append(0.0)
                elif mimic is None:
                    row.append(source)
                else:
                    row.append(getattr(mimic, field)(source))
            lists[field] = tuple(row)
        return JointStateSample(self.names, lists['position'], lists['velocity'],
                                lists['effort'])

    # -- writing -------------------------------------------------------------------------
    def _refuse_name(self, name: str) -> str | None:
        if name in self.limits:
            return None
        mimic = self.mimics.get(name)
        if mimic is not None:
            return f'mimic joint: follows "{mimic.source}"'
        joint = self._robot.joint_map.get(name)
        if joint is None:
            return 'unknown joint'
        return f'{joint.joint_type} joint has no position'

    @_locked
    def update(self, name: str, position: float | None = None, velocity: float | None = None,
               effort: float | None = None) -> list[Finding]:
        """
        Set some values of one actuated joint; values not given stay as they are.

        :return: The refusals (unknown or mimic name, NaN/inf); accepted values are clamped by
            the table's :class:`ClampPolicy`.
        """
        reason = self._refuse_name(name)
        if reason:
            return [refusal(NAME_REFUSED, name, reason)]
        refusals = []
        for field, value in zip(_FIELDS, (position, velocity, effort)):
            if value is None:
                continue
            problem = _bad_number(field, value)
            if problem:
                refusals.append(refusal(VALUE_REFUSED, name, problem))
            else:
                self._values[field][name] = float(value)
        self._apply_clamp(name)
        return refusals

    @_locked
    def merge(self, names: Sequence[str], position: Sequence[float] = (),
              velocity: Sequence[float] = (), effort: Sequence[float] = ()) -> list[Finding]:
        """
        Take a partial external joint state by name (a ``sensor_msgs/JointState``'s lists).

        An empty list is "not given"; a list of another length than ``names`` is refused whole.

        :return: Every refusal, in input order.
        """
        refusals: list[Finding] = []
        lists: dict[str, Sequence[float]] = {}
        for field, values in zip(_FIELDS, (position, velocity, effort)):
            if len(values) and len(values) != len(names):
                refusals.append(refusal(LISTS_MISMATCH, None,
                                        f'{field} has {len(values)} values for {len(names)} '
                                        f'names; {field} ignored'))
            elif len(values):
                lists[field] = values
        for index, name in enumerate(names):
            given = {field: values[index] for field, values in lists.items()}
            if given:
                refusals.extend(self.update(name, **given))
        return refusals

    def _apply_clamp(self, name: str) -> None:
        if self.clamp is ClampPolicy.NONE:
            return
        limits = self.limits[name]
        positions, velocities, efforts = (self._values[field] for field in _FIELDS)
        if name in positions:
            positions[name] = limits.clamp(positions[name])
        if self.clamp is not ClampPolicy.SAFETY_CONTROLLER:
            return
        position = positions.get(name, self.defaults[name])
        if name in velocities:
            low, high = limits.safety_velocity_bounds(position)
            velocities[name] = min(max(velocities[name], low), high)
        if name in efforts:
            low, high = limits.safety_effort_bounds(position, velocities.get(name, 0.0))
            efforts[name] = min(max(efforts[name], low), high)

    @_locked
    def step(self, delta: float) -> None:
        """
        Move every joint with a position by ``delta`` (rad or m) along its sweep direction.

        The direction turns at the ends of the range; a continuous joint only moves forward and
        wraps to the lower end (joint_state_publisher 2.4's ``update``).
        """
        if not math.isfinite(delta):
            return
        positions = self._values['position']
        for name, position in positions.items():
            limits = self.limits[name]
            if limits.continuous:
                position += delta
                positions[name] = limits.slider_lower if position > limits.slider_upper \
                    else position
                continue
            forward = self._forward[name]
            position += delta if forward else -delta
            if position > limits.slider_upper:
                position, self._forward[name] = limits.slider_upper, False
            elif position < limits.slider_lower:
                position, self._forward[name] = limits.slider_lower, True
            positions[name] = position

    @_locked
    def center(self) -> None:
        """Put every actuated joint at its default position (the GUI's Center button)."""
        self._values['position'] = dict(self.defaults)

    @_locked
    def randomize(self, rng: np.random.Generator) -> None:
        """Put every actuated joint at a uniform random position of its slider range."""
        self._values['position'] = {
            name: float(rng.uniform(limits.slider_lower, limits.slider_upper))
            for name, limits in self.limits.items()}


def _published(joint: Joint) -> Joint | None:
    """``joint`` as the table publishes it (an unknown type with a limit: revolute) or ``None``."""
    if joint.joint_type in SINGLE_DOF_JOINT_TYPES:
        return joint
    if joint.joint_type in JOINT_TYPES or joint.limit is None:
        return None
    return dataclasses.replace(joint, joint_type='revolute', mimic=None)


def _bad_number(field: str, value: object) -> str | None:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return f'{field} {value!r} is not a number'
    if not math.isfinite(number):
        return f'{field} {number} is not finite'
    return None
