"""
The robot in a viser scene: one frame node per link, its ``<visual>`` geometry as children.

Each link is a frame node ``/robot/<link>`` under the scene root, posed by ``T_root_link``
(from our kinematics or from ``/tf``); each visual a child posed by ``T_link_visual``, drawn as
in RViz and coloured by the mesh's own material, else the URDF colour. A texture-only material
is drawn by :mod:`.textures`. A mesh that cannot be drawn is a labelled magenta wireframe box
(:mod:`.placeholders`); one that exists but cannot be read is also a ``mesh-unreadable``
finding of the view. A ``package:///pkg/...`` mesh is drawn from ``pkg`` when found
(:attr:`RobotScene.guessed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
import math
import re
from typing import Any

import numpy as np

from urdf_tools_ros.core.meshes.triangles import capsule_mesh, MeshPart, textured_mesh
from urdf_tools_ros.core.model.robot import (Box, Capsule, Collision, Cylinder, geometry_sizes,
                                             Mesh, RGBA, Robot, Sphere, Visual)
from urdf_tools_ros.core.source.packages import draw_path, PackageLocator
from .meshes import MeshCache, MeshLoadError
from .placeholders import Placeholder, unreadable, unresolved
from .textures import Texture, texture_use, TextureUse
from ..core.findings import Finding, Severity
from ..core.transforms import FloatArray, origin_transform, transform_to_quaternion

__all__ = ['COLLISION_RGBA', 'DEFAULT_RGBA', 'PLACEHOLDER_RGBA', 'RobotScene', 'pose_of',
           'to_viser_pose', 'visual_rgba']

#: Colour of a visual without material (RViz's default is a light grey as well).
DEFAULT_RGBA: RGBA = (0.8, 0.8, 0.8, 1.0)
#: Colour of the wireframe box drawn for a mesh that cannot be drawn.
PLACEHOLDER_RGBA: RGBA = (1.0, 0.0, 1.0, 1.0)
#: Colour of collision geometry when shown: translucent orange over the visuals.
COLLISION_RGBA: RGBA = (1.0, 0.55, 0.1, 0.45)
#: Width of the placeholder box's edges, pixels.
PLACEHOLDER_LINE_WIDTH = 2.0

_UNSAFE = re.compile(r'[^A-Za-z0-9_.\-]')


def to_viser_pose(T: FloatArray) -> tuple[tuple[float, float, float, float],
                                          tuple[float, float, float]]:
    """Split a (4, 4) transform ``T_parent_node`` into viser's ``(wxyz, position)``, m."""
    translation, quaternion = transform_to_quaternion(T)
    x, y, z, w = (float(v) for v in quaternion)
    return (w, x, y, z), (float(translation[0]), float(translation[1]), float(translation[2]))


def pose_of(handle: Any) -> FloatArray:
    """The (4, 4) float64 transform of a viser scene node from its ``wxyz`` and ``position``."""
    from ..core.transforms import transform_from_quaternion
    w, x, y, z = (float(v) for v in handle.wxyz)
    return transform_from_quaternion(np.asarray(handle.position, dtype=np.float64),
                                     (x, y, z, w))


def visual_rgba(robot: Robot, visual: Visual) -> RGBA | None:
    """The URDF colour (RGBA in [0, 1]) of a visual's material, or ``None``."""
    if visual.material is None:
        return None
    return robot.material(visual.material).color


def _corners(half: FloatArray) -> FloatArray:
    """The 8 corners (8, 3) of a box of half-extents ``half`` (3,) around the origin."""
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    return signs * np.asarray(half, dtype=np.float64)


def _rgb(rgba: RGBA) -> tuple[float, float, float]:
    return (rgba[0], rgba[1], rgba[2])


def _opacity(rgba: RGBA) -> float | None:
    return None if rgba[3] >= 1.0 else max(0.0, float(rgba[3]))


class RobotScene:
    """
    The visual geometry and link frames of one robot model in a viser scene.

    :ivar links: Link names drawn, in file order.
    :ivar frames: The frame node of each link (``/robot/<link>``), posed ``T_root_link``.
    :ivar findings: Problems met while drawing (``mesh-unreadable``), each once.
    :ivar placeholders: Every visual mesh drawn as a wireframe box, with why.
    :ivar placeholder_nodes: ``(wireframe box, label)`` nodes of each placeholder.
    :ivar textures: How each visual with a texture-only material is drawn.
    :ivar guessed: ``(link, mesh filename, path drawn)`` of every ``package:///pkg`` mesh.
    """

    def __init__(self, scene: Any, robot: Robot, *, root: str = '/robot',
                 mesh_cache: MeshCache | None = None, show_frames: bool = False,
                 frame_size: float = 0.08, locate: PackageLocator | None = None) -> None:
        """
        Draw every link of ``robot`` at identity (until :meth:`set_link_poses`).

        :param scene: A ``viser.SceneApi`` (``server.scene``).
        :param root: Scene path under which the nodes are added.
        :param mesh_cache: Cache of loaded meshes shared across reloads.
        :param show_frames: Show the axes of each link frame.
        :param frame_size: Length of the frame axes, m.
        :param locate: The description's package locator, or ``None``.
        """
        self._scene = scene
        self._robot = robot
        self._root = root.rstrip('/')
        self._meshes = mesh_cache or MeshCache()
        self._frame_size = frame_size
        self._show_frames = show_frames
        self._locate = locate
        self.links: tuple[str, ...] = tuple(dict.fromkeys(link.name for link in robot.links))
        self.frames: dict[str, Any] = {}
        self.findings: list[Finding] = []
        self.placeholders: list[Placeholder] = []
        self.placeholder_nodes: list[tuple[Any, Any]] = []
        self.textures: list[TextureUse] = []
        self.guessed: list[tuple[str, str, str]] = []
        self._visual_nodes: list[tuple[str, Any]] = []  # (link, node)
        self._images: dict[str, Texture] = {}
        self._labels: list[Any] = []
        self._collision_nodes: list[Any] = []
        self._show_collision = False
        self._points: list[tuple[str, FloatArray]] = []
        self._paths: dict[str, str] = {}
        used: set[str] = set()
        for name in self.links:
            path = base = f'{self._root}/{_UNSAFE.sub("_", name) or "_"}'
            number = 1
            while path in used:
                number += 1
                path = f'{base}_{number}'
            used.add(path)
            self._paths[name] = path
        for link in robot.links:
            if link.name in self.frames:
                continue
            path = self._paths[link.name]
            self.frames[link.name] = scene.add_frame(
                path, show_axes=show_frames, axes_length=frame_size,
                axes_radius=frame_size / 25.0)
            for index, visual in enumerate(link.visuals):
                self._add_visual(link.name, f'{path}/visual_{index}', visual)
            for index, element in enumerate(link.collisions):
                self._add_visual(link.name, f'{path}/collision_{index}', element, collision=True)

    # -- drawing ----------------------------------------------------------------------------
    def _add_visual(self, link: str, path: str, visual: Visual | Collision,
                    collision: bool = False) -> None:
        """Draw one ``<visual>`` (or, hidden until shown, one ``<collision>``) of a link."""
        geometry = visual.geometry
        if geometry is None:
            return  # the checker reports a missing geometry
        if not isinstance(geometry, Mesh) and not all(
                math.isfinite(value) for _, value in geometry_sizes(geometry)):
            return  # and NaN/inf sizes (a mesh's scale is judged with its file, below)
        try:
            T_link_visual = origin_transform(visual.origin)
        except ValueError:
            T_link_visual = np.eye(4)
        wxyz, position = to_viser_pose(T_link_visual)
        texture: TextureUse | None = None
        if collision:
            rgba = COLLISION_RGBA
        else:
            assert isinstance(visual, Visual)
            rgba = visual_rgba(self._robot, visual) or DEFAULT_RGBA
            texture = self._texture(link, visual)
            if texture is not None:
                rgba = texture.rgba
        common: dict[str, Any] = {'wxyz': wxyz, 'position': position,
                                  'opacity': _opacity(rgba), 'visible': not collision}
        keep = (lambda points: None) if collision else \
            (lambda points: self._keep_points(link, T_link_visual, points))
        scene = self._scene
        if isinstance(geometry, Box):
            size = tuple(abs(float(v)) for v in geometry.size)
            node = scene.add_box(path, color=_rgb(rgba), dimensions=size, **common)
            keep(_corners(np.asarray(size) / 2.0))
        elif isinstance(geometry, Cylinder):
            node = scene.add_cylinder(path, radius=abs(float(geometry.radius)),
                                      height=abs(float(geometry.length)), color=_rgb(rgba),
                                      radial_segments=40, **common)
            radius, half = abs(float(geometry.radius)), abs(float(geometry.length)) / 2.0
            keep(_corners(np.array([radius, radius, half])))
        elif isinstance(geometry, Sphere):
            node = scene.add_icosphere(path, radius=abs(float(geometry.radius)),
                                       color=_rgb(rgba), subdivisions=3, **common)
            keep(_corners(np.full(3, abs(float(geometry.radius)))))
        elif isinstance(geometry, Capsule):
            radius, half = abs(float(geometry.radius)), abs(float(geometry.length)) / 2.0
            vertices, faces = capsule_mesh(radius, 2.0 * half)
            node = scene.add_mesh_simple(path, vertices, faces, color=_rgb(rgba), **common)
            keep(_corners(np.array([radius, radius, half + radius])))
        elif isinstance(geometry, Mesh):
            if collision:
                self._add_collision_mesh(link, path, geometry, common)
            else:
                self._add_mesh(link, path, geometry, rgba, wxyz, position, T_link_visual,
                               texture)
            return
        else:  # pragma: no cover - the model has no other geometry
            return
        if texture is not None:
            self.textures.append(texture)
        if collision:
            self._collision_nodes.append(node)
        else:
            self._visual_nodes.append((link, node))

    def _texture(self, link: str, visual: Visual) -> TextureUse | None:
        """The texture of a texture-only material, read (its image kept for the meshes)."""
        found = texture_use(self._robot, link, visual, self._meshes.texture, DEFAULT_RGBA,
                            self._locate)
        if found is None:
            return None
        use, image = found
        if image is not None and use.path is not None:
            self._images[use.path] = image
        return use

    def _add_collision_mesh(self, link: str, path: str, mesh: Mesh,
                            common: dict[str, Any]) -> None:
        """Draw a collision mesh, hidden; one that cannot be read is left out."""
        path_drawn = draw_path(mesh.filename, mesh.resolved, self._locate)
        if path_drawn is None or not all(math.isfinite(s) for s in mesh.scale):
            return
        try:
            parts = self._meshes.load(path_drawn, mesh.scale)
        except (FileNotFoundError, MeshLoadError, OSError):
            return  # the checker reports it (mesh-file-missing)
        for number, part in enumerate(parts):
            self._collision_nodes.append(self._scene.add_mesh_simple(
                path if len(parts) == 1 else f'{path}/part_{number}', part.vertices, part.faces,
                color=_rgb(COLLISION_RGBA), side='double', **common))

    def _keep_points(self, link: str, T_link_visual: FloatArray, points: FloatArray) -> None:
        """Remember drawn points (N, 3) of a visual, in its frame, for :meth:`drawn_bounds`."""
        homogeneous = np.hstack([points, np.ones((len(points), 1))])
        self._points.append((link, (homogeneous @ T_link_visual.T)[:, :3]))

    def _add_mesh(self, link: str, path: str, mesh: Mesh, rgba: RGBA,
                  wxyz: tuple[float, float, float, float],
                  position: tuple[float, float, float], T_link_visual: FloatArray,
                  texture: TextureUse | None) -> None:
        """Draw a visual mesh: its parts, or a placeholder box when it cannot be drawn."""
        path_drawn = draw_path(mesh.filename, mesh.resolved, self._locate)
        placeholder = unresolved(link, mesh, path_drawn, T_link_visual)
        parts: tuple[MeshPart, ...] = ()
        if placeholder is None:
            assert path_drawn is not None
            try:
                parts = self._meshes.load(path_drawn, mesh.scale)
            except FileNotFoundError:  # removed since it was looked at
                placeholder = unresolved(link, mesh, path_drawn, T_link_visual)
            except (MeshLoadError, OSError) as exc:
                placeholder = unreadable(link, mesh, path_drawn, exc, T_link_visual)
                self.findings.append(Finding(
                    'mesh-unreadable', Severity.WARNING, f'link:{link}',
                    f'link "{link}": visual mesh "{mesh.filename}" cannot be drawn: {exc}',
                    None, 'export it again as binary STL, COLLADA (.dae) or OBJ'))
        if placeholder is not None:
            self._add_placeholder(path, placeholder, wxyz, position)
            return
        if mesh.resolved is None and path_drawn is not None:
            self.guessed.append((link, mesh.filename, path_drawn))
        image = None if texture is None or texture.path is None else \
            self._images.get(texture.path)
        mapped = False
        for number, part in enumerate(parts):
            self._keep_points(link, T_link_visual, np.asarray(part.vertices, dtype=np.float64))
            name = path if len(parts) == 1 else f'{path}/part_{number}'
            if part.rgba is None and part.uv is not None and image is not None:
                mapped = True
                self._visual_nodes.append((link, self._scene.add_mesh_trimesh(
                    name, textured_mesh(part, image.image), wxyz=wxyz, position=position)))
                continue
            color = part.rgba or rgba
            self._visual_nodes.append((link, self._scene.add_mesh_simple(
                name, part.vertices, part.faces, color=_rgb(color), opacity=_opacity(color),
                side='double', wxyz=wxyz, position=position)))
        if texture is not None:
            self.textures.append(replace(texture, drawn='image') if mapped else texture)

    def _add_placeholder(self, path: str, placeholder: Placeholder,
                         wxyz: tuple[float, float, float, float],
                         position: tuple[float, float, float]) -> None:
        """Draw a placeholder: a wireframe box at the visual's origin and its label."""
        box = self._scene.add_line_segments(
            path, placeholder.edges, _rgb(PLACEHOLDER_RGBA), thickness=PLACEHOLDER_LINE_WIDTH,
            thickness_units='screen', wxyz=wxyz, position=position)
        half = np.asarray(placeholder.size) / 2.0  # at the box's top corner
        label = self._scene.add_label(f'{path}/label', placeholder.label,
                                      position=(float(half[0]), float(half[1]), float(half[2])))
        self.placeholders.append(placeholder)
        self.placeholder_nodes.append((box, label))
        self._visual_nodes.append((placeholder.link, box))
        self._labels.append(label)

    # -- state ----------------------------------------------------------------------------------
    def set_link_poses(self, poses: Mapping[str, FloatArray]) -> None:
        """
        Move link frames to ``T_root_link``; links not in ``poses`` stay where they are.

        :param poses: ``{link: T_root_link}``, (4, 4) float64 each; unknown links are ignored.
        """
        for link, T_root_link in poses.items():
            handle = self.frames.get(link)
            if handle is None:
                continue
            wxyz, position = to_viser_pose(np.asarray(T_root_link, dtype=np.float64))
            handle.wxyz = wxyz
            handle.position = position

    def drawn_bounds(self, poses: Mapping[str, FloatArray] | None = None
                     ) -> tuple[FloatArray, FloatArray] | None:
        """
        The axis-aligned box around every geometry drawn (placeholders left out), m.

        :param poses: ``{link: T_root_link}``, (4, 4) each; by default the poses drawn now.
        :return: ``(lower (3,), upper (3,))`` in the root frame, or ``None`` when nothing
            finite is drawn.
        """
        if poses is None:
            poses = {link: pose_of(handle) for link, handle in self.frames.items()}
        lower, upper = np.full(3, np.inf), np.full(3, -np.inf)
        for link, points in self._points:
            T_root_link = poses.get(link)
            if T_root_link is None:
                continue
            T = np.asarray(T_root_link, dtype=np.float64)
            moved = points @ T[:3, :3].T + T[:3, 3]
            moved = moved[np.isfinite(moved).all(axis=1)]
            if len(moved):
                lower = np.minimum(lower, moved.min(axis=0))
                upper = np.maximum(upper, moved.max(axis=0))
        if not np.isfinite(lower).all():
            return None
        return lower, upper

    def link_pose(self, link: str) -> FloatArray:
        """The current ``T_root_link`` (4, 4) of a link's frame; :exc:`KeyError` if not drawn."""
        return pose_of(self.frames[link])

    @property
    def show_frames(self) -> bool:
        """Whether the axes of the link frames are shown."""
        return self._show_frames

    @show_frames.setter
    def show_frames(self, visible: bool) -> None:
        self._show_frames = bool(visible)
        for handle in self.frames.values():
            handle.show_axes = self._show_frames

    @property
    def show_collision(self) -> bool:
        """Whether the ``<collision>`` geometry is shown (translucent, over the visuals)."""
        return self._show_collision

    @show_collision.setter
    def show_collision(self, visible: bool) -> None:
        self._show_collision = bool(visible)
        for node in self._collision_nodes:
            node.visible = self._show_collision

    @property
    def collision_count(self) -> int:
        """Number of collision geometry nodes drawn (hidden or shown)."""
        return len(self._collision_nodes)

    def path(self, link: str) -> str:
        """The scene path of a link's frame node, e.g. ``/robot/base_link``."""
        return self._paths[link]

    def visual_nodes(self, link: str) -> tuple[Any, ...]:
        """The viser nodes drawn for a link's visuals, in order (placeholder boxes, no labels)."""
        return tuple(node for owner, node in self._visual_nodes if owner == link)

    @property
    def visual_count(self) -> int:
        """Number of geometry nodes drawn (mesh parts and placeholders included)."""
        return len(self._visual_nodes)

    def remove(self) -> None:
        """Remove every node of this robot from the scene."""
        for node in self._labels + [node for _, node in self._visual_nodes] + \
                self._collision_nodes:
            node.remove()
        self._labels.clear()
        self.placeholder_nodes.clear()
        self._collision_nodes.clear()
        for handle in self.frames.values():
            handle.remove()
        self._visual_nodes.clear()
        self._points.clear()
        self.frames.clear()
