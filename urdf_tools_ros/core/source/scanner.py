"""
Where an element and its attributes stand in a file's text: byte-exact spans for text edits.

The mechanical fixes (:mod:`.fixes`) edit the file as written, never a re-serialised tree: the
text of one attribute value, or the whole text of one element, is replaced and every other
character stays. This module scans XML text (a ``.urdf`` or a ``.xacro`` file) into its
elements with their character offsets, skipping comments, CDATA, processing instructions and
the document type declaration (XML 1.0, 2.5 to 2.8), and finds the element a model location
(file, 1-based line) points at. It does not validate: the loader has already parsed the file.
A :class:`TextEdit` replaces one span; :func:`apply_edits` applies those of one file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
import re

_SKIP = re.compile(r'<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>',
                   re.DOTALL)
_START = re.compile(r'<([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|\'[^\']*\'))*)'
                    r'\s*(/?)>')
_END = re.compile(r'</([A-Za-z_][\w:.-]*)\s*>')
_ATTRIBUTE = re.compile(r'([^\s=/>]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')


@dataclass(frozen=True)
class Attribute:
    """
    One attribute of a start tag as written.

    :ivar name: The attribute name as written (``xyz``, ``xacro:name``).
    :ivar value: The value text between the quotes, entities not expanded.
    :ivar start: Offset of the value's first character in the file text.
    :ivar end: Offset just after the value's last character (before the closing quote).
    """

    name: str
    value: str
    start: int
    end: int


@dataclass
class Element:
    """
    One element as written: its tag, attributes and character span in the file text.

    :ivar tag: The tag as written (``axis``, ``xacro:macro``).
    :ivar start: Offset of its ``<``.
    :ivar tag_end: Offset just after its start tag's ``>``.
    :ivar end: Offset just after its end tag (``tag_end`` for an empty-element tag).
    :ivar first_line: 1-based line of its ``<``.
    :ivar last_line: 1-based line of its start tag's ``>`` (lxml's ``sourceline``).
    :ivar attributes: Its attributes in the order written.
    :ivar children: Its child elements in order.
    """

    tag: str
    start: int
    tag_end: int
    end: int
    first_line: int
    last_line: int
    attributes: tuple[Attribute, ...]
    children: list[Element] = field(default_factory=list)
    parent: Element | None = field(default=None, repr=False)

    def attribute(self, name: str) -> Attribute | None:
        """Return the attribute ``name`` as written, or ``None``."""
        return next((item for item in self.attributes if item.name == name), None)

    @property
    def local_tag(self) -> str:
        """The tag without a namespace prefix (``xacro:macro`` -> ``macro``)."""
        return self.tag.rpartition(':')[2]


def scan(text: str) -> list[Element]:
    """
    Scan XML text into its elements, in document order (parents before their children).

    :param text: The file's text as read (its own newlines kept).
    :return: Every element with its spans; the first is the root.
    :raises ValueError: if a start tag or an end tag cannot be matched (not well formed).
    """
    elements: list[Element] = []
    stack: list[Element] = []
    position = 0
    line_starts = [0] + [match.end() for match in re.finditer('\n', text)]

    def line_of(offset: int) -> int:
        low, high = 0, len(line_starts)
        while high - low > 1:
            middle = (low + high) // 2
            if line_starts[middle] <= offset:
                low = middle
            else:
                high = middle
        return low + 1

    while True:
        position = text.find('<', position)
        if position < 0:
            break
        skipped = _SKIP.match(text, position)
        if skipped:
            position = skipped.end()
            continue
        closing = _END.match(text, position)
        if closing:
            if not stack or stack[-1].tag != closing.group(1):
                raise ValueError(f'line {line_of(position)}: </{closing.group(1)}> closes nothing')
            stack.pop().end = closing.end()
            position = closing.end()
            continue
        opening = _START.match(text, position)
        if opening is None:
            raise ValueError(f'line {line_of(position)}: a "<" that starts no tag')
        base = opening.start(2)
        attributes = tuple(
            Attribute(match.group(1), match.group(2) if match.group(2) is not None
                      else match.group(3), base + match.start(match.lastindex or 2),
                      base + match.end(match.lastindex or 2))
            for match in _ATTRIBUTE.finditer(opening.group(2)))
        element = Element(opening.group(1), position, opening.end(), opening.end(),
                          line_of(position), line_of(opening.end() - 1), attributes,
                          parent=stack[-1] if stack else None)
        if stack:
            stack[-1].children.append(element)
        elements.append(element)
        if not opening.group(3):
            stack.append(element)
        position = opening.end()
    if stack:
        raise ValueError(f'<{stack[-1].tag}> is never closed')
    return elements


def elements_at(elements: list[Element], line: int, tag: str) -> list[Element]:
    """
    The elements of a local tag whose start tag spans ``line``, in document order.

    A model location is lxml's ``sourceline`` (the line of the start tag's ``>``) or, for
    xacro, the line xacro's parser gives (that of the ``<``): both lie in the start tag.
    """
    return [element for element in elements if element.local_tag == tag
            and element.first_line <= line <= element.last_line]


def removal_span(text: str, element: Element) -> tuple[int, int]:
    """
    The characters to delete to remove ``element``: whole lines when it stands alone on them.

    :return: ``(start, end)`` offsets: from the start of its first line to just after its last
        line's newline when only blanks share those lines, else the element's own span.
    """
    line_start = text.rfind('\n', 0, element.start) + 1
    line_end = text.find('\n', element.end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:element.start].strip() or text[element.end:line_end].strip():
        return element.start, element.end
    return line_start, line_end


def same_element(text: str, first: Element, second: Element) -> bool:
    """
    Whether two elements are written alike: tag, attributes (any order), text and children.

    Whitespace between child elements and comments do not count; every other character does
    (``1`` and ``1.0`` differ: an exact duplicate is one written the same).
    """
    if first.tag != second.tag or sorted((a.name, a.value) for a in first.attributes) != \
            sorted((a.name, a.value) for a in second.attributes) or \
            len(first.children) != len(second.children):
        return False
    if _own_text(text, first) != _own_text(text, second):
        return False
    return all(same_element(text, a, b) for a, b in zip(first.children, second.children))


def _own_text(text: str, element: Element) -> str:
    """The element's character data outside its children and comments, blanks removed."""
    if element.end == element.tag_end:
        return ''
    parts = []
    position = element.tag_end
    for child in element.children:
        parts.append(text[position:child.start])
        position = child.end
    closing = text.rfind('</', position, element.end)
    parts.append(text[position:closing])
    return ''.join(_SKIP.sub('', ''.join(parts)).split())


@dataclass(frozen=True)
class TextEdit:
    """
    Replace ``old`` at ``[start, end)`` of a file's text with ``new``.

    :ivar filename: The file, as the finding's location names it.
    :ivar line: 1-based line of ``start``.
    :ivar column: 1-based column of ``start`` on that line.
    :ivar start: Character offset in the file's text.
    :ivar end: Character offset just after ``old``.
    :ivar old: The text replaced (``text[start:end]``).
    :ivar new: The text written instead (empty: removed).
    :ivar code: The finding's code.
    :ivar element: The finding's element (``joint:shoulder``).
    """

    filename: str
    line: int
    column: int
    start: int
    end: int
    old: str
    new: str
    code: str
    element: str


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Return ``text`` with the edits (of one file, non-overlapping) applied."""
    for edit in sorted(edits, key=lambda item: item.start, reverse=True):
        if text[edit.start:edit.end] != edit.old:
            raise ValueError(f'{edit.filename}:{edit.line}: the text is no longer {edit.old!r}')
        text = text[:edit.start] + edit.new + text[edit.end:]
    return text
