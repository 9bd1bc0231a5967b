"""
Quick copies of the xacro documents' nodes: each macro expansion, and parses kept between runs.

xacro expands every macro call into a deep clone of the macro's body (``cloneNode(deep=True)``),
and minidom clones through its public factories, one ``setAttributeNS`` per attribute and a
user-data call per node: a fifth of a xacro-heavy run (create3, TurtleBot 4). :func:`copy_node`
builds the same nodes directly: the same classes, names, namespaces, attribute values, text and
user data (each user-data handler told ``NODE_CLONED``, as minidom does), which
:class:`Element` uses as its deep clone; the parser of :mod:`.xacro_runner` makes its elements
:class:`Element`. It copies element, text, comment and CDATA nodes itself and leaves any other
node to minidom.

:class:`ParsedFiles` keeps the parse of each file's latest text for the next runs of a
long-lived process (the language server): xacro changes the nodes it evaluates, so each run gets
a copy (about a third of the parse's time).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
import xml.dom
from xml.dom import minidom
from xml.dom.minicompat import NodeList

__all__ = ['Element', 'ParsedFiles', 'copy_node']

_ELEMENT, _TEXT, _CDATA, _COMMENT = (xml.dom.Node.ELEMENT_NODE, xml.dom.Node.TEXT_NODE,
                                     xml.dom.Node.CDATA_SECTION_NODE, xml.dom.Node.COMMENT_NODE)
_CLONED = xml.dom.UserDataHandler.NODE_CLONED
_new = object.__new__


class Element(minidom.Element):
    """A minidom element whose deep clone is :func:`copy_node`."""

    __slots__ = ()

    def cloneNode(self, deep: bool) -> Any:  # noqa: N802 - minidom's name
        """A copy of the element (and with ``deep`` of its descendants), as minidom's."""
        if not deep:
            return super().cloneNode(deep)
        return copy_node(self, self.ownerDocument)


def copy_node(node: Any, document: Any, index: tuple[str, int] | None = None) -> Any:
    """
    A deep copy of ``node`` owned by ``document``, with no parent; elements are :class:`Element`.

    :param index: ``(key, n)``: add ``n`` to the (integer) user data ``key`` of every element
        that has it (after its user-data handlers ran).
    """
    kind = node.nodeType
    copy: Any
    if kind in (_TEXT, _COMMENT, _CDATA):
        copy = _new(type(node))
        copy._data = node._data
        copy.ownerDocument = document
        copy.parentNode = copy.previousSibling = copy.nextSibling = None
        return copy
    if kind != _ELEMENT:
        if document is node.ownerDocument:
            return node.cloneNode(True)
        return document.importNode(node, True)
    copy = _new(Element)
    copy.ownerDocument = document
    copy.parentNode = copy.previousSibling = copy.nextSibling = None
    copy.tagName = copy.nodeName = node.tagName
    copy.prefix = node.prefix
    copy.namespaceURI = node.namespaceURI
    if hasattr(node, '_localName'):
        copy._localName = node._localName
    copy._attrs = copy._attrsNS = None
    if node._attrs:
        copy._attrs, copy._attrsNS = attributes, by_namespace = {}, {}
        for name, attribute in node._attrs.items():
            value = attribute._value
            made: Any = minidom.Attr(name, attribute.namespaceURI, attribute.localName,
                                     attribute._prefix)
            made.ownerDocument, made.ownerElement = document, copy
            made._value = value
            made.childNodes[0]._data = value
            if attribute.specified:
                made.specified = True
            attributes[name] = made
            by_namespace[(made.namespaceURI, made.localName)] = made
    copy.childNodes = NodeList()
    _copy_children(node, copy, document, index)
    if '_user_data' in node.__dict__:
        node._call_user_data_handler(_CLONED, node, copy)
        if index is not None and index[0] in getattr(copy, '_user_data', {}):
            number, handler = copy._user_data[index[0]]
            copy._user_data[index[0]] = (number + index[1], handler)
    return copy


def copy_document(document: Any, index: tuple[str, int] | None = None) -> Any:
    """A copy of a parsed document without a ``<!DOCTYPE>`` (:func:`copy_node` of its nodes)."""
    copy = minidom.Document()
    for name in ('version', 'encoding', 'standalone'):
        if name in document.__dict__:
            setattr(copy, name, getattr(document, name))
    _copy_children(document, copy, copy, index)
    return copy


def _copy_children(node: Any, copy: Any, document: Any, index: tuple[str, int] | None) -> None:
    """Append a :func:`copy_node` of each child of ``node`` to ``copy``'s (empty) children."""
    children, previous = copy.childNodes, None
    for child in node.childNodes:
        made = copy_node(child, document, index)
        made.parentNode = copy
        if previous is not None:
            previous.nextSibling, made.previousSibling = made, previous
        children.append(made)
        previous = made


@dataclass(frozen=True)
class _Parse:
    """One kept parse: the document as parsed, and what the parser noted beside it."""

    text: str
    document: Any
    #: The location table's length when it was parsed (its elements' indices start there).
    start: int
    #: The locations, and anything else the parser noted per element, by index.
    notes: tuple[Any, ...]


class ParsedFiles:
    """
    The parse of each file's latest text, kept by the process that runs xacro again and again.

    Only documents without a ``<!DOCTYPE>`` are kept. Not thread-safe: used under
    :data:`~.xacro_runner.XACRO_LOCK`.
    """

    def __init__(self) -> None:
        self._kept: dict[str, _Parse] = {}

    def copy(self, name: str, text: str, key: str, start: int
             ) -> tuple[Any, tuple[Any, ...], Callable[[int], int]] | None:
        """
        A copy of the kept parse of ``text`` of ``name``, or ``None`` if it was not kept.

        :param key: The user-data key that numbers the elements.
        :param start: The location table's length now: the copy's numbers start there.
        :return: The document, the notes kept with it, and the function that moves an index of
            the kept parse to the copy's.
        """
        kept = self._kept.get(name)
        if kept is None or kept.text != text:
            return None
        shift = start - kept.start
        return (copy_document(kept.document, (key, shift)), kept.notes,
                lambda number: number + shift)

    def keep(self, name: str, text: str, document: Any, start: int, notes: Iterable[Any]) -> None:
        """Keep a copy of ``document``, the parse of ``text`` of ``name`` (replacing the last)."""
        if document.doctype is None:
            self._kept[name] = _Parse(text, copy_document(document), start, tuple(notes))
