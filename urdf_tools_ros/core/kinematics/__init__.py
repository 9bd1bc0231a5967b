"""
Kinematics of a URDF robot, numpy only.

Tree, mimic, limits, validation, inertia and forward kinematics (:class:`KinematicModel`,
lazily re-exported).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .forward import forward_kinematics, KinematicModel

__all__ = ['KinematicModel', 'forward_kinematics']

__getattr__, __dir__ = lazy_exports(__name__, {name: '.forward' for name in __all__})
