"""
Mesh bounding boxes as the checker reads them (``core/description/mesh_extent.py``).

trimesh (the viewer's reader) is the oracle for vertices: every STL, OBJ and COLLADA file of the
real-robot corpus (``test/corpus``) and of ``urdf/meshes`` must give trimesh's box. COLLADA's
``<unit meter>``, which rviz applies (its mesh loader rescales by it) and trimesh does not, is
tested on its own.
"""

from __future__ import annotations

from pathlib import Path
import re

import numpy as np
import pytest

from conftest import REPO
from urdf_tools_ros.core.description import mesh_extent
from urdf_tools_ros.core.description.mesh_extent import collada_unit, mesh_bounds

MESHES = sorted(path for folder in (REPO / 'test' / 'corpus', REPO / 'urdf' / 'meshes')
                for path in folder.rglob('*')
                if path.suffix.lower() in ('.stl', '.obj', '.dae'))


def trimesh_bounds(path: Path) -> np.ndarray:
    trimesh = pytest.importorskip('trimesh')
    return np.asarray(trimesh.load(str(path), force='scene').bounds)


def test_the_corpus_has_each_format() -> None:
    assert {path.suffix.lower() for path in MESHES} == {'.stl', '.obj', '.dae'}
    assert len(MESHES) > 50


@pytest.mark.parametrize('path', MESHES, ids=lambda path: str(path.relative_to(REPO)))
def test_bounds_are_trimeshs(path: Path) -> None:
    expected = trimesh_bounds(path)
    bounds = mesh_bounds(str(path))
    assert bounds is not None
    size = float(np.max(expected[1] - expected[0]))
    np.testing.assert_allclose(np.array(bounds), expected, rtol=0, atol=1e-6 * max(size, 1.0))


CUBE_DAE = REPO / 'urdf' / 'meshes' / 'bumper.dae'


def test_collada_unit_scales_the_box(tmp_path: Path) -> None:
    text = CUBE_DAE.read_text(encoding='utf-8')
    plain = mesh_bounds(str(CUBE_DAE))
    assert plain is not None
    assert '<unit' in text
    for meter in ('0.001', '0.0254'):
        path = tmp_path / f'unit_{meter}.dae'
        path.write_text(re.sub(r'<unit[^>]*/>', f'<unit name="u" meter="{meter}"/>', text),
                        encoding='utf-8')
        scaled = mesh_bounds(str(path))
        assert scaled is not None
        np.testing.assert_allclose(np.array(scaled), np.array(plain) * float(meter), rtol=1e-12)


@pytest.mark.parametrize('meter', ['abc', 'nan', '-1', '0'])
def test_a_collada_unit_that_is_no_length_counts_as_one_metre_everywhere(
        meter: str, tmp_path: Path) -> None:
    # The checker's extent and the viewer's scale read the unit one way (1 m unless positive).
    text = CUBE_DAE.read_text(encoding='utf-8')
    path = tmp_path / 'bad_unit.dae'
    path.write_text(re.sub(r'<unit[^>]*/>', f'<unit name="u" meter="{meter}"/>', text),
                    encoding='utf-8')
    assert collada_unit(str(path)) == 1.0
    plain, bounds = mesh_bounds(str(CUBE_DAE)), mesh_bounds(str(path))
    assert plain is not None and bounds is not None
    np.testing.assert_allclose(np.array(bounds), np.array(plain) / collada_unit(str(CUBE_DAE)),
                               rtol=1e-12)


COLLADA = """<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimetre" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="g"><mesh>
      <source id="g-pos"><float_array id="g-arr" count="15">
        0 0 0  10 0 0  0 20 0  0 0 30  999 999 999</float_array>
        <technique_common><accessor source="#g-arr" count="5" stride="3"/></technique_common>
      </source>
      <vertices id="g-v"><input semantic="POSITION" source="#g-pos"/></vertices>
      <triangles count="2"><input semantic="VERTEX" source="#g-v" offset="0"/>
        <input semantic="NORMAL" source="#g-pos" offset="1"/><p>0 0 1 1 2 2 0 0 2 2 3 3</p>
      </triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="unused"><node><instance_geometry url="#g"/><scale>50 50 50</scale></node>
    </visual_scene>
    <visual_scene id="s">
      <node><translate>100 0 0</translate>
        <node><rotate>0 0 1 90</rotate><scale>2 1 1</scale><instance_geometry url="#g"/></node>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""


def test_collada_scene_nodes_and_indices(tmp_path: Path) -> None:
    path = tmp_path / 'moved.dae'
    path.write_text(COLLADA, encoding='utf-8')
    bounds = mesh_bounds(str(path))
    assert bounds is not None
    # the scene the <scene> names; only the indexed vertices (not 999); nodes applied outermost
    # first: scale x by 2, turn 90 degrees about z, move by 100 along x; then centimetres
    used = np.array([[0, 0, 0], [10, 0, 0], [0, 20, 0], [0, 0, 30]], dtype=float)
    scaled = used * (2, 1, 1)
    turned = np.stack([-scaled[:, 1], scaled[:, 0], scaled[:, 2]], axis=1) + (100, 0, 0)
    np.testing.assert_allclose(bounds[0], turned.min(axis=0) * 0.01, atol=1e-12)
    np.testing.assert_allclose(bounds[1], turned.max(axis=0) * 0.01, atol=1e-12)


def test_binary_and_ascii_stl_and_obj_faces(tmp_path: Path) -> None:
    ascii_stl = tmp_path / 'a.stl'
    ascii_stl.write_text('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 2 0 0\n'
                         'vertex 0 3 -1\nendloop\nendfacet\nendsolid t\n')
    assert [list(v) for v in mesh_bounds(str(ascii_stl))] == [[0, 0, -1], [2, 3, 0]]
    triangle = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 5]], dtype='<f4')
    binary = tmp_path / 'b.STL'
    binary.write_bytes(b'\0' * 80 + (1).to_bytes(4, 'little') + b'\0' * 12
                       + triangle.tobytes() + b'\0\0')
    assert [list(v) for v in mesh_bounds(str(binary))] == [[0, 0, 0], [0, 1, 5]]
    obj = tmp_path / 'o.obj'
    # the vertex far away is not used by the face: consumers draw faces
    obj.write_text('v 0 0 0\nv 1 0 0\nv 0 1 0\nv 100 100 100\nf 1/1/1 2//2 -2\n')
    assert [list(v) for v in mesh_bounds(str(obj))] == [[0, 0, 0], [1, 1, 0]]


@pytest.mark.parametrize('name, content', [
    ('empty.stl', b''),
    ('nan.stl', b'solid t\nvertex nan 0 0\nendsolid t\n'),
    ('bad.obj', b'v 0 0 0\nf 1 2 3\n'),
    ('bad.dae', b'<COLLADA><unfinished'),
    ('other.ply', b'ply\n'),
    ('entity.dae', b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                   b'<COLLADA>&e;</COLLADA>'),
])
def test_unreadable_files_give_none(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert mesh_bounds(str(path)) is None
    assert mesh_bounds(str(tmp_path / 'absent.stl')) is None


def test_a_file_over_the_limit_is_not_read(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'a.obj'
    path.write_text('v 0 0 0\nv 1 1 1\n')
    assert mesh_bounds(str(path)) is not None
    monkeypatch.setattr(mesh_extent, 'MAX_BYTES', 10)
    assert mesh_bounds(str(path)) is None
