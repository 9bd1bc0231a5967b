"""
Mesh bounding boxes as the checker measures them (``core/description/meshes.py``).

Sizes known by construction (``urdf/meshes/generate_meshes.py``, a hand-written COLLADA scene,
the traffic cone of pybullet's racecar, drawn in inches), COLLADA's ``<unit meter>`` applied as
rviz applies it, every mesh of the real-robot corpus read, and the files that give no box.
"""

from __future__ import annotations

from pathlib import Path
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from urdf_tools_ros.core.meshes import facts as mesh_facts
from urdf_tools_ros.core.meshes.facts import mesh_bounds
from urdf_tools_ros.core.meshes.triangles import collada_unit

SAMPLE = REPO / 'urdf' / 'meshes'
CORPUS = sorted(path for path in (REPO / 'test' / 'corpus').rglob('*')
                if path.suffix.lower() in ('.stl', '.obj', '.dae'))

pytest.importorskip('trimesh')


@pytest.mark.parametrize('name, lower, upper', [
    ('beacon.stl', (-0.02, -0.02, 0.0), (0.02, 0.02, 0.03)),  # binary STL pyramid
    ('gripper_palm.obj', (-0.015, -0.035, -0.02), (0.015, 0.035, 0.02)),
    ('bumper.dae', (0.0, -0.055, 0.0), (0.03, 0.055, 0.04)),
])
def test_bounds_of_the_sample_meshes(name: str, lower: tuple[float, ...],
                                     upper: tuple[float, ...]) -> None:
    bounds = mesh_bounds(str(SAMPLE / name))
    assert bounds is not None
    np.testing.assert_allclose(bounds, (lower, upper), rtol=0, atol=1e-7)


@pytest.mark.parametrize('meter', ['0.001', '0.0254'])
def test_a_collada_unit_scales_the_box(meter: str, tmp_path: Path) -> None:
    path = tmp_path / 'scaled.dae'
    path.write_text(re.sub(r'<unit[^>]*/>', f'<unit name="u" meter="{meter}"/>',
                           (SAMPLE / 'bumper.dae').read_text(encoding='utf-8')),
                    encoding='utf-8')
    bounds = mesh_bounds(str(path))
    assert bounds is not None
    np.testing.assert_allclose(bounds, np.array([[0.0, -0.055, 0.0], [0.03, 0.055, 0.04]])
                               * float(meter), rtol=1e-6, atol=1e-12)


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


COLLADA = """<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimetre" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="g"><mesh>
      <source id="g-pos"><float_array id="g-arr" count="15">
        0 0 0  10 0 0  0 20 0  0 0 30  999 999 999</float_array>
        <technique_common><accessor source="#g-arr" count="5" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/>
          <param name="Z" type="float"/></accessor></technique_common>
      </source>
      <vertices id="g-v"><input semantic="POSITION" source="#g-pos"/></vertices>
      <triangles count="2"><input semantic="VERTEX" source="#g-v" offset="0"/>
        <input semantic="NORMAL" source="#g-pos" offset="1"/><p>0 0 1 1 2 2 0 0 2 2 3 3</p>
      </triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="unused"><node><scale>50 50 50</scale><instance_geometry url="#g"/></node>
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
    np.testing.assert_allclose(bounds, [turned.min(axis=0) * 0.01, turned.max(axis=0) * 0.01],
                               atol=1e-7)  # pycollada's transforms are float32


def test_every_corpus_mesh_is_measured() -> None:
    assert {path.suffix.lower() for path in CORPUS} == {'.stl', '.obj', '.dae'}
    assert len(CORPUS) > 50
    unread = [str(path) for path in CORPUS if mesh_bounds(str(path)) is None]
    assert unread == []


@pytest.mark.parametrize('name, content', [
    ('empty.stl', b''),
    ('nan.stl', b'solid t\nfacet normal 0 0 1\nouter loop\nvertex nan 0 0\nvertex 1 0 0\n'
                b'vertex 0 1 0\nendloop\nendfacet\nendsolid t\n'),
    ('points.obj', b'v 0 0 0\nv 1 0 0\n'),  # no face: rviz draws nothing
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
    assert mesh_bounds(str(SAMPLE / 'gripper_palm.obj')) is not None
    monkeypatch.setattr(mesh_facts, 'MAX_BYTES', 10)
    assert mesh_bounds(str(SAMPLE / 'gripper_palm.obj')) is None


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
