"""The ``tree`` and ``inertia`` subcommands of ``urdf-tools``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
import math
import sys

from urdf_tools_ros.core.model.robot import Box, Capsule, Cylinder, Geometry, Robot, Sphere
from urdf_tools_ros.core.source.loader import RobotDescription
from . import number_argument
from ..core.kinematics.inertia import describe_solid, format_inertia_element, geometry_inertia

AddSource = Callable[[argparse.ArgumentParser], None]
Loader = Callable[[argparse.Namespace], RobotDescription]


# -- tree ---------------------------------------------------------------------------------------
def format_tree(robot: Robot) -> str:
    """
    The link/joint tree like check_urdf, with joint types and mimic relations.

    Every root is printed (a broken model may have several); links on a cycle are not
    reachable from a root and are listed at the end.
    """
    children: dict[str, list[tuple[str, str]]] = {}
    for joint in robot.joints:
        children.setdefault(joint.parent, []).append((joint.name, joint.child))
    joints = robot.joint_map
    child_links = {joint.child for joint in robot.joints}
    roots = [link.name for link in robot.links if link.name not in child_links]
    lines = [f'robot name is: {robot.name}']
    seen: set[str] = set()

    def describe(joint_name: str) -> str:
        joint = joints[joint_name]
        text = f'{joint_name} ({joint.joint_type}'
        if joint.mimic is not None:
            text += (f', mimic {joint.mimic.joint} × {joint.mimic.multiplier:g}'
                     f' + {joint.mimic.offset:g}')
        return text + ')'

    def walk(link: str, prefix: str) -> None:
        seen.add(link)
        branches = children.get(link, [])
        for index, (joint_name, child) in enumerate(branches):
            last = index == len(branches) - 1
            lines.append(f'{prefix}{"└── " if last else "├── "}{child}  '
                         f'[{describe(joint_name)}]')
            if child in seen:
                lines.append(f'{prefix}{"    " if last else "│   "}(cycle)')
                continue
            walk(child, prefix + ('    ' if last else '│   '))

    for root in roots:
        lines.append(f'root link: {root}')
        walk(root, '')
    unreached = [link.name for link in robot.links if link.name not in seen]
    if unreached:
        lines.append('not reachable from a root (cycle or missing parent): '
                     + ', '.join(unreached))
    movable = [j for j in robot.joints if j.is_moving]
    lines.append(f'{len(robot.links)} links, {len(robot.joints)} joints, {len(movable)} movable, '
                 f'{sum(1 for j in movable if j.mimic is not None)} mimic')
    return '\n'.join(lines) + '\n'


def cmd_tree(args: argparse.Namespace, loader: Loader) -> int:
    """Print the tree of the description."""
    try:
        description = loader(args)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        print(f'urdf-tools tree: {exc}', file=sys.stderr)
        return 2
    sys.stdout.write(format_tree(description.robot))
    return 0


# -- inertia ------------------------------------------------------------------------------------
def geometry_from_args(args: argparse.Namespace) -> Geometry:
    """The solid named: ``box X Y Z``, ``cylinder R L``, ``sphere R`` or ``capsule R L`` (m)."""
    if args.shape == 'box':
        return Box((args.x, args.y, args.z))
    if args.shape == 'cylinder':
        return Cylinder(args.radius, args.length)
    if args.shape == 'capsule':
        return Capsule(args.radius, args.length)
    return Sphere(args.radius)


def cmd_inertia(args: argparse.Namespace) -> int:
    """Print the inertia of a solid primitive as an ``<inertia/>`` element."""
    geometry = geometry_from_args(args)  # sizes and mass are finite and > 0 (_positive)
    inertia = geometry_inertia(geometry, args.mass)
    assert inertia is not None  # a primitive always has one
    print(f'<!-- {describe_solid(geometry, args.mass)}, about its centre'
          f'{", axis z" if isinstance(geometry, (Cylinder, Capsule)) else ""} -->')
    print(f'<mass value="{args.mass:g}"/>')
    print(format_inertia_element(inertia, args.digits))
    return 0


#: A finite number above 0 (m or kg).
_positive = number_argument(float, lambda value: math.isfinite(value) and value > 0.0,
                            'a number', 'a finite number above 0')


def add_tree_arguments(tree: argparse.ArgumentParser, add_source: AddSource,
                       loader: Loader) -> None:
    """The arguments of ``urdf-tools tree`` (its parser made by the caller)."""
    tree.description = 'Print the kinematic tree with joint types and mimic.'
    add_source(tree)
    tree.set_defaults(handler=lambda args: cmd_tree(args, loader))


def add_inertia_arguments(inertia: argparse.ArgumentParser) -> None:
    """The arguments of ``urdf-tools inertia`` (its parser made by the caller)."""
    inertia.description = ('Print the inertia tensor of a solid primitive of uniform density '
                           'as a URDF <inertia/> element.')
    inertia.add_argument('--digits', type=int, default=6, help='significant digits')
    shapes = inertia.add_subparsers(dest='shape', metavar='SHAPE', required=True)
    # --digits also after the shape (options in any order); SUPPRESS keeps the one given first
    box = shapes.add_parser('box', help='box X Y Z --mass M (side lengths, m)')
    for axis in ('x', 'y', 'z'):
        box.add_argument(axis, type=_positive, help=f'side length along {axis}, m')
    cylinder = shapes.add_parser('cylinder', help='cylinder R L --mass M (axis z)')
    cylinder.add_argument('radius', type=_positive, help='radius, m')
    cylinder.add_argument('length', type=_positive, help='length along z, m')
    sphere = shapes.add_parser('sphere', help='sphere R --mass M')
    sphere.add_argument('radius', type=_positive, help='radius, m')
    capsule = shapes.add_parser('capsule', help='capsule R L --mass M (URDF 1.1; axis z, L '
                                                'without the caps)')
    capsule.add_argument('radius', type=_positive, help='radius of the cylinder and caps, m')
    capsule.add_argument('length', type=_positive, help='length of the cylinder along z, m')
    for shape in (box, cylinder, sphere, capsule):
        shape.add_argument('--mass', '-m', type=_positive, required=True, help='mass, kg')
        shape.add_argument('--digits', type=int, default=argparse.SUPPRESS,
                           help='significant digits')
    inertia.set_defaults(handler=cmd_inertia)
