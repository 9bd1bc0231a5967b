"""TfFrames (which joints a joint_states message moves, their transforms) and TfThrottle."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import REPO
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load, load_string, RobotDescription
from urdf_tools_ros.core.tf.broadcast import TfFrames, TfThrottle
from urdf_tools_ros.core.transforms import transform_to_quaternion

ALL_JOINT_TYPES = REPO / 'test' / 'urdf' / 'kinematics' / 'all_joint_types.urdf'


@pytest.fixture(scope='module')
def description() -> RobotDescription:
    return load(ALL_JOINT_TYPES)


@pytest.fixture
def frames(description: RobotDescription) -> TfFrames:
    return TfFrames(description)


def reference(description: RobotDescription, positions: dict[str, float],
              joints: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Translation and quaternion of ``joints`` from the matrix path."""
    transforms = KinematicModel(description.robot).joint_transforms(positions)
    return transform_to_quaternion(np.stack([transforms[joint] for joint in joints]))


def test_moving_and_edges(frames: TfFrames) -> None:
    assert frames.moving == tuple(frames.model.joint_transforms())
    assert frames.edges['turn_joint'] == ('base', 'turn')
    assert set(frames.static_transforms()) == {'bolted_joint'}


def test_a_source_moves_its_mimic_chain(frames: TfFrames,
                                        description: RobotDescription) -> None:
    moved = frames.moving_transforms(['turn_joint'], [0.4])
    assert set(moved.joints) == {'turn_joint', 'follower_joint', 'follower2_joint'}
    assert moved.joints == tuple(joint for joint in frames.moving if joint in moved.joints)
    assert moved.problems == ()
    translation, quaternion = reference(description, {'turn_joint': 0.4}, moved.joints)
    np.testing.assert_allclose(moved.translation, translation, atol=1e-12)
    np.testing.assert_allclose(moved.quaternion, quaternion, atol=1e-12)


def without_mimic(description: RobotDescription, *joints: str) -> KinematicModel:
    """The model with the ``<mimic>`` of ``joints`` removed: each an actuated joint of its own."""
    from lxml import etree

    root = etree.fromstring(description.xml.encode())
    for joint in joints:
        (element,) = root.findall(f'joint[@name="{joint}"]')
        element.remove(element.find('mimic'))
    return KinematicModel(load_string(etree.tostring(root).decode(), 'demimicked.urdf').robot)


def test_a_measured_mimic_joint_is_published_at_its_measured_value(
        frames: TfFrames, description: RobotDescription) -> None:
    """robot_state_publisher takes a mimic joint the message carries as measured."""
    moved = frames.moving_transforms(['follower_joint', 'other_robot_joint', 'bolted_joint'],
                                     [0.7, 1.0, 2.0])
    assert moved.joints == ('follower_joint',) and moved.problems == ()
    expected = without_mimic(description, 'follower_joint').joint_transforms(
        {'follower_joint': 0.7})['follower_joint']
    np.testing.assert_allclose(moved.translation[0], expected[:3, 3], atol=1e-12)
    np.testing.assert_allclose(moved.quaternion,
                               transform_to_quaternion(expected[None])[1], atol=1e-12)


def test_a_measured_mimic_wins_over_its_source_and_the_rest_follow_the_source(
        frames: TfFrames, description: RobotDescription) -> None:
    moved = frames.moving_transforms(['turn_joint', 'follower_joint'], [0.4, 0.7])
    assert set(moved.joints) == {'turn_joint', 'follower_joint', 'follower2_joint'}
    demimicked = without_mimic(description, 'follower_joint')
    # follower2 follows the source it resolves to (turn_joint: 0.5 * (-2 * 0.4 + 0.1) - 0.2)
    follower2 = 0.5 * (-2 * 0.4 + 0.1) - 0.2
    expected = {**demimicked.joint_transforms({'turn_joint': 0.4, 'follower_joint': 0.7}),
                'follower2_joint': without_mimic(description, 'follower_joint',
                                                 'follower2_joint').joint_transforms(
                    {'follower2_joint': follower2})['follower2_joint']}
    for joint, translation, quaternion in zip(moved.joints, moved.translation,
                                              moved.quaternion):
        np.testing.assert_allclose(translation, expected[joint][:3, 3], atol=1e-12)
        np.testing.assert_allclose(quaternion,
                                   transform_to_quaternion(expected[joint][None])[1][0],
                                   atol=1e-12)


def test_a_non_finite_measured_mimic_is_refused_and_its_source_still_moves_it(
        frames: TfFrames, description: RobotDescription) -> None:
    moved = frames.moving_transforms(['turn_joint', 'follower_joint'], [0.4, float('nan')])
    assert len(moved.problems) == 1 and 'follower_joint' in moved.problems[0]
    translation, quaternion = reference(description, {'turn_joint': 0.4}, moved.joints)
    np.testing.assert_allclose(moved.translation, translation, atol=1e-12)
    np.testing.assert_allclose(moved.quaternion, quaternion, atol=1e-12)
    assert frames.moving_transforms(['follower_joint'], [float('inf')]).joints == ()


def test_unknown_names_and_fixed_joints_are_ignored(frames: TfFrames) -> None:
    moved = frames.moving_transforms(['other_robot_joint', 'bolted_joint'], [1.0, 2.0])
    assert moved.joints == () and moved.problems == ()
    assert moved.translation.shape == (0, 3) and moved.quaternion.shape == (0, 4)


def test_floating_and_planar_move_by_their_variables(frames: TfFrames,
                                                     description: RobotDescription) -> None:
    names = ['free_joint/z', 'free_joint/yaw', 'glide_joint/x']
    moved = frames.moving_transforms(names, np.array([0.5, 1.0, -0.25]))
    assert set(moved.joints) == {'free_joint', 'glide_joint'}
    translation, quaternion = reference(description, dict(zip(names, [0.5, 1.0, -0.25])),
                                        moved.joints)
    np.testing.assert_allclose(moved.translation, translation, atol=1e-12)
    np.testing.assert_allclose(moved.quaternion, quaternion, atol=1e-12)


def test_every_joint_matches_the_matrix_path(frames: TfFrames,
                                             description: RobotDescription) -> None:
    rng = np.random.default_rng(3)
    names = list(frames.model.variable_names)
    for _ in range(10):
        values = rng.uniform(-3.0, 3.0, len(names))
        moved = frames.moving_transforms(tuple(names), tuple(values))
        assert moved.joints == frames.moving
        translation, quaternion = reference(description, dict(zip(names, values)),
                                            moved.joints)
        np.testing.assert_allclose(moved.translation, translation, atol=1e-12)
        np.testing.assert_allclose(moved.quaternion, quaternion, atol=1e-12)


@pytest.mark.parametrize('bad', [float('nan'), float('inf'), -float('inf'), 1e200])
def test_a_bad_value_refuses_only_its_joint(frames: TfFrames, bad: float) -> None:
    moved = frames.moving_transforms(['turn_joint', 'slide_joint'], [bad, 0.01])
    assert moved.joints == ('slide_joint',)
    assert len(moved.problems) == 1 and 'turn_joint' in moved.problems[0]
    assert np.isfinite(moved.translation).all() and np.isfinite(moved.quaternion).all()
    alone = frames.moving_transforms(['turn_joint'], [bad])
    assert alone.joints == () and len(alone.problems) == 1


def test_mismatched_lengths_refuse_the_message(frames: TfFrames) -> None:
    moved = frames.moving_transforms(['turn_joint', 'slide_joint'], [0.1])
    assert moved.joints == ()
    assert moved.problems == ('1 positions for 2 names; message ignored',)


def test_name_order_and_repeated_lists(frames: TfFrames) -> None:
    """Plans are cached per list of names; each order gives the same transforms."""
    first = frames.moving_transforms(['slide_joint', 'turn_joint'], [0.02, 0.3])
    for _ in range(3):
        again = frames.moving_transforms(('turn_joint', 'slide_joint'), (0.3, 0.02))
        assert again.joints == first.joints
        np.testing.assert_array_equal(again.translation, first.translation)
        np.testing.assert_array_equal(again.quaternion, first.quaternion)
    for count in range(40):  # many distinct lists: the cache stays bounded and correct
        names = ['turn_joint'] + [f'unknown_{count}']
        assert frames.moving_transforms(names, [0.3, 0.0]).joints[0] == 'turn_joint'


# -- TfThrottle ------------------------------------------------------------------------------
def test_throttle_by_stamp() -> None:
    throttle = TfThrottle(20.0, False)  # 50 ms
    assert throttle.limits and throttle.interval_ns == 50_000_000
    assert throttle.admit(['a'], 1_000_000_000, 2_000_000_000)
    assert not throttle.admit(['a'], 1_040_000_000, 2_000_000_001)
    assert throttle.admit(['a'], 1_050_000_000, 2_000_000_002)
    assert throttle.admit(['b'], 1_050_000_001, 2_000_000_003)  # b never published
    assert not throttle.admit(['a', 'b'], 1_060_000_000, 2_000_000_004)  # a too recent
    assert throttle.admit(['a'], 60_000_000, 1)  # time ran backwards: start over


def test_throttle_reset_and_no_limit() -> None:
    throttle = TfThrottle(10.0, False)
    assert throttle.admit(['a'], 1_000_000_000, 2_000_000_000)
    assert not throttle.admit(['a'], 1_000_000_001, 2_000_000_001)
    throttle.reset()
    assert throttle.admit(['a'], 1_000_000_001, 2_000_000_002)
    for unlimited in (TfThrottle(0.0, False), TfThrottle(-1.0, False), TfThrottle(10.0, True)):
        assert not unlimited.limits
        assert all(unlimited.admit(['a'], 5, 5) for _ in range(3))
