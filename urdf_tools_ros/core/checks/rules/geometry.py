"""
Geometry rules for every ``<visual>`` and ``<collision>``: presence, sizes, mesh files.

urdfdom drops a visual or collision without a known geometry and accepts any size. A zero size
is degenerate, except a visual whose sizes are all 0 (the "invisible visual" of frame links); a
negative mesh scale mirrors. rviz, Gazebo and MoveIt read ``.stl``, ``.dae`` and ``.obj``;
pybullet 3.2 refuses other formats; MuJoCo decodes STL, OBJ and MSH only and discards visuals.
Measured with pybullet 3.2.7 and MuJoCo 4.0 (``test/test_checks_geometry.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import math
import os

import numpy as np

from ..registry import check, CheckContext, format_value, rule, RULES
from ...errors import RobotDescriptionError
from ...findings import Finding, Severity
from ...kinematics.inertia import principal_moment_values
from ...model.robot import (Box, Capsule, Collision, Cylinder, Geometry, geometry_sizes,
                            Link, Mesh, Robot, Sphere, Visual)
from ...source.packages import package_fix

#: Mesh file extensions every common consumer (rviz, Gazebo, MoveIt) reads, lower case.
MESH_EXTENSIONS = ('.stl', '.dae', '.obj')
#: Mesh file extensions MuJoCo decodes, lower case (MuJoCo XML reference, asset/mesh/file).
MUJOCO_MESH_EXTENSIONS = ('.stl', '.obj', '.msh')

_GEOMETRY = 'URDF spec, link/visual/geometry'
SIZE_NEGATIVE = rule('geometry-size-negative', Severity.WARNING,
                     'a box side, cylinder radius or length, or sphere radius is < 0',
                     consumers=('mujoco',),
                     reference=(_GEOMETRY + '; MuJoCo "size must be positive in geom" (on a '
                                'collision: MuJoCo discards URDF visuals)'))
SIZE_ZERO = rule('geometry-size-zero', Severity.WARNING,
                 'a size is 0 (degenerate shape) or a mesh scale factor is 0', reference=_GEOMETRY)
GEOMETRY_MISSING = rule('geometry-missing', Severity.WARNING,
                        'a <visual> or <collision> has no geometry', source='urdfdom',
                        consumers=('urdfdom', 'urdf_parser_py', 'mujoco'),
                        reference=(_GEOMETRY + '; urdfdom drops the element ("Could not '
                                   'parse visual element"); urdf_parser_py refuses it, MuJoCo '
                                   'too on a collision (it discards URDF visuals)'))
MESH_FILE_MISSING = rule('mesh-file-missing', Severity.WARNING,
                         'a mesh file cannot be resolved or does not exist (MuJoCo refuses '
                         'the file when the mesh is a collision; it discards visuals)',
                         consumers=('mujoco',),
                         reference=_GEOMETRY + '/mesh; REP 144 (package:// URIs); MuJoCo '
                                               '"Error opening file" (collision meshes)')
MESH_EXTENSION = rule('mesh-extension-unsupported', Severity.WARNING,
                      'a mesh is not .stl, .dae or .obj: rviz reads it only through assimp, '
                      'pybullet refuses the file, MuJoCo too when it is a collision',
                      consumers=('mujoco',),
                      reference=(_GEOMETRY + '/mesh; pybullet "Cannot load URDF file"; MuJoCo '
                                 '"no decoder found for mesh file" (it reads STL, OBJ, MSH)'))
COLLISION_MESH_DAE = rule(
    'collision-mesh-dae', Severity.INFO,
    'a <collision> mesh is COLLADA (.dae): ROS tools, Gazebo and pybullet read it, MuJoCo '
    'refuses the file', consumers=('mujoco',),
    reference='MuJoCo XML reference, asset/mesh/file (STL, OBJ, MSH): "no decoder found for '
              'mesh file"')

CAPSULE_RVIZ = rule(
    'geometry-capsule-not-drawn', Severity.WARNING,
    'a URDF 1.1+ <capsule>: urdfdom 6.0 and pinocchio read it, but the RViz of ROS 2 Humble to '
    "Lyrical draws nothing for it (Rolling since ros2/rviz#1735) and Gazebo's URDF conversion "
    'does not convert it (urdf_parser_py refuses the 1.1 file: urdf-parser-py-version)',
    consumers=('rviz-without-capsules',),
    reference='ros2/rviz#1734 ("Unsupported geometry type for element: 4"), #1735 (merged '
              'for Rolling 2026-05-29); gazebosim/sdformat#1654 (open); ros/urdf_parser_py#96 '
              '(open): read from their sources and threads, not run here')

MESH_SCALE = rule(
    'mesh-scale-suspect', Severity.WARNING,
    'a mesh, as scaled, is over 20 times larger than the whole robot as its joints place it, '
    "and than its link's shapes and inertia say: a mesh in millimetres read as metres, the "
    'giant robot in RViz and Gazebo',
    reference=_GEOMETRY + '/mesh (lengths in m; STL and OBJ carry no unit; COLLADA <unit>)')
_MUJOCO_COLLISION = '; MuJoCo refuses the file (a collision: "Error opening file")'
_MUJOCO_ALSO_COLLISION = ('; a collision of the link uses it too, and MuJoCo refuses the file '
                          '("Error opening file")')
#: How many times larger than every other size of its link a mesh must be to be reported.
MESH_SCALE_RATIO = 20.0


def _elements(link: Link) -> Iterator[tuple[str, Visual | Collision]]:
    """Yield ``(description, element)`` for each visual and collision of ``link``."""
    elements: list[tuple[str, Sequence[Visual | Collision]]] = [
        ('visual', link.visuals), ('collision', link.collisions)]
    for kind, group in elements:
        for index, element in enumerate(group, 1):
            label = f'"{element.name}"' if element.name else f'#{index}'
            yield f'{kind} {label}', element


def _consumers(rule_consumers: Sequence[str], element: Visual | Collision) -> tuple[str, ...]:
    """The consumers a defect of ``element`` breaks: MuJoCo only on a collision (discardvisual)."""
    if isinstance(element, Visual):
        return tuple(name for name in rule_consumers if name != 'mujoco')
    return tuple(rule_consumers)


def _text(geometry: Geometry) -> str:
    """The geometry as written, e.g. ``box size="0 1 1"`` or ``cylinder radius=0.1 length=0``."""
    if isinstance(geometry, (Box, Mesh)):
        values = geometry.size if isinstance(geometry, Box) else geometry.scale
        attribute = 'size' if isinstance(geometry, Box) else 'scale'
        text = ' '.join(map(format_value, values))
        return f'{type(geometry).__name__.lower()} {attribute}="{text}"'
    return f'{type(geometry).__name__.lower()} ' + ' '.join(
        f'{name}={format_value(value)}' for name, value in geometry_sizes(geometry))


@check(codes=(SIZE_NEGATIVE, SIZE_ZERO, GEOMETRY_MISSING))
def check_geometry(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report visuals and collisions without geometry or with negative or zero sizes.

    In a URDF 1.2 file urdfdom 6.0 drops a box, cylinder, sphere or capsule whose sizes are not
    all > 0 ("... must be positive finite values", then "Could not parse visual element"): there
    such a size breaks urdfdom, the all-zero "invisible visual" idiom included.
    """
    strict = ctx.urdf_version >= (1, 2)
    dropped = '; urdfdom 6.0 drops the element in a URDF 1.2 file'
    for link in ctx.robot.links:
        for label, element in _elements(link):
            geometry = element.geometry
            where = getattr(geometry, 'location', None) or element.location or link.location
            if geometry is None and element.unknown_shape is not None:
                continue  # the reader's geometry-unknown
            if geometry is None:
                yield ctx.finding(GEOMETRY_MISSING, f'link:{link.name}',
                                  f'link "{link.name}": {label} has no geometry', where,
                                  'add <geometry> with one <box>, <cylinder>, <sphere> or <mesh>',
                                  consumers=_consumers(RULES[GEOMETRY_MISSING].consumers, element))
                continue
            sizes = geometry_sizes(geometry)
            if not all(math.isfinite(value) for _, value in sizes):
                continue  # the loader reports NaN and inf
            is_mesh = isinstance(geometry, Mesh)
            urdfdom = ('urdfdom',) if strict and not is_mesh else ()
            if not is_mesh and any(value < 0 for _, value in sizes):
                yield ctx.finding(SIZE_NEGATIVE, f'link:{link.name}',
                                  f'link "{link.name}": {label} {_text(geometry)}: a size is '
                                  f'< 0{dropped if urdfdom else ""}', where,
                                  'sizes are lengths in m, > 0',
                                  consumers=_consumers(RULES[SIZE_NEGATIVE].consumers, element)
                                  + urdfdom)
                continue
            zeros = [value == 0 for _, value in sizes]
            placeholder = isinstance(element, Visual) and not is_mesh and all(zeros)
            if any(zeros) and (not placeholder or urdfdom):
                what = ('a 0 factor flattens the mesh (negative factors mirror it and are '
                        'fine)' if is_mesh else 'a size is 0, the shape is degenerate')
                yield ctx.finding(SIZE_ZERO, f'link:{link.name}',
                                  f'link "{link.name}": {label} {_text(geometry)}: {what}'
                                  f'{dropped if urdfdom else ""}',
                                  where, None if is_mesh else 'give every size > 0, in m',
                                  consumers=urdfdom or None)


def _package(filename: str) -> str | None:
    if filename.startswith('package://'):
        return filename[len('package://'):].partition('/')[0] or None
    return None


@check(codes=(CAPSULE_RVIZ,))
def check_capsules(ctx: CheckContext) -> Iterator[Finding]:
    """Say once, at the first, which consumers do not draw or read the robot's capsules."""
    found = [(link, element) for link in ctx.robot.links for _, element in _elements(link)
             if isinstance(element.geometry, Capsule)]
    if not found or ctx.urdf_version < (1, 1):  # in 1.0, geometry-unknown says more
        return
    names = sorted({link.name for link, _ in found})
    shown = ', '.join(f'"{name}"' for name in names[:3]) + (
        f' and {len(names) - 3} more' if len(names) > 3 else '')
    link, element = found[0]
    yield ctx.finding(CAPSULE_RVIZ, f'link:{link.name}',
                      f'{len(found)} capsule{"s" if len(found) > 1 else ""} (link {shown}): '
                      'the RViz of Humble to Lyrical draws nothing for them (Rolling does) and '
                      'Gazebo does not convert them', element.location or link.location,
                      'for RViz on Lyrical and Gazebo, a cylinder and two spheres '
                      '(urdf-tools convert --to 1.0 writes them)')


@check(codes=(MESH_FILE_MISSING, MESH_EXTENSION, COLLISION_MESH_DAE))
def check_meshes(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report mesh files that cannot be found and unusual mesh formats.

    One finding per link and file: a visual and a collision that share a mesh are reported once
    (breaking MuJoCo when the collision does).
    """
    for link in ctx.robot.links:
        seen: set[tuple[str, str]] = set()
        collided = {element.geometry.filename for element in link.collisions
                    if isinstance(element.geometry, Mesh)}
        for label, element in _elements(link):
            mesh = element.geometry
            if not isinstance(mesh, Mesh) or not mesh.filename:
                continue
            where = mesh.location or element.location or link.location
            extension = os.path.splitext(mesh.filename)[1]
            mujoco_refuses = (mesh.filename in collided
                              and extension.lower() not in MUJOCO_MESH_EXTENSIONS)
            if extension.lower() not in MESH_EXTENSIONS and ('ext', mesh.filename) not in seen:
                seen.add(('ext', mesh.filename))
                yield ctx.finding(MESH_EXTENSION, f'link:{link.name}',
                                  f'link "{link.name}": {label} mesh "{mesh.filename}" is '
                                  f'"{extension or "(no extension)"}", not one of '
                                  f'{", ".join(MESH_EXTENSIONS)} that rviz, Gazebo and MoveIt '
                                  'all read; pybullet refuses the file'
                                  + (', MuJoCo too (a collision)' if mujoco_refuses else ''),
                                  where, 'convert it to .stl, .dae or .obj',
                                  consumers=('mujoco',) if mujoco_refuses else ())
            elif (mujoco_refuses and isinstance(element, Collision)
                  and ('dae', mesh.filename) not in seen):
                seen.add(('dae', mesh.filename))
                yield ctx.finding(COLLISION_MESH_DAE, f'link:{link.name}',
                                  f'link "{link.name}": {label} mesh "{mesh.filename}" is '
                                  'COLLADA: MuJoCo refuses the file', where,
                                  'for MuJoCo, export the collision mesh as .stl or .obj (the '
                                  'visual may stay .dae)')
            if ('file', mesh.filename) in seen:
                continue
            reason = mesh_file_problem(mesh)
            if reason is not None:
                seen.add(('file', mesh.filename))
                in_collision = mesh.filename in collided
                yield ctx.finding(MESH_FILE_MISSING, f'link:{link.name}',
                                  f'link "{link.name}": {label} mesh "{mesh.filename}": '
                                  f'{reason}' + (_MUJOCO_COLLISION if isinstance(
                                      element, Collision) else _MUJOCO_ALSO_COLLISION
                                      if in_collision else ''),
                                  where, _missing_fix(mesh),
                                  consumers=('mujoco',) if in_collision else ())


def mesh_file_problem(mesh: Mesh) -> str | None:
    """Say why a mesh file is not there (``mesh-file-missing``), or return ``None``."""
    if mesh.resolved is None:
        package = _package(mesh.filename)
        if package is not None:
            return f'package "{package}" is not found, so the path cannot be resolved'
        if mesh.filename.startswith('package://'):
            return 'the package:// URI names no package (package:/// has three slashes)'
        if '://' in mesh.filename and not mesh.filename.startswith('file://'):
            return 'this URI scheme is not resolved to a local file (only package:// and ' \
                'file://)'
        return 'the path cannot be resolved (a relative path in a description without a file)'
    if not os.path.isfile(mesh.resolved):
        return f'the file {mesh.resolved} does not exist'
    return None


def _missing_fix(mesh: Mesh) -> str | None:
    package = _package(mesh.filename)
    if mesh.resolved is None and package is not None:
        return package_fix(package)
    if mesh.resolved is None and mesh.filename.startswith('package:///'):
        return 'write package://<package>/<path>, two slashes'
    return None


def _extent(geometry: Geometry | None) -> float:
    """The largest side of a primitive's bounding box, m (0 for a mesh or nothing)."""
    if isinstance(geometry, Box):
        return max(abs(side) for side in geometry.size)
    if isinstance(geometry, Cylinder):
        return max(2 * abs(geometry.radius), abs(geometry.length))
    if isinstance(geometry, Sphere):
        return 2 * abs(geometry.radius)
    if isinstance(geometry, Capsule):
        return max(2 * abs(geometry.radius), abs(geometry.length) + 2 * abs(geometry.radius))
    return 0.0


def _inertia_length(link: Link) -> float:
    """The length ``sqrt(6 I_max / m)`` the link's inertia implies (solid box), m; 0 if none."""
    inertial = link.inertial
    if inertial is None or not inertial.mass > 0 or not math.isfinite(inertial.mass):
        return 0.0
    largest = max(principal_moment_values(inertial.inertia))
    return math.sqrt(6 * largest / inertial.mass) if largest > 0 else 0.0


def _kinematic_extent(robot: Robot) -> float:
    """The largest side of the box around every link origin at zero, m (0 if none or no tree)."""
    from ...kinematics.forward import KinematicModel  # only for robots with a readable mesh
    try:
        origins = KinematicModel(robot).link_pose_array()[:, :3, 3]
    except RobotDescriptionError:
        return 0.0
    if len(origins) < 2:
        return 0.0
    return float(np.max(origins.max(axis=0) - origins.min(axis=0)))


def _mesh_sides(ctx: CheckContext, path: str, solid: bool) -> tuple[float, ...] | None:
    """
    The sides of a mesh file's box before ``<mesh scale>``, m; ``None`` when not measured.

    :param solid: Whether the mesh is a collision's (its solid is measured, for
        :mod:`.collision_meshes`, in the same read).
    """
    from ...meshes.cache import run_facts
    facts = run_facts(ctx.cache, path, ctx.use_cache, solid)
    if facts is None or facts.lower is None or facts.upper is None:
        return None
    return tuple(high - low for low, high in zip(facts.lower, facts.upper))


@check(codes=(MESH_SCALE,))
def check_mesh_scale(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report a mesh over :data:`MESH_SCALE_RATIO` times larger than every other size of its link.

    The largest evidence counts: the robot's size from its joints, the link's primitives and
    the length its inertia implies. A mesh that is not measured is not judged.
    """
    span: float | None = None  # computed once, and only for a robot with a readable mesh
    read: dict[str, tuple[float, ...] | None] = {}
    collided = {element.geometry.resolved for link in ctx.robot.links
                for element in link.collisions if isinstance(element.geometry, Mesh)}
    for link in ctx.robot.links:
        elements = list(_elements(link))
        evidence: float | None = None
        seen: set[str] = set()
        for label, element in elements:
            mesh = element.geometry
            if not isinstance(mesh, Mesh) or mesh.resolved is None or mesh.filename in seen:
                continue
            seen.add(mesh.filename)
            if mesh.resolved not in read:
                read[mesh.resolved] = _mesh_sides(ctx, mesh.resolved, mesh.resolved in collided)
            sides = read[mesh.resolved]
            if sides is None:
                continue
            if evidence is None:
                if span is None:
                    span = _kinematic_extent(ctx.robot)
                evidence = max([span, _inertia_length(link)]
                               + [_extent(other.geometry) for _, other in elements])
            if not evidence > 0:
                continue
            extent = max(abs(side * factor) for side, factor in zip(sides, mesh.scale))
            ratio = extent / evidence
            if not ratio > MESH_SCALE_RATIO:
                continue
            if 300 <= ratio <= 3000:
                hint = 'likely in millimetres: add scale="0.001 0.001 0.001" to the <mesh>'
            else:
                hint = "scale it to the link's size with <mesh scale>"
            yield ctx.finding(
                MESH_SCALE, f'link:{link.name}',
                f'link "{link.name}": {label} mesh is {extent:.3g} m across, {ratio:.0f} times '
                f"the robot's size from its joints or its link's shapes or inertia "
                f'({evidence:.3g} m); RViz and Gazebo show it that big: "{mesh.filename}"',
                mesh.location or element.location or link.location,
                f'the mesh is {hint} (or export it in metres)')
