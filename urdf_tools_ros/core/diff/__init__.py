"""
Two robot descriptions compared as robots, not as text (``urdf-tools diff``).

:func:`~.compare.diff_descriptions` (lazily re-exported) matches links and joints
(:mod:`.matching`), compares them (:mod:`.elements`), their blocks (:mod:`.blocks`), frames and
findings; :mod:`.git` reads a description as of a git revision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .compare import diff_descriptions
    from .records import DescriptionDiff, Tolerance

__all__ = ['DescriptionDiff', 'Tolerance', 'diff_descriptions']

__getattr__, __dir__ = lazy_exports(__name__, {'diff_descriptions': '.compare',
                                               'DescriptionDiff': '.records',
                                               'Tolerance': '.records'})
