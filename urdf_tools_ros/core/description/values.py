"""
Read attribute values of URDF elements and report what does not parse, as loading findings.

:class:`ValueReader` is the base of the element readers (:mod:`.urdf_extensions`,
:mod:`.urdf_reader`): it holds the findings list, the caches of attribute texts already parsed
(files repeat ``"0 0 0"``, ``"1"``, ...), and turns a missing required attribute, a number that
does not parse, a vector of the wrong size, NaN/inf, an attribute or element URDF does not define
into a :class:`~urdf_tools_ros.core.findings.Finding` of the ``loading`` rule family.
Attribute and element names follow the URDF specification (http://wiki.ros.org/urdf/XML).
"""

from __future__ import annotations

from collections.abc import Callable
import math
from typing import Any

from .model import SourceLocation, Vector3
from ..findings import Finding, Severity

Element = Any  # lxml.etree._Element; typed loosely so that the core needs no lxml stubs
Locate = Callable[[Element], SourceLocation]
Resolve = Callable[[str], 'str | None']

#: Attributes the URDF specification (and urdfdom) know, per element.
KNOWN_ATTRIBUTES = {
    'limit': frozenset({'lower', 'upper', 'effort', 'velocity'}),
    'dynamics': frozenset({'damping', 'friction'}),
    'safety_controller': frozenset({'soft_lower_limit', 'soft_upper_limit', 'k_position',
                                    'k_velocity'}),
    'mimic': frozenset({'joint', 'multiplier', 'offset'}),
    'calibration': frozenset({'rising', 'falling', 'reference_position'}),
    'origin': frozenset({'xyz', 'rpy'}),
    'axis': frozenset({'xyz'}),
    'inertia': frozenset({'ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'}),
}

_isfinite = math.isfinite


def local_name(tag: object) -> str:
    """Tag without namespace, as written (``{ns}x`` -> ``x``); comments give ``''``."""
    if not isinstance(tag, str):
        return ''
    return tag.rpartition('}')[2] if tag.startswith('{') else tag


class ValueReader:
    """
    Parse attribute values of URDF elements, collecting a finding for each one that is wrong.

    :param locate: Maps an element to its :class:`SourceLocation` (original xacro file:line).
    :param resolve: Maps a mesh/texture reference to a local path or ``None``.
    :ivar findings: Loading findings collected while reading.
    """

    def __init__(self, locate: Locate, resolve: Resolve) -> None:
        self._locate = locate
        self._resolve = resolve
        self.findings: list[Finding] = []
        # Attribute texts already parsed into finite numbers: files repeat "0 0 0", "1", ...
        self._scalars: dict[str, float] = {}
        self._vectors: dict[str, tuple[float, ...]] = {}

    # -- findings -------------------------------------------------------------------------
    def _report(self, code: str, severity: Severity, element: str, message: str,
                node: Element, fix: str | None = None,
                consumers: tuple[str, ...] | None = None) -> None:
        """Add a loading finding (``consumers``: those it breaks, if not its rule's)."""
        self.findings.append(Finding(code, severity, element, message, self._locate(node), fix,
                                     consumers))

    def _first_children(self, node: Element, tags: tuple[str, ...],
                        owner: str) -> list[Element | None]:
        """
        Return the first child of each tag in ``tags``, reporting every repeated one.

        urdfdom, urdf_parser_py and joint_state_publisher read the first of a repeated element
        (``FirstChildElement``, ``getElementsByTagName(...)[0]``); MuJoCo refuses the file
        ("repeated element"), and joint_state_publisher ignores a ``<mimic>`` or
        ``<safety_controller>`` that is not alone. Each repeat is an ``element-duplicate``.
        """
        found: dict[str, Element] = {}
        for child in node:
            tag = child.tag
            if tag not in tags:
                continue
            first = found.setdefault(tag, child)
            if first is not child:
                self._report_duplicate(child, first, tag, node, owner)
        return [found.get(tag) for tag in tags]

    def _report_duplicate(self, child: Element, first: Element, tag: str, parent: Element,
                          owner: str) -> None:
        consumers: tuple[str, ...] = ('mujoco',)
        ignored = ''
        if tag in ('mimic', 'safety_controller'):
            consumers = ('mujoco', 'joint_state_publisher')
            ignored = ('; joint_state_publisher ignores a <' + tag + '> that is not alone')
        self._report('element-duplicate', Severity.WARNING, owner,
                     f'<{local_name(parent.tag)}> has a second <{tag}> (the first is at '
                     f'{self._locate(first)}); urdfdom and urdf_parser_py read the first, '
                     f'MuJoCo refuses the file{ignored}', child,
                     f'remove the second <{tag}>', consumers)

    # -- values ---------------------------------------------------------------------------
    def _number(self, node: Element, attribute: str, owner: str, default: float | None,
                required: bool = False) -> float | None:
        text = node.get(attribute)
        if text is None:
            if required:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<{local_name(node.tag)}> has no {attribute}', node)
            return default
        value = self._scalars.get(text)
        if value is not None:
            return value
        try:
            value = float(text)
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not a number', node)
            return default
        if not _isfinite(value):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not finite', node)
        else:
            self._scalars[text] = value
        return value

    def _float(self, node: Element, attribute: str, owner: str, default: float,
               required: bool = False) -> float:
        value = self._number(node, attribute, owner, default, required)
        return default if value is None else value

    def _numbers(self, node: Element, attribute: str, owner: str, default: tuple[float, ...],
                 required: bool = False) -> tuple[float, ...]:
        text = node.get(attribute)
        if text is None:
            if required:
                self._report('attribute-missing', Severity.ERROR, owner,
                             f'<{local_name(node.tag)}> has no {attribute}', node)
            return default
        values = self._vectors.get(text)
        if values is not None and len(values) == len(default):
            return values
        try:
            values = tuple(map(float, text.split()))
        except ValueError:
            self._report('number-invalid', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not numbers', node)
            return default
        if len(values) != len(default):
            self._report('vector-size', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: expected '
                         f'{len(default)} numbers, got {len(values)}', node)
            return default
        # A finite sum means every value is finite (NaN and inf propagate); a sum that
        # overflows is decided value by value.
        if not _isfinite(sum(values)) and not all(map(_isfinite, values)):
            self._report('number-not-finite', Severity.ERROR, owner,
                         f'<{local_name(node.tag)} {attribute}="{text}">: not finite', node)
        else:
            self._vectors[text] = values
        return values

    def _vector3(self, node: Element, attribute: str, owner: str, default: Vector3,
                 required: bool = False) -> Vector3:
        x, y, z = self._numbers(node, attribute, owner, default, required)
        return (x, y, z)

    def _name(self, node: Element, kind: str, owner: str) -> str:
        name = node.get('name')
        if not name:
            self._report('attribute-missing', Severity.ERROR, owner,
                         f'<{kind}> has no name', node)
            return ''
        return str(name)

    # -- attributes and elements URDF does not define ---------------------------------------
    def _check_attributes(self, node: Element, tag: str, owner: str) -> None:
        """Report attributes of ``node`` (local tag ``tag``) that URDF does not define."""
        known = KNOWN_ATTRIBUTES.get(tag)
        if known is None:
            return
        for attribute in node.keys():
            if attribute not in known:
                self._report('unknown-attribute', Severity.INFO, owner,
                             f'<{tag}> attribute "{attribute}" is not part of URDF (ignored)',
                             node)

    def _unknown(self, node: Element, owner: str, where: str) -> None:
        self._report('unknown-element', Severity.INFO, owner,
                     f'<{node.tag}> is not part of URDF {where} (kept, ignored)', node)
