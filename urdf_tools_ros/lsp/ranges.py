"""
Where a finding stands in a file's text: its line and the columns of its element or attribute.

The element of a finding's 1-based line is the one its ``element`` names (``joint:elbow``),
else the innermost start tag on that line (:func:`~urdf_tools_ros.core.source.scanner.scan`).
Its range is the value of the attribute the message names, else its start tag's first line;
a line without an element gives the line's text, blanks trimmed. Only the lines around the
finding's line are scanned, so half-typed text elsewhere does not move it.
Lines are 0-based, columns UTF-16 code units (LSP's default encoding).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
import functools
import re

from urdf_tools_ros.core.source.scanner import Attribute, Element, scan, tokens
from ..core.findings import Finding


@dataclass(frozen=True)
class Span:
    """A range of a text: 0-based lines, columns in UTF-16 code units, the end exclusive."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int


def _utf16(text: str) -> int:
    """The length of ``text`` in UTF-16 code units."""
    return len(text.encode('utf-16-le')) // 2


#: Lines around a finding's line scanned to find its element (a start tag spans fewer).
NEAR = 40


class TextIndex:
    """A text with its line starts and scanned elements (each found when first asked for)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @functools.cached_property
    def starts(self) -> list[int]:
        """The offset of each line's first character."""
        return [0] + [match.end() for match in re.finditer('\n', self.text)]

    @functools.cached_property
    def elements(self) -> list[Element] | None:
        """The scanned elements; ``None`` when the text is not well formed (half-typed)."""
        try:
            return scan(self.text)
        except ValueError:
            return None

    def position(self, offset: int) -> tuple[int, int]:
        """The 0-based line and UTF-16 column of a character offset."""
        low = bisect.bisect_right(self.starts, offset) - 1
        return low, _utf16(self.text[self.starts[low]:offset])

    def offset(self, line: int, column: int) -> int:
        """The character offset of a 0-based line and UTF-16 column (clamped to the text)."""
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[max(line, 0)]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        offset, units = start, 0
        while offset < end and units < column:
            units += 2 if ord(self.text[offset]) > 0xFFFF else 1
            offset += 1
        return offset

    def line_span(self, line: int) -> Span:
        """The text of a 1-based line, blanks trimmed (the whole line when it is blank)."""
        index = min(max(line - 1, 0), len(self.starts) - 1)
        start = self.starts[index]
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
        content = self.text[start:end].rstrip('\r')
        stripped = content.strip()
        first = content.index(stripped) if stripped else 0
        return Span(index, _utf16(content[:first]), index,
                    _utf16(content[:first + len(stripped)]) if stripped else _utf16(content))

    def span(self, start: int, end: int) -> Span:
        """The range of the characters ``[start, end)``."""
        first, last = self.position(start), self.position(end)
        return Span(first[0], first[1], last[0], last[1])

    def _near(self, line: int) -> list[Element]:
        """
        The start tags within :data:`NEAR` lines of a 1-based line, as :func:`tokens` reads them.

        Only that part of the text is scanned (a finding's element is placed without scanning
        the whole file: 1.3 s for 2,000 links); the text before it is kept as blank lines, so
        offsets and lines are the file's.
        """
        first = max(line - NEAR, 1)
        start = self.starts[min(first, len(self.starts)) - 1]
        end = self.starts[line + NEAR] if line + NEAR < len(self.starts) else len(self.text)
        blank = '\n' * (first - 1) + ' ' * (start - first + 1)
        return [item for item in tokens(blank + self.text[start:end]) if isinstance(item, Element)]

    def element_at(self, line: int, element: str = '') -> Element | None:
        """The element of a finding at a 1-based line (see the module doc), or ``None``."""
        scanned = self.__dict__.get('elements')  # the whole text, when it was scanned already
        here = [item for item in (scanned or self._near(line))
                if item.first_line <= line <= item.last_line]
        kind, _, name = element.partition(':')
        named = [item for item in here if item.local_tag == kind and (
            not name or (item.attribute('name') or Attribute('', '', 0, 0)).value == name)]
        chosen = named or here
        return chosen[-1] if chosen else None

    def finding_span(self, finding: Finding) -> Span:
        """The range of a finding located in this text (see the module doc)."""
        line = finding.location.line if finding.location is not None else None
        if line is None:
            return self.line_span(1)
        found = self.element_at(line, finding.element)
        if found is None:
            return self.line_span(line)
        attribute = named_attribute(found, finding.message)
        if attribute is not None:
            return self.span(attribute.start, attribute.end)
        first_line_end = self.text.find('\n', found.start)
        end = found.tag_end if first_line_end < 0 else min(found.tag_end, first_line_end)
        return self.span(found.start, len(self.text[:end].rstrip()))


@functools.lru_cache(maxsize=8)
def text_index(text: str) -> TextIndex:
    """The :class:`TextIndex` of ``text``, kept for the last 8 texts asked for; read-only."""
    return TextIndex(text)


def named_attribute(element: Element, message: str) -> Attribute | None:
    """The attribute of ``element`` a message writes as ``name=``, else names (not ``name``)."""
    for attribute in element.attributes:
        if re.search(rf'\b{re.escape(attribute.name)}\s*=', message):
            return attribute
    for attribute in element.attributes:
        if attribute.name != 'name' and re.search(rf'\b{re.escape(attribute.name)}\b', message):
            return attribute
    return None
