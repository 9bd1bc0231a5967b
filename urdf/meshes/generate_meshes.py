#!/usr/bin/env python3
"""Regenerate the tiny sample meshes and texture used by sample_robot.urdf.xacro.

Run once from anywhere: ``python3 urdf/meshes/generate_meshes.py``.
Only the standard library is used.  All sizes are in metres and must stay in
sync with the properties in ``urdf/sample_robot.urdf.xacro``.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TEXTURES = os.path.join(os.path.dirname(HERE), 'textures')


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _normal(a, b, c):
    u, v = _sub(b, a), _sub(c, a)
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = sum(x * x for x in n) ** 0.5
    return tuple(x / length for x in n)


def write_stl(path):
    """Binary STL: square pyramid (beacon), base 0.04 x 0.04 at z=0, apex z=0.03."""
    h, top = 0.02, 0.03
    b = [(-h, -h, 0.0), (h, -h, 0.0), (h, h, 0.0), (-h, h, 0.0)]
    apex = (0.0, 0.0, top)
    tris = [(b[0], b[2], b[1]), (b[0], b[3], b[2])]  # base, facing -z
    tris += [(b[i], b[(i + 1) % 4], apex) for i in range(4)]  # sides, outward
    data = bytearray(b'urdf_tools_ros sample beacon (binary STL)'.ljust(80, b' '))
    data += struct.pack('<I', len(tris))
    for t in tris:
        data += struct.pack('<3f', *_normal(*t))
        for vtx in t:
            data += struct.pack('<3f', *vtx)
        data += struct.pack('<H', 0)
    with open(path, 'wb') as f:
        f.write(data)


def write_obj(path):
    """Wavefront OBJ: closed box 0.03 x 0.07 x 0.04 centred on the origin (gripper palm)."""
    hx, hy, hz = 0.015, 0.035, 0.02
    verts = [(sx * hx, sy * hy, sz * hz)
             for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    # index = 4*(sx>0) + 2*(sy>0) + (sz>0), 1-based in the file
    quads = [(0, 1, 3, 2),  # -x
             (4, 6, 7, 5),  # +x
             (0, 4, 5, 1),  # -y
             (2, 3, 7, 6),  # +y
             (0, 2, 6, 4),  # -z
             (1, 5, 7, 3)]  # +z
    lines = ['# urdf_tools_ros sample gripper palm: box 0.03 x 0.07 x 0.04 m', 'o gripper_palm']
    lines += ['v %.6f %.6f %.6f' % v for v in verts]
    for a, b, c, d in quads:
        lines.append('f %d %d %d' % (a + 1, b + 1, c + 1))
        lines.append('f %d %d %d' % (a + 1, c + 1, d + 1))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def write_dae(path):
    """COLLADA 1.4.1: triangular wedge (bumper), 0.03 deep (x), 0.11 wide (y), 0.04 high (z).

    The URDF scales it by 2 in y to span the 0.22 m chassis.
    """
    d, w, hgt = 0.03, 0.055, 0.04
    prof = [(0.0, 0.0), (d, 0.0), (0.0, hgt)]  # (x, z), counter-clockwise seen from +y
    verts = [(x, -w, z) for x, z in prof] + [(x, w, z) for x, z in prof]
    tris = [(0, 1, 2), (3, 5, 4),            # -y end, +y end
            (0, 3, 4), (0, 4, 1),            # bottom (z=0)
            (0, 2, 5), (0, 5, 3),            # back (x=0)
            (1, 4, 5), (1, 5, 2)]            # sloped front
    pos = ' '.join('%g %g %g' % v for v in verts)
    idx = ' '.join('%d %d %d' % t for t in tris)
    xml = f'''<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset>
    <contributor><authoring_tool>urdf_tools_ros generate_meshes.py</authoring_tool></contributor>
    <created>2024-01-01T00:00:00</created>
    <modified>2024-01-01T00:00:00</modified>
    <unit name="meter" meter="1"/>
    <up_axis>Z_UP</up_axis>
  </asset>
  <library_effects>
    <effect id="orange-effect">
      <profile_COMMON>
        <technique sid="common">
          <phong>
            <diffuse><color sid="diffuse">1 0.5 0 1</color></diffuse>
          </phong>
        </technique>
      </profile_COMMON>
    </effect>
  </library_effects>
  <library_materials>
    <material id="orange-material" name="orange">
      <instance_effect url="#orange-effect"/>
    </material>
  </library_materials>
  <library_geometries>
    <geometry id="bumper-mesh" name="bumper">
      <mesh>
        <source id="bumper-positions">
          <float_array id="bumper-positions-array" count="{3 * len(verts)}">{pos}</float_array>
          <technique_common>
            <accessor source="#bumper-positions-array" count="{len(verts)}" stride="3">
              <param name="X" type="float"/>
              <param name="Y" type="float"/>
              <param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="bumper-vertices">
          <input semantic="POSITION" source="#bumper-positions"/>
        </vertices>
        <triangles material="orange-material" count="{len(tris)}">
          <input semantic="VERTEX" source="#bumper-vertices" offset="0"/>
          <p>{idx}</p>
        </triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="Scene" name="Scene">
      <node id="bumper" name="bumper" type="NODE">
        <instance_geometry url="#bumper-mesh">
          <bind_material>
            <technique_common>
              <instance_material symbol="orange-material" target="#orange-material"/>
            </technique_common>
          </bind_material>
        </instance_geometry>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene>
    <instance_visual_scene url="#Scene"/>
  </scene>
</COLLADA>
'''
    with open(path, 'w') as f:
        f.write(xml)


def write_png(path, n=8, cell=2):
    """Tiny RGB checkerboard PNG (n x n pixels, cell x cell squares)."""
    rows = b''
    for y in range(n):
        row = b'\x00'  # filter type: none
        for x in range(n):
            on = ((x // cell) + (y // cell)) % 2
            row += bytes((230, 230, 230) if on else (40, 40, 40))
        rows += row

    def chunk(tag, payload):
        return (struct.pack('>I', len(payload)) + tag + payload
                + struct.pack('>I', zlib.crc32(tag + payload) & 0xFFFFFFFF))

    png = b'\x89PNG\r\n\x1a\n'
    png += chunk(b'IHDR', struct.pack('>IIBBBBB', n, n, 8, 2, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(rows, 9))
    png += chunk(b'IEND', b'')
    with open(path, 'wb') as f:
        f.write(png)


if __name__ == '__main__':
    os.makedirs(TEXTURES, exist_ok=True)
    write_stl(os.path.join(HERE, 'beacon.stl'))
    write_dae(os.path.join(HERE, 'bumper.dae'))
    write_obj(os.path.join(HERE, 'gripper_palm.obj'))
    write_png(os.path.join(TEXTURES, 'checker.png'))
