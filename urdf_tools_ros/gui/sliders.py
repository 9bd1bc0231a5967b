"""
The joint slider panel, like joint_state_publisher_gui's, as viser GUI elements.

:func:`panel_specs` decides what each control shows (no viser): a slider per actuated joint over
its slider range (:func:`~urdf_tools_ros.core.kinematics.limits.effective_limits`), rad or m,
and a read-only field per mimic joint. :class:`SliderPanel` draws them with the buttons,
toggles and a readout; the state lives in the viewer's joint-state table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
import math
import threading
from typing import Any

from urdf_tools_ros.core.model.robot import Robot
from ..core.joint_state.table import JointStateTable
from ..core.kinematics.limits import JointLimits, wrap_angle
from ..core.kinematics.mimic import ResolvedMimic

__all__ = ['SliderPanel', 'SliderSpec', 'mimic_spec', 'panel_specs', 'slider_spec',
           'slider_step', 'zeros_yaml']


def _reader(handle: Any) -> Callable[[], Any]:
    """A function reading a viser GUI handle's current value."""
    return lambda: handle.value


def _slider_action(joint: str, on_slider: Callable[[str, float], None]) -> Callable[[Any], None]:
    """Call ``on_slider(joint, value)`` with a slider's new value."""
    return lambda value: on_slider(joint, float(value))


def slider_step(lower: float, upper: float) -> float:
    """A slider step: the power of ten at or below 1/1000 of the range (1e-3 when empty)."""
    span = upper - lower
    if not span > 0.0 or not math.isfinite(span):
        return 1e-3
    return 10.0 ** math.floor(math.log10(span / 1000.0))


@dataclass(frozen=True)
class SliderSpec:
    """
    What one joint control shows.

    :ivar joint: Joint name.
    :ivar joint_type: ``revolute``, ``continuous`` or ``prismatic``.
    :ivar lower: Lower end of the control, rad or m.
    :ivar upper: Upper end of the control, rad or m.
    :ivar step: Slider step, rad or m.
    :ivar continuous: Whether values are wrapped into [-π, π) for display.
    :ivar mimic: For a mimic joint, its resolved source; the control is then read-only.
    """

    joint: str
    joint_type: str
    lower: float
    upper: float
    step: float
    continuous: bool = False
    mimic: ResolvedMimic | None = None

    @property
    def unit(self) -> str:
        """``m`` for prismatic joints, ``rad`` otherwise (REP 103)."""
        return 'm' if self.joint_type == 'prismatic' else 'rad'

    @property
    def read_only(self) -> bool:
        """Whether the control only follows (a mimic joint)."""
        return self.mimic is not None

    @property
    def label(self) -> str:
        """The label shown beside the control, ``elbow_joint [rad]``."""
        return f'{self.joint} [{self.unit}]'

    @property
    def hint(self) -> str:
        """The hover text: type, range and, for a mimic joint, its rule."""
        text = (f'{self.joint_type}, {self.lower:.6g} .. {self.upper:.6g} {self.unit}')
        if self.mimic is not None:
            text += (f'; mimic: {self.mimic.multiplier:g} * {self.mimic.source} '
                     f'+ {self.mimic.offset:g}')
        return text

    def displayed(self, position: float) -> float:
        """
        ``position`` as the control shows it: rounded to the step, clamped into [lower, upper].

        A continuous joint's angle outside the range is first wrapped into [-π, π).
        """
        if self.continuous and not self.lower <= position <= self.upper:
            position = wrap_angle(position)
        if math.isfinite(position):  # the step's precision: 1.4398966 shows as 1.44
            position = round(position, max(0, -math.floor(math.log10(self.step))))
        return min(max(position, self.lower), self.upper)

    def mark(self, value: float) -> str:
        """A slider end's label, three significant digits: ``-3.14`` for -π rad."""
        return f'{value:.3g}'

    def readout(self, position: float) -> str:
        """``0.5000 rad (28.65°)`` or ``0.0100 m``."""
        if self.unit == 'rad':
            return f'{position:.4f} rad ({math.degrees(position):.2f}°)'
        return f'{position:.4f} m'


def slider_spec(joint_type: str, limits: JointLimits) -> SliderSpec:
    """The slider of an actuated joint over ``limits.slider_lower .. slider_upper``."""
    lower, upper = limits.slider_lower, limits.slider_upper
    return SliderSpec(limits.joint, joint_type, lower, upper, slider_step(lower, upper),
                      limits.continuous)


def mimic_spec(joint_type: str, mimic: ResolvedMimic, source: SliderSpec) -> SliderSpec:
    """The read-only control of a mimic joint over its source's range mapped by the rule."""
    ends = sorted((mimic.position(source.lower), mimic.position(source.upper)))
    return SliderSpec(mimic.joint, joint_type, ends[0], ends[1], slider_step(ends[0], ends[1]),
                      False, mimic)


def panel_specs(robot: Robot, table: JointStateTable) -> tuple[SliderSpec, ...]:
    """List the controls of a robot: sliders in ``table``'s order, then mimic joints' fields."""
    actuated = [slider_spec(robot.joint(name).joint_type, table.limits[name])
                for name in table.joint_names]
    by_name = {spec.joint: spec for spec in actuated}
    followers = [mimic_spec(robot.joint(name).joint_type, mimic, by_name[mimic.source])
                 for name, mimic in table.mimics.items() if mimic.source in by_name]
    return tuple(actuated + followers)


def zeros_yaml(specs: Sequence[SliderSpec], positions: Mapping[str, float]) -> str:
    """
    The actuated joints' positions as a ``zeros:`` block of a joint_state_publisher parameter file.

    :param positions: ``{joint: position}``, rad or m; a joint missing is at 0.
    :return: YAML text, e.g. ``zeros:\n  elbow_joint: 0.8\n``, values to 6 significant digits.
    """
    lines = ['zeros:']
    for spec in specs:
        if not spec.read_only:
            lines.append(f'  {spec.joint}: {float(positions.get(spec.joint, 0.0)):.6g}')
    return '\n'.join(lines) + '\n'


class SliderPanel:
    """
    The controls of one robot in a viser GUI (``server.gui``).

    Callbacks receive what a person did; :meth:`show` moves the controls without calling them.

    :ivar sliders: Slider handle of each actuated joint.
    :ivar followers: Read-only number field of each mimic joint.
    """

    def __init__(self, gui: Any, specs: Sequence[SliderSpec], positions: Mapping[str, float], *,
                 on_slider: Callable[[str, float], None],
                 on_center: Callable[[], None],
                 on_randomize: Callable[[], None],
                 on_frames: Callable[[bool], None],
                 show_frames: bool = False,
                 on_collision: Callable[[bool], None] | None = None,
                 show_collision: bool = False) -> None:
        self.specs = {spec.joint: spec for spec in specs}
        self._lock = threading.RLock()
        self._quiet = False
        self._elements: list[Any] = []
        self.sliders: dict[str, Any] = {}
        self.followers: dict[str, Any] = {}
        folder = gui.add_folder('Joints')
        self._elements.append(folder)
        with folder:
            if not specs:
                self._elements.append(gui.add_markdown('*No movable joints.*'))
            heading = False
            for spec in specs:
                value = spec.displayed(positions.get(spec.joint, 0.0))
                if spec.read_only and not heading:  # plainly apart from the sliders
                    heading = True
                    self._elements.append(gui.add_markdown(
                        '*Mimic joints: follow their source, read-only*'))
                if spec.read_only:
                    handle = gui.add_number(spec.label, initial_value=value, step=spec.step,
                                            disabled=True, hint=spec.hint)
                    self.followers[spec.joint] = handle
                else:
                    handle = gui.add_slider(spec.label, min=spec.lower, max=spec.upper,
                                            step=spec.step, initial_value=value,
                                            hint=spec.hint,
                                            marks=((spec.lower, spec.mark(spec.lower)),
                                                   (spec.upper, spec.mark(spec.upper))))
                    handle.on_update(self._guarded(_reader(handle),
                                                   _slider_action(spec.joint, on_slider)))
                    self.sliders[spec.joint] = handle
                self._elements.append(handle)
            self.center_button = gui.add_button(
                'Center', hint='every joint to its default position: 0, or the middle of its '
                               'range when 0 is outside it')
            self.randomize_button = gui.add_button('Randomize', hint='every joint to a random '
                                                                     'position in its range')
            self.center_button.on_click(lambda _event: on_center())
            self.randomize_button.on_click(lambda _event: on_randomize())
            self.frames_checkbox = gui.add_checkbox('Show link frames', show_frames)
            self.frames_checkbox.on_update(self._guarded(
                _reader(self.frames_checkbox), lambda value: on_frames(bool(value))))
            self.collision_checkbox = gui.add_checkbox(
                'Show collision geometry', show_collision,
                hint='the <collision> elements, translucent orange over the visuals')
            if on_collision is not None:
                self.collision_checkbox.on_update(self._guarded(
                    _reader(self.collision_checkbox), lambda value: on_collision(bool(value))))
            self._readout = gui.add_markdown(self._readout_text(positions))
            self.yaml_button = gui.add_button(
                'Joint state as YAML', hint='show the positions as a zeros: block to paste into '
                                            'a joint_state_publisher parameter file')
            self._yaml = gui.add_markdown('', visible=False)
            self._positions = dict(positions)
            self.yaml_button.on_click(lambda _event: self._show_yaml())
            self._elements.extend([self.center_button, self.randomize_button,
                                   self.frames_checkbox, self.collision_checkbox, self._readout,
                                   self.yaml_button, self._yaml])

    def _show_yaml(self) -> None:
        with self._lock:
            self._yaml.content = self._yaml_text(self._positions)
            self._yaml.visible = True

    def _yaml_text(self, positions: Mapping[str, float]) -> str:
        return '```yaml\n' + zeros_yaml(list(self.specs.values()), positions) + '```'

    def _guarded(self, read: Callable[[], Any],
                 act: Callable[[Any], None]) -> Callable[[Any], None]:
        """A viser callback acting on a person's change only (``act`` runs outside the lock)."""
        def callback(_event: Any) -> None:
            with self._lock:
                if self._quiet:
                    return
                value = read()
            act(value)
        return callback

    def _readout_text(self, positions: Mapping[str, float]) -> str:
        rows = [f'| {joint} | {spec.readout(positions.get(joint, 0.0))}'
                + (f', mimics {spec.mimic.source} |' if spec.mimic is not None else ' |')
                for joint, spec in self.specs.items()]
        if not rows:
            return ''
        return '| joint | position |\n|---|---|\n' + '\n'.join(rows)

    def show(self, positions: Mapping[str, float]) -> None:
        """Move every control to ``positions`` (rad or m) without calling the callbacks."""
        with self._lock:
            self._quiet = True
            try:
                for joint, handle in {**self.sliders, **self.followers}.items():
                    if joint in positions:
                        handle.value = self.specs[joint].displayed(positions[joint])
                self._readout.content = self._readout_text(positions)
                self._positions = dict(positions)
                if self._yaml.visible:
                    self._yaml.content = self._yaml_text(positions)
            finally:
                self._quiet = False

    def show_frames(self, visible: bool) -> None:
        """Tick or untick the frame checkbox without calling back."""
        self._tick(self.frames_checkbox, visible)

    def show_collision(self, visible: bool) -> None:
        """Tick or untick the collision checkbox without calling back."""
        self._tick(self.collision_checkbox, visible)

    def _tick(self, checkbox: Any, visible: bool) -> None:
        with self._lock:
            self._quiet = True
            try:
                checkbox.value = bool(visible)
            finally:
                self._quiet = False

    def remove(self) -> None:
        """Remove every control from the page."""
        for element in reversed(self._elements):
            element.remove()
        self._elements.clear()
        self.sliders.clear()
        self.followers.clear()
