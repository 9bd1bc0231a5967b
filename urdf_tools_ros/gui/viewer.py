"""
:class:`RobotViewer`: joint sliders and a live 3D view of one robot in the browser, ROS-free.

A viser page with the slider panel (:mod:`.sliders`), the robot's visual geometry
(:mod:`.scene`) and the check report. The joint state lives in a
:class:`~urdf_tools_ros.core.joint_state.table.JointStateTable`; link poses come from
:class:`~urdf_tools_ros.core.kinematics.forward.KinematicModel` or from
:meth:`RobotViewer.set_link_poses` (``/tf``). Without a kinematic tree every link is drawn at the
root frame. Placeholder boxes and textures not shown are logged as warnings to
``urdf_tools_ros.gui.viewer``. Every public method may be called from any thread; one lock
orders them with viser's callbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
import contextlib
import functools
import io
import logging
import math
import os
import threading
from typing import Any

import numpy as np

from urdf_tools_ros.core.session import Settings
from urdf_tools_ros.core.source.loader import RobotDescription
from .meshes import MeshCache
from .page import camera_for, extent, frame_size, page_html, report_markdown
from .scene import RobotScene
from .sliders import panel_specs, SliderPanel, SliderSpec
from ..core.checks import counts_text
from ..core.errors import RobotDescriptionError
from ..core.findings import Finding, Severity
from ..core.joint_state.table import JointStateTable, NO_STATE, refusal
from ..core.kinematics.forward import KinematicModel
from ..core.kinematics.limits import wrap_angle
from ..core.transforms import FloatArray

__all__ = ['ChangeCallback', 'RobotViewer']

_LOG = logging.getLogger(__name__)

#: Called with every joint position (mimic ones too), rad or m, after a change in the page; in
#: viser's thread (the caller's for :meth:`RobotViewer.move_joint`), outside the viewer's lock.
ChangeCallback = Callable[[Mapping[str, float]], None]


class RobotViewer:
    """
    A viser web page with joint sliders and a 3D view of a robot description.

    :param description: The loaded description.
    :param table: The joint-state table the sliders drive (a node's, to share its state);
        ``None``: one made with ``use_smallest_joint_limits``.
    :param findings: The check report to show; ``None``: the pipeline's default check.
    :param host: Address to serve on; 127.0.0.1 keeps the page on this machine.
    :param port: Port to serve on; when it is taken, the next free one (see :attr:`url`).
    :param use_smallest_joint_limits: Narrow slider ranges by soft limits (a table made here).
    :param on_change: Called after each change made in the page (see :data:`ChangeCallback`).
    :param show_frames: Show the link frames at start.
    :param follow_kinematics: Pose the links by forward kinematics (``False``: by
        :meth:`set_link_poses`, from ``/tf``).
    :param verbose: Let viser print its own banner and connection messages.
    :param seed: Seed of the random generator of Randomize (``None``: from the OS).
    """

    def __init__(self, description: RobotDescription, table: JointStateTable | None = None, *,
                 findings: Sequence[Finding] | None = None, host: str = '127.0.0.1',
                 port: int = 8080, use_smallest_joint_limits: bool = True,
                 on_change: ChangeCallback | None = None, show_frames: bool = False,
                 follow_kinematics: bool = True, verbose: bool = False,
                 seed: int | None = None) -> None:
        import viser

        self._lock = threading.RLock()
        self._closed = False
        self._verbose = verbose
        self._use_smallest = use_smallest_joint_limits
        self._show_frames = show_frames
        self._show_collision = False
        self.on_change = on_change
        self.follow_kinematics = follow_kinematics
        self.random = np.random.default_rng(seed)
        self._meshes = MeshCache()
        with self._quiet():
            self.server = viser.ViserServer(host=host, port=port, verbose=verbose)
        self.server.gui.configure_theme(control_width='large', show_share_button=False,
                                        show_logo=False)
        self._grid: Any = None
        self._host = host
        self.scene: RobotScene | None = None
        self.panel: SliderPanel | None = None
        self._report: Any = None
        self._head: Any = None
        try:
            self.set_description(description, table, findings=findings)
        except BaseException:
            self.close()
            raise

    def _quiet(self) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext() if self._verbose else \
            contextlib.redirect_stdout(io.StringIO())

    # -- properties -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The page's address, ``http://127.0.0.1:8080``."""
        host = self._host
        if host in ('0.0.0.0', '::', ''):
            host = '127.0.0.1'
        elif ':' in host:
            host = f'[{host}]'
        return f'http://{host}:{self.server.get_port()}'

    @property
    def floor_height(self) -> float | None:
        """Height of the floor grid, m: the lowest point of the robot drawn at start."""
        return None if self._grid is None else float(self._grid.position[2])

    @property
    def description(self) -> RobotDescription:
        """The description shown."""
        return self._description

    @property
    def table(self) -> JointStateTable | None:
        """The joint-state table, or ``None`` when the joints cannot be read."""
        return self._table

    @property
    def kinematics(self) -> KinematicModel | None:
        """The forward kinematics, or ``None`` when the model is not a valid tree."""
        return self._kinematics

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Findings shown: the check report, then problems met while drawing."""
        return self._findings

    @property
    def positions(self) -> dict[str, float]:
        """Every joint position shown, mimic joints included, rad or m."""
        with self._lock:
            if self._table is None:
                return {}
            sample = self._table.sample()
            return dict(zip(sample.name, sample.position))

    @property
    def specs(self) -> tuple[SliderSpec, ...]:
        """What each joint control shows, actuated joints then mimic joints."""
        return self._specs

    # -- description ----------------------------------------------------------------------
    def set_description(self, description: RobotDescription,
                        table: JointStateTable | None = None, *,
                        findings: Sequence[Finding] | None = None) -> None:
        """
        Show a new description: rebuild the scene, the sliders and the report.

        :param table: Its joint-state table; ``None``: one made here, keeping the positions of
            the joints both descriptions have.
        :param findings: Its check report; ``None``: checked here.
        """
        with self._lock:
            previous = self.positions if self.scene is not None else {}
            self._remove()
            self._description = description
            robot = description.robot
            problems: list[str] = []
            self._kinematics = None
            try:
                self._kinematics = KinematicModel(robot)
            except RobotDescriptionError as exc:
                problems.append(f'kinematics: {exc}')
            self._table = table
            if table is None:
                try:
                    self._table = JointStateTable(
                        robot, use_smallest_joint_limits=self._use_smallest)
                except RobotDescriptionError as exc:
                    problems.append(f'joint state: {exc}')
                if self._table is not None:  # our own table: keep the joints both robots have
                    kept = {name: value for name, value in previous.items()
                            if name in self._table.joint_names}
                    self._table.merge(list(kept), list(kept.values()))
            self._specs = () if self._table is None else panel_specs(robot, self._table)
            rest = self._kinematics.link_poses() if self._kinematics is not None else {}
            self.scene = RobotScene(self.server.scene, robot, mesh_cache=self._meshes,
                                    show_frames=self._show_frames, frame_size=frame_size(rest),
                                    locate=description.locate)
            checked = list(Settings().check(description) if findings is None else findings)
            self._findings = tuple(checked + self.scene.findings)
            self._problems = tuple(problems)
            self._log_drawing(description)
            self.server.gui.set_panel_label(robot.name or 'robot')
            self._head = self.server.gui.add_html(
                page_html(robot.name, [spec.label for spec in self._specs]), order=-2000.0)
            # open when something stops a consumer (an error, a problem posing the robot)
            wide_open = bool(self._problems or self.scene.placeholders) or any(
                finding.severity is Severity.ERROR for finding in self._findings)
            self._report = self.server.gui.add_folder(
                f'Check report: {counts_text(self._findings)}', order=-1000.0,
                expand_by_default=wide_open)
            with self._report:
                self.server.gui.add_markdown(
                    report_markdown(description.filename, self._findings, self._problems,
                                    self.scene.placeholders, self.scene.guessed))
            positions = self.positions
            self.panel = SliderPanel(
                self.server.gui, self._specs, positions, on_slider=self.move_joint,
                on_center=self.center, on_randomize=self.randomize,
                on_frames=functools.partial(self._show, 'frames'), show_frames=self._show_frames,
                on_collision=functools.partial(self._show, 'collision'),
                show_collision=self._show_collision)
            self.scene.show_collision = self._show_collision
            self._pose(positions)
            self._frame_view(rest)

    def _log_drawing(self, description: RobotDescription) -> None:
        """Log what could not be drawn as written: placeholder boxes and unused textures."""
        assert self.scene is not None
        name = os.path.basename(description.filename) or description.filename
        for placeholder in self.scene.placeholders:
            _LOG.warning('%s: %s', name, placeholder.message)
        for use in self.scene.textures:
            if use.drawn == 'default':
                _LOG.warning('%s: link "%s": texture "%s" is not shown (default colour): %s',
                             name, use.link, use.texture, use.reason)
            else:
                _LOG.info('%s: link "%s": texture "%s" is drawn as %s', name, use.link,
                          use.texture, 'its image' if use.drawn == 'image'
                          else 'its mean colour (no texture coordinates)')

    def _frame_view(self, rest: Mapping[str, FloatArray]) -> None:
        """Put the floor grid under the robot's lowest point and frame it with the camera."""
        assert self.scene is not None
        bounds = self.scene.drawn_bounds()
        if bounds is None:  # nothing drawn: the link origins
            center, radius = extent(rest)
            bounds = (center - radius, center + radius)
        lower, upper = bounds
        size = float(np.ceil(max(upper[0] - lower[0], upper[1] - lower[1], 1.0) * 2.0))
        if self._grid is not None:
            self._grid.remove()
        self._grid = self.server.scene.add_grid(
            '/grid', width=size, height=size, cell_size=0.1 if size <= 4.0 else 0.5,
            section_size=0.5 if size <= 4.0 else 2.5,
            position=(float(lower[0] + upper[0]) / 2.0, float(lower[1] + upper[1]) / 2.0,
                      float(lower[2])))
        position, look_at = camera_for(lower, upper)
        self.server.initial_camera.position = position
        self.server.initial_camera.look_at = look_at

    def _remove(self) -> None:
        if self.panel is not None:
            self.panel.remove()
            self.panel = None
        if self.scene is not None:
            self.scene.remove()
            self.scene = None
        if self._report is not None:
            self._report.remove()
            self._report = None
        if self._head is not None:
            self._head.remove()
            self._head = None

    # -- state ------------------------------------------------------------------------------
    def set_positions(self, positions: Mapping[str, float]) -> list[Finding]:
        """
        Take joint positions from outside (``source_list``); does not call ``on_change``.

        :param positions: ``{joint: position}``, rad or m.
        :return: What the table refused
            (:meth:`~urdf_tools_ros.core.joint_state.table.JointStateTable.merge`).
        """
        with self._lock:
            if self._table is None:
                return [refusal(NO_STATE, None, 'the description has no usable joint state')]
            refusals = self._table.merge(list(positions), list(positions.values()))
            self._refresh()
            return refusals

    def refresh(self) -> None:
        """Draw the table's state again after a change from outside; no ``on_change``."""
        with self._lock:
            if self._table is not None:
                self._refresh()

    def set_link_poses(self, poses: Mapping[str, FloatArray]) -> None:
        """
        Pose links directly, e.g. from ``/tf``: ``{link: T_root_link}``, (4, 4) float64 each.

        Links not named keep their pose; with ``follow_kinematics`` the next joint change
        poses every link by forward kinematics again.
        """
        with self._lock:
            if self.scene is not None:
                self.scene.set_link_poses(poses)

    def link_pose(self, link: str) -> FloatArray:
        """The ``T_root_link`` drawn for ``link`` now, (4, 4) float64."""
        with self._lock:
            if self.scene is None:
                raise KeyError(link)
            return self.scene.link_pose(link)

    def move_joint(self, joint: str, position: float) -> None:
        """Do what moving a joint's slider or typing in its box does (clamped to its range)."""
        # a value typed in the box: into the slider's range (continuous: wrapped into [-π, π))
        spec = next((spec for spec in self._specs if spec.joint == joint), None)
        if spec is not None and math.isfinite(position):
            if spec.continuous:
                position = wrap_angle(position) if not spec.lower <= position <= spec.upper \
                    else position
            else:
                position = min(max(position, spec.lower), spec.upper)
        self._change(lambda table: table.update(joint, position=position))

    def center(self) -> None:
        """Do what the Center button does."""
        self._change(lambda table: table.center())

    def randomize(self) -> None:
        """Do what the Randomize button does."""
        self._change(lambda table: table.randomize(self.random))

    @property
    def show_frames(self) -> bool:
        """Whether the link frames are shown (the page's checkbox)."""
        return self._show_frames

    @show_frames.setter
    def show_frames(self, visible: bool) -> None:
        self._show('frames', visible)

    @property
    def show_collision(self) -> bool:
        """Whether the ``<collision>`` geometry is shown (the page's checkbox)."""
        return self._show_collision

    @show_collision.setter
    def show_collision(self, visible: bool) -> None:
        self._show('collision', visible)

    def _show(self, what: str, visible: bool) -> None:
        """Show or hide ``frames`` or ``collision`` in the scene and the panel's checkbox."""
        with self._lock:
            setattr(self, f'_show_{what}', bool(visible))
            if self.scene is not None:
                setattr(self.scene, f'show_{what}', bool(visible))
            if self.panel is not None:
                getattr(self.panel, f'show_{what}')(bool(visible))

    def _change(self, action: Callable[[JointStateTable], object]) -> None:
        with self._lock:
            if self._table is None:
                return
            action(self._table)
            positions = self._refresh()
        callback = self.on_change
        if callback is not None:
            callback(positions)

    def _refresh(self) -> dict[str, float]:
        positions = self.positions
        with self.server.atomic():  # the page draws sliders and poses of one state together
            if self.panel is not None:
                self.panel.show(positions)
            self._pose(positions)
        return positions

    def _pose(self, positions: Mapping[str, float]) -> None:
        if self.scene is None:
            return
        if self._kinematics is None:
            self.scene.set_link_poses({link: np.eye(4) for link in self.scene.links})
        elif self.follow_kinematics:
            self.scene.set_link_poses(self._kinematics.link_poses(
                {name: value for name, value in positions.items()
                 if name in self._kinematics.joint_names}))

    # -- life -----------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the web server; the page shows "disconnected". Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        with self._quiet():
            self.server.stop()

    def __enter__(self) -> RobotViewer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
