"""Material rules: undefined and redefined names, rgba range, texture files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rule_cases import run_beside, Runner

from urdf_tools_ros.core.checks.rules import materials

CHECKS = (materials.check_references, materials.check_values)

CATALOG = {
    'material-undefined': ('warning', 'urdfdom'),
    'material-redefined': ('warning', 'urdf_tools_ros'),
    'material-rgba-out-of-range': ('warning', 'urdfdom'),
    'material-texture-missing': ('warning', 'urdf_tools_ros'),
}

BOX = '<geometry><box size="1 1 1"/></geometry>'
RED = '<color rgba="1 0 0 1"/>'
BLUE = '<color rgba="0 0 1 1"/>'


def glob(name: str, inner: str = RED) -> str:
    return f'  <material name="{name}">{inner}</material>\n'


def visual_link(link: str, material: str) -> str:
    return f'  <link name="{link}"><visual>{BOX}{material}</visual></link>\n'


def material(name: str, inner: str = '') -> str:
    return f'<material name="{name}">{inner}</material>' if inner else f'<material name="{name}"/>'


def robot(*lines: str) -> str:
    """A robot with ``lines`` from line 2 on (several links are fine: the tree is not checked)."""
    return '<robot name="r">\n' + ''.join(lines) + '</robot>\n'


#: The texture beside the URDF.
FILES = {'tex.png': b'\x89PNG\r\n'}


@pytest.fixture
def run(tmp_path: Path) -> Runner:
    """Load a URDF string as ``robot.urdf`` in a directory holding :data:`FILES`; check it."""
    return run_beside(CHECKS, tmp_path, FILES)


RED_M = visual_link('a', material('m', RED))
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('material-undefined', robot(visual_link('a', material('nope'))), 'link:a', 2,
                 'material "nope" is not defined',
                 robot(glob('nope'), visual_link('a', material('nope'))), id='undefined'),
    pytest.param('material-undefined',
                 robot(visual_link('a', material('x')), visual_link('b', material('x', RED))),
                 'link:a', 2, 'visual #1 material "x"',
                 robot(visual_link('a', material('x', RED)), visual_link('b', material('x'))),
                 id='undefined-before-its-inline-definition'),
    pytest.param('material-redefined',
                 robot(visual_link('a', material('m', BLUE)), glob('m')), 'link:a', 2,
                 'but the global <material> "m" at',
                 robot(visual_link('a', material('m', RED)), glob('m')),
                 id='redefined-global'),
    pytest.param('material-redefined',
                 robot(RED_M, visual_link('b', material('m', BLUE))), 'link:b', 3,
                 "an earlier visual's material \"m\"",
                 robot(RED_M, visual_link('b', material('n', BLUE))),
                 id='redefined-inline'),
    pytest.param('material-rgba-out-of-range', robot(glob('m', '<color rgba="255 0 0 1"/>'),
                                                     visual_link('a', material('m'))),
                 'material:m', 2, 'rgba="255 0 0 1"',
                 robot(glob('m'), visual_link('a', material('m'))), id='rgba-global'),
    pytest.param('material-rgba-out-of-range',
                 robot(visual_link('a', material('m', '<color rgba="0.5 0.5 0.5 -1"/>'))),
                 'link:a', 2, 'rgba="0.5 0.5 0.5 -1"',
                 robot(visual_link('a', material('m', '<color rgba="0.5 0.5 0.5 0"/>'))),
                 id='rgba-inline'),
    pytest.param('material-texture-missing',
                 robot(glob('t', '<texture filename="gone.png"/>')), 'material:t', 2,
                 'texture "gone.png"', robot(glob('t', '<texture filename="tex.png"/>')),
                 id='texture-absent'),
    pytest.param('material-texture-missing',
                 robot(glob('t', '<texture filename="package://nopkg/t.png"/>')), 'material:t', 2,
                 'package "nopkg" is not found',
                 robot(glob('t', '<texture filename="file://{dir}/tex.png"/>')),
                 id='texture-package'),
]


def test_an_empty_name_keeps_its_own_colour(run: Runner) -> None:
    # urdfdom skips the table for name="" (robotiq_2f_85 writes it on every visual)
    assert run(robot(visual_link('a', material('', RED)), visual_link('b', material('', BLUE)))) \
        == []


def test_rgba_fix_clamps(run: Runner) -> None:
    (finding,) = run(robot(glob('m', '<color rgba="2 0.5 -1 1"/>')))
    assert finding.fix is not None and '<color rgba="1 0.5 0 1"/>' in finding.fix
