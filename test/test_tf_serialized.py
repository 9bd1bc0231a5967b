"""
``/tf`` as serialized bytes (``ros/conversions.TfSerializer``, ``ros/tf_writer.TfSender``).

The bytes written in place must be what rclpy's own ``serialize_message`` makes of the same
transforms (as long, and read back by rclpy into the same messages, every float exact; the
padding bytes are not compared: Fast CDR leaves them as it finds them), for every frame-id
length (CDR pads strings to 4 and doubles to 8 bytes), joint set and stamp (the whole int32
range of seconds), on real robots; where the middleware's serialization cannot be written in
place the transforms still go out, as message objects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from ros_helpers import MIMIC_URDF, requires_ros, ROS_MISSING

from conftest import SAMPLE_ROBOT, SHARED_MODELS
from urdf_tools_ros.core.source.loader import load, load_string
from urdf_tools_ros.core.tf.broadcast import TfFrames

if ROS_MISSING is None:
    from rclpy.serialization import deserialize_message, serialize_message
    from tf2_msgs.msg import TFMessage

    from urdf_tools_ros.ros import conversions
    from urdf_tools_ros.ros.tf_writer import TfSender

pytestmark = requires_ros

ROBOTS = [SHARED_MODELS / 'talos_full_v2.urdf', SHARED_MODELS / 'panda.urdf', SAMPLE_ROBOT]
STAMPS = [0, 1, 1_764_000_000_123_456_789, -1_500_000_001, -2**31 * 10**9,
          (2**31 - 1) * 10**9 + 999_999_999]  # int32 sec: the whole range


def moved(frames: TfFrames, rng: np.random.Generator, count: int | None = None) -> Any:
    """Transforms of ``count`` (all when ``None``) moving joints of ``frames`` at random."""
    names = tuple(frames.moving)[:count]
    return frames.moving_transforms(names, rng.uniform(-1.5, 1.5, len(names)))


@pytest.mark.parametrize('path', ROBOTS, ids=lambda path: path.stem)
def test_the_bytes_are_rclpys_own_serialization_of_the_same_transforms(path: Any) -> None:
    frames = TfFrames(load(path))
    rng = np.random.default_rng(7)
    for prefix in ('', 'a', 'ab/', 'abc/', 'robot_7/'):  # every string padding
        serializer = conversions.TfSerializer(frames.edges, prefix)
        builder = conversions.TransformsBuilder(frames.edges, prefix)
        for stamp in STAMPS:
            transforms = moved(frames, rng)
            data = serializer.serialize(transforms.joints, transforms.translation,
                                        transforms.quaternion, stamp)
            expected = builder.build(transforms.joints, transforms.translation,
                                     transforms.quaternion, stamp)
            assert data is not None
            assert len(data) == len(serialize_message(TFMessage(transforms=expected)))
            assert list(deserialize_message(data, TFMessage).transforms) == expected, \
                (prefix, stamp)


def test_each_set_of_joints_has_its_own_layout() -> None:
    frames = TfFrames(load_string(MIMIC_URDF, 'mimic.urdf'))
    serializer = conversions.TfSerializer(frames.edges)
    builder = conversions.TransformsBuilder(frames.edges)
    rng = np.random.default_rng(3)
    for count in (None, 1, 2, None, 1):  # alternating sets, each served from its own layout
        transforms = moved(frames, rng, count)
        data = serializer.serialize(transforms.joints, transforms.translation,
                                    transforms.quaternion, 42)
        assert data is not None
        assert list(deserialize_message(data, TFMessage).transforms) == builder.build(
            transforms.joints, transforms.translation, transforms.quaternion, 42)
    # no joints: nothing to write in place (the caller's message objects say it)
    assert serializer.serialize((), np.zeros((0, 3)), np.zeros((0, 4)), 42) is None


class _Writer:
    """A /tf writer without a publisher of its own: only ``sendTransform``."""

    def __init__(self) -> None:
        self.sent: list[list[Any]] = []

    def sendTransform(self, transform: Any) -> None:  # noqa: N802 - tf2_ros' name
        self.sent.append(list(transform))


def test_what_cannot_be_written_in_place_goes_out_as_messages(monkeypatch: Any) -> None:
    frames = TfFrames(load(SAMPLE_ROBOT))
    transforms = moved(frames, np.random.default_rng(5))
    # a serialization that does not hold the numbers as little-endian values (bytes reversed)
    monkeypatch.setattr(conversions, 'serialize_message',
                        lambda message: serialize_message(message)[::-1])
    serializer = conversions.TfSerializer(frames.edges)
    assert serializer.serialize(transforms.joints, transforms.translation,
                                transforms.quaternion, 9) is None
    writer = _Writer()
    TfSender(writer, frames.edges, 'p/').send(transforms.joints, transforms.translation,
                                              transforms.quaternion, 9)
    assert writer.sent == [conversions.TransformsBuilder(frames.edges, 'p/').build(
        transforms.joints, transforms.translation, transforms.quaternion, 9)]
