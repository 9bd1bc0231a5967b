"""
Generate a large URDF, deterministically: 20,000 links (about 48 MB) shaped like real robots.

Every link but the root has what an exported robot's link has: an ``<inertial>`` (origin,
mass, the tensor of the solid of its collision shape, so valid), two ``<visual>`` elements
(origin, box/cylinder/sphere, a named material with its colour) and a ``<collision>`` (origin,
the same shape), numbers written with the 17 digits CAD exporters write. Every joint is
revolute (origin, axis, limit, dynamics) with a ros_control ``<transmission>``. The tree is
chains of 20 links, each hung from an earlier link chosen with a seeded random generator, so
the depth stays that of real kinematic chains. Nothing refers to a file: the checkers compared
read only this one. The same arguments give byte for byte the same file (20,000 links: 47.6 MB;
``urdf-tools check`` reports one info, the massless root).

Used by ``bench/bench_check.py --large`` (``urdf-tools check`` against urdfdom's ``check_urdf``
on it). Run alone: ``python3 bench/gen_large_urdf.py OUT.urdf [--links 20000]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import random
import sys

#: Links in a chain before the next chain is hung from an earlier link.
CHAIN = 20
SHAPES = ('box', 'cylinder', 'sphere')


def _number(rng: random.Random, low: float, high: float) -> str:
    """A number as CAD exporters write it: 17 significant digits."""
    return repr(rng.uniform(low, high))


def _xyz(rng: random.Random, scale: float) -> str:
    return ' '.join(_number(rng, -scale, scale) for _ in range(3))


def _shape(kind: str, size: tuple[float, float, float], mass: float) -> tuple[str, str]:
    """The shape's element and the ``<inertia>`` of a solid of that shape and mass."""
    if kind == 'box':
        x, y, z = size
        element = f'<box size="{x!r} {y!r} {z!r}"/>'
        moments = (mass * (y * y + z * z) / 12, mass * (x * x + z * z) / 12,
                   mass * (x * x + y * y) / 12)
    elif kind == 'cylinder':
        radius, length = size[0] / 2, size[2]
        element = f'<cylinder radius="{radius!r}" length="{length!r}"/>'
        side = mass * (3 * radius * radius + length * length) / 12
        moments = (side, side, mass * radius * radius / 2)
    else:
        radius = min(size) / 2
        element = f'<sphere radius="{radius!r}"/>'
        moments = (2 * mass * radius * radius / 5,) * 3
    inertia = (f'<inertia ixx="{moments[0]!r}" ixy="0.0" ixz="0.0" iyy="{moments[1]!r}" '
               f'iyz="0.0" izz="{moments[2]!r}"/>')
    return element, inertia


def link_xml(rng: random.Random, index: int) -> str:
    """One ``<link>`` with inertial, visual and collision, as an exporter writes it."""
    size = (rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.3))
    mass = rng.uniform(0.1, 5.0)
    shape, inertia = _shape(SHAPES[index % len(SHAPES)], size, mass)
    colour = ' '.join(_number(rng, 0.0, 1.0) for _ in range(3))
    name = f'link_{index}'
    # The root has none, as KDL (robot_state_publisher) ignores a root link's inertia.
    inertial = '' if index == 0 else (
        '    <inertial>\n'
        f'      <origin xyz="{_xyz(rng, 0.05)}" rpy="0 0 0"/>\n'
        f'      <mass value="{mass!r}"/>\n'
        f'      {inertia}\n'
        '    </inertial>\n')
    return (
        f'  <link name="{name}">\n'
        f'{inertial}'
        f'    <visual name="{name}_visual">\n'
        f'      <origin xyz="{_xyz(rng, 0.05)}" rpy="{_xyz(rng, 3.14)}"/>\n'
        f'      <geometry>\n        {shape}\n      </geometry>\n'
        f'      <material name="{name}_material">\n'
        f'        <color rgba="{colour} 1.0"/>\n'
        '      </material>\n'
        '    </visual>\n'
        f'    <visual name="{name}_marker">\n'
        f'      <origin xyz="{_xyz(rng, 0.05)}" rpy="{_xyz(rng, 3.14)}"/>\n'
        f'      <geometry>\n        <sphere radius="{rng.uniform(0.005, 0.01)!r}"/>\n'
        '      </geometry>\n'
        f'      <material name="{name}_material"/>\n'
        '    </visual>\n'
        f'    <collision name="{name}_collision">\n'
        f'      <origin xyz="{_xyz(rng, 0.05)}" rpy="{_xyz(rng, 3.14)}"/>\n'
        f'      <geometry>\n        {shape}\n      </geometry>\n'
        '    </collision>\n'
        '  </link>\n')


def joint_xml(rng: random.Random, index: int, parent: int) -> str:
    """The revolute ``<joint>`` that hangs ``link_{index}`` from ``link_{parent}``."""
    axis = ('1 0 0', '0 1 0', '0 0 1')[index % 3]
    lower = rng.uniform(-3.0, -0.1)
    upper = rng.uniform(0.1, 3.0)
    return (
        f'  <joint name="joint_{index}" type="revolute">\n'
        f'    <parent link="link_{parent}"/>\n'
        f'    <child link="link_{index}"/>\n'
        f'    <origin xyz="{_xyz(rng, 0.3)}" rpy="{_xyz(rng, 1.57)}"/>\n'
        f'    <axis xyz="{axis}"/>\n'
        f'    <limit lower="{lower!r}" upper="{upper!r}" effort="{rng.uniform(1, 300)!r}" '
        f'velocity="{rng.uniform(0.5, 10)!r}"/>\n'
        f'    <dynamics damping="{rng.uniform(0, 1)!r}" friction="{rng.uniform(0, 1)!r}"/>\n'
        '  </joint>\n'
        f'  <transmission name="joint_{index}_transmission">\n'
        '    <type>transmission_interface/SimpleTransmission</type>\n'
        f'    <joint name="joint_{index}">\n'
        '      <hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>\n'
        '    </joint>\n'
        f'    <actuator name="joint_{index}_motor">\n'
        '      <hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>\n'
        f'      <mechanicalReduction>{rng.uniform(1, 160)!r}</mechanicalReduction>\n'
        '    </actuator>\n'
        '  </transmission>\n')


def generate(path: Path, links: int = 20000, seed: int = 0) -> Path:
    """
    Write the URDF to ``path``.

    :param links: Links in the tree (joints: one fewer).
    :param seed: The random generator's seed; same arguments, same bytes.
    :return: ``path``.
    """
    rng = random.Random(seed)
    with path.open('w', encoding='utf-8') as out:
        out.write('<?xml version="1.0"?>\n<robot name="large_robot">\n')
        for index in range(links):
            out.write(link_xml(rng, index))
            if index:
                parent = index - 1 if index % CHAIN else rng.randrange(index)
                out.write(joint_xml(rng, index, parent))
        out.write('</robot>\n')
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('out', type=Path)
    parser.add_argument('--links', type=int, default=20000)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    generate(args.out, args.links, args.seed)
    print(f'{args.out}: {args.links} links, {args.out.stat().st_size / 1e6:.1f} MB')
    return 0


if __name__ == '__main__':
    sys.exit(main())
