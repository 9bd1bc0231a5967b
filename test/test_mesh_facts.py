"""
The checker's STL, OBJ and COLLADA readers (``core/meshes/facts.py``).

Against trimesh on every mesh of ``../shared``, the corpus and ``urdf/meshes``: the box of the
triangles' vertices (m, before ``<mesh scale>``, COLLADA times its ``<unit meter>`` as rviz
applies it) and the triangle count as written (trimesh with ``process=False``). Then files with
boxes known by construction, files that give no box, and checks that import no trimesh.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import re
import struct
import subprocess
import sys

import numpy as np
from paths import SHARED
import pytest
from test_collision_meshes import (ascii_stl, binary_stl, box, box_corners, CHANNEL, CUBE, obj,
                                   QUAD, SIDES)
from test_mesh_cache import _robot_text

from conftest import missing, REPO

from urdf_tools_ros.core.meshes import facts as mesh_facts
from urdf_tools_ros.core.meshes.facts import (collada_unit, mesh_bounds, MeshFacts,
                                              NO_TRIANGLES, NOT_FINITE, read_mesh_facts)

SAMPLE = REPO / 'urdf' / 'meshes'
CORPUS = REPO / 'test' / 'corpus'
#: Mesh files written by hand: their boxes and triangle counts are in the tests below.
MESHES = REPO / 'test' / 'data' / 'meshes'
ASCII_STL = (MESHES / 'two_solids.stl').read_bytes()
OBJ = (MESHES / 'polygons.obj').read_text()  # a quad, a pentagon, v/vt/vn and negative indices
COLLADA = (MESHES / 'scene.dae').read_text()
ROTATED = (MESHES / 'rotated.dae').read_text()
_OWN = ('.stl', '.obj')
NO_TRIMESH = missing('trimesh')


def _files(root: Path, suffixes: tuple[str, ...] = _OWN) -> list[Path]:
    return sorted(path for path in root.rglob('*')
                  if path.suffix.lower() in suffixes and path.is_file()) if root.is_dir() else []


def _trimesh_facts(path: Path) -> tuple[np.ndarray, np.ndarray, int] | None:
    """``(lower, upper, triangles)`` as trimesh reads the file, ``None`` without triangles."""
    import trimesh
    try:
        scene = trimesh.load(str(path), process=False, force='scene')
    except Exception:  # noqa: B902 whatever trimesh raises: it does not read the file
        return None
    placed = []
    for node in scene.graph.nodes_geometry:
        T_file_node, name = scene.graph[node]
        mesh = scene.geometry[name]
        if isinstance(mesh, trimesh.Trimesh) and len(mesh.faces):
            placed.append((np.asarray(mesh.vertices, dtype=np.float64) @ T_file_node[:3, :3].T
                           + T_file_node[:3, 3], len(mesh.faces)))
    if not placed:
        return None
    points = np.concatenate([vertices for vertices, _ in placed])
    if path.suffix.lower() == '.dae':
        points = points * collada_unit(str(path))
    if not np.all(np.isfinite(points)):
        return None
    return points.min(axis=0), points.max(axis=0), sum(count for _, count in placed)


def _disagreements(files: list[Path], rtol: float = 1e-9) -> list[str]:
    """The files whose box (to ``rtol`` of its largest side) or count differ from trimesh's."""
    wrong = []
    for path in files:
        own = read_mesh_facts(str(path))
        theirs = _trimesh_facts(path)
        if theirs is None or not own.readable:
            if (theirs is None) != (not own.readable):
                wrong.append(f'{path}: trimesh {theirs}, here {own}')
            continue
        lower, upper, triangles = theirs
        size = float(np.max(upper - lower)) or 1.0
        if own.triangles != triangles or not np.allclose(
                [own.lower, own.upper], [lower, upper], rtol=0, atol=rtol * size):
            wrong.append(f'{path}: trimesh {lower} {upper} {triangles}, here {own}')
    return wrong


@pytest.mark.skipif(NO_TRIMESH is not None, reason=str(NO_TRIMESH))
@pytest.mark.parametrize('root, suffixes, least', [
    (SHARED, _OWN, 150), (CORPUS, _OWN, 50), (SAMPLE, _OWN, 2),
    (SHARED, ('.dae',), 15), (CORPUS, ('.dae',), 5), (SAMPLE, ('.dae',), 1)],
    ids=['shared', 'corpus', 'sample', 'shared-dae', 'corpus-dae', 'sample-dae'])
def test_every_mesh_file_reads_as_trimesh_reads_it(root: Path, suffixes: tuple[str, ...],
                                                   least: int) -> None:
    files = _files(root, suffixes)
    if not files and root == SHARED:
        pytest.skip(f'{SHARED} is not here')
    assert len(files) >= least
    # trimesh merges a COLLADA geometry's vertices within 1e-8 (file units) before its box
    assert _disagreements(files, rtol=1e-6 if suffixes == ('.dae',) else 1e-9) == []
    if root != SHARED:  # every mesh of the corpus and of the sample robot is measured
        assert [str(path) for path in files if not read_mesh_facts(str(path)).readable] == []


def _binary_stl(triangles: list[list[tuple[float, float, float]]], header: bytes = b'') -> bytes:
    data = header.ljust(80, b' ') + struct.pack('<I', len(triangles))
    for corners in triangles:
        data += struct.pack('<12fH', 0, 0, 1, *(value for corner in corners for value in corner),
                            0)
    return data


@pytest.mark.parametrize('name, content, lower, upper, triangles', [
    ('binary.stl', _binary_stl([[(0, 0, 0), (1, 0, 0), (0, 2, 0)],
                                [(-1, 0, 0), (0, 0, 3), (0, -0.5, 0)]]),
     (-1, -0.5, 0), (1, 2, 3), 2),
    ('solid-header.stl', _binary_stl([[(0, 0, 0), (1, 0, 0), (0, 2, 0)]], b'solid in binary'),
     (0, 0, 0), (1, 2, 0), 1),
    ('two-solids.stl', ASCII_STL, (-1, -2, 0), (0.1, 0.2, 3.5), 2),
    ('UPPER.OBJ', OBJ.encode(), (0, 0, -1), (1, 1, 2), 2 + 1 + 1 + 3),
    ('crlf.obj', b'v 0 0 0\r\nv 1 0 0\r\nv 0 1 \\\r\n 0\r\nf 1 2 3\r\n', (0, 0, 0), (1, 1, 0), 1),
])
def test_written_files_give_their_box_and_count(tmp_path: Path, name: str, content: bytes,
                                                lower: tuple[float, ...],
                                                upper: tuple[float, ...],
                                                triangles: int) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    facts = read_mesh_facts(str(path))
    assert facts.readable, facts.problem
    assert (facts.format, facts.triangles) == (name.rsplit('.', 1)[1].lower(), triangles)
    np.testing.assert_allclose([facts.lower, facts.upper], [lower, upper], rtol=1e-7)


def test_a_written_collada_scene_gives_its_box_and_count(tmp_path: Path) -> None:
    path = tmp_path / 'scene.DAE'
    path.write_text(COLLADA, encoding='utf-8')
    facts = read_mesh_facts(str(path))
    # per instance: the quad (2) and the triangle of the polylist, the triangles' first (the
    # second has an infinite vertex: dropped, and with it the vertex 5 5 5 that only
    # it uses); one instance moved 10 along x, the other halved along z, then moved -1; then
    # the unit, half a metre
    assert (facts.format, facts.triangles) == ('dae', 8)
    np.testing.assert_allclose([facts.lower, facts.upper], [(0, 0, -0.5), (5.5, 0.5, 1)],
                               rtol=1e-7)
    if NO_TRIMESH is None:
        assert _disagreements([path]) == []


@pytest.mark.parametrize('name, lower, upper', [
    ('beacon.stl', (-0.02, -0.02, 0.0), (0.02, 0.02, 0.03)),  # urdf/meshes/generate_meshes.py
    ('gripper_palm.obj', (-0.015, -0.035, -0.02), (0.015, 0.035, 0.02)),
    ('bumper.dae', (0.0, -0.055, 0.0), (0.03, 0.055, 0.04)),
])
def test_bounds_of_the_sample_meshes(name: str, lower: tuple[float, ...],
                                     upper: tuple[float, ...]) -> None:
    np.testing.assert_allclose(mesh_bounds(str(SAMPLE / name)), (lower, upper), rtol=0, atol=1e-7)


@pytest.mark.parametrize('meter', ['abc', 'nan', '-1', '0'])
def test_a_collada_unit_that_is_no_length_counts_as_one_metre(meter: str,
                                                              tmp_path: Path) -> None:
    path = tmp_path / 'bad_unit.dae'
    path.write_text(re.sub(r'<unit[^>]*/>', f'<unit name="u" meter="{meter}"/>',
                           (SAMPLE / 'bumper.dae').read_text(encoding='utf-8')),
                    encoding='utf-8')
    assert collada_unit(str(path)) == 1.0
    np.testing.assert_allclose(mesh_bounds(str(path)), mesh_bounds(str(SAMPLE / 'bumper.dae')))


def test_a_real_collada_file_in_inches() -> None:
    # <unit name="inch" meter="0.0254"/>: a cone 5.9 in across and 6.7 in tall is 15 x 17 cm
    data = pytest.importorskip('pybullet_data')
    cone = Path(data.getDataPath()) / 'racecar' / 'meshes' / 'cone.dae'
    assert collada_unit(str(cone)) == 0.0254
    np.testing.assert_allclose(mesh_bounds(str(cone)), [[-0.075, -0.075, 0], [0.075, 0.075, 0.17]],
                               rtol=0, atol=1e-6)


def test_collada_scene_nodes_and_indices(tmp_path: Path) -> None:
    path = tmp_path / 'moved.dae'
    path.write_text(ROTATED, encoding='utf-8')
    # the scene the <scene> names; only the indexed vertices (not 999); nodes applied outermost
    # first: scale x by 2, turn 90 degrees about z, move by 100 along x; then centimetres
    used = np.array([[0, 0, 0], [10, 0, 0], [0, 20, 0], [0, 0, 30]], dtype=float)
    scaled = used * (2, 1, 1)
    turned = np.stack([-scaled[:, 1], scaled[:, 0], scaled[:, 2]], axis=1) + (100, 0, 0)
    np.testing.assert_allclose(mesh_bounds(str(path)),
                               [turned.min(axis=0) * 0.01, turned.max(axis=0) * 0.01],
                               atol=1e-7)  # pycollada's transforms are float32


@pytest.mark.parametrize('name, content, problem', [
    ('empty.stl', b'', 'neither a binary STL'),
    ('truncated.stl', _binary_stl([[(0, 0, 0), (1, 0, 0), (0, 1, 0)]] * 2)[:-7],
     'neither a binary STL'),
    ('no-triangle.stl', _binary_stl([]), 'no triangles'),
    ('two-numbers.stl', b'solid s\nvertex 0 0\nvertex 1 0 0\nvertex 0 1 0\nendsolid s\n',
     'vertex line has not 3 numbers'),
    ('word.stl', b'solid s\nvertex 0 0 x\nvertex 1 0 0\nvertex 0 1 0\nendsolid s\n',
     'not a number'),
    ('inf.stl', _binary_stl([[(0, 0, 0), (float('inf'), 0, 0), (0, 1, 0)]]), 'not finite'),
    ('nan.obj', b'v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n', 'not finite'),
    ('beyond.obj', b'v 0 0 0\nf 1 2 3\n', 'not defined'),
    ('zero.obj', b'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n', 'not defined'),
    ('back-too-far.obj', b'v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 1 0\n', 'not defined'),
    ('letters.obj', b'v 0 0 0\nv 1 0 0\nv 0 1 0\nf a b c\n', 'not a vertex index'),
    ('short-v.obj', b'v 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n', 'fewer than 3 numbers'),
    ('points.obj', b'v 0 0 0\nv 1 0 0\n', 'no triangles'),
    ('other.ply', b'ply\n', 'does not measure ".ply"'),
    ('broken.dae', b'<COLLADA><unfinished', 'cannot read COLLADA'),
    ('no-scene.dae', COLLADA.split('<scene>')[0].encode() + b'</COLLADA>', 'cannot read COLLADA'),
    ('all-infinite.dae', re.sub(r'(<float_array id="a" count="21">)[^<]*',
                                r'\1' + '-inf ' * 21, COLLADA).encode(), 'no triangles'),
    ('entity.dae', b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                   b'<COLLADA>&e;</COLLADA>', "Entity 'e' not defined"),
])
def test_what_is_not_measured_says_why(tmp_path: Path, name: str, content: bytes,
                                       problem: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    facts = read_mesh_facts(str(path))
    assert not facts.readable
    assert problem in str(facts.problem)
    assert (facts.lower, facts.upper, facts.triangles) == (None, None, 0)
    assert mesh_bounds(str(path)) is None


def test_a_file_over_the_size_bound_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(SAMPLE / 'beacon.stl')
    assert read_mesh_facts(path).readable
    monkeypatch.setattr(mesh_facts, 'MAX_BYTES', 100)
    facts = read_mesh_facts(path)
    assert facts == MeshFacts('stl', problem='larger than 100 bytes')


def test_a_missing_file_is_an_error_not_a_fact(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_mesh_facts(str(tmp_path / 'absent.stl'))
    assert mesh_bounds(str(tmp_path / 'absent.stl')) is None


def test_a_check_of_stl_obj_and_collada_meshes_imports_no_trimesh(tmp_path: Path) -> None:
    robot = tmp_path / 'robot.urdf'  # each mesh scaled 1000 times
    robot.write_text(_robot_text(*(SAMPLE / name for name in ('beacon.stl', 'gripper_palm.obj',
                                                              'bumper.dae'))))
    # measured, then measured and kept, then kept (pycollada not imported)
    for use_cache, read in ((False, True), (True, True), (True, False)):
        script = ('import json, sys\n'
                  'from urdf_tools_ros.core.checks import check_description\n'
                  'from urdf_tools_ros.core.source.loader import load\n'
                  f'findings = check_description(load({str(robot)!r}), use_cache={use_cache})\n'
                  'print(json.dumps({"scaled": sorted(f.element for f in findings\n'
                  '                                    if f.code == "mesh-scale-suspect"),\n'
                  '                  "modules": sorted(sys.modules)}))\n')
        done = subprocess.run([sys.executable, '-c', script], cwd=REPO, capture_output=True,
                              text=True, timeout=120,
                              env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path / 'cache')))
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
        # every mesh was measured (a 1000 times scale is found on each link), trimesh was not
        # imported, manifold3d only to measure convex hulls (the cache keeps them)
        assert result['scaled'] == ['link:l0', 'link:l1', 'link:l2']
        assert 'urdf_tools_ros.core.meshes.facts' in result['modules']
        assert 'urdf_tools_ros.core.meshes.triangles' not in result['modules']
        roots = {name.split('.')[0] for name in result['modules']}
        assert 'trimesh' not in roots
        assert ('collada' in roots) == read
        assert 'manifold3d' not in roots or read


def test_a_missing_texture_prints_nothing(tmp_path: Path) -> None:
    """A texture trimesh cannot load is logged, never printed: no stderr from the checker."""
    path = tmp_path / 'textured.dae'
    text = (SAMPLE / 'bumper.dae').read_text(encoding='utf-8').replace(
        '<library_effects>', '<library_images><image id="i"><init_from>absent.png</init_from>'
        '</image></library_images><library_effects>').replace(
        '<technique sid="common">',
        '<newparam sid="s"><surface type="2D"><init_from>i</init_from></surface></newparam>'
        '<newparam sid="t"><sampler2D><source>s</source></sampler2D></newparam>'
        '<technique sid="common">')
    path.write_text(re.sub('<diffuse>.*</diffuse>',
                           '<emission><texture texture="t" texcoord="uv"/></emission>', text),
                    encoding='utf-8')
    script = ('import sys\n'
              'from urdf_tools_ros.core.meshes.facts import mesh_bounds\n'
              'print(mesh_bounds(sys.argv[1]) is not None)\n')
    done = subprocess.run([sys.executable, '-c', script, str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, 'True\n', '')


NO_HULL = missing('manifold3d')
NO_MUJOCO = missing('mujoco')


def _cube_obj() -> bytes:
    """The cube of ``CUBE`` as an OBJ file of 8 vertices and 6 quads (fans of 2 triangles)."""
    points = box_corners((0, 0, 0), (0.1,) * 3)
    return (''.join(f'v {x!r} {y!r} {z!r}\n' for x, y, z in points.tolist())
            + ''.join(f'f {a + 1} {b + 1} {c + 1} {d + 1}\n' for a, b, c, d in SIDES)).encode()


#: A tetrahedron of corners 0 and 0.1 along each axis, facing out: 1/6 of its box, 1/6000 m³.
TETRAHEDRON = np.array([[(0, 0, 0), (0, 0.1, 0), (0.1, 0, 0)],
                        [(0, 0, 0), (0.1, 0, 0), (0, 0, 0.1)],
                        [(0, 0, 0), (0, 0, 0.1), (0, 0.1, 0)],
                        [(0.1, 0, 0), (0, 0.1, 0), (0, 0, 0.1)]])


@pytest.mark.parametrize('name, content, watertight, volume, pyramid, thickness, hull', [
    # the hull is measured only where the box holds over 3 times the volume (a cube: no hull)
    ('cube.stl', binary_stl(CUBE), True, 1e-3, 1e-3, 0.1, None),
    ('cube.obj', _cube_obj(), True, 1e-3, 1e-3, 0.1, None),
    ('ascii.stl', ascii_stl(CUBE), True, 1e-3, 1e-3, 0.1, None),
    ('inside-out.stl', binary_stl(CUBE[:, ::-1]), True, -1e-3, 1e-3, 0.1, None),
    ('tetrahedron.stl', binary_stl(TETRAHEDRON), True, 1 / 6000, 1 / 6000, None, 1 / 6000),
    ('open.stl', binary_stl(CUBE[:-2]), False, None, None, 0.1, None),  # no top
    ('doubled.stl', binary_stl(np.concatenate([CUBE, CUBE[:1]])), False, None, None, 0.1,
     None),
    ('channel.stl', binary_stl(CHANNEL), True, 0.26, None, 1.0, 1.0),
    ('quad.stl', binary_stl(QUAD), False, None, 0.0, 0.0, None),
    # thinner than a cell of the grid vertices are merged on (solids.MERGE): both sides one
    ('plate.stl', binary_stl(box((0, 0, 0), (0.1, 0.1, 1e-9))), False, 1e-11, 1e-11, 1e-9,
     None),
    ('thick-plate.stl', binary_stl(box((0, 0, 0), (0.1, 0.1, 1e-6))), True, 1e-8, 1e-8, 1e-6,
     None),  # fills its box
    # MuJoCo's volume is of the first object of an OBJ file
    ('quad-then-cube.obj', obj(QUAD, CUBE), False, None, 0.0, 0.5, None),
    ('cube-then-quad.obj', obj(CUBE, QUAD + 1), False, None, 1e-3, None, None),
])
def test_what_a_mesh_encloses(tmp_path: Path, name: str, content: bytes, watertight: bool,
                              volume: float | None, pyramid: float | None,
                              thickness: float | None, hull: float | None) -> None:
    """Boxes of known volume (float32 corners: 1e-7 relative), written as STL and OBJ."""
    path = tmp_path / name
    path.write_bytes(content)
    assert read_mesh_facts(str(path)).solid is None  # measured when asked for
    facts = read_mesh_facts(str(path), solid=True)
    solid = facts.solid
    assert facts.readable and solid is not None and solid.watertight == watertight
    assert facts.ascii == (name == 'ascii.stl')
    for value, expected in ((solid.volume, volume), (solid.pyramid_volume, pyramid),
                            (solid.thickness, thickness)):
        if expected is not None:
            np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-16)
    assert facts.flat == (name == 'quad.stl')
    if NO_HULL is not None or hull is None:
        assert solid.hull_volume is None
    else:
        np.testing.assert_allclose(solid.hull_volume, hull, rtol=1e-6)


@pytest.mark.parametrize('content, ascii, problem', [
    (b'', True, 'neither a binary STL'),
    (binary_stl(CUBE[:0]), False, NO_TRIANGLES),
    (binary_stl(CUBE * [1, 1, np.nan]), False, NOT_FINITE),
    (binary_stl(CUBE)[:-1], True, 'neither a binary STL'),
])
def test_an_stl_that_is_not_measured_still_says_whether_it_is_binary(
        tmp_path: Path, content: bytes, ascii: bool, problem: str) -> None:
    path = tmp_path / 'part.stl'
    path.write_bytes(content)
    facts = read_mesh_facts(str(path))
    assert (facts.ascii, facts.triangles) == (ascii, 0)
    assert problem in str(facts.problem)


def _trimesh_solid(path: Path) -> tuple[bool, float] | None:
    """``(watertight, volume)`` as trimesh measures the file's one mesh."""
    import trimesh
    try:
        mesh = trimesh.load(str(path), force='mesh', process=False)
    except Exception:  # noqa: B902 whatever trimesh raises: it does not read the file
        return None
    if not isinstance(mesh, trimesh.Trimesh) or not len(mesh.faces):
        return None
    mesh.merge_vertices(merge_tex=True, merge_norm=True)  # positions only, as the checker
    faces = mesh.faces
    mesh.update_faces((faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2])
                      & (faces[:, 2] != faces[:, 0]))  # a corner twice: no triangle
    return bool(mesh.is_watertight and mesh.is_winding_consistent), float(mesh.volume)


def _mujoco_hull_volume(path: Path) -> float | None:
    """The volume of the convex hull MuJoCo (Qhull) makes of a mesh file, ``None`` if it fails."""
    import mujoco
    xml = (f'<mujoco><asset><mesh name="m" file="{path}" inertia="convex"/></asset><worldbody>'
           '<body><geom type="mesh" mesh="m" density="1"/></body></worldbody></mujoco>')
    try:
        return float(mujoco.MjModel.from_xml_string(xml).body_mass[1])  # density 1: m³
    except ValueError:
        return None


@pytest.mark.skipif(NO_TRIMESH is not None, reason=str(NO_TRIMESH))
@pytest.mark.parametrize('root, least', [(SHARED, 150), (CORPUS, 50), (SAMPLE, 2)],
                         ids=['shared', 'corpus', 'sample'])
def test_every_mesh_encloses_what_trimesh_says_in_the_hull_mujoco_makes(root: Path,
                                                                        least: int) -> None:
    """Closed and volume as trimesh says; the hull volume as MuJoCo's (where both measure)."""
    files = [path for path in _files(root) if read_mesh_facts(str(path)).readable]
    if not files and root == SHARED:
        pytest.skip(f'{SHARED} is not here')
    assert len(files) >= least
    wrong, closed, hulls = [], 0, 0
    for path in files:
        solid = read_mesh_facts(str(path), solid=True).solid
        assert solid is not None
        theirs = _trimesh_solid(path)
        if theirs is None:
            continue
        watertight, volume = theirs
        closed += watertight
        if solid.watertight != watertight or watertight and not np.isclose(solid.volume, volume,
                                                                           rtol=1e-6):
            wrong.append(f'{path}: trimesh {theirs}, here {solid}')
        hull = _mujoco_hull_volume(path) if solid.hull_volume and NO_MUJOCO is None else None
        if hull is not None:
            hulls += 1
            if not np.isclose(solid.hull_volume, hull, rtol=1e-6):
                wrong.append(f'{path}: the hull of MuJoCo {hull}, here {solid.hull_volume}')
    assert wrong == []
    assert closed >= least // 2
    assert hulls >= (least // 5 if NO_MUJOCO is None and NO_HULL is None else 0)
