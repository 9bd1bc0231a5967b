"""
The CDR fast path against ``rclpy.serialization``: same values, same bytes, clean failures.

:class:`~urdf_tools_ros.ros.cdr.JointStateDecoder` must read what rclpy's own deserializer
reads, :class:`~urdf_tools_ros.ros.cdr.TfEncoder` must write what rclpy's serializer writes, and
bytes that are not a serialized message must end in the decoder's documented errors.

rmw_fastrtps leaves CDR padding bytes uninitialized (``serialize_message`` of one JointState can
differ between calls at those bytes) and sizes a JointState buffer by its estimate (up to 8
trailing bytes after the message). The byte comparison therefore also uses :class:`_CdrWriter`,
the test's own writer of the format, which knows where its padding is.
"""

from __future__ import annotations

import struct

from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest

from conftest import missing
from urdf_tools_ros.core.kinematics.transforms import transform_from_quaternion

ROS_MISSING = missing('rclpy', 'geometry_msgs.msg', 'sensor_msgs.msg', 'tf2_msgs.msg')
pytestmark = [pytest.mark.ros,
              pytest.mark.skipif(ROS_MISSING is not None, reason=str(ROS_MISSING))]
if ROS_MISSING is None:
    from geometry_msgs.msg import TransformStamped
    from rclpy.serialization import deserialize_message, serialize_message
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage

    from urdf_tools_ros.ros import conversions
    from urdf_tools_ros.ros.cdr import CDR_LE, JointStateDecoder, TfEncoder

NS = 1_000_000_000
#: What :meth:`JointStateDecoder.decode` may raise (RuntimeError: rclpy's RMWError).
DECODE_ERRORS = (ValueError, struct.error, RuntimeError)

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Any Unicode but surrogates (not UTF-8 encodable, rclpy refuses them); NUL included: rclpy
# cuts a string at its first NUL, the decoder must read what was serialized.
any_text = st.text(st.characters(exclude_categories=['Cs']), max_size=12)
# Frame names: no NUL (XML has none, and the encoder writes a name as given).
frame_text = st.text(st.characters(exclude_categories=['Cs'], exclude_characters='\x00'),
                     max_size=12)
odd_names = st.sampled_from(['', 'joint_1', 'a b', 'é', '日本', '🤖', 'x' * 41, 'tab\there'])
any_float = st.floats(allow_nan=True, allow_infinity=True)
values = st.lists(any_float, max_size=7)
sec_int32 = st.integers(-2**31, 2**31 - 1)
nanosec_uint32 = st.integers(0, 2**32 - 1)


@st.composite
def joint_states(draw: st.DrawFn, names: st.SearchStrategy[list[str]] | None = None
                 ) -> JointState:
    msg = JointState()
    msg.header.stamp.sec = draw(sec_int32)
    msg.header.stamp.nanosec = draw(nanosec_uint32)
    msg.header.frame_id = draw(st.one_of(st.just(''), any_text))
    msg.name = draw(names if names is not None
                    else st.lists(st.one_of(odd_names, any_text), max_size=7))
    msg.position = draw(values)
    msg.velocity = draw(values)
    msg.effort = draw(values)
    return msg


def expected(msg: JointState) -> tuple[int, tuple[str, ...], np.ndarray]:
    """What rclpy reads back from ``msg``'s bytes: stamp ns, names, positions."""
    back = deserialize_message(serialize_message(msg), JointState)
    return (back.header.stamp.sec * NS + back.header.stamp.nanosec, tuple(back.name),
            np.array(back.position, dtype=np.float64))


def assert_same(decoded: tuple[int, tuple[str, ...], np.ndarray],
                reference: tuple[int, tuple[str, ...], np.ndarray]) -> None:
    stamp_ns, names, positions = decoded
    assert stamp_ns == reference[0]
    assert names == reference[1]
    assert all(type(name) is str for name in names)
    assert positions.dtype == np.float64 and positions.shape == reference[2].shape
    # NaN-aware and bit-exact (keeps -0.0 and NaN payloads apart)
    assert positions.tobytes() == reference[2].tobytes()


# -- (a) JointStateDecoder == deserialize_message ----------------------------------------------
@SETTINGS
@given(joint_states())
def test_decoder_reads_what_rclpy_reads(msg: JointState) -> None:
    data = serialize_message(msg)
    assert data[:2] == CDR_LE
    assert_same(JointStateDecoder().decode(data), expected(msg))


@SETTINGS
@given(st.lists(joint_states(names=st.sampled_from(
    [[], ['a'], ['a', 'b'], ['b', 'a'], ['ab'], ['é', '']])), min_size=2, max_size=6))
def test_decoder_reusing_names_reads_each_message_as_a_fresh_one(
        messages: list[JointState]) -> None:
    decoder = JointStateDecoder()
    for msg in messages:
        data = serialize_message(msg)
        assert_same(decoder.decode(data), JointStateDecoder().decode(data))
        assert_same(decoder.decode(data), expected(msg))


@SETTINGS
@given(joint_states())
def test_decoder_reads_big_endian_through_rclpy(msg: JointState) -> None:
    """Another encoding (CDR big endian, ``00 00``) falls back to ``deserialize_message``."""
    writer = _CdrWriter('>')
    writer.joint_state(msg)
    data = writer.data()
    assert data[:2] == b'\x00\x00'
    assert_same(JointStateDecoder().decode(data), expected(msg))


def test_decoder_positions_are_a_copy() -> None:
    msg = JointState(name=['a'], position=[1.0])
    positions = JointStateDecoder().decode(serialize_message(msg))[2]
    assert positions.flags.writeable and positions.flags.owndata


# -- (b) TfEncoder == serialize_message ----------------------------------------------------------
@st.composite
def tf_cases(draw: st.DrawFn) -> tuple[dict[str, tuple[str, str]], str, tuple[str, ...],
                                       np.ndarray, np.ndarray, int]:
    edges = draw(st.dictionaries(frame_text, st.tuples(frame_text, frame_text), max_size=6))
    joints = tuple(draw(st.permutations(sorted(edges))))[:draw(st.integers(0, len(edges)))]
    finite = st.floats(allow_nan=False, allow_infinity=False)
    translation = np.array(draw(st.lists(st.tuples(finite, finite, finite),
                                         min_size=len(joints), max_size=len(joints))),
                           dtype=np.float64).reshape(-1, 3)
    quaternion = np.array(draw(st.lists(st.tuples(finite, finite, finite, finite),
                                        min_size=len(joints), max_size=len(joints))),
                          dtype=np.float64).reshape(-1, 4)
    stamp_ns = draw(st.integers(-2**31 * NS, 2**31 * NS - 1))
    return edges, draw(frame_text), joints, translation, quaternion, stamp_ns


def tf_msg(edges: dict[str, tuple[str, str]], prefix: str, joints: tuple[str, ...],
           translation: np.ndarray, quaternion: np.ndarray, stamp_ns: int) -> TFMessage:
    sec, nanosec = divmod(stamp_ns, NS)
    transforms = []
    for joint, t, q in zip(joints, translation.tolist(), quaternion.tolist()):
        transform = TransformStamped()
        transform.header.stamp.sec, transform.header.stamp.nanosec = sec, nanosec
        transform.header.frame_id = prefix + edges[joint][0]
        transform.child_frame_id = prefix + edges[joint][1]
        v, r = transform.transform.translation, transform.transform.rotation
        v.x, v.y, v.z = t
        r.x, r.y, r.z, r.w = q
        transforms.append(transform)
    return TFMessage(transforms=transforms)


@SETTINGS
@given(tf_cases())
def test_encoder_writes_what_rclpy_reads_back(case: tuple) -> None:
    edges, prefix, joints, translation, quaternion, stamp_ns = case
    data = TfEncoder(edges, prefix).encode_arrays(joints, translation, quaternion, stamp_ns)
    back = deserialize_message(data, TFMessage)
    assert len(back.transforms) == len(joints)
    sec, nanosec = divmod(stamp_ns, NS)
    for transform, joint, t, q in zip(back.transforms, joints, translation, quaternion):
        assert transform.header.frame_id == prefix + edges[joint][0]
        assert transform.child_frame_id == prefix + edges[joint][1]
        assert (transform.header.stamp.sec, transform.header.stamp.nanosec) == (sec, nanosec)
        v, r = transform.transform.translation, transform.transform.rotation
        assert np.array([v.x, v.y, v.z]).tobytes() == t.tobytes()
        assert np.array([r.x, r.y, r.z, r.w]).tobytes() == q.tobytes()


@SETTINGS
@given(tf_cases())
def test_encoder_bytes_equal_serialize_message(case: tuple) -> None:
    edges, prefix, joints, translation, quaternion, stamp_ns = case
    encoder = TfEncoder(edges, prefix)
    data = encoder.encode_arrays(joints, translation, quaternion, stamp_ns)
    msg = tf_msg(*case)
    writer = _CdrWriter('<')
    writer.tf_message(msg)
    assert data == writer.data()  # the format as specified, zero padding
    reference = serialize_message(msg)
    assert len(reference) == len(data)
    differ = [i for i, (a, b) in enumerate(zip(data, reference)) if a != b]
    assert set(differ) <= writer.padding  # rmw_fastrtps: padding is uninitialized memory
    # a second set of joints on the same encoder (its layout cache), then the first again
    assert encoder.encode_arrays(joints[::-1], translation[::-1], quaternion[::-1],
                                 stamp_ns) == TfEncoder(edges, prefix).encode_arrays(
        joints[::-1], translation[::-1], quaternion[::-1], stamp_ns)
    assert encoder.encode_arrays(joints, translation, quaternion, stamp_ns) == data


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-10, 10), st.floats(-10, 10), st.floats(-10, 10),
                          st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1),
                          st.floats(0.5, 1)), max_size=4),
       st.integers(0, 2**31 * NS - 1))
def test_encode_of_matrices_equals_tf_message(poses: list[tuple[float, ...]],
                                              stamp_ns: int) -> None:
    """:meth:`TfEncoder.encode` and :func:`conversions.tf_message` give the same message."""
    transforms = {f'j{index}': transform_from_quaternion(np.array(pose[:3]), np.array(pose[3:]))
                  for index, pose in enumerate(poses)}
    edges = {joint: (f'p_{joint}', f'c_{joint}') for joint in transforms}
    data = TfEncoder(edges, 'r/').encode(transforms, stamp_ns)
    reference = conversions.tf_message(transforms, edges, stamp_ns, 'r/')
    assert deserialize_message(data, TFMessage) == reference


def test_encoder_of_no_joints_is_an_empty_tf_message() -> None:
    data = TfEncoder({'j': ('a', 'b')}).encode({}, 0)
    assert data == serialize_message(TFMessage()) == b'\x00\x01\x00\x00\x00\x00\x00\x00'


def test_encoder_raises_key_error_for_a_joint_without_edge() -> None:
    with pytest.raises(KeyError):
        TfEncoder({'j': ('a', 'b')}).encode_arrays(('k',), np.zeros((1, 3)),
                                                   np.array([[0.0, 0.0, 0.0, 1.0]]), 0)


# -- (c) malformed bytes -------------------------------------------------------------------------
def decode_or_error(decoder: JointStateDecoder, data: bytes) -> object:
    """The decoder's result, or the documented exception it raised; anything else fails."""
    try:
        stamp_ns, names, positions = decoder.decode(data)
    except DECODE_ERRORS as exc:
        return exc
    assert isinstance(stamp_ns, int) and isinstance(names, tuple)
    assert all(type(name) is str for name in names)
    assert positions.dtype == np.float64 and positions.ndim == 1
    return stamp_ns, names, positions


@SETTINGS
@given(joint_states(), st.data())
def test_truncated_message_raises_or_reads_the_whole_one(msg: JointState,
                                                         data: st.DataObject) -> None:
    """
    A prefix raises a documented error, or gives the full message's values.

    The decoder reads up to the last position and no further, so a message cut in
    ``velocity`` or ``effort`` still decodes. A prefix shorter than the 2 encapsulation bytes
    goes to rclpy, which raises.
    """
    full = serialize_message(msg)
    cut = data.draw(st.integers(0, len(full) - 1))
    reference = expected(msg)
    for decoder in (JointStateDecoder(), _primed(full)):
        result = decode_or_error(decoder, full[:cut])
        if isinstance(result, tuple):
            assert_same(result, reference)
    if cut < 2:
        with pytest.raises(RuntimeError):
            JointStateDecoder().decode(full[:cut])


def _primed(data: bytes) -> JointStateDecoder:
    """A decoder that has read ``data`` (it keeps that message's names)."""
    decoder = JointStateDecoder()
    decoder.decode(data)
    return decoder


@SETTINGS
@given(joint_states(), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                min_size=1, max_size=4))
def test_corrupted_message_raises_only_documented_errors(
        msg: JointState, changes: list[tuple[int, int]]) -> None:
    full = serialize_message(msg)
    corrupted = bytearray(full)
    for position, value in changes:
        corrupted[position % len(corrupted)] = value
    for decoder in (JointStateDecoder(), _primed(full)):
        decode_or_error(decoder, bytes(corrupted))


@SETTINGS
@given(st.one_of(st.binary(max_size=80).map(lambda tail: CDR_LE + tail), st.binary(max_size=80)))
def test_random_bytes_raise_only_documented_errors(data: bytes) -> None:
    decode_or_error(JointStateDecoder(), data)


def test_bad_utf8_name_raises_value_error() -> None:
    data = bytearray(serialize_message(JointState(name=['ab'])))
    data[data.index(b'ab')] = 0xFF
    with pytest.raises(ValueError):
        JointStateDecoder().decode(bytes(data))


def test_zero_length_name_raises_value_error() -> None:
    data = bytearray(serialize_message(JointState(name=['ab'])))
    at = data.index(b'ab') - 4
    data[at:at + 4] = b'\x00\x00\x00\x00'
    with pytest.raises(ValueError, match='bad name length 0'):
        JointStateDecoder().decode(bytes(data))


# -- the test's own CDR writer -------------------------------------------------------------------
class _CdrWriter:
    """
    XCDR1 writer of the two messages, straight from the format (see ``urdf_tools_ros.ros.cdr``).

    Zero padding; :attr:`padding` holds the buffer offsets of the padding bytes.
    """

    def __init__(self, endian: str) -> None:
        self._endian = endian
        self._payload = bytearray()
        self.padding: set[int] = set()

    def data(self) -> bytes:
        header = b'\x00\x01' if self._endian == '<' else b'\x00\x00'
        return header + b'\x00\x00' + bytes(self._payload)

    def _align(self, size: int) -> None:
        pad = -len(self._payload) % size
        self.padding.update(range(len(self._payload) + 4, len(self._payload) + 4 + pad))
        self._payload += b'\x00' * pad

    def _put(self, code: str, value: float) -> None:
        size = struct.calcsize(code)
        self._align(size)
        self._payload += struct.pack(self._endian + code, value)

    def _string(self, text: str) -> None:
        encoded = text.encode('utf-8').split(b'\x00')[0] + b'\x00'  # as rosidl: up to a NUL
        self._put('I', len(encoded))
        self._payload += encoded

    def _stamped_header(self, sec: int, nanosec: int, frame_id: str) -> None:
        self._put('i', sec)
        self._put('I', nanosec)
        self._string(frame_id)

    def joint_state(self, msg: JointState) -> None:
        stamp = msg.header.stamp
        self._stamped_header(stamp.sec, stamp.nanosec, msg.header.frame_id)
        self._put('I', len(msg.name))
        for name in msg.name:
            self._string(name)
        for sequence in (msg.position, msg.velocity, msg.effort):
            self._put('I', len(sequence))
            for value in sequence:
                self._put('d', value)

    def tf_message(self, msg: TFMessage) -> None:
        self._put('I', len(msg.transforms))
        for transform in msg.transforms:
            stamp = transform.header.stamp
            self._stamped_header(stamp.sec, stamp.nanosec, transform.header.frame_id)
            self._string(transform.child_frame_id)
            t, q = transform.transform.translation, transform.transform.rotation
            for value in (t.x, t.y, t.z, q.x, q.y, q.z, q.w):
                self._put('d', value)
