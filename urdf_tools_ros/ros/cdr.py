"""
Serialized (CDR) ``sensor_msgs/JointState`` and ``tf2_msgs/TFMessage`` without Python messages.

The fast path of the high-rate topics: :class:`JointStateDecoder` reads a ``joint_states``
message taken raw from a subscription, :class:`TfEncoder` writes ``/tf`` messages as bytes
(``Publisher.publish`` accepts them as they are: rmw ``publish_serialized_message``). Both are
checked against ``rclpy.serialization`` by ``test/test_cdr.py``.

Format: OMG DDS-XTypes 1.3, section 7.4 (Data Representation), extended CDR version 1 (XCDR1,
"PLAIN_CDR"), as Fast DDS and Cyclone DDS serialize ROS 2 messages:

* a 4-byte encapsulation header: representation identifier ``0x00 0x01`` (CDR, little
  endian), then two option bytes (written ``0x00 0x00``, ignored when read);
* every primitive aligned to its own size (4 for ``int32``/``uint32``, 8 for ``float64``),
  counted from the start of the payload, i.e. from the end of the encapsulation header;
  padding is written as zero bytes;
* a ``string`` is a ``uint32`` length that counts the terminating NUL, the UTF-8 bytes, NUL;
* a sequence is a ``uint32`` element count and the elements (no alignment when it is empty);
* a ``builtin_interfaces/Time`` is ``int32 sec, uint32 nanosec``.

This module reads and writes message fields in their serialized form only;
:mod:`~urdf_tools_ros.ros.conversions` re-exports it next to the conversions of message objects.
"""

from __future__ import annotations

from collections.abc import Mapping
import struct

import numpy as np
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState

from ..core.kinematics.transforms import FloatArray, transform_to_quaternion

__all__ = ['CDR_LE', 'Edge', 'JointStateDecoder', 'TfEncoder']

_NS = 1_000_000_000
_UINT32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')

#: Encapsulation identifier of XCDR1 little endian, the first two bytes of a serialized message.
CDR_LE = b'\x00\x01'

#: A joint's frames: ``(parent link, child link)``; its transform is ``T_parent_child``.
Edge = tuple[str, str]


class JointStateDecoder:
    """
    Stamp, names and positions of a serialized ``sensor_msgs/JointState`` (a raw subscription).

    Reads XCDR1 little endian (see the module docstring) directly: the header stamp, the
    ``name`` sequence and the ``position`` doubles; ``velocity`` and ``effort`` are not read.
    A topic repeats the same names, so the bytes of the last ``name`` sequence are kept and a
    message carrying the same bytes reuses its names without decoding them. Any other encoding
    (first two bytes other than :data:`CDR_LE`) goes through ``rclpy.serialization``.
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
        :raises ValueError, struct.error: if ``data`` starts with :data:`CDR_LE` and is not a
            serialized JointState (truncated, a length past the end, a name that is not UTF-8).
        :raises RuntimeError: if ``data`` has another encoding and ``rclpy.serialization``
            cannot deserialize it (rclpy's ``RMWError``).
        """
        if data[:2] != CDR_LE:
            return _decode_with_rclpy(data)
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


def _decode_with_rclpy(data: bytes) -> tuple[int, tuple[str, ...], FloatArray]:
    """:meth:`JointStateDecoder.decode` of an encoding it does not read itself."""
    msg = deserialize_message(data, JointState)
    stamp_ns = int(msg.header.stamp.sec) * _NS + int(msg.header.stamp.nanosec)
    return stamp_ns, tuple(msg.name), np.array(msg.position, dtype=np.float64)


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
    and then only the stamps, translations and rotations are written, instead of building a
    Python message of every transform and converting it (``bench/bench_tf_node.py`` measures
    the node).

    Format: XCDR1 little endian (encapsulation ``00 01 00 00``, see the module docstring).

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
        parts = [CDR_LE + b'\x00\x00', struct.pack('<I', len(names))]
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
            :meth:`~urdf_tools_ros.core.kinematics.forward.KinematicModel.joint_transform_arrays`
            gives them (finite; not checked here).
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
