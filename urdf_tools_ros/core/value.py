"""
:class:`Value`, the base of the package's frozen dataclasses (the model, findings, rules).

``test/test_values.py`` holds each subclass to what ``@dataclass(frozen=True)`` gives.
"""

from __future__ import annotations

from dataclasses import fields


_COMPARED: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    """The names of the fields of dataclass ``cls`` that take part in ``==`` and ``hash``."""
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(item.name for item in fields(cls) if item.compare)
    return names


class Value:
    """
    Base of the frozen dataclasses: equality, hash and repr from the dataclass fields.

    The same as ``@dataclass(frozen=True)`` generates (``==`` between objects of one class over
    the fields in order, ``compare=False`` ones left out; ``hash`` of those values;
    ``Class(field=value, ...)``), written once: dataclasses compiles each generated method per
    class at import, and for the model's 27 classes and the checker's 9 value classes ``eq``,
    ``hash`` and ``repr`` were about 9 ms of every ``urdf-tools`` start-up (issue 13).
    Immutability stays the dataclass's. Use::

        @dataclass(frozen=True, slots=True, eq=False, repr=False)
        class Origin(Value):
            ...
    """

    __slots__ = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in _compared(type(self))])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ', '.join(f'{item.name}={getattr(self, item.name)!r}'
                          for item in fields(self) if item.repr)  # type: ignore[arg-type]
        return f'{type(self).__qualname__}({shown})'
