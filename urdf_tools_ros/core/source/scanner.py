"""
The one XML text scanner: where elements, attributes and comments stand in a file's text.

:func:`tokens` cuts XML text into start tags (:class:`Element`, in the tree their end tags give)
and comments, skipping CDATA, processing instructions and the DOCTYPE (XML 1.0, 2.5 to 2.8). A
half-typed text is read as far as it goes: an unclosed comment runs to the end, a start tag
without ``>`` has the attributes written so far. :func:`scan` raises on text not well formed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
import re

_NAME = r'[A-Za-z_][\w:.-]*'
_VALUE = r'"[^"<]*"|\'[^\'<]*\''
#: Comments, and what may hold ``<!--`` without being one: CDATA and processing instructions.
_SKIPPED = r'<!--(?P<comment>.*?)(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<\?.*?(?:\?>|\Z)'
_COMMENTS = re.compile(_SKIPPED, re.DOTALL)
_TOKEN = re.compile(
    _SKIPPED + r'|(?P<doctype><!DOCTYPE(?:[^\[>]|\[.*?\])*>)'
    rf'|</(?P<closes>{_NAME})\s*>|<(?P<tag>{_NAME})'
    rf'(?P<attributes>(?:\s+[^\s=/>]+\s*=\s*(?:{_VALUE}))*)'
    rf'(?:\s*(?P<empty>/?)>|(?P<rest>(?:[^<>"\']|{_VALUE})*)>?)', re.DOTALL)
_ATTRIBUTE = re.compile(r'([^\s=/>]+)\s*=\s*(["\'])([^<]*?)\2')
#: ``$(arg NAME)`` or ``$(find PKG)``; group 3, the ``)``, is missing in text being typed.
SUBSTITUTION = re.compile(r'\$\((arg|find)\s+([^\s()]+)\s*(\))?')
#: ``arg('NAME')`` in an expression (xacro's ``xacro.arg``).
ARG_CALL = re.compile(r'\barg\(\s*[\'"]([^\'"]+)[\'"]\s*\)')
#: ``${...}`` (its ``}`` missing while typed), and a name it refers to (not one after a dot).
EXPRESSION = re.compile(r'\$\{([^{}]*)\}?')
NAME = re.compile(r'(?<![\w.])[A-Za-z_]\w*')


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
    :ivar tag_end: Offset just after its start tag's ``>`` (of the text it has, half typed).
    :ivar end: Offset just after its end tag (``tag_end`` for an empty-element tag; the end of
        the text for one never closed, the start of the end tag that closed an outer one).
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


@dataclass(frozen=True)
class Comment:
    """A comment: ``body`` is its text between ``<!--`` and ``-->``, ``line`` 1-based."""

    start: int
    end: int
    line: int
    body: str


def _start_tag(text: str, match: re.Match[str], line: int, parent: Element | None) -> Element:
    """The :class:`Element` of a start tag ``match`` of :data:`_TOKEN` at 1-based ``line``."""
    base, rest = match.start('attributes'), match.group('rest')
    body = text[base:match.end('rest' if rest is not None else 'attributes')]
    attributes = tuple(Attribute(item.group(1), item.group(3), base + item.start(3),
                                 base + item.end(3)) for item in _ATTRIBUTE.finditer(body))
    start, end = match.span()
    element = Element(match.group('tag'), start, end, end, line,
                      line + text.count('\n', start, end - 1), attributes, parent=parent)
    if parent is not None:
        parent.children.append(element)
    return element


def tokens(text: str, strict: bool = False) -> list[Element | Comment]:
    """
    Cut XML text into its start tags and comments, in document order.

    :param text: The file's text as read (its own newlines kept).
    :param strict: Raise on text that is not well formed instead of reading on.
    :return: The tokens; each :class:`Element` has its ``end``, ``parent`` and ``children``.
    :raises ValueError: if ``strict`` and a ``<`` starts no tag or a tag is not closed.
    """
    found: list[Element | Comment] = []
    stack: list[Element] = []
    line, counted, last = 1, 0, 0
    for match in _TOKEN.finditer(text):
        start, end, kind = match.start(), match.end(), match.lastgroup
        line, counted = line + text.count('\n', counted, start), start
        tag = match.group('closes') or match.group('tag')
        if strict and (kind == 'rest' or '<' in text[last:start] or kind in ('comment', None)
                       and not text.endswith(('-->', '?>', ']]>'), start + 2, end)
                       or kind == 'closes' and (not stack or stack[-1].tag != tag)):
            raise ValueError(f'line {line}: not well-formed XML')
        last = end
        if kind == 'comment':
            found.append(Comment(start, end, line, match.group('comment')))
        elif kind == 'closes' and any(item.tag == tag for item in stack):
            while stack[-1].tag != tag:  # the open elements inside it end where it ends
                stack.pop().end = start
            stack.pop().end = end
        elif kind in ('empty', 'rest'):
            element = _start_tag(text, match, line, stack[-1] if stack else None)
            found.append(element)
            if not match.group('empty') and text[end - 1] == '>' and \
                    not (match.group('rest') or '').rstrip().endswith('/'):
                stack.append(element)
    if strict and (stack or '<' in text[last:]):
        raise ValueError('not well-formed XML: ' + (f'<{stack[-1].tag}> is never closed'
                                                    if stack else 'a "<" at the end'))
    for element in stack:
        element.end = len(text)
    return found


def scan(text: str) -> list[Element]:
    """
    The elements of well-formed XML text, in document order (the first is the root).

    :raises ValueError: if the text is not well formed (:func:`tokens`, ``strict``).
    """
    return [token for token in tokens(text, strict=True) if isinstance(token, Element)]


def without_comments(text: str) -> str:
    """``text`` with each comment :func:`tokens` finds blanked (its newlines kept)."""
    return _COMMENTS.sub(lambda match: re.sub('[^\n]', ' ', match.group()) if match.lastgroup
                         == 'comment' else match.group(), text) if '<!--' in text else text


def tags_holding(text: str, needle: str) -> list[Element]:
    """The start tags holding ``needle`` outside comments, each read alone (no tree): quick."""
    body, found = without_comments(text) if needle in text else '', {}
    for position in (item.start() for item in re.finditer(re.escape(needle), body)):
        start = body.rfind('<', 0, position + 1)
        match = _TOKEN.match(body, start)
        if match and match.lastgroup in ('empty', 'rest') and match.end() > position and \
                start not in found:
            found[start] = _start_tag(body, match, body.count('\n', 0, start) + 1, None)
    return list(found.values())


def tag_context(text: str) -> tuple[Element, str, str] | None:
    """
    The start tag ``text`` (a file's text up to a position) ends in, and what is typed there.

    :return: ``(element, where, typed)``: the start tag so far; ``where`` is ``tag`` while its
        tag is typed, ``''`` while an attribute name is typed after whole attributes, else the
        attribute whose value is typed; ``typed`` is the part written. ``None`` elsewhere.
    """
    match = _TOKEN.match(text, max(text.rfind('<'), 0))
    if match is None or match.lastgroup != 'rest' or text[match.end() - 1] == '>':
        return None
    element, typed = _start_tag(text, match, 1, None), text[match.end('attributes'):]
    name = re.fullmatch(r'\s+(\w*)', typed)
    value = re.search(r'([^\s=/>]+)\s*=\s*["\']([^"\'<>]*)\Z', typed)
    return (element, 'tag', element.tag) if not typed and not element.attributes else \
        (element, '', name.group(1)) if name else \
        (element, value.group(1), value.group(2)) if value else None


def elements_at(elements: list[Element], line: int, tag: str) -> list[Element]:
    """The elements of local tag ``tag`` whose start tag (holding a model line) spans ``line``."""
    return [element for element in elements if element.local_tag == tag
            and element.first_line <= line <= element.last_line]


def removal_span(text: str, element: Element) -> tuple[int, int]:
    """The ``(start, end)`` to delete to remove ``element``: whole lines when alone on them."""
    line_start = text.rfind('\n', 0, element.start) + 1
    line_end = text.find('\n', element.end) + 1 or len(text)
    if text[line_start:element.start].strip() or text[element.end:line_end].strip():
        return element.start, element.end
    return line_start, line_end


def same_element(text: str, first: Element, second: Element) -> bool:
    """
    Whether two elements are written alike: tag, attributes (any order), text and children.

    Whitespace between child elements and comments do not count; every other character does
    (``1`` and ``1.0`` differ: an exact duplicate is one written the same).
    """
    def form(element: Element) -> tuple[object, ...]:
        return (element.tag, sorted((item.name, item.value) for item in element.attributes),
                _own_text(text, element), [form(child) for child in element.children])
    return form(first) == form(second)


def _own_text(text: str, element: Element) -> str:
    """The element's character data outside its children and comments, blanks removed."""
    if element.end == element.tag_end:
        return ''
    edges = [element.tag_end, *(edge for child in element.children
                                for edge in (child.start, child.end)),
             text.rfind('</', 0, element.end)]
    own = ''.join(text[start:end] for start, end in zip(edges[::2], edges[1::2]))
    return ''.join(_COMMENTS.sub('', own).split())


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
