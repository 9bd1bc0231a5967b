"""
``--xacro auto`` runs xacro on a file that uses xacro, whatever its name.

As a ROS 2 launch file that runs xacro on it would; a plain URDF stays plain and does not
import xacro.
"""

from __future__ import annotations

import subprocess
import sys

from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO
from urdf_tools_ros.core.source.loader import load, looks_like_xacro

pytestmark = pytest.mark.portability

DESCRIPTIONS = ROS2_DESCRIPTIONS
TURTLEBOT3 = DESCRIPTIONS / 'turtlebot3_description'

XACRO = REPO / 'test' / 'urdf' / 'xacro'
#: A .urdf built from a property and a macro, as some ROS 2 packages ship them.
MACRO_URDF = (XACRO / 'cart.urdf').read_text()
#: xacro output: the namespace declaration kept, xacro named only in a comment.
PLAIN_URDF = (XACRO / 'cart_expanded.urdf').read_text()


@pytest.mark.parametrize(('name', 'text', 'expected'), [
    ('a.urdf', MACRO_URDF, True),
    ('a.urdf', '<robot name="r"><link name="${prefix}base"/></robot>', True),
    ('a.urdf', '<robot name="r"><link name="$(arg prefix)base"/></robot>', True),
    ('a.urdf', '<robot xmlns:x="http://ros.org/wiki/xacro" name="r"><x:include filename="b"/>'
               '</robot>', True),
    ('a.xml', '<robot name="r"><xacro:include filename="b.xacro"/></robot>', True),
    ('a.urdf.xacro', '<robot name="r"><link name="base"/></robot>', True),
    ('a.urdf', PLAIN_URDF, False),
    ('<robot_description>', '<robot name="r"><link name="base"/></robot>', False),
], ids=['macro-in-urdf', 'property', 'substitution', 'other-prefix', 'any-name', 'xacro-name',
        'namespace-and-comment-only', 'plain'])
def test_xacro_is_decided_by_what_the_file_uses(name: str, text: str, expected: bool) -> None:
    assert looks_like_xacro(name, text) is expected


def test_a_urdf_that_uses_xacro_is_expanded() -> None:
    description = load(XACRO / 'cart.urdf')
    assert description.is_xacro
    assert sorted(description.robot.link_map) == ['base_link', 'left_wheel', 'right_wheel']
    box = description.robot.link_map['base_link'].visuals[0].geometry
    assert box.size == (0.4, 0.3, 0.1)
    assert not [finding for finding in description.findings if finding.severity.value == 'error']


@pytest.mark.skipif(not TURTLEBOT3.is_dir(), reason=f'{TURTLEBOT3} is not here')
def test_turtlebot3_burger_urdf_is_run_through_xacro() -> None:
    # turtlebot3_state_publisher.launch.py runs xacro on this .urdf with namespace:=...
    description = load(TURTLEBOT3 / 'urdf' / 'turtlebot3_burger.urdf',
                       xacro_args={'namespace': 'tb3_'},
                       package_paths={'turtlebot3_description': str(TURTLEBOT3)})
    links = set(description.robot.link_map)
    assert 'tb3_base_link' in links and not any('$' in link for link in links)
    # The line of each element is the .urdf's own.
    base = description.robot.link_map['tb3_base_link']
    assert base.location.filename.endswith('turtlebot3_burger.urdf')
    lines = (TURTLEBOT3 / 'urdf' / 'turtlebot3_burger.urdf').read_text().splitlines()
    assert 'base_link' in lines[base.location.line - 1]


def test_a_plain_urdf_does_not_import_xacro() -> None:
    path = XACRO / 'cart_expanded.urdf'
    code = ('import sys; from urdf_tools_ros.core.source.loader import load; '
            f'd = load({str(path)!r}); print(d.is_xacro, "xacro" in sys.modules)')
    done = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ['False', 'False'], done.stderr
