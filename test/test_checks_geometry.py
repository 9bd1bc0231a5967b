"""Geometry rules: missing geometry, negative and zero sizes, mesh files, formats and scale."""

from __future__ import annotations

from pathlib import Path
import re

from corpus_models import CorpusModel, MODELS, PACKAGE_PATHS
import pytest
from rule_cases import run_beside, Runner

from urdf_tools_ros.core.checks import CheckContext
from urdf_tools_ros.core.checks.rules import geometry
from urdf_tools_ros.core.model.robot import geometry_sizes, Mesh
from urdf_tools_ros.core.source.loader import load_string

CHECKS = (geometry.check_geometry, geometry.check_meshes, geometry.check_mesh_scale)

CATALOG = {
    'geometry-size-negative': ('warning', 'urdf_tools_ros'),
    'geometry-size-zero': ('warning', 'urdf_tools_ros'),
    'geometry-missing': ('warning', 'urdfdom'),
    'mesh-file-missing': ('warning', 'urdf_tools_ros'),
    'mesh-extension-unsupported': ('warning', 'urdf_tools_ros'),
    'collision-mesh-dae': ('info', 'urdf_tools_ros'),
    'mesh-scale-suspect': ('warning', 'urdf_tools_ros'),
}

#: Files made in the robot's directory, which is also the share directory of package "pkg";
#: part_mm.stl is a triangle 100 units across, a 0.1 m part exported in millimetres.
FILES = {**dict.fromkeys(('m.stl', 'M.STL', 'm.ply', 'meshes/part.dae'), b'solid x\nendsolid x\n'),
         'part_mm.stl': (b'solid mm\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n'
                         b'vertex 100 0 0\nvertex 0 50 0\nendloop\nendfacet\nendsolid mm\n')}


def link(*elements: str) -> str:
    """Link "a" on line 2 holding ``elements``."""
    return f'<robot name="r">\n  <link name="a">{"".join(elements)}</link>\n</robot>\n'


def visual(shape: str) -> str:
    return f'<visual><geometry>{shape}</geometry></visual>'


def collision(shape: str) -> str:
    return f'<collision><geometry>{shape}</geometry></collision>'


def mesh(filename: str, scale: str = '') -> str:
    extra = f' scale="{scale}"' if scale else ''
    return f'<mesh filename="{filename}"{extra}/>'


@pytest.fixture
def run(tmp_path: Path) -> Runner:
    """Load a URDF string as ``robot.urdf`` in a directory holding :data:`FILES`; check it."""
    return run_beside(CHECKS, tmp_path, FILES)


A = 'link:a'
CASES = [
    # code, failing URDF, element, line, text in the message, passing twin
    pytest.param('geometry-missing', link('<visual></visual>'), A, 2, 'visual #1 has no geometry',
                 link(visual('<sphere radius="1"/>')), id='missing-visual'),
    pytest.param('geometry-missing', link('<collision name="c"><geometry/></collision>'), A, 2,
                 'collision "c" has no geometry', link(collision('<box size="1 1 1"/>')),
                 id='missing-collision'),
    pytest.param('geometry-size-negative', link(visual('<box size="-1 1 1"/>')), A, 2,
                 'box size="-1 1 1"', link(visual('<box size="1 1 1"/>')), id='box-negative'),
    pytest.param('geometry-size-negative',
                 link(collision('<cylinder radius="-0.1" length="1"/>')), A, 2,
                 'cylinder radius=-0.1 length=1',
                 link(collision('<cylinder radius="0.1" length="1"/>')), id='cylinder-negative'),
    pytest.param('geometry-size-zero', link(collision('<box size="0 0 0"/>')), A, 2,
                 'box size="0 0 0": a size is 0', link(visual('<box size="0 0 0"/>')),
                 id='collision-zero-vs-invisible-visual'),
    pytest.param('geometry-size-zero', link(visual('<sphere radius="0"/>') +
                                            visual('<cylinder radius="0.1" length="0"/>')),
                 A, 2, 'cylinder radius=0.1 length=0', link(visual('<sphere radius="0"/>')),
                 id='visual-partly-zero'),
    pytest.param('geometry-size-zero', link(visual(mesh('m.stl', '1 0 1'))), A, 2,
                 'scale="1 0 1"', link(visual(mesh('m.stl', '-1 1 1'))), id='mesh-scale-zero'),
    pytest.param('mesh-file-missing', link(visual(mesh('package://nopkg/m.stl'))), A, 2,
                 'package "nopkg" is not found', link(visual(mesh('package://pkg/m.stl'))),
                 id='package-unknown'),
    pytest.param('mesh-file-missing', link(visual(mesh('package:///pkg/m.stl'))), A, 2,
                 'names no package', link(visual(mesh('package://pkg/meshes/part.dae'))),
                 id='package-three-slashes'),
    pytest.param('mesh-file-missing', link(collision(mesh('meshes/gone.stl'))), A, 2,
                 'meshes/gone.stl does not exist', link(collision(mesh('m.stl'))),
                 id='relative-absent'),
    pytest.param('mesh-extension-unsupported', link(visual(mesh('m.ply'))), A, 2,
                 '".ply", not one of .stl, .dae, .obj', link(visual(mesh('M.STL'))),
                 id='extension'),
    pytest.param('collision-mesh-dae', link(collision(mesh('meshes/part.dae'))), A, 2,
                 'is COLLADA: MuJoCo refuses the file', link(visual(mesh('meshes/part.dae'))),
                 id='collision-dae'),
    pytest.param('mesh-scale-suspect',
                 link(visual(mesh('part_mm.stl')), collision('<box size="0.1 0.05 0.01"/>')),
                 A, 2, 'mesh is 100 m across, 1000 times',
                 link(visual(mesh('part_mm.stl', '0.001 0.001 0.001')),
                      collision('<box size="0.1 0.05 0.01"/>')), id='mesh-in-millimetres'),
]


def test_a_mesh_shared_by_visual_and_collision_is_reported_once(run: Runner) -> None:
    findings = run(link(visual(mesh('gone.stl')), collision(mesh('gone.stl'))))
    assert [finding.code for finding in findings] == ['mesh-file-missing']


def test_unknown_package_fix_names_the_option(run: Runner) -> None:
    (finding,) = run(link(visual(mesh('package://nopkg/m.stl'))))
    assert finding.fix is not None and '--package-path nopkg=DIR' in finding.fix


def test_relative_mesh_in_a_string_description_cannot_be_resolved() -> None:
    description = load_string(link(visual(mesh('m.stl'))))
    (finding,) = geometry.check_meshes(CheckContext(description.robot))
    assert 'cannot be resolved' in finding.message


@pytest.mark.parametrize('value', ['nan', 'inf', '-inf'])
def test_non_finite_sizes_are_left_to_the_loader(run: Runner, value: str) -> None:
    assert run(link(visual(f'<box size="{value} 1 1"/>'),
                    collision(f'<cylinder radius="{value}" length="1"/>'),
                    visual(mesh('m.stl', f'{value} 1 1')))) == []


def test_an_unknown_shape_is_one_finding_and_breaks_mujoco_only_where_it_reads_it() -> None:
    from urdf_tools_ros.core.checks import check_description
    from urdf_tools_ros.core.source.loader import load_string
    for kind, shape, mujoco in (('collision', 'cone', True), ('collision', 'capsule', False),
                                ('visual', 'cone', False)):
        text = (f'<robot name="r"><link name="a"><{kind}><geometry><{shape} radius="1"/>'
                f'</geometry></{kind}></link></robot>')
        findings = check_description(load_string(text), 'mujoco')
        (finding,) = [f for f in findings if f.element == 'link:a' and 'geometry' in f.code]
        assert finding.code == 'geometry-unknown', findings
        assert ('mujoco' in (finding.consumers or ())) is mujoco, (kind, shape)


def scaled_meshes(text: str, factor: float) -> str:
    """``text`` with every ``<mesh>`` scaled by ``factor`` (its own scale dropped)."""
    return re.sub(r'<mesh\s+filename="([^"]+)"(\s+scale="[^"]*")?',
                  lambda match: f'<mesh filename="{match.group(1)}" scale="{factor} {factor} '
                                f'{factor}"', text)


@pytest.mark.parametrize('model', MODELS, ids=lambda model: model.path.stem)
def test_real_meshes_in_millimetres_are_found(model: CorpusModel) -> None:
    """
    The corpus robots (real meshes) have no finding; with meshes 1000 times too big, every link.

    Except minitaur: its placeholder tensors (1 kg·m² on 0.1 kg links) say its links are
    metres long, and the largest evidence counts (no false finding from one placeholder).
    """
    text = model.path.read_text(encoding='utf-8')

    def flagged(source: str) -> tuple[set[str], set[str]]:
        description = load_string(source, str(model.path), package_paths=PACKAGE_PATHS)
        with_mesh = {f'link:{link.name}' for link in description.robot.links
                     for element in (*link.visuals, *link.collisions)
                     if isinstance(element.geometry, Mesh) and element.geometry.resolved}
        found = {finding.element for finding in
                 geometry.check_mesh_scale(CheckContext(description.robot, str(model.path)))}
        return with_mesh, found

    with_mesh, found = flagged(text)
    assert with_mesh and found == set()
    with_mesh, found = flagged(scaled_meshes(text, 1000))
    assert found == (set() if model.path.stem == 'minitaur' else with_mesh)


@pytest.mark.parametrize('element, expected', [
    ('<box size="0.1 -2 nan"/>', [('size', 0.1), ('size', -2.0), ('size', 'nan')]),
    ('<cylinder radius="0.1" length="0.5"/>', [('radius', 0.1), ('length', 0.5)]),
    ('<capsule radius="0.1" length="0.5"/>', [('radius', 0.1), ('length', 0.5)]),
    ('<sphere radius="inf"/>', [('radius', 'inf')]),
    ('<mesh filename="m.stl" scale="0.001 1 2"/>',
     [('scale', 0.001), ('scale', 1.0), ('scale', 2.0)]),
])
def test_geometry_sizes_are_the_numbers_as_written_named_by_attribute(
        element: str, expected: list[tuple[str, object]]) -> None:
    # The one formulation the size rules, the inertia rules and the viewer's skip share.
    version = ' version="1.1"' if 'capsule' in element else ''
    robot = load_string(f'<robot name="r"{version}><link name="a"><visual><geometry>{element}'
                        '</geometry></visual></link></robot>').robot
    geometry = robot.links[0].visuals[0].geometry
    assert geometry is not None
    got = geometry_sizes(geometry)
    assert [name for name, _ in got] == [name for name, _ in expected]
    for (_, value), (_, want) in zip(got, expected):
        assert repr(value) == repr(float(want))  # nan and inf kept, as written
