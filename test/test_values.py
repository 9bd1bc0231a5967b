"""The frozen value classes compare, hash and print as the frozen dataclasses they are declared as.

The model's 27 classes and the checker's value classes take ``==``, ``hash`` and ``repr`` from
one base, :class:`urdf_tools_ros.core.value.Value` (issue 13: start-up); these tests hold each
to what ``@dataclass(frozen=True)`` gives.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pytest

from urdf_tools_ros.core.description import model
from urdf_tools_ros.core.value import Value

#: The modules holding frozen value classes besides the model (checker, kinematics, report).
MODULES = ['urdf_tools_ros.core.findings', 'urdf_tools_ros.core.description.loader',
           'urdf_tools_ros.core.checks.registry', 'urdf_tools_ros.core.checks.selection',
           'urdf_tools_ros.core.checks.inertial', 'urdf_tools_ros.core.checks.gazebo_lumping',
           'urdf_tools_ros.core.kinematics.mimic', 'urdf_tools_ros.core.kinematics.tree',
           'urdf_tools_ros.cli.report']
MODEL_CLASSES = [cls for _, cls in inspect.getmembers(model, inspect.isclass)
                 if cls.__module__ == model.__name__ and dataclasses.is_dataclass(cls)]
OTHER_CLASSES = [cls for name in MODULES
                 for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass)
                 if cls.__module__ == name and issubclass(cls, Value)]
CLASSES = MODEL_CLASSES + OTHER_CLASSES


def _twin(cls: type) -> type:
    """A plain ``@dataclass(frozen=True)`` with the same fields: the reference behaviour."""
    return dataclasses.make_dataclass(
        cls.__name__, [(item.name, object, dataclasses.field(compare=item.compare, repr=item.repr))
                       for item in dataclasses.fields(cls)], frozen=True)


def _values(cls: type, tag: str) -> dict[str, object]:
    return {item.name: f'{item.name}-{tag}' for item in dataclasses.fields(cls)}


def test_every_value_class_is_covered() -> None:
    assert len(MODEL_CLASSES) == 27
    assert all(issubclass(cls, Value) for cls in MODEL_CLASSES)
    assert sorted(cls.__name__ for cls in OTHER_CLASSES) == [
        'Body', 'Chain', 'FileReport', 'Finding', 'Lumping', 'ResolvedMimic', 'RobotDescription',
        'Rule', 'Suppression']
    for cls in CLASSES:  # frozen dataclasses whose eq, hash and repr are the base's
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen and not params.eq and not params.repr, cls
        assert (cls.__eq__, cls.__hash__, cls.__repr__) == (Value.__eq__, Value.__hash__,
                                                            Value.__repr__), cls


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
