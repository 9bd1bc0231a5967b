"""
Messages <-> core types: the only module that reads or writes ROS message objects' fields.

Stamps are integer nanoseconds; quaternions ``(x, y, z, w)`` from
:func:`~urdf_tools_ros.core.transforms.transform_to_quaternion`, which refuses NaN and inf.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped
import numpy as np
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from ..core.findings import Finding, Severity
from ..core.joint_state.table import JointStateSample
from ..core.transforms import FloatArray, transform_to_quaternion

__all__ = ['Edge', 'description_from_msg', 'description_to_msg',
           'diagnostics_msg', 'joint_state_from_msg', 'joint_state_to_msg', 'tf_message',
           'time_from_msg', 'time_to_msg', 'TfMessageBuilder']

_NS = 1_000_000_000
#: ``(parent link, child link)`` of a joint: the frame ids of its transform.
Edge = tuple[str, str]


# -- time --------------------------------------------------------------------------------------
def time_to_msg(nanoseconds: int) -> Time:
    """``builtin_interfaces/Time`` of a time in integer nanoseconds (since the epoch or 0)."""
    sec, nanosec = divmod(int(nanoseconds), _NS)
    return Time(sec=sec, nanosec=nanosec)


def time_from_msg(stamp: Time) -> int:
    """Integer nanoseconds of a ``builtin_interfaces/Time``."""
    return int(stamp.sec) * _NS + int(stamp.nanosec)


# -- description -----------------------------------------------------------------------------
def description_to_msg(xml: str) -> String:
    """``std_msgs/String`` carrying the URDF XML, as ``robot_description`` does."""
    return String(data=xml)


def description_from_msg(msg: String) -> str:
    """The URDF XML of a ``robot_description`` message."""
    return str(msg.data)


# -- joint states ----------------------------------------------------------------------------
def joint_state_to_msg(sample: JointStateSample, stamp_ns: int, frame_id: str = '') -> JointState:
    """
    ``sensor_msgs/JointState`` of a sample; empty value lists stay empty (not given).

    :param sample: Names with positions (rad or m), velocities, efforts.
    :param stamp_ns: Header stamp, integer nanoseconds.
    """
    msg = JointState()
    msg.header.stamp = time_to_msg(stamp_ns)
    msg.header.frame_id = frame_id
    msg.name = list(sample.name)
    msg.position = list(sample.position)
    msg.velocity = list(sample.velocity)
    msg.effort = list(sample.effort)
    return msg


def joint_state_from_msg(msg: JointState) -> tuple[int, JointStateSample]:
    """Stamp (integer nanoseconds) and lists, as they are, of a ``sensor_msgs/JointState``."""
    sample = JointStateSample(tuple(msg.name), tuple(msg.position), tuple(msg.velocity),
                              tuple(msg.effort))
    return time_from_msg(msg.header.stamp), sample


# -- transforms ------------------------------------------------------------------------------
def _transform_msg(parent: str, child: str, translation: Sequence[float],
                   quaternion: Sequence[float], stamp: Time) -> TransformStamped:
    msg = TransformStamped()
    msg.header.stamp = stamp
    msg.header.frame_id = parent
    msg.child_frame_id = child
    t, q = msg.transform.translation, msg.transform.rotation
    t.x, t.y, t.z = translation
    q.x, q.y, q.z, q.w = quaternion
    return msg


def tf_message(transforms: Mapping[str, FloatArray], edges: Mapping[str, Edge], stamp_ns: int,
               frame_prefix: str = '') -> TFMessage:
    """
    ``tf2_msgs/TFMessage`` of joint transforms.

    :param transforms: ``{joint: T_parent_child}``, (4, 4) float64 each.
    :param edges: ``{joint: (parent link, child link)}`` for every joint of ``transforms``.
    :param stamp_ns: Stamp of every transform, integer nanoseconds.
    :param frame_prefix: Put before every frame id (robot_state_publisher's ``frame_prefix``).
    :raises TransformError: if a transform holds NaN or inf (nothing is returned then).
    """
    names = list(transforms)
    msg = TFMessage()
    if not names:
        return msg
    translations, quaternions = transform_to_quaternion(np.stack([transforms[n] for n in names]))
    stamp = time_to_msg(stamp_ns)
    msg.transforms = [
        _transform_msg(frame_prefix + edges[name][0], frame_prefix + edges[name][1],
                       xyz, xyzw, stamp)
        for name, xyz, xyzw in zip(names, translations.tolist(), quaternions.tolist())]
    return msg


class TfMessageBuilder:
    """
    ``tf2_msgs/TFMessage`` of a TF broadcaster's moving joints, message after message.

    The message of each set of joints is made once and each call writes only its stamp,
    translations and rotations into it: publish it before the next call. One thread only.

    :param edges: ``{joint: (parent link, child link)}``.
    :param frame_prefix: Put before every frame id.
    """

    _CACHE = 16  # a topic carries few distinct name lists

    def __init__(self, edges: Mapping[str, Edge], frame_prefix: str = '') -> None:
        self._edges = edges
        self._prefix = frame_prefix
        self._made: dict[tuple[str, ...], TFMessage] = {}

    def build(self, joints: tuple[str, ...], translation: FloatArray, quaternion: FloatArray,
              stamp_ns: int) -> TFMessage:
        """
        The transforms of ``joints``: (J, 3) translations in m, (J, 4) ``(x, y, z, w)``.

        :return: One message of J transforms, stamped ``stamp_ns`` (reused by the next call).
        """
        made = self._made.get(joints)
        if made is None:
            if len(self._made) >= self._CACHE:
                self._made.clear()
            prefix, stamp = self._prefix, time_to_msg(0)
            made = TFMessage(transforms=[
                _transform_msg(prefix + self._edges[name][0], prefix + self._edges[name][1],
                               (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), stamp)
                for name in joints])
            self._made[joints] = made
        stamp = time_to_msg(stamp_ns)
        for transform, (x, y, z), (qx, qy, qz, qw) in zip(made.transforms, translation.tolist(),
                                                          quaternion.tolist()):
            transform.header.stamp = stamp
            moved, turned = transform.transform.translation, transform.transform.rotation
            moved.x, moved.y, moved.z = x, y, z
            turned.x, turned.y, turned.z, turned.w = qx, qy, qz, qw
        return made


# -- diagnostics -------------------------------------------------------------------------------
_LEVELS = {Severity.ERROR: DiagnosticStatus.ERROR, Severity.WARNING: DiagnosticStatus.WARN,
           Severity.INFO: DiagnosticStatus.OK}


def diagnostics_msg(name: str, hardware_id: str, findings: Iterable[Finding], summary: str,
                    stamp_ns: int, failed: bool = False) -> DiagnosticArray:
    """
    ``diagnostic_msgs/DiagnosticArray`` with one status: a check report.

    The level is the worst finding's (ERROR when ``failed``). Each finding is one key/value:
    ``severity[code] element`` -> ``file:line: message (fix: ...)``.

    :param hardware_id: The robot's name.
    :param summary: The status message (what was published, how many findings).
    :param stamp_ns: Header stamp, integer nanoseconds.
    :param failed: The description could not be used at all (load error).
    """
    status = DiagnosticStatus()
    status.name = name
    status.hardware_id = hardware_id
    status.message = summary
    level = DiagnosticStatus.ERROR if failed else DiagnosticStatus.OK
    values = []
    for finding in findings:
        candidate = _LEVELS[finding.severity]
        if candidate[0] > level[0]:
            level = candidate
        where = f'{finding.location}: ' if finding.location is not None else ''
        fix = f' (fix: {finding.fix})' if finding.fix else ''
        values.append(KeyValue(key=f'{finding.severity.value}[{finding.code}] {finding.element}',
                               value=f'{where}{finding.message}{fix}'))
    status.level = level
    status.values = values
    msg = DiagnosticArray()
    msg.header.stamp = time_to_msg(stamp_ns)
    msg.status = [status]
    return msg
