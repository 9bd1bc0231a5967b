"""The joint-state table: order, defaults, mimic, sweep, merging, refusals and clamping."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import REPO, shared_model
from urdf_tools_ros.core.findings import Finding, Severity
from urdf_tools_ros.core.joint_state.table import (ClampPolicy, JointStateTable, LISTS_MISMATCH,
                                                   NAME_REFUSED, VALUE_REFUSED)
from urdf_tools_ros.core.model.robot import Robot
from urdf_tools_ros.core.source.loader import load, load_string

pytestmark = pytest.mark.portability

ROBOT = (REPO / 'test' / 'urdf' / 'joint_state' / 'table.urdf').read_text()


def robot() -> Robot:
    return load_string(ROBOT).robot


def test_order_defaults_and_mimic() -> None:
    table = JointStateTable(robot())
    assert table.names == ('shoulder', 'finger', 'finger_mimic', 'wheel')
    assert table.joint_names == ('shoulder', 'finger', 'wheel')
    sample = table.sample()
    assert sample.name == table.names
    # finger's range [0.1, 0.3] excludes 0: mid-range; its mimic: -2 * 0.2 + 0.1
    assert sample.position == pytest.approx((0.0, 0.2, -0.3, 0.0))
    assert sample.velocity == () and sample.effort == ()
    table.update('finger', position=0.25, velocity=0.5, effort=3.0)
    sample = table.sample()
    assert sample.position[2] == pytest.approx(-0.4)
    assert sample.velocity == pytest.approx((0.0, 0.5, -1.0, 0.0))
    assert sample.effort == pytest.approx((0.0, 3.0, 3.0, 0.0))
    own = JointStateTable(robot(), use_mimic_tags=False)  # every joint is its own
    assert own.joint_names == own.names and own.update('finger_mimic', position=0.7) == []


def test_default_velocities_efforts_and_zeros() -> None:
    table = JointStateTable(robot(), zeros={'shoulder': 0.5, 'nope': 1.0, 'wheel': math.nan,
                                            'finger_mimic': 0.0},
                            publish_default_velocities=True, publish_default_efforts=True)
    assert table.positions()['shoulder'] == 0.5
    assert [(refusal.code, refusal.element) for refusal in table.refused_zeros] == [
        (NAME_REFUSED, 'joint:nope'), (VALUE_REFUSED, 'joint:wheel'),
        (NAME_REFUSED, 'joint:finger_mimic')]
    sample = table.sample()
    assert sample.velocity == (0.0,) * 4 and sample.effort == (0.0,) * 4
    silent = JointStateTable(robot(), publish_default_positions=False)
    # a robot with mimic joints publishes zeros, as joint_state_publisher 2.4 (an
    # empty list made robot_state_publisher drop the message)
    assert silent.sample().position == (0.0, 0.0, 0.0, 0.0)
    without_mimic = JointStateTable(robot(), publish_default_positions=False,
                                    use_mimic_tags=False)
    assert without_mimic.sample().position == ()
    silent.update('wheel', position=1.0)
    # a mimic joint whose source has no position yet gets 0, as in joint_state_publisher
    assert silent.sample().position == (0.0, 0.0, 0.0, 1.0)


def test_a_joint_of_an_unknown_type_with_a_limit_is_published_as_upstream_does() -> None:
    """joint_state_publisher 2.4 skips only fixed, floating and planar joints."""
    # ball (spherical) has a <limit>, loose (spherical) has none
    table = JointStateTable(load(REPO / 'test/urdf/joint_state/unknown_types.urdf').robot)
    assert table.names == ('ball', 'hinge') and table.unknown_type_joints == ('ball',)
    assert (table.limits['ball'].lower, table.limits['ball'].upper) == (-0.5, 0.7)
    assert not table.limits['ball'].continuous
    assert table.sample().position == (0.0, 0.0)
    assert table.update('ball', position=0.4) == []
    assert table.sample().position == (0.4, 0.0)


def test_delta_sweep_bounces_and_jumps() -> None:
    table = JointStateTable(robot(), use_smallest_joint_limits=False)
    for _ in range(4):
        table.step(0.3)
    positions = table.positions()
    # shoulder: 0.3, 0.6, 0.9, then stops at 1.0 and turns back
    assert positions['shoulder'] == pytest.approx(1.0)
    table.step(0.3)
    assert table.positions()['shoulder'] == pytest.approx(0.7)
    # a continuous wheel only moves forward; past pi it jumps to -pi, as joint_state_publisher
    # 2.4's update() does (not by 2 pi)
    wheel = JointStateTable(robot())
    for _ in range(10):
        wheel.step(0.3)
    assert wheel.positions()['wheel'] == pytest.approx(3.0)
    wheel.step(0.3)
    assert wheel.positions()['wheel'] == -math.pi
    wheel.step(0.3)
    assert wheel.positions()['wheel'] == pytest.approx(0.3 - math.pi)
    table.step(math.nan)
    assert table.positions()['shoulder'] == pytest.approx(0.7)
    narrowed = JointStateTable(robot())  # soft limits narrow the sweep
    for _ in range(3):
        narrowed.step(0.3)
    assert narrowed.positions()['shoulder'] == pytest.approx(0.8)


def test_center_and_seeded_randomize() -> None:
    table = JointStateTable(robot())
    table.randomize(np.random.default_rng(5))
    first = table.positions()
    for name, value in first.items():
        limits = table.limits[name]
        assert limits.slider_lower <= value <= limits.slider_upper
    table.randomize(np.random.default_rng(5))
    assert table.positions() == first
    table.center()
    assert table.positions() == table.defaults


def test_merge_partial_states_with_refusals_per_joint() -> None:
    table = JointStateTable(robot())
    refusals = table.merge(['wheel', 'other_robot_joint', 'finger_mimic', 'shoulder', 'bolt'],
                           position=[1.5, 0.0, 0.0, math.nan, 0.0],
                           velocity=[0.1, 0.2])
    warning = Severity.WARNING
    assert refusals == [
        Finding(LISTS_MISMATCH, warning, 'joint_states',
                'velocity has 2 values for 5 names; velocity ignored'),
        Finding(NAME_REFUSED, warning, 'joint:other_robot_joint', 'unknown joint'),
        Finding(NAME_REFUSED, warning, 'joint:finger_mimic', 'mimic joint: follows "finger"'),
        Finding(VALUE_REFUSED, warning, 'joint:shoulder', 'position nan is not finite'),
        Finding(NAME_REFUSED, warning, 'joint:bolt', 'fixed joint has no position')]
    positions = table.positions()
    assert positions['wheel'] == 1.5 and positions['shoulder'] == 0.0
    assert table.value('wheel', 'velocity') is None
    assert table.merge(['finger'], effort=[2.0]) == []
    assert table.value('finger', 'effort') == 2.0


def test_clamping_policies() -> None:
    none = JointStateTable(robot())
    none.update('shoulder', position=5.0)
    assert none.positions()['shoulder'] == 5.0
    position = JointStateTable(robot(), clamp=ClampPolicy.POSITION)
    position.update('shoulder', position=5.0, velocity=9.0)
    position.update('wheel', position=50.0)
    assert position.positions()['shoulder'] == 0.8       # soft limits narrow the range
    assert position.value('shoulder', 'velocity') == 9.0
    assert position.positions()['wheel'] == 50.0
    safety = JointStateTable(robot(), clamp='safety_controller')  # type: ignore[arg-type]
    safety.update('shoulder', position=0.75, velocity=9.0, effort=-9.0)
    # velocity bounds at 0.75: [-2, -10 (0.75 - 0.8)] = [-2, 0.5]
    assert safety.value('shoulder', 'velocity') == pytest.approx(0.5)
    # effort bounds at v = 0.5: [max(-5, -1 (0.5 + 2)), min(5, -1 (0.5 - 0.5))] = [-2.5, 0]
    assert safety.value('shoulder', 'effort') == pytest.approx(-2.5)
    safety.update('finger', velocity=-7.0)
    assert safety.value('finger', 'velocity') == -2.0


def test_shared_model_tables() -> None:
    table = JointStateTable(load(shared_model('talos_full_v2')).robot)
    assert len(table.names) == 44 and len(table.joint_names) == 32
    sample = table.sample()
    assert len(sample.position) == 44 and all(map(math.isfinite, sample.position))


def test_the_table_lock_makes_calls_from_other_threads_wait() -> None:
    """One lock: while its holder makes a compound change, no other thread reads half of it."""
    import threading

    table = JointStateTable(load(shared_model('panda')).robot)
    name = table.joint_names[0]
    seen: list[float] = []
    reader = threading.Thread(target=lambda: seen.append(table.positions()[name]))
    with table.lock:
        table.update(name, position=0.25)
        reader.start()
        reader.join(timeout=0.3)
        assert reader.is_alive() and seen == []   # waiting for the lock
        table.update(name, position=0.5)
    reader.join(timeout=5.0)
    assert seen == [0.5]                          # never the intermediate 0.25
