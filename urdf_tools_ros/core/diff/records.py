"""
The change records of a robot diff: frozen values, each able to say itself in one line.

Values in the model's units (m, rad, kg, kg·m²); the texts add an angle's change in degrees,
a length's in mm, a mass's and a principal moment's in % (:func:`format_change`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from typing import Union

#: A value as the model holds it: a number, a name or file, a vector, or absent (``None``).
Value = Union[float, str, tuple[float, ...], None]

#: Units whose numbers are also shown converted: ``{unit: (factor, shown unit)}``.
_SHOWN_AS = {'rad': (180.0 / math.pi, '°'), 'm': (1000.0, ' mm')}
#: Units whose change is also shown in % of the old value.
_RELATIVE = ('kg', 'kg·m²')


def number(value: float, digits: int = 6) -> str:
    """``value`` with up to ``digits`` significant digits, ``-0`` written ``0``."""
    text = f'{value:.{digits}g}'
    return '0' if text == '-0' else text


def signed(value: float, digits: int = 4) -> str:
    """``value`` with a sign (``+2``, ``-0.5``, ``0``), to ``digits`` significant digits."""
    text = number(value, digits)
    return text if text.startswith('-') or text == '0' else '+' + text


def format_value(value: Value, unit: str = '', convert: bool = True) -> str:
    """
    One value with its unit: ``1.5708 rad (90°)``, ``(none)``, ``"name"``.

    :param unit: ``rad`` (degrees added), ``m`` (mm added), any other unit, or ``''``.
    :param convert: Add the degrees or mm.
    """
    if value is None:
        return '(none)'
    if isinstance(value, str):
        return f'"{value}"'
    suffix = f' {unit}' if unit else ''
    shown = _SHOWN_AS.get(unit) if convert else None
    if isinstance(value, tuple):
        text = '(' + ', '.join(number(item) for item in value) + ')' + suffix
        if shown is not None and any(value):
            factor, name = shown
            text += ' = (' + ', '.join(number(item * factor, 5) for item in value) + ')' + name
        return text
    text = number(value) + suffix
    if shown is not None and value != 0.0:
        factor, name = shown
        text += f' ({number(value * factor, 5)}{name})'
    return text


def format_delta(old: Value, new: Value, unit: str = '') -> str:
    """
    The change from ``old`` to ``new`` in mm, degrees or % of the old value; ``''`` if none.

    Vectors component by component (``Δ 0, 0, +2 mm``).
    """
    shown = _SHOWN_AS.get(unit)
    if isinstance(old, float) and isinstance(new, float):
        if unit in _RELATIVE and old != 0.0:
            return f'{signed(100.0 * (new - old) / abs(old), 3)} %'
        if shown is not None:
            factor, name = shown
            return f'{signed((new - old) * factor)}{name}'
        return ''
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new):
        if unit in _RELATIVE and all(item != 0.0 for item in old):
            return 'Δ ' + ', '.join(signed(100.0 * (b - a) / abs(a), 3)
                                    for a, b in zip(old, new)) + ' %'
        if shown is not None:
            factor, name = shown
            if unit == 'rad':  # roll, pitch, yaw: each angle's change the short way round
                return 'Δ ' + ', '.join(signed(_wrapped(b - a) * factor)
                                        for a, b in zip(old, new)) + name
            return 'Δ ' + ', '.join(signed((b - a) * factor) for a, b in zip(old, new)) + name
    return ''


def _wrapped(angle: float) -> float:
    """``angle`` (rad) in (-pi, pi]: the change of an angle the short way round."""
    wrapped = math.remainder(angle, 2.0 * math.pi)
    return math.pi if wrapped == -math.pi else wrapped


def format_sides(old: Value, new: Value, unit: str = '',
                 old_unit: str | None = None) -> tuple[str, str, str]:
    """
    ``(old, new, change)`` as a table writes them, each unit once: ``1.5 rad``, ``-17.19°``.

    Without a :func:`format_delta` change (``None``, different units), each value whole.

    :param unit: Unit of ``new`` (and of ``old`` when ``old_unit`` is ``None``).
    :param old_unit: Unit of ``old`` when it is not ``unit``.
    """
    before = unit if old_unit is None else old_unit
    delta = format_delta(old, new, unit) if before == unit else ''
    return (format_value(old, before, not delta), format_value(new, unit, not delta), delta)


def format_change(old: Value, new: Value, unit: str = '', old_unit: str | None = None) -> str:
    """``old -> new`` each unit once: ``1.5 -> 1.2 rad (Δ -17.19°)``, ``10 N·m -> 20 N``."""
    first, second, delta = format_sides(old, new, unit, old_unit)
    numbers = isinstance(old, (float, tuple)) and isinstance(new, (float, tuple))
    other = old_unit is not None and old_unit != unit
    if not numbers or other or (not delta and unit in _SHOWN_AS):
        return f'{first} -> {second}'
    text = f'{format_value(old)} -> {format_value(new)}' + (f' {unit}' if unit else '')
    return text + (f' ({delta})' if delta.startswith('Δ') else f' (Δ {delta})' if delta else '')


@dataclass(frozen=True)
class ElementChange:
    """
    A link or joint added, removed or renamed (found by structure, :mod:`.matching`).

    :ivar kind: ``'link'`` or ``'joint'``.
    :ivar change: ``'added'``, ``'removed'`` or ``'renamed'``.
    :ivar name: The name in the old description (added: in the new one).
    :ivar new_name: The name in the new description, for ``'renamed'``; else ``None``.
    """

    kind: str
    change: str
    name: str
    new_name: str | None = None
    category: str = field(default='element', init=False)

    @property
    def text(self) -> str:
        """One line: ``joint "a" renamed to "b"``, ``link "x" added``."""
        if self.change == 'renamed':
            return f'{self.kind} "{self.name}" renamed to "{self.new_name}"'
        return f'{self.kind} "{self.name}" {self.change}'


@dataclass(frozen=True)
class ValueChange:
    """
    One attribute of one element with another value.

    :ivar element: ``kind:name`` in the new names (``joint:elbow``, ``robot``).
    :ivar attribute: The attribute in URDF's words, dotted: ``limit.upper``,
        ``visual[0].geometry.radius``, ``collision "c".origin.rpy``.
    :ivar old: The old value (``None``: absent).
    :ivar new: The new value (``None``: absent).
    :ivar unit: Unit of the new value (and the old unless ``old_unit``): ``m``, ``rad``,
        ``kg·m²``, ``N·m`` ..., or ``''``.
    :ivar old_unit: Unit of the old value where it differs (revolute made prismatic).
    """

    element: str
    attribute: str
    old: Value
    new: Value
    unit: str = ''
    old_unit: str | None = None
    category: str = field(default='value', init=False)

    @property
    def delta(self) -> str:
        """The change in mm, degrees or %: ``+2 mm``, ``+30 %``; ``''`` where none applies."""
        return format_sides(self.old, self.new, self.unit, self.old_unit)[2]

    @property
    def text(self) -> str:
        """One line: ``limit.upper: 1.5708 -> 1.2 rad (Δ -21.25°)`` (:func:`format_change`)."""
        return f'{self.attribute}: {format_change(self.old, self.new, self.unit, self.old_unit)}'


@dataclass(frozen=True)
class FrameMove:
    """
    A link frame that stands elsewhere in the root frame at one configuration (both FKs).

    :ivar link: The link, in the new description's names.
    :ivar configuration: ``'zero'`` (every joint at 0) or ``'positions'`` (the given ones).
    :ivar translation: ``(dx, dy, dz)`` of the frame's origin in the root frame, m
        (``p_new - p_old``).
    :ivar distance: Length of ``translation``, m.
    :ivar rotation: Angle of ``R_old^T R_new``, rad, in [0, π].
    """

    link: str
    configuration: str
    translation: tuple[float, float, float]
    distance: float
    rotation: float
    category: str = field(default='frame', init=False)

    @property
    def text(self) -> str:
        """One line: ``link "forearm" moved 2 mm (Δ 0, 0, +2 mm), turned 0°``."""
        moved = ', '.join(signed(value * 1000.0) for value in self.translation)
        return (f'link "{self.link}" moved {number(self.distance * 1000.0, 4)} mm '
                f'(Δ {moved} mm), turned {number(math.degrees(self.rotation), 4)}°')


@dataclass(frozen=True)
class BlockChange:
    """
    A ``<ros2_control>``, ``<gazebo>`` or ``<transmission>`` block added, removed or changed.

    Compared as canonical XML (:func:`.blocks.canonical_lines`), renamed names replaced.

    :ivar tag: ``'ros2_control'``, ``'gazebo'`` or ``'transmission'``.
    :ivar key: What identifies it: the ``name`` (ros2_control, transmission) or the
        ``reference`` of a gazebo block (``''`` for the robot), ``#2`` ... on repeats.
    :ivar change: ``'added'``, ``'removed'`` or ``'changed'``.
    :ivar lines: The canonical XML's unified diff (``-``/``+`` lines; of a whole block when
        added or removed).
    """

    tag: str
    key: str
    change: str
    lines: tuple[str, ...] = ()
    category: str = field(default='block', init=False)

    @property
    def text(self) -> str:
        """One line: ``<gazebo reference="wheel"> changed``."""
        attribute = 'reference' if self.tag == 'gazebo' else 'name'
        head = f'<{self.tag} {attribute}="{self.key}">' if self.key else f'<{self.tag}>'
        return f'{head} {self.change}'


@dataclass(frozen=True)
class FindingChange:
    """
    A checker finding that appeared or disappeared.

    Compared by code, element and message, in the new names, a moved mesh path as its new one.

    :ivar change: ``'appeared'`` or ``'disappeared'``.
    :ivar code: The rule code.
    :ivar severity: ``'error'``, ``'warning'`` or ``'info'``.
    :ivar element: ``kind:name``.
    :ivar message: The checker's message.
    :ivar location: ``file:line`` of the finding in the description it belongs to, or ``''``.
    """

    change: str
    code: str
    severity: str
    element: str
    message: str
    location: str = ''
    category: str = field(default='finding', init=False)

    @property
    def text(self) -> str:
        """One line: ``appeared: warning[code]: message``."""
        return f'{self.change}: {self.severity}[{self.code}]: {self.message}'


Change = Union[ElementChange, ValueChange, FrameMove, BlockChange, FindingChange]


@dataclass(frozen=True)
class Tolerance:
    """
    How far a link frame may move before it is reported: 0.1 mm and 0.01° by default.

    :ivar distance: Largest translation not reported, m.
    :ivar angle: Largest rotation not reported, rad.
    """

    distance: float = 1e-4
    angle: float = math.radians(0.01)


@dataclass(frozen=True)
class DescriptionDiff:
    """
    Everything that differs between two robot descriptions, as the robots, not as text.

    :ivar old: Label of the old description (its file, or ``REV:path``).
    :ivar new: Label of the new description.
    :ivar notes: What could not be compared and why; notes are not changes.
    :ivar tolerance: The tolerance frame moves were measured against.
    """

    old: str
    new: str
    elements: tuple[ElementChange, ...] = ()
    values: tuple[ValueChange, ...] = ()
    frames: tuple[FrameMove, ...] = ()
    blocks: tuple[BlockChange, ...] = ()
    findings: tuple[FindingChange, ...] = ()
    notes: tuple[str, ...] = ()
    tolerance: Tolerance = Tolerance()

    @property
    def changes(self) -> tuple[Change, ...]:
        """Every change in report order: elements, values, frames, blocks, findings."""
        return (*self.elements, *self.values, *self.frames, *self.blocks, *self.findings)

    @property
    def same(self) -> bool:
        """Whether the two descriptions are the same robot (no change; notes do not count)."""
        return not self.changes
