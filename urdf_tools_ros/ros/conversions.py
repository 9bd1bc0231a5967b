"""
Messages <-> core types: the only module that reads or writes ROS message objects' fields.

* time stamps: ``builtin_interfaces/Time`` <-> integer nanoseconds;
* ``std_msgs/String`` <-> the description's XML;
* ``sensor_msgs/JointState`` <-> :class:`~urdf_tools_ros.core.joint_state.table.JointStateSample`;
* ``T_parent_child`` (4, 4) transforms -> ``geometry_msgs/TransformStamped`` and
  ``tf2_msgs/TFMessage``, as message objects or as serialized bytes (:class:`TfSerializer`);
* findings -> ``diagnostic_msgs/DiagnosticArray``.

Quaternions are ``(x, y, z, w)`` from
:func:`~urdf_tools_ros.core.transforms.transform_to_quaternion`, which refuses NaN and
inf (:class:`~urdf_tools_ros.core.errors.TransformError`): no conversion here writes a non-finite
transform.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
import re
import struct

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped
import numpy as np
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from ..core.findings import Finding, Severity
from ..core.joint_state.table import JointStateSample
from ..core.transforms import FloatArray, transform_to_quaternion

__all__ = ['Edge', 'description_from_msg', 'description_to_msg',
           'diagnostics_msg', 'joint_state_from_msg', 'joint_state_to_msg', 'tf_message',
           'time_from_msg', 'time_to_msg',
           'TfSerializer', 'TransformsBuilder']

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
    """
    Stamp (integer nanoseconds) and lists of a received ``sensor_msgs/JointState``.

    The lists are taken as they are: their lengths may differ from ``name`` and values may be
    NaN (the core refuses those per joint, see
    :meth:`~urdf_tools_ros.core.joint_state.table.JointStateTable.merge`).
    """
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


class TransformsBuilder:
    """
    ``geometry_msgs/TransformStamped`` lists for known joints, for tf2_ros' broadcaster.

    A TF broadcaster sends the same joints again and again, so the messages of each set of
    joints are made once (frame ids with the prefix) and only their stamp, translation and
    rotation are written per call. The list is
    reused: publish it before the next call (``TransformBroadcaster.sendTransform`` serializes
    at once). One thread only.

    :param edges: ``{joint: (parent link, child link)}``.
    :param frame_prefix: Put before every frame id.
    """

    _CACHE = 16  # a topic carries few distinct name lists

    def __init__(self, edges: Mapping[str, Edge], frame_prefix: str = '') -> None:
        self._edges = edges
        self._prefix = frame_prefix
        self._made: dict[tuple[str, ...], list[TransformStamped]] = {}

    def build(self, joints: tuple[str, ...], translation: FloatArray, quaternion: FloatArray,
              stamp_ns: int) -> list[TransformStamped]:
        """
        The transforms of ``joints``: (J, 3) translations in m, (J, 4) ``(x, y, z, w)``.

        :return: A list of J TransformStamped, stamped ``stamp_ns`` (reused by the next call).
        """
        made = self._made.get(joints)
        if made is None:
            if len(self._made) >= self._CACHE:
                self._made.clear()
            prefix, stamp = self._prefix, time_to_msg(0)
            made = [_transform_msg(prefix + self._edges[name][0], prefix + self._edges[name][1],
                                   (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), stamp)
                    for name in joints]
            self._made[joints] = made
        stamp = time_to_msg(stamp_ns)
        for transform, (x, y, z), (qx, qy, qz, qw) in zip(made, translation.tolist(),
                                                          quaternion.tolist()):
            transform.header.stamp = stamp
            moved, turned = transform.transform.translation, transform.transform.rotation
            moved.x, moved.y, moved.z = x, y, z
            turned.x, turned.y, turned.z, turned.w = qx, qy, qz, qw
        return made


@dataclass(frozen=True)
class _Layout:
    """Where one joint set's serialized TFMessage holds its numbers (:class:`TfSerializer`)."""

    template: bytes
    numbers_at: int  # byte offset of the float64 view the translations and rotations are in
    numbers: np.ndarray  # (J, 7) indices in it: x, y, z, qx, qy, qz, qw
    words_at: int  # byte offset of the uint32 view the stamps are in
    seconds: np.ndarray  # (J,) indices in it of each stamp's sec (its nanosec follows)


class TfSerializer:
    """
    ``tf2_msgs/TFMessage`` of known joints as serialized bytes, for ``Publisher.publish(bytes)``.

    Publishing a message object costs rclpy a conversion of every field from Python (about
    160 µs for talos' 44 moving joints, more than forward kinematics and everything else a TF
    broadcaster does per ``joint_states`` message: ``bench/bench_tf_node.py``). So the message
    of each set of joints is serialized once, by rclpy's ``serialize_message`` (the middleware's
    own serialization), with a distinct sentinel in each stamp and number; where each sentinel
    lies in the bytes is where each call writes its stamp, translations and rotations (a copy
    of those bytes, with numpy). A layout is used only once a message written that way has been
    deserialized by rclpy into exactly the transforms :class:`TransformsBuilder` makes of the
    same numbers; for a serialization that does not hold them as plain little-endian values
    (a sentinel found other than once, or a mismatch) :meth:`serialize` returns ``None`` and the
    caller publishes message objects, made by :attr:`builder`. One thread only.

    :param edges: ``{joint: (parent link, child link)}``.
    :param frame_prefix: Put before every frame id.
    :ivar builder: The message objects of the same joints and frames.
    """

    _CACHE = 16  # a topic carries few distinct name lists
    _SENTINEL_STAMP = (1_013_904_223, 732_807_919)  # sec, nanosec
    _CHECK_STAMP_NS = 1_764_000_123_456_789_012

    def __init__(self, edges: Mapping[str, Edge], frame_prefix: str = '') -> None:
        self.builder = TransformsBuilder(edges, frame_prefix)
        self._layouts: dict[tuple[str, ...], _Layout | None] = {}

    def serialize(self, joints: tuple[str, ...], translation: FloatArray, quaternion: FloatArray,
                  stamp_ns: int) -> bytes | None:
        """
        The serialized TFMessage of ``joints``: (J, 3) translations in m, (J, 4) ``(x, y, z, w)``.

        :return: Its bytes, every transform stamped ``stamp_ns``; ``None`` where the
            middleware's serialization cannot be written this way.
        """
        if joints not in self._layouts:
            if len(self._layouts) >= self._CACHE:
                self._layouts.clear()
            self._layouts[joints] = self._layout(joints)
        layout = self._layouts[joints]
        if layout is None:
            return None
        return self._write(layout, translation, quaternion, stamp_ns)

    @staticmethod
    def _write(layout: _Layout, translation: FloatArray, quaternion: FloatArray,
               stamp_ns: int) -> bytes:
        data = bytearray(layout.template)
        numbers = np.frombuffer(data, '<f8', (len(data) - layout.numbers_at) // 8,
                                layout.numbers_at)
        numbers[layout.numbers[:, :3]] = translation
        numbers[layout.numbers[:, 3:]] = quaternion
        words = np.frombuffer(data, '<u4', (len(data) - layout.words_at) // 4, layout.words_at)
        sec, nanosec = divmod(int(stamp_ns), _NS)
        words[layout.seconds] = sec & 0xFFFFFFFF  # int32 in two's complement
        words[layout.seconds + 1] = nanosec
        return bytes(data)

    def _layout(self, joints: tuple[str, ...]) -> _Layout | None:
        count = len(joints)
        if not count:
            return None  # nothing to write in place
        sentinels = 123456.0 + 1.0009765625 * np.arange(count * 7, dtype=np.float64)
        sentinels = sentinels.reshape(count, 7)
        sec, nanosec = self._SENTINEL_STAMP
        template = serialize_message(TFMessage(transforms=self.builder.build(
            joints, sentinels[:, :3], sentinels[:, 3:], sec * _NS + nanosec)))
        offsets = []
        for value in sentinels.ravel().tolist():
            pattern = struct.pack('<d', value)
            if template.count(pattern) != 1:
                return None
            offsets.append(template.find(pattern))
        stamp = struct.pack('<iI', sec, nanosec)
        stamps = [found.start() for found in re.finditer(re.escape(stamp), template)]
        numbers_at, words_at = offsets[0] % 8, stamps[0] % 4 if stamps else 0
        if len(stamps) != count or any(at % 8 != numbers_at for at in offsets) or \
                any(at % 4 != words_at for at in stamps):
            return None
        layout = _Layout(template, numbers_at,
                         ((np.array(offsets) - numbers_at) // 8).reshape(count, 7),
                         words_at, (np.array(stamps, dtype=np.int64) - words_at) // 4)
        check = np.random.default_rng(count).uniform(-2.0, 2.0, (count, 7))
        written = self._write(layout, check[:, :3], check[:, 3:], self._CHECK_STAMP_NS)
        expected = self.builder.build(joints, check[:, :3], check[:, 3:], self._CHECK_STAMP_NS)
        if list(deserialize_message(written, TFMessage).transforms) != expected:
            return None
        return layout


# -- diagnostics -------------------------------------------------------------------------------
_LEVELS = {Severity.ERROR: DiagnosticStatus.ERROR, Severity.WARNING: DiagnosticStatus.WARN,
           Severity.INFO: DiagnosticStatus.OK}


def diagnostics_msg(name: str, hardware_id: str, findings: Iterable[Finding], summary: str,
                    stamp_ns: int, failed: bool = False) -> DiagnosticArray:
    """
    ``diagnostic_msgs/DiagnosticArray`` with one status: a check report.

    The level is ERROR when ``failed`` or some finding is an error, WARN when some finding is a
    warning, else OK. Each finding is one key/value: ``severity[code] element`` ->
    ``file:line: message (fix: ...)``.

    :param name: Status name, e.g. ``robot_description: sample_robot``.
    :param hardware_id: The robot's name.
    :param findings: The check report.
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
