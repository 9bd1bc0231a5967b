"""
Collision meshes as simulators use them: MuJoCo's refusals, convex hulls, heavy meshes.

MuJoCo's URDF import opens every ``<collision>`` mesh (it discards visuals) and refuses the file
when one is not a binary STL of 1 to 200,000 triangles (``plugin/stl_decoder/stl_decoder.cc``,
``Decode``), has a vertex that is not finite (``mjCMesh::ProcessVertices``), is flat so that
Qhull cannot build its convex hull (``src/user/user_mesh.cc``, ``mjCMesh::MakeGraph``,
``CheckInitialMesh``), and from 3.3 when its volume is under ``mjMINVAL`` (``mjCMesh::Process``;
3.2 fell back to shell inertia); of an OBJ file it reads the faces of the first object only
(``plugin/obj_decoder/obj_decoder.cc``). Measured with MuJoCo 4.0.0, 3.3.0 and 3.2.7
(``test/test_collision_meshes.py``).

MuJoCo (XML reference, ``asset/mesh``), PhysX (a triangle mesh cannot move: Isaac Sim's URDF
importer gives meshes a convex hull) and pybullet (``BulletUrdfImporter.cpp``,
``convertURDFToCollisionShape``: ``btConvexHullShape`` unless ``<collision concave="...">``)
collide with a mesh's convex hull; Gazebo keeps the triangles (gz-physics dartsim:
``AttachMeshShape``, a DART ``MeshShape`` under ODE's collision detector; bullet-featherstone:
``btGImpactMeshShape`` unless the SDF mesh asks for ``convex_hull``). Every fact comes from the
mesh facts cache (:func:`~...meshes.cache.run_facts`): one read per file version.
"""

from __future__ import annotations

from collections.abc import Iterator
import os

from .geometry import MUJOCO_MESH_EXTENSIONS
from ..registry import check, CheckContext, rule
from ...findings import Finding, Severity
from ...meshes.cache import run_facts
from ...meshes.facts import MeshFacts, NO_TRIANGLES, NOT_FINITE
from ...meshes.solids import HOLLOW
from ...model.robot import Link, Mesh

#: Most triangles MuJoCo's STL decoder reads (and fewest: 1).
MUJOCO_STL_TRIANGLES = 200_000
#: MuJoCo's least mesh volume (and area), m³: ``mjMINVAL`` (``include/mujoco/mjtype.h``).
MUJOCO_MIN_VOLUME = 1e-15
#: Triangles from which a collision that reuses its link's visual mesh is reported.
HEAVY_TRIANGLES = 10_000

STL_ASCII = rule(
    'collision-mesh-stl-ascii', Severity.INFO,
    'a <collision> mesh is an STL file that is not binary (ASCII): MuJoCo refuses the file',
    consumers=('mujoco',),
    reference=('MuJoCo plugin/stl_decoder/stl_decoder.cc, Decode: "number of faces should be '
               'between 1 and 200000 in STL file ...; perhaps this is an ASCII file?", "has '
               'wrong size" (3.2.7 to 4.0.0 measured)'))
STL_TRIANGLES = rule(
    'collision-mesh-stl-triangles', Severity.INFO,
    'a <collision> mesh is a binary STL file of 0 or more than 200,000 triangles: MuJoCo '
    'refuses the file', consumers=('mujoco',),
    reference=('MuJoCo plugin/stl_decoder/stl_decoder.cc, Decode: "number of faces should be '
               'between 1 and 200000 in STL file" (3.2.7 to 4.0.0 measured)'))
NOT_FINITE_VERTEX = rule(
    'collision-mesh-not-finite', Severity.WARNING,
    'a <collision> mesh has a vertex coordinate that is NaN or infinite: MuJoCo refuses the '
    'file', consumers=('mujoco',),
    reference=('MuJoCo src/user/user_mesh.cc, mjCMesh::ProcessVertices: "vertex coordinate %d '
               'is not finite"'))
FLAT = rule(
    'collision-mesh-flat', Severity.INFO,
    "a <collision> mesh's vertices lie in a plane (or on a line): MuJoCo cannot build its "
    'convex hull and refuses the file', consumers=('mujoco',),
    reference=('MuJoCo src/user/user_mesh.cc, mjCMesh::MakeGraph: "has coplanar (collinear, '
               'colocated) vertices, cannot compute convex hull" (3.10 on), "qhull error" '
               '(before); CheckInitialMesh: "at least 4 vertices required"'))
VOLUME_TINY = rule(
    'collision-mesh-volume-tiny', Severity.INFO,
    "a <collision> mesh, as scaled, measures under 1e-15 m³ by MuJoCo's volume: MuJoCo 3.3 "
    'and later refuse the file', consumers=('mujoco',),
    reference=('MuJoCo src/user/user_mesh.cc, mjCMesh::Process: "mesh volume is too small" '
               '(volume < mjMINVAL, its default inertia="legacy" volume); changelog 3.3.0, '
               'breaking change 10: no more silent fallback to shell inertia'))
CONCAVE = rule(
    'collision-mesh-concave', Severity.INFO,
    f'a closed <collision> mesh fills under 1/{HOLLOW:g} of its convex hull: MuJoCo, PhysX '
    'and pybullet collide with the hull, solid where the mesh is hollow; Gazebo keeps the '
    'triangles',
    reference=('MuJoCo XML reference, asset/mesh ("collision detection works with the convex '
               'hull"); PhysX SDK guide, Geometry, triangle meshes (static or kinematic actors '
               'only, without an SDF); bullet3 BulletUrdfImporter.cpp, '
               'convertURDFToCollisionShape (btConvexHullShape unless <collision concave>); '
               'gz-physics dartsim '
               'ShapeFeatures.cc AttachMeshShape and bullet-featherstone SDFFeatures.cc '
               '(btGImpactMeshShape): read from their sources; the hull by manifold3d'))
HEAVY = rule(
    'collision-mesh-heavy', Severity.INFO,
    f"a <collision> reuses its link's visual mesh of over {HEAVY_TRIANGLES:,} triangles: every "
    'collision check pays for them',
    reference=('MoveIt and Gazebo test collisions against the triangles (FCL and ODE '
               'bounding-volume trees); MuJoCo and pybullet build a convex hull of every vertex '
               'at load'))

_CODES = (STL_ASCII, STL_TRIANGLES, NOT_FINITE_VERTEX, FLAT, VOLUME_TINY, CONCAVE, HEAVY)


def _collision_meshes(link: Link) -> Iterator[tuple[str, Mesh, str]]:
    """Yield ``(label, mesh, file)`` for each collision mesh of ``link``, each file once."""
    seen: set[str] = set()
    for index, element in enumerate(link.collisions, 1):
        mesh = element.geometry
        if isinstance(mesh, Mesh) and mesh.resolved is not None and mesh.resolved not in seen:
            seen.add(mesh.resolved)
            label = 'collision ' + (f'"{element.name}"' if element.name else f'#{index}')
            yield label, mesh, mesh.resolved


def _mujoco(facts: MeshFacts, mesh: Mesh) -> tuple[str, str, str] | None:
    """``(code, what, fix)`` of the refusal of MuJoCo, or ``None`` when it reads the mesh."""
    if os.path.splitext(mesh.filename)[1].lower() not in MUJOCO_MESH_EXTENSIONS:
        return None  # collision-mesh-dae and mesh-extension-unsupported say so
    if facts.format == 'stl' and facts.ascii:
        return (STL_ASCII, 'is not a binary STL (ASCII, or not STL at all): MuJoCo reads '
                'binary STL only', 'export it as binary STL')
    if facts.format == 'stl' and (facts.triangles > MUJOCO_STL_TRIANGLES
                                  or facts.problem == NO_TRIANGLES):
        return (STL_TRIANGLES, f'is a binary STL of {facts.triangles:,} triangles; MuJoCo reads '
                f'1 to {MUJOCO_STL_TRIANGLES:,}', 'simplify it (or split it into parts)'
                if facts.triangles else 'export the part again: the file has no triangles')
    if facts.problem == NOT_FINITE:
        return (NOT_FINITE_VERTEX, 'has a vertex coordinate that is NaN or infinite',
                'export the part again')
    if facts.solid is None:
        return None
    if facts.flat:
        return (FLAT, 'is flat (its vertices lie in a plane or on a line, or are fewer than 4): '
                'MuJoCo cannot build the convex hull it collides with ("coplanar vertices", "at '
                'least 4 vertices required"; "qhull error" before 3.10)',
                'give the part a thickness, or use a thin <box>')
    scale = abs(mesh.scale[0] * mesh.scale[1] * mesh.scale[2])
    if facts.solid.pyramid_volume * scale < MUJOCO_MIN_VOLUME:
        first = ' (of the faces of its first object: MuJoCo reads no other of an OBJ file)'
        return (VOLUME_TINY, f"measures {facts.solid.pyramid_volume * scale:.2g} m³ by MuJoCo's "
                f'volume{first if facts.format == "obj" else ""}, under '
                f'{MUJOCO_MIN_VOLUME:g}: MuJoCo 3.3 and later refuse it ("mesh volume is too '
                'small"; 3.2 loaded it)', 'check <mesh scale> and the units of the file, or '
                'use a primitive for so small a part (an OBJ file: one object)')
    return None


@check(codes=_CODES)
def check_collision_meshes(ctx: CheckContext) -> Iterator[Finding]:
    """Report each link's collision meshes that MuJoCo refuses, hollow or heavy (once a file)."""
    for link in ctx.robot.links:
        visuals = {element.geometry.resolved for element in link.visuals
                   if isinstance(element.geometry, Mesh)}
        for label, mesh, path in _collision_meshes(link):
            facts = run_facts(ctx.cache, path, ctx.use_cache, solid=True)
            if facts is None:
                continue  # mesh-file-missing
            where = mesh.location or link.location
            element = f'link:{link.name}'
            head = f'link "{link.name}": {label} mesh "{mesh.filename}"'
            refusal = _mujoco(facts, mesh)
            if refusal is not None:
                code, what, fix = refusal
                yield ctx.finding(code, element, f'{head} {what}', where, fix)
            solid = facts.solid  # a hull is measured for closed meshes only
            hull = None if solid is None else solid.hull_volume
            if solid is not None and hull is not None and hull > HOLLOW * abs(solid.volume):
                yield ctx.finding(
                    CONCAVE, element,
                    f'{head} fills {abs(solid.volume) / hull:.0%} of its convex hull: '
                    'MuJoCo, PhysX and pybullet collide with the hull, solid in its hollows '
                    '(Gazebo keeps the triangles)', where,
                    'split it into convex parts (V-HACD, CoACD) or model it with primitives')
            if path in visuals and facts.triangles > HEAVY_TRIANGLES:
                yield ctx.finding(
                    HEAVY, element,
                    f'{head} is also its visual mesh, {facts.triangles:,} triangles: MoveIt '
                    '(FCL) and Gazebo collide against every one, MuJoCo and pybullet build a '
                    'hull of every vertex at each load', where,
                    'a simplified collision mesh (decimated, convex parts) or primitives')
