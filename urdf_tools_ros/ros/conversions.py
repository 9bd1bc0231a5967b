"""
Messages <-> core types: the only module that reads or writes ROS message fields.

* time stamps: ``builtin_interfaces/Time`` <-> integer nanoseconds;
* ``std_msgs/String`` <-> the description's XML;
* ``sensor_msgs/JointState`` <-> :class:`~urdf_tools_ros.core.joint_state.JointStateSample`;
  :class:`JointStateDecoder` reads the stamp, names and positions straight from the serialized
  form for the high-rate ``joint_states`` path;
* ``T_parent_child`` (4, 4) transforms -> ``geometry_msgs/TransformStamped`` and
  ``tf2_msgs/TFMessage``; :class:`TfEncoder` writes the same message straight to its serialized
  form (CDR bytes, which ``Publisher.publish`` accepts) for the high-rate ``/tf`` path;
* findings -> ``diagnostic_msgs/DiagnosticArray``.

Quaternions are ``(x, y, z, w)`` from
:func:`~urdf_tools_ros.core.transforms.transform_to_quaternion`, which refuses NaN and inf
(:class:`~urdf_tools_ros.core.errors.TransformError`): no conversion here writes a non-finite
transform.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
import struct

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped
import numpy as np
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from ..core.findings import Finding, Severity
from ..core.joint_state import JointStateSample
from ..core.transforms import FloatArray, transform_to_quaternion

__all__ = ['Edge', 'JointStateDecoder', 'TfEncoder', 'description_from_msg', 'description_to_msg',
           'diagnostics_msg', 'joint_state_from_msg', 'joint_state_to_msg', 'tf_message',
           'time_from_msg', 'time_to_msg', 'transform_msg']

_NS = 1_000_000_000

#: A joint's frames: ``(parent link, child link)``; its transform is ``T_parent_child``.
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
    :meth:`~urdf_tools_ros.core.joint_state.JointStateTable.merge`).
    """
    sample = JointStateSample(tuple(msg.name), tuple(msg.position), tuple(msg.velocity),
                              tuple(msg.effort))
    return time_from_msg(msg.header.stamp), sample


_UINT32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')
#: Encapsulation of XCDR1 little endian, as Fast DDS and Cyclone DDS serialize ROS 2 messages.
_CDR_LE = b'\x00\x01'


class JointStateDecoder:
    """
    Stamp, names and positions of a serialized ``sensor_msgs/JointState`` (a raw subscription).

    Reads XCDR1 little endian (see :class:`TfEncoder`) directly: the header stamp, the
    ``name`` sequence and the ``position`` doubles; ``velocity`` and ``effort`` are not read.
    A topic repeats the same names, so the bytes of the last ``name`` sequence are kept and a
    message carrying the same bytes reuses its names without decoding them. Any other encoding
    goes through ``rclpy.serialization``.
    """

    def __init__(self) -> None:
        self._names_start = -1
        self._names_bytes = b''
        self._names: tuple[str, ...] = ()

    def decode(self, data: bytes) -> tuple[int, tuple[str, ...], FloatArray]:
        """
        Decode one message.

        :param data: The serialized message, with its 4-byte encapsulation header.
        :return: Stamp in integer nanoseconds, the names, and the (P,) float64 positions (rad
            or m; P may differ from the number of names, values may be NaN).
        :raises ValueError, struct.error: if ``data`` is not a serialized JointState.
        """
        if data[:2] != _CDR_LE:
            stamp_ns, sample = joint_state_from_msg(deserialize_message(data, JointState))
            return stamp_ns, sample.name, np.array(sample.position, dtype=np.float64)
        sec, nanosec = _STAMP.unpack_from(data, 4)
        start = 16 + _UINT32.unpack_from(data, 12)[0]  # after frame_id (buffer offsets)
        start += -(start - 4) % 4
        names = self._names
        end = start + len(self._names_bytes)
        if start != self._names_start or data[start:end] != self._names_bytes:
            names, end = self._read_names(data, start)
        end += -(end - 4) % 4
        count = _UINT32.unpack_from(data, end)[0]
        end += 4
        end += -(end - 4) % 8
        positions = np.frombuffer(data, '<f8', count, end).astype(np.float64)
        return sec * _NS + nanosec, names, positions

    def _read_names(self, data: bytes, start: int) -> tuple[tuple[str, ...], int]:
        """Decode the ``name`` sequence at buffer offset ``start``; remember its bytes."""
        count = _UINT32.unpack_from(data, start)[0]
        offset = start + 4
        names = []
        for _ in range(count):
            offset += -(offset - 4) % 4
            length = _UINT32.unpack_from(data, offset)[0]
            if length < 1 or offset + 4 + length > len(data):
                raise ValueError(f'JointState: bad name length {length} at byte {offset}')
            names.append(data[offset + 4:offset + 3 + length].decode('utf-8'))
            offset += 4 + length
        self._names_start, self._names_bytes = start, bytes(data[start:offset])
        self._names = tuple(names)
        return self._names, offset


# -- transforms ------------------------------------------------------------------------------
def transform_msg(parent: str, child: str, T_parent_child: FloatArray,
                  stamp_ns: int) -> TransformStamped:
    """
    ``geometry_msgs/TransformStamped`` of ``T_parent_child``: header.frame_id = parent.

    :param T_parent_child: (4, 4) float64 rigid transform; translation in m.
    :raises TransformError: if it holds NaN or inf.
    """
    translation, quaternion = transform_to_quaternion(T_parent_child)
    return _transform_msg(parent, child, translation.tolist(), quaternion.tolist(),
                          time_to_msg(stamp_ns))


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
                       translation, quaternion, stamp)
        for name, translation, quaternion in zip(names, translations.tolist(),
                                                 quaternions.tolist())]
    return msg


def _cdr_string(text: str, offset: int) -> tuple[bytes, int]:
    """CDR of a string at stream offset ``offset`` (4-aligned): length, bytes, NUL, padding."""
    data = text.encode('utf-8') + b'\x00'
    block = struct.pack('<I', len(data)) + data
    block += b'\x00' * (-len(block) % 4)
    return block, offset + len(block)


class TfEncoder:
    """
    Serialize ``tf2_msgs/TFMessage`` for known joints straight to CDR bytes.

    ``Publisher.publish`` takes the bytes as they are (rmw ``publish_serialized_message``). The
    layout is fixed per set of joints (frame names do not change), so each set is laid out once
    and then only the stamps, translations and rotations are written: a few microseconds where
    building the Python message and converting it costs about 10 µs per transform.

    Format: XCDR1 little endian (encapsulation ``00 01 00 00``), offsets aligned relative to
    the end of the encapsulation header, as Fast DDS and Cyclone DDS serialize ROS 2 messages.
    Checked against ``rclpy.serialization`` by the tests.

    :param edges: ``{joint: (parent link, child link)}``.
    :param frame_prefix: Put before every frame id.
    """

    _CACHE_SIZE = 32

    def __init__(self, edges: Mapping[str, Edge], frame_prefix: str = '') -> None:
        self._edges = dict(edges)
        self._prefix = frame_prefix
        self._layouts: dict[tuple[str, ...], tuple[bytes, np.ndarray, np.ndarray]] = {}

    def _layout(self, names: tuple[str, ...]) -> tuple[bytes, np.ndarray, np.ndarray]:
        """Template bytes, indices of (sec, nanosec) as uint32 and of the 7 doubles."""
        layout = self._layouts.get(names)
        if layout is not None:
            return layout
        parts = [b'\x00\x01\x00\x00', struct.pack('<I', len(names))]
        offset = 4  # stream offset, after the encapsulation header
        stamps: list[int] = []
        doubles: list[list[int]] = []
        for name in names:
            parent, child = self._edges[name]
            stamps.append(offset)
            parts.append(b'\x00' * 8)
            offset += 8
            for frame in (self._prefix + parent, self._prefix + child):
                block, offset = _cdr_string(frame, offset)
                parts.append(block)
            pad = -offset % 8
            parts.append(b'\x00' * pad)
            offset += pad
            doubles.append([offset // 8 + index for index in range(7)])
            parts.append(b'\x00' * 56)
            offset += 56
        template = b''.join(parts)
        # Stream offset o is byte o + 4 of the buffer: uint32 index (o + 4) / 4; the doubles
        # are read through a float64 view that starts at byte 4, index o / 8.
        stamp_index = np.array([[(o + 4) // 4, (o + 4) // 4 + 1] for o in stamps], np.intp)
        layout = (template, stamp_index, np.array(doubles, np.intp).reshape(-1, 7))
        if len(self._layouts) >= self._CACHE_SIZE:
            self._layouts.clear()
        self._layouts[names] = layout
        return layout

    def encode(self, transforms: Mapping[str, FloatArray], stamp_ns: int) -> bytes:
        """
        Serialized ``tf2_msgs/TFMessage`` of ``{joint: T_parent_child}``, all stamped ``stamp_ns``.

        :raises TransformError: if a transform holds NaN or inf.
        :raises KeyError: for a joint without an edge.
        """
        names = tuple(transforms)
        if not names:
            return self._layout(names)[0]
        translations, quaternions = transform_to_quaternion(
            np.stack([transforms[name] for name in names]))
        return self.encode_arrays(names, translations, quaternions, stamp_ns)

    def encode_arrays(self, joints: tuple[str, ...], translation: FloatArray,
                      quaternion: FloatArray, stamp_ns: int) -> bytes:
        """
        Serialized ``tf2_msgs/TFMessage`` of joint transforms given as arrays.

        :param joints: The joints, each with an edge.
        :param translation: (J, 3) float64 ``T_parent_child`` translations, m.
        :param quaternion: (J, 4) float64 ``(x, y, z, w)``, as
            :meth:`~urdf_tools_ros.core.kinematics.KinematicModel.joint_transform_arrays` gives
            them (finite; not checked here).
        :param stamp_ns: Stamp of every transform, integer nanoseconds.
        :raises KeyError: for a joint without an edge.
        """
        template, stamp_index, double_index = self._layout(joints)
        if not joints:
            return template
        buffer = bytearray(template)
        words = np.frombuffer(buffer, np.uint32)
        sec, nanosec = divmod(int(stamp_ns), _NS)
        words[stamp_index] = (sec & 0xFFFFFFFF, nanosec)  # int32 sec, two's complement
        values = np.frombuffer(buffer, np.float64, offset=4, count=(len(buffer) - 4) // 8)
        values[double_index[:, :3]] = translation
        values[double_index[:, 3:]] = quaternion
        return bytes(buffer)


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
