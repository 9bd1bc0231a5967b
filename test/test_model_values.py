"""The model's classes compare, hash and print as the frozen dataclasses they are declared as."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from urdf_tools_ros.core.description import model

CLASSES = [cls for _, cls in inspect.getmembers(model, inspect.isclass)
           if cls.__module__ == model.__name__ and dataclasses.is_dataclass(cls)]


def _twin(cls: type) -> type:
    """A plain ``@dataclass(frozen=True)`` with the same fields: the reference behaviour."""
    return dataclasses.make_dataclass(
        cls.__name__, [(item.name, object, dataclasses.field(compare=item.compare, repr=item.repr))
                       for item in dataclasses.fields(cls)], frozen=True)


def _values(cls: type, tag: str) -> dict[str, object]:
    return {item.name: f'{item.name}-{tag}' for item in dataclasses.fields(cls)}


def test_every_model_class_is_covered() -> None:
    assert len(CLASSES) == 27
    assert all(issubclass(cls, model.Value) for cls in CLASSES)


@pytest.mark.parametrize('cls', CLASSES, ids=lambda cls: cls.__name__)
def test_equality_hash_and_repr_are_the_dataclass_ones(cls: type) -> None:
    twin = _twin(cls)
    base = _values(cls, 'a')
    item, reference = cls(**base), twin(**base)
    assert repr(item) == repr(reference)
    assert hash(item) == hash(reference)
    assert item == cls(**base) and not item != cls(**base)
    for name in base:  # one field changed at a time: equal exactly when the dataclass says so
        changed = {**base, name: f'{name}-b'}
        assert (item == cls(**changed)) == (reference == twin(**changed)), name
        assert (hash(item) == hash(cls(**changed))) == (hash(reference) == hash(twin(**changed)))
    assert item != reference  # another class, even with the same values
    assert item != tuple(base.values())
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(item, next(iter(base)), 'x')
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(item, next(iter(base)))


def test_location_is_not_compared_where_the_model_says_so() -> None:
    here, there = model.SourceLocation('a.urdf', 3), model.SourceLocation('b.urdf', 9)
    assert model.Limit(0.0, 1.0, 1.0, 1.0, here) == model.Limit(0.0, 1.0, 1.0, 1.0, there)
    assert model.Origin((0.0, 0.0, 1.0)) != model.Origin((0.0, 0.0, 2.0))
    assert {model.Origin(), model.Origin()} == {model.Origin()}
