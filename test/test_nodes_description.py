"""The robot description node on a real ROS 2 graph: publish, check, watch, parameter set."""

from __future__ import annotations

import os
from pathlib import Path
import time

import pytest

from ros_helpers import (MIMIC_URDF, requires_ros, ros_context, ros_graph,  # noqa: F401
                         ROS_MISSING, RosGraph, settle, wait_for)

from conftest import REPO, SAMPLE_ROBOT, shared_model
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.source.loader import load

if ROS_MISSING is None:
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from rclpy.parameter import Parameter
    from std_msgs.msg import String

    from urdf_tools_ros.nodes.robot_description import RobotDescriptionNode
    from urdf_tools_ros.ros import qos

pytestmark = requires_ros

#: Missing child link: an error of the check (the description still loads).
BROKEN_LINK = MIMIC_URDF.replace('<child link="tool"/>', '<child link="no_such_link"/>')

#: A robot whose one arm is a macro of an included file, its length a xacro argument.
WATCHED = REPO / 'test' / 'urdf' / 'nodes' / 'watched'
MAIN_XACRO = (WATCHED / 'robot.urdf.xacro').read_text()
PART_XACRO = (WATCHED / 'part.xacro').read_text()


def levels(inbox: object) -> list[bytes]:
    return [msg.status[0].level for msg in inbox.messages]  # type: ignore[attr-defined]


def start(ros: RosGraph, **params: object) -> tuple[RobotDescriptionNode, object, object]:
    diagnostics = ros.subscribe(DiagnosticArray, '/diagnostics', qos.DIAGNOSTICS)
    node = ros.add(RobotDescriptionNode, parameters=dict(params))
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    return node, received, diagnostics


def test_sample_robot_reaches_late_joiner_with_report(ros: RosGraph) -> None:
    node, received, diagnostics = start(ros, model=str(SAMPLE_ROBOT), diagnostic_period=0.2)
    assert wait_for(lambda: received.messages)
    assert received.last.data == load(SAMPLE_ROBOT).xml
    late = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert wait_for(lambda: late.messages)
    assert late.last.data == received.last.data
    assert wait_for(lambda: diagnostics.messages)
    status = diagnostics.last.status[0]
    assert status.hardware_id == load(SAMPLE_ROBOT).robot.name
    assert status.level in (DiagnosticStatus.OK, DiagnosticStatus.WARN)
    assert status.message.startswith('published robot')
    assert node.description is not None


def test_errors_refused_unless_allowed(ros: RosGraph) -> None:
    node, received, diagnostics = start(ros, robot_description=BROKEN_LINK)
    assert wait_for(lambda: diagnostics.messages)
    status = diagnostics.last.status[0]
    assert status.level == DiagnosticStatus.ERROR
    assert 'allow_errors is false' in status.message
    assert any('no_such_link' in kv.value for kv in status.values)
    settle()
    assert received.messages == []
    assert node.description is None
    allowed, allowed_received, _ = start(ros, robot_description=BROKEN_LINK, allow_errors=True)
    assert wait_for(lambda: allowed_received.messages)
    assert 'no_such_link' in allowed_received.last.data


@pytest.mark.parametrize('garbage', ['', 'garbage', '<robot name="x"', '<notarobot/>',
                                     '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]>'
                                     '<robot name="&e;"/>', '\x00\x01'])
def test_garbage_at_start_publishes_nothing(ros: RosGraph, garbage: str) -> None:
    node, received, diagnostics = start(ros, robot_description=garbage, diagnostic_period=0.0)
    assert wait_for(lambda: diagnostics.messages)
    assert diagnostics.last.status[0].level == DiagnosticStatus.ERROR
    settle(0.2)
    assert received.messages == []
    assert node.description is None


def start_on(ros: RosGraph, post_set: bool, **params: object
             ) -> tuple[RobotDescriptionNode, object]:
    """Start the node and wait for its description; without ``post_set`` as on Humble."""
    class HumbleDescriptionNode(RobotDescriptionNode):
        add_post_set_parameters_callback = None  # Humble's rclpy: applied in the next spin

    node = ros.add(RobotDescriptionNode if post_set else HumbleDescriptionNode,
                   parameters=dict(params))
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert wait_for(lambda: received.messages)
    return node, received


@pytest.mark.parametrize('post_set', [True, False], ids=['post-set callback', 'humble'])
def test_a_refused_parameter_set_leaves_the_published_description(
        ros: RosGraph, post_set: bool, tmp_path: Path) -> None:
    """Validation only: what fails is refused with its reason, and nothing is published."""
    node, received = start_on(ros, post_set, robot_description=MIMIC_URDF,
                              diagnostic_period=0.0)
    for value, reason in [('<robot name="x">', 'malformed XML'),
                          (BROKEN_LINK, 'allow_errors is false'),
                          ('', 'neither robot_description nor model')]:
        result = node.set_parameters([Parameter('robot_description', value=value)])[0]
        assert not result.successful and reason in result.reason
    result = node.set_parameters_atomically([
        Parameter('robot_description', value=''),
        Parameter('model', value=str(tmp_path / 'missing.urdf'))])
    assert not result.successful and 'missing.urdf' in result.reason
    settle(0.3)
    assert [msg.data for msg in received.messages] == [MIMIC_URDF]
    assert node.get_parameter('robot_description').value == MIMIC_URDF
    assert node.get_parameter('model').value == ''
    assert node.description is not None and node.description.xml == MIMIC_URDF
    late = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert wait_for(lambda: late.messages)
    assert [msg.data for msg in late.messages] == [MIMIC_URDF]


@pytest.mark.parametrize('post_set', [True, False], ids=['post-set callback', 'humble'])
def test_an_accepted_parameter_set_is_published_once_set(
        ros: RosGraph, post_set: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Applied after the set: when it is published, the parameter holds the new value."""
    node, received = start_on(ros, post_set, robot_description=MIMIC_URDF,
                              diagnostic_period=0.0)
    published: list[tuple[str, str]] = []
    publish = node._publisher.publish

    def spy(msg: String) -> None:
        published.append((msg.data, node.get_parameter('robot_description').value))
        publish(msg)

    monkeypatch.setattr(node._publisher, 'publish', spy)
    renamed = MIMIC_URDF.replace('mimic_bot', 'renamed_bot')
    assert node.set_parameters([Parameter('robot_description', value=renamed)])[0].successful
    assert wait_for(lambda: received.last.data == renamed)
    assert published == [(renamed, renamed)]
    assert node.description is not None and node.description.robot.name == 'renamed_bot'
    # switching to a file: robot_description emptied and model set in one atomic call
    result = node.set_parameters_atomically([Parameter('robot_description', value=''),
                                             Parameter('model', value=str(SAMPLE_ROBOT))])
    assert result.successful
    assert wait_for(lambda: received.last.data == load(SAMPLE_ROBOT).xml)


def test_xacro_args_as_one_string_and_bad_ones_refused(ros: RosGraph, tmp_path: Path) -> None:
    write(tmp_path / 'part.xacro', PART_XACRO)
    write(tmp_path / 'robot.urdf.xacro', MAIN_XACRO)
    node, received, _ = start(ros, model=str(tmp_path / 'robot.urdf.xacro'),
                              xacro_args='length:=0.75', diagnostic_period=0.0)
    assert wait_for(lambda: received.messages)
    assert 'xyz="0 0 0.75"' in received.last.data
    result = node.set_parameters([Parameter('xacro_args', value='length=1')])[0]
    assert not result.successful and 'name:=value' in result.reason
    assert node.set_parameters([Parameter('xacro_args', value=['length:=0.5'])])[0].successful
    assert wait_for(lambda: 'xyz="0 0 0.5"' in received.last.data)


def write(path: Path, text: str) -> None:
    """Write ``text`` so that the change is seen even within one mtime tick."""
    old = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    os.utime(path, ns=(old + 10_000_000, old + 10_000_000))


def test_watch_reloads_include_and_keeps_last_good(ros: RosGraph, tmp_path: Path) -> None:
    """Watching runs on steady time: under use_sim_time, no /clock stops it."""
    main, part = tmp_path / 'robot.urdf.xacro', tmp_path / 'part.xacro'
    write(part, PART_XACRO)
    write(main, MAIN_XACRO)
    node, received, diagnostics = start(ros, model=str(main), xacro_args=['length:=0.25'],
                                        watch=True, watch_period=0.05, diagnostic_period=0.0,
                                        use_sim_time=True)
    assert wait_for(lambda: received.messages)
    assert node.get_clock().now().nanoseconds == 0  # no /clock in this graph
    assert 'xyz="0 0 0.25"' in received.last.data
    write(part, PART_XACRO.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 1 0"/>'))
    assert wait_for(lambda: 'xyz="0 1 0"' in received.last.data)
    good = received.last.data
    count = len(received.messages)
    write(part, PART_XACRO.replace('</xacro:macro>', ''))  # malformed XML in the include
    assert wait_for(lambda: diagnostics.messages and
                    diagnostics.last.status[0].level == DiagnosticStatus.ERROR)
    assert 'part.xacro' in diagnostics.last.status[0].message
    assert 'keeping the last good description' in diagnostics.last.status[0].message
    settle(0.2)
    assert len(received.messages) == count
    late = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert wait_for(lambda: late.messages)
    assert late.last.data == good
    write(part, PART_XACRO.replace('<limit lower="-1"', '<limit lower="-2"'))  # fixed again
    assert wait_for(lambda: 'lower="-2"' in received.last.data)
    time.sleep(0.01)
    assert node.description is not None and node.description.is_xacro


def test_findings_are_logged_once_and_a_summary_per_reload(ros: RosGraph, tmp_path: Path,
                                                           capfd: pytest.CaptureFixture[str]
                                                           ) -> None:
    """A reload logs only new findings; each publication logs one summary line."""
    path = tmp_path / 'robot.urdf'
    write(path, MIMIC_URDF)
    _, received, _ = start(ros, model=str(path), watch=True, watch_period=0.05)
    assert wait_for(lambda: received.messages)
    edited = MIMIC_URDF.replace('<robot ', '<!-- edited -->\n<robot ', 1)
    write(path, edited)  # the same findings, one line lower
    assert wait_for(lambda: '<!-- edited -->' in received.last.data)
    write(path, MIMIC_URDF.replace('<axis xyz="1 1 0"/>', '<axis xyz="2 0 0"/>'))
    assert wait_for(lambda: 'xyz="2 0 0"' in received.last.data)
    settle(0.2)
    log = capfd.readouterr().err
    assert log.count('warning[inertial-missing-on-moving-link]: link:wheel') == 1
    assert log.count('warning[joint-axis-not-unit]') == 2  # 1 1 0, then the new 2 0 0
    assert log.count('published robot "mimic_bot"') == 3


# -- what the graph can use -----------------------------------------------------------------------
#: Upkie (PyPI upkie-description 2.2.0; test/data/SOURCES.md): cookie's sibling, wheels revolute.
UPKIE = REPO / 'test' / 'data' / 'upkie_description' / 'urdf' / 'upkie.urdf'


@pytest.mark.parametrize('name, path, code, count, consumer', [
    ('cookie', None, 'joint-limit-bound-missing', 2, 'joint_state_publisher'),  # wheels
    ('upkie', UPKIE, 'joint-limit-bound-missing', 2, 'joint_state_publisher')])
def test_real_robots_with_errors_outside_the_graph_are_published_and_logged_once(
        ros: RosGraph, capfd: pytest.CaptureFixture[str], name: str, path: Path | None,
        code: str, count: int, consumer: str) -> None:
    path = path or shared_model('cookie')
    node, received, diagnostics = start(ros, model=str(path), diagnostic_period=0.1)
    assert wait_for(lambda: received.messages)
    assert received.last.data == load(path).xml
    assert node.description is not None and node.description.robot.name == name
    assert wait_for(lambda: len(diagnostics.messages) >= 3)
    status = diagnostics.last.status[0]
    assert status.message.startswith(f'published robot "{name}"')
    assert f'{count} errors' in status.message
    assert sum(kv.key.startswith(f'error[{code}]') for kv in status.values) == count
    settle(0.2)
    log = capfd.readouterr().err
    assert log.count('not published') == 0
    assert log.count(f'{count} error(s) for consumers outside this graph only, published '
                     'anyway') == 1
    assert log.count(f'{consumer}: {code} x{count}') == 1
    assert log.count(f'error[{code}]:') == count  # each once


#: A robot whose one error is a wheel's bound-less <limit>, suppressed on that element.
SUPPRESSED = MIMIC_URDF.replace(
    '  <joint name="wheel_joint" type="continuous">',
    '  <joint name="wheel_joint" type="revolute">').replace(
    '<axis xyz="0 0 1"/>\n  </joint>\n  <joint name="slide"',
    '<axis xyz="0 0 1"/>\n    <!-- urdf-tools: ignore[joint-limit-bound-missing] -->\n'
    '    <limit effort="1" velocity="1"/>\n  </joint>\n  <joint name="slide"')


def test_a_suppressed_finding_is_neither_reported_nor_refused(
        ros: RosGraph, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """The file's suppression comment holds in the node as in ``urdf-tools check``."""
    assert SUPPRESSED.count('ignore[joint-limit-bound-missing]') == 1
    assert SUPPRESSED.count('<limit effort="1" velocity="1"/>') == 1
    path = tmp_path / 'robot.urdf'
    path.write_text(SUPPRESSED)
    assert 'joint-limit-bound-missing' in {  # the finding the comment suppresses
        f.code for f in check_description(load(path), suppressions=False)}
    node, received, diagnostics = start(ros, model=str(path), diagnostic_period=0.1)
    assert wait_for(lambda: received.messages)
    assert received.last.data == SUPPRESSED
    assert wait_for(lambda: len(diagnostics.messages) >= 2)
    status = diagnostics.last.status[0]
    assert status.level == DiagnosticStatus.WARN and status.message.startswith('published')
    assert not [kv for kv in status.values
                if 'joint-limit-bound-missing' in kv.key or 'suppression-unused' in kv.key]
    settle(0.2)
    log = capfd.readouterr().err
    assert 'joint-limit-bound-missing' not in log and 'suppression' not in log
    assert node.description is not None


#: MIMIC_URDF as URDF 1.2, which only urdfdom 6.0 (Lyrical, Rolling) reads.
VERSION_1_2 = MIMIC_URDF.replace('<robot name="mimic_bot">',
                                 '<robot name="mimic_bot" version="1.2">')
#: MIMIC_URDF with a joint whose parent link does not exist.
NO_PARENT = MIMIC_URDF.replace('<parent link="arm"/><child link="tool"/>',
                               '<parent link="forearm"/><child link="tool"/>')


def test_what_the_distros_urdfdom_cannot_load_is_refused_keeping_the_last_good(
        ros: RosGraph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """URDF 1.2 on Jazzy (its urdfdom reads 1.0 only), a missing parent link: refused, with why."""
    monkeypatch.setenv('ROS_DISTRO', 'jazzy')
    path = tmp_path / 'robot.urdf'
    write(path, MIMIC_URDF)
    node, received, diagnostics = start(ros, model=str(path), watch=True, watch_period=0.05,
                                        diagnostic_period=0.0)
    assert wait_for(lambda: received.messages)
    for text, code in ((VERSION_1_2, 'robot-version-new'), (NO_PARENT, 'joint-parent-missing')):
        diagnostics.clear()
        write(path, text)
        assert wait_for(lambda: diagnostics.messages)
        status = diagnostics.last.status[0]
        assert status.level == DiagnosticStatus.ERROR
        assert status.message.startswith(
            'not published: the check found 1 error(s) that urdfdom (robot_state_publisher, RViz')
        assert 'cannot load on ROS 2 Jazzy and allow_errors is false' in status.message
        assert f'error[{code}]' in status.message
        assert status.message.endswith('; keeping the last good description')
        settle(0.2)
        assert len(received.messages) == 1
        assert node.description is not None and node.description.xml == MIMIC_URDF
        late = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
        assert wait_for(lambda: late.messages)
        assert [msg.data for msg in late.messages] == [MIMIC_URDF]
    for text in (VERSION_1_2, NO_PARENT):  # allow_errors keeps its meaning for these
        allowed, inbox, _ = start(ros, robot_description=text, allow_errors=True,
                                  diagnostic_period=0.0)
        assert wait_for(lambda: any(msg.data == text for msg in inbox.messages))
        assert allowed.description is not None and allowed.description.xml == text


@pytest.mark.parametrize('distro', ['lyrical', 'rolling'])
def test_urdf_1_2_is_published_where_urdfdom_reads_it(ros: RosGraph, distro: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('ROS_DISTRO', distro)
    node, received, diagnostics = start(ros, robot_description=VERSION_1_2,
                                        diagnostic_period=0.0)
    assert wait_for(lambda: received.messages)
    assert received.last.data == VERSION_1_2
    assert wait_for(lambda: diagnostics.messages)
    status = diagnostics.last.status[0]
    assert status.message.startswith('published robot "mimic_bot"')
    assert 'warning[robot-version-new]' in [kv.key.split()[0] for kv in status.values]
    assert node.description is not None
