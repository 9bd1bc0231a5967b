"""
What the robot description node's graph can load (CONVENTIONS C12).

:func:`check_for_graph` refuses what the distro's urdfdom or this package's nodes cannot load,
and nothing else, with ``urdf-tools check``'s suppressions and select/ignore.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpus_models import CORPUS_DIR
import pytest

from conftest import REPO, run_cli, shared_model
from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.checks.config import find_config
from urdf_tools_ros.core.checks.publication import check_for_graph, distro_target
from urdf_tools_ros.core.checks.selection import UnknownCodeError
from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.model.values import ROS_DISTRO_URDF_VERSIONS
from urdf_tools_ros.core.source.loader import load, load_string

DISTROS = list(ROS_DISTRO_URDF_VERSIONS)
UPKIE = REPO / 'test' / 'data' / 'upkie_description' / 'urdf' / 'upkie.urdf'
PR2 = CORPUS_DIR / 'example-robot-data/robots/pr2_description/urdf/pr2.urdf'
ROBOTS = {
    'cookie': lambda: shared_model('cookie'),
    'upkie': lambda: UPKIE,
}
#: The errors of each real robot, all for consumers outside the node's graph.
OUTSIDE = {'cookie': {'joint-limit-bound-missing': 2}, 'upkie': {'joint-limit-bound-missing': 2}}

#: Two links and a revolute joint whose <limit> has no effort (urdfdom refuses the file) and an
#: axis of length 2 (a warning); ``{comment}`` goes right before the <limit>.
ROBOT = """<robot name="r">
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 2"/>
    {comment}
    <limit lower="-1" upper="1" velocity="1"/>
  </joint>
</robot>
"""
SUPPRESSION = '<!-- urdf-tools: ignore[joint-limit-effort-missing] -->'


def robot(version: str = '1.0', body: str = '') -> str:
    return (f'<robot name="r" version="{version}"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            f'<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>{body}</robot>')


def test_the_distro_is_ros_distro_as_target_ros_reads_it(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    for distro in DISTROS:
        monkeypatch.setenv('ROS_DISTRO', distro)
        assert distro_target() == f'ros-{distro}'
        assert distro_target('jazzy') == 'ros-jazzy'
    for unknown in ('', 'foxy', 'iron'):
        monkeypatch.setenv('ROS_DISTRO', unknown)
        assert distro_target() == 'ros-jazzy'
    monkeypatch.delenv('ROS_DISTRO')
    assert distro_target() == 'ros-jazzy'


@pytest.mark.parametrize('name', sorted(ROBOTS))
@pytest.mark.parametrize('distro', DISTROS)
def test_real_robots_are_refused_nowhere(name: str, distro: str) -> None:
    """Bound-less wheel limits: joint_state_publisher, outside the node's graph."""
    check = check_for_graph(load(ROBOTS[name]()), f'ros-{distro}')
    assert check.refusals == () and check.refusal_text() == ''
    outside: dict[str, int] = {}
    for finding in check.outside:
        outside[finding.code] = outside.get(finding.code, 0) + 1
    assert outside == OUTSIDE[name]
    code, number = next(iter(OUTSIDE[name].items()))
    consumer = next(iter(check.outside_groups()))
    assert check.outside_text().startswith(f'{number} error(s) for consumers outside this graph')
    assert check.outside_text().endswith(f': {consumer}: {code} x{number}')


@pytest.mark.parametrize('distro', DISTROS)
def test_what_only_urdf_parser_py_refuses_is_a_warning_naming_it(distro: str) -> None:
    """
    PR2's four transmissions in the form urdf_parser_py refuses: no ROS graph tool reads them.

    CONVENTIONS C12: urdf_parser_py is a library a user may call, named in a warning (no error
    for any ``ros-*`` target, so nothing outside the graph either).
    """
    check = check_for_graph(load(PR2), f'ros-{distro}')
    assert check.refusals == () and check.outside == () and check.outside_text() == ''
    forms = [f for f in check.findings if f.code == 'transmission-form-invalid']
    assert len(forms) == 4
    assert {(f.severity, f.consumers) for f in forms} == {(Severity.WARNING, ('urdf_parser_py',))}


@pytest.mark.parametrize('version', ['1.1', '1.2'])
@pytest.mark.parametrize('distro', DISTROS)
def test_a_urdf_version_is_refused_exactly_where_urdfdom_cannot_read_it(version: str,
                                                                        distro: str) -> None:
    check = check_for_graph(load_string(robot(version)), f'ros-{distro}')
    major, minor = (int(part) for part in version.split('.'))
    refused = (major, minor) not in ROS_DISTRO_URDF_VERSIONS[distro]
    assert [f.code for f in check.refusals] == (['robot-version-new'] if refused else [])
    assert 'robot-version-new' in [f.code for f in check.findings]
    if refused:
        assert check.refusal_text() == (
            '1 error(s) that urdfdom (robot_state_publisher, RViz: URDF 1.0 only) cannot load '
            f'on ROS 2 {distro.capitalize()}')


@pytest.mark.parametrize('distro', DISTROS)
def test_what_urdfdom_or_this_packages_nodes_cannot_load_is_refused_everywhere(
        distro: str) -> None:
    no_parent = robot().replace('<parent link="a"/>', '<parent link="x"/>')
    check = check_for_graph(load_string(no_parent), f'ros-{distro}')
    assert [f.code for f in check.refusals] == ['joint-parent-missing']
    assert check.refusal_text().startswith('1 error(s) that urdfdom (robot_state_publisher, '
                                           "RViz), this package's joint-state publisher and TF "
                                           'broadcaster cannot load')
    # urdfdom loads a mimic cycle; this package's kinematics and joint-state table cannot
    cycle = robot(body='<link name="c"/><joint name="k" type="revolute"><parent link="b"/>'
                       '<child link="c"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                       '<mimic joint="j"/></joint>').replace(
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>',
        '<limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="k"/></joint>', 1)
    check = check_for_graph(load_string(cycle), f'ros-{distro}')
    assert {f.code for f in check.refusals} == {'mimic-cycle'}
    assert "this package's joint-state publisher and TF broadcaster" in check.refusal_text()
    assert 'urdfdom' not in check.refusal_text()


def cli_codes(path: Path, *args: str) -> tuple[int, list[str]]:
    """Exit status and finding codes (JSON) of ``urdf-tools check``."""
    done = run_cli('check', str(path), '--format', 'json', *args)
    return done.returncode, sorted(f['code'] for f in json.loads(done.stdout)['findings'])


def test_suppressions_and_selection_are_the_clis(tmp_path: Path) -> None:
    """One checking: ``check_description`` reports what ``urdf-tools check`` reports."""
    path = tmp_path / 'robot.urdf'
    for comment, config, dropped in (
            ('', '', set()),
            (SUPPRESSION, '', {'joint-limit-effort-missing'}),
            ('', 'ignore = ["joint-limit-effort"]\n', {'joint-limit-effort-missing'}),
            ('', 'select = ["joint-axis-"]\n', {'joint-limit-effort-missing',
                                                'inertial-missing-on-moving-link'})):
        path.write_text(ROBOT.format(comment=comment))
        (tmp_path / '.urdf-tools.toml').write_text(config)
        configuration = find_config(path)
        codes = sorted(f.code for f in check_description(
            load(path), select=configuration.select, ignore=configuration.ignore))
        assert (0 if dropped else 1, codes) == cli_codes(path)
        assert 'joint-axis-not-unit' in codes and 'suppression-unused' not in codes
        assert not dropped & set(codes)
        if not dropped:
            assert 'joint-limit-effort-missing' in codes
        # the node refuses what urdfdom cannot load, unless its author dropped the finding
        check = check_for_graph(load(path), 'ros-jazzy', configuration)
        assert [f.code for f in check.refusals] == \
            ([] if dropped else ['joint-limit-effort-missing'])
        assert sorted(f.code for f in check.findings) == codes
    path.write_text(ROBOT.format(comment=SUPPRESSION))  # suppressions=False: as the file says
    assert 'joint-limit-effort-missing' in {
        f.code for f in check_description(load(path), suppressions=False)}


def test_a_suppression_naming_no_rule_is_a_robot_description_error(tmp_path: Path) -> None:
    path = tmp_path / 'robot.urdf'
    path.write_text(ROBOT.format(comment='<!-- urdf-tools: ignore[joint-limit-efort] -->'))
    with pytest.raises(UnknownCodeError) as raised:
        check_for_graph(load(path), 'ros-jazzy')
    assert isinstance(raised.value, RobotDescriptionError)
    assert f'{path}:4: suppression' in str(raised.value) and "'joint-limit-efort'" in str(
        raised.value)
    assert check_description(load(path), suppressions=False)  # the findings without comments
