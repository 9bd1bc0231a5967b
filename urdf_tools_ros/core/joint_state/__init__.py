"""Joint-state logic: :class:`~.table.JointStateTable` (lazily re-exported)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .table import (ClampPolicy, JointStateSample, JointStateTable, LISTS_MISMATCH,
                        NAME_REFUSED, NO_STATE, refusal, VALUE_REFUSED)

__all__ = ['ClampPolicy', 'JointStateSample', 'JointStateTable', 'LISTS_MISMATCH', 'NAME_REFUSED',
           'NO_STATE', 'VALUE_REFUSED', 'refusal']

__getattr__, __dir__ = lazy_exports(__name__, {name: '.table' for name in __all__})
