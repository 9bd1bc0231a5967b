"""
Mechanical fixes: the findings whose fix needs no judgement, as text edits of the source files.

Each fix is a :class:`TextEdit` at the file and line the finding stands at (for xacro input, the
``.xacro`` file): an attribute value replaced or an element removed; every other character stays.
Fixed:

* ``joint-axis-not-unit``: ``<axis xyz>`` becomes the unit axis the finding's fix gives
  (:func:`~urdf_tools_ros.core.checks.rules.joints.unit_axis_text`).
* ``joint-limit-lower-above-upper``: the texts of ``lower`` and ``upper`` are swapped.
* ``element-duplicate``, ``link-``, ``joint-``, ``material-duplicate``: the second element is
  removed when it is written exactly as the first; two different ones need a choice.
* With ``inertia=True``, :data:`INERTIA_CODES` of a link with one solid collision primitive and
  a mass: the ``<inertia>`` becomes the solid's about the centre of mass (:mod:`.inertial`), 6
  significant digits as in its fix hint. A moment written ``${p}`` in a macro body, ``p`` a
  parameter of the macro, is edited where the call gives ``p`` literally (each call its own
  value); an argument ``${q}`` of the enclosing macro is followed outwards.

Any other value not written literally where the finding stands (``${...}``) is not patched: a
:class:`FixNote` says where it is computed. Two findings that would edit one text differently
(a macro body's literal, expanded with different values) are both notes: :func:`plan_runs`.
Numbers are written by :func:`~.registry.format_value`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
import math
import re

from ..checks.registry import format_value
from ..checks.rules import inertial as inertial_rules
from ..checks.rules.joints import unit_axis_text
from ..findings import Finding
from ..location import MacroCall
from ..model.robot import Inertia, Robot
from ..source.scanner import (Attribute, Element, elements_at, removal_span, same_element, scan,
                              TextEdit)

#: The codes fixed with ``inertia=True`` (``--fix-inertia``).
INERTIA_CODES = ('inertia-implausible', 'inertia-not-positive-definite',
                 'inertia-triangle-inequality', 'link-inertia-invalid')
_MOMENTS = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
_NAMED_DUPLICATES = {'link-duplicate': 'link', 'joint-duplicate': 'joint',
                     'material-duplicate': 'material'}
#: A value that is one xacro reference: ``${mass}``.
_REFERENCE = re.compile(r'\$\{\s*([A-Za-z_]\w*)\s*\}')


@dataclass(frozen=True)
class FixNote:
    """A finding of a fixable code that is not patched, and why (``value computed at ...``)."""

    finding: Finding
    reason: str


@dataclass(frozen=True)
class FixPlan:
    """The edits of every file, in file and offset order, and the findings left as notes."""

    edits: tuple[TextEdit, ...]
    notes: tuple[FixNote, ...]
    #: The findings an edit fixes.
    fixed: tuple[Finding, ...]


def _literal(text: str) -> tuple[float, ...] | None:
    """The numbers of an attribute value written literally, else ``None`` (xacro, entities)."""
    if '$' in text or '&' in text:
        return None
    try:
        return tuple(float(part) for part in text.split())
    except ValueError:
        return None


def _same(values: Iterable[float], model: Iterable[float]) -> bool:
    return all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(values, model))


class _Planner:
    """Collects the edits and notes of one plan; one instance per :func:`plan_fixes`."""

    def __init__(self, robot: Robot, read: Callable[[str], str],
                 sources: dict[str, tuple[str, list[Element]] | None]) -> None:
        self.robot = robot
        self._read = read
        self._sources = sources
        self.edits: list[TextEdit] = []
        self.notes: list[FixNote] = []
        self.fixed: list[Finding] = []

    def source(self, filename: str) -> tuple[str, list[Element]] | None:
        if filename not in self._sources:
            try:
                text = self._read(filename)
                self._sources[filename] = (text, scan(text))
            except (OSError, ValueError):
                self._sources[filename] = None
        return self._sources[filename]

    def edit(self, finding: Finding, filename: str, text: str, start: int, end: int,
             new: str) -> TextEdit:
        line = text.count('\n', 0, start) + 1
        column = start - (text.rfind('\n', 0, start) + 1) + 1
        return TextEdit(filename, line, column, start, end, text[start:end], new, finding.code,
                        finding.element)

    def located(self, finding: Finding) -> tuple[str, int, str, list[Element]] | str:
        """The file, line, text and elements of the finding's location, or why there are none."""
        location = finding.location
        if location is None or location.line is None:
            return 'the finding has no line'
        source = self.source(location.filename)
        if source is None:
            return f'{location.filename} cannot be read as XML text'
        return (location.filename, location.line, *source)

    def element(self, finding: Finding, tag: str) -> tuple[str, str, Element] | str:
        """The one ``tag`` element the finding's location points at, or why there is none."""
        located = self.located(finding)
        if isinstance(located, str):
            return located
        filename, line, text, elements = located
        found = elements_at(elements, line, tag)
        if len(found) != 1:
            return (f'no <{tag}> written at {finding.location}' if not found else
                    f'{len(found)} <{tag}> elements at {finding.location}: which one is not known')
        return filename, text, found[0]

    def argument(self, value: str, calls: Sequence[MacroCall], read: float
                 ) -> tuple[str, str, Attribute] | None:
        """
        The literal argument ``read`` of a call that ``value``, ``${p}`` in a macro body, is.

        ``${p}`` is the argument ``p`` of the innermost call (``calls``, innermost first); an
        argument written ``${q}`` is that of the call enclosing it, and so on.

        :return: The file, its text and the call's attribute; ``None`` when a value is another
            expression, ``p`` is not given (the macro's default) or not ``read`` (the model's).
        """
        for call in calls:
            reference = _REFERENCE.fullmatch(value.strip())
            source = self.source(call.location.filename)
            if reference is None or reference[1] not in call.parameters or source is None:
                return None
            written = elements_at(source[1], call.location.line or 0, call.macro)
            attribute = written[0].attribute(reference[1]) if len(written) == 1 else None
            if attribute is None:
                return None
            if _literal(attribute.value) is not None:
                return (call.location.filename, source[0], attribute) \
                    if _literal(attribute.value) == (read,) else None
            value = attribute.value
        return None

    def add(self, finding: Finding, result: list[TextEdit] | str) -> None:
        if isinstance(result, str):
            self.notes.append(FixNote(finding, result))
        elif result:
            self.edits.extend(result)
            self.fixed.append(finding)

    # -- one method per fix ---------------------------------------------------------------
    def axis(self, finding: Finding) -> list[TextEdit] | str:
        joint = self.robot.joint_map.get(finding.element.partition(':')[2])
        unit = unit_axis_text(joint.axis) if joint is not None else None
        if joint is None or unit is None:
            return 'no unit axis that checks clean'
        found = self.element(finding, 'axis')
        if isinstance(found, str):
            return found
        filename, text, element = found
        attribute = element.attribute('xyz')
        if attribute is None or _literal(attribute.value) is None:
            return (f'xyz is computed at {filename}:{element.first_line} '
                    f'({attribute.value if attribute else "absent"}): write xyz="{unit}" there')
        if not _same(_literal(attribute.value) or (), joint.axis):
            return (f'xyz="{attribute.value}" at {filename}:{element.first_line} is not the '
                    'axis read')
        return [self.edit(finding, filename, text, attribute.start, attribute.end, unit)]

    def limits(self, finding: Finding) -> list[TextEdit] | str:
        found = self.element(finding, 'limit')
        if isinstance(found, str):
            return found
        filename, text, element = found
        lower, upper = element.attribute('lower'), element.attribute('upper')
        where = f'{filename}:{element.first_line}'
        if lower is None or upper is None:
            return f'lower or upper is not written at {where}'
        low, high = _literal(lower.value), _literal(upper.value)
        if low is None or high is None or len(low) != 1 or len(high) != 1:
            return (f'lower="{lower.value}" upper="{upper.value}" at {where}: computed, swap '
                    'them where they are computed')
        if not low[0] > high[0]:
            return f'lower="{lower.value}" upper="{upper.value}" at {where} is not the limit read'
        return [self.edit(finding, filename, text, lower.start, lower.end, upper.value),
                self.edit(finding, filename, text, upper.start, upper.end, lower.value)]

    def duplicate(self, finding: Finding) -> list[TextEdit] | str:
        located, location = self.located(finding), finding.location
        if isinstance(located, str):
            return located
        filename, line, text, elements = located
        kind = _NAMED_DUPLICATES.get(finding.code)
        name = finding.element.partition(':')[2]
        if kind is not None:
            candidates = [(element, next(other for other in elements if other.tag == kind
                                         and other.parent is element.parent
                                         and _name(other) == name))
                          for element in elements_at(elements, line, kind)
                          if _name(element) == name]
        else:
            said = re.search(r'second <([\w:.-]+)>|holds <([\w:.-]+)>', finding.message)
            tag = next((group for group in said.groups() if group), None) if said else None
            candidates = []
            for element in elements:
                if element.first_line <= line <= element.last_line \
                        and element.parent is not None and tag in (None, element.tag):
                    siblings = [child for child in element.parent.children
                                if child.tag == element.tag]
                    candidates.append((element, siblings[0]))
        candidates = [(second, first) for second, first in candidates if second is not first]
        if len(candidates) != 1:
            return (f'the repeat is not written in {location} itself (a macro expanded twice?)'
                    if not candidates else f'several candidates at {location}')
        second, first = candidates[0]
        if not same_element(text, first, second):
            return (f'<{second.tag}> at {location} differs from the one at line '
                    f'{first.first_line}: choose which to keep')
        start, end = removal_span(text, second)
        return [self.edit(finding, filename, text, start, end, '')]

    def inertia(self, finding: Finding) -> list[TextEdit] | str:
        link = self.robot.link_map.get(finding.element.partition(':')[2])
        tensor = _solid_inertia(self.robot, finding.element.partition(':')[2])
        if link is None or link.inertial is None or link.inertial.location is None or \
                tensor is None:
            return 'no single solid collision primitive (box, cylinder, sphere) and mass > 0'
        found = self.element(Finding(finding.code, finding.severity, finding.element,
                                     finding.message, link.inertial.location), 'inertial')
        if isinstance(found, str):
            return found
        filename, text, element = found
        inertia = [child for child in element.children if child.local_tag == 'inertia']
        if len(inertia) != 1:
            return f'no <inertia> written in the <inertial> at {filename}:{element.first_line}'
        target, edits = inertia[0], []
        for name, value in zip(_MOMENTS, tensor):
            written = target.attribute(name)
            if written is None:
                if value != 0.0:
                    end = target.attributes[-1].end + 1 if target.attributes else \
                        target.start + 1 + len(target.tag)
                    edits.append(self.edit(finding, filename, text, end, end,
                                           f' {name}="{format_value(value)}"'))
                continue
            where, old = (filename, text, written), _literal(written.value)
            if old is None:  # a macro parameter: its argument at the call
                where = self.argument(written.value, link.inertial.location.calls,
                                      getattr(link.inertial.inertia, name)) or where
                old = _literal(where[2].value)
            if old is None or len(old) != 1:
                return (f'{name}="{written.value}" is computed at {filename}:'
                        f'{target.first_line}: write the inertia of the solid there')
            if old[0] != value:
                edits.append(self.edit(finding, where[0], where[1], where[2].start,
                                       where[2].end, format_value(value)))
        return edits or 'the inertia written is already that of the solid'


def _name(element: Element) -> str | None:
    attribute = element.attribute('name')
    return attribute.value if attribute is not None else None


def _solid_inertia(robot: Robot, name: str) -> tuple[float, ...] | None:
    """
    The link's inertia as the solid of its single collision primitive, 6 significant digits.

    The checker's computation (:mod:`.inertial`), kept only when the rounded tensor is physically
    valid; an entry below 1e-9 of the largest is rotation noise and written 0.
    """
    link = robot.link_map.get(name)
    solid = inertial_rules.solid_inertia(link) if link is not None else None
    if solid is None:
        return None
    implied = solid[1]
    exact = [getattr(implied, moment) for moment in _MOMENTS]
    noise = 1e-9 * max(abs(value) for value in exact)
    values = tuple(float(f'{value:.6g}') + 0.0 if abs(value) > noise else 0.0
                   for value in exact)
    if inertial_rules.ros_problem(Inertia(*values)) is not None:
        return None
    return values


def plan_fixes(robot: Robot, findings: Iterable[Finding], read: Callable[[str], str], *,
               inertia: bool = False) -> FixPlan:
    """
    Turn the fixable findings of a description into text edits of its source files.

    :param robot: The model the findings are about.
    :param findings: The findings, as :func:`~urdf_tools_ros.core.checks.check_description`
        returns them (suppressed and unselected ones left out).
    :param read: Returns a file's text by the name a location gives (newlines as in the file).
    :param inertia: Also replace implausible or invalid inertias by the solid's (see the module).
    :return: Non-overlapping edits sorted by file and offset; an edit inside a removed element
        is dropped, and of two edits of one span that disagree both are (each finding a note).
    """
    return plan_runs([(robot, findings)], read, inertia=inertia)


def plan_runs(runs: Iterable[tuple[Robot, Iterable[Finding]]], read: Callable[[str], str], *,
              inertia: bool = False) -> FixPlan:
    """
    :func:`plan_fixes` of several models of the same files (entries, xacro arguments) at once.

    Each finding is planned with its model, then all edits are merged as one plan's: of two
    edits of one span that disagree (in one model or in two) both findings are notes.

    :param runs: Each model with its findings.
    """
    sources: dict[str, tuple[str, list[Element]] | None] = {}
    edits: list[TextEdit] = []
    notes: list[FixNote] = []
    fixed: list[Finding] = []
    for robot, findings in runs:
        planner = _Planner(robot, read, sources)
        methods = {'joint-axis-not-unit': planner.axis, 'joint-limit-lower-above-upper':
                   planner.limits, **{code: planner.duplicate for code in
                                      ('element-duplicate', *_NAMED_DUPLICATES)}}
        if inertia:
            methods.update({code: planner.inertia for code in INERTIA_CODES})
        done: set[tuple[str, str]] = set()
        for finding in findings:
            method = methods.get(finding.code)
            key = (finding.code, finding.element)
            if method is None or (finding.code in INERTIA_CODES and key in done):
                continue
            done.add(key)
            planner.add(finding, method(finding))
        edits += planner.edits
        notes += planner.notes
        fixed += planner.fixed
    kept, conflicting = _merge(edits)
    # a finding whose edits are not all kept is not fixed: none of its edits is applied
    failed = {(edit.code, edit.element) for edit in conflicting}
    for finding in fixed:
        if (finding.code, finding.element) in failed:
            notes.append(FixNote(finding, f'its edit of the text at {finding.location} differs '
                                 'from the edit of another finding there (a macro body '
                                 'expanded with different values?)'))
    return FixPlan(tuple(edit for edit in kept if (edit.code, edit.element) not in failed),
                   tuple(notes), tuple(finding for finding in fixed
                                       if (finding.code, finding.element) not in failed))


def _merge(edits: list[TextEdit]) -> tuple[list[TextEdit], list[TextEdit]]:
    """
    One of each edit, none inside a removed span; ``(kept, conflicting)``.

    Two different edits of overlapping text (a literal in a macro body that two expansions
    would fix differently) are both conflicting: neither is applied.
    """
    # the same change asked by several findings (a macro body's literal expanded twice) is one
    first = {(edit.filename, edit.start, edit.end, edit.new): edit for edit in reversed(edits)}
    unique = sorted(first.values(), key=lambda edit: (edit.filename, edit.start, -edit.end))
    kept: list[TextEdit] = []
    conflicting: list[TextEdit] = []
    for edit in unique:
        previous = kept[-1] if kept else None
        if previous is not None and previous.filename == edit.filename and \
                edit.start < previous.end:
            if previous.new == '' and edit.end <= previous.end:
                continue  # inside a removed element
            conflicting.extend((kept.pop(), edit))
            continue
        kept.append(edit)
    return kept, conflicting
