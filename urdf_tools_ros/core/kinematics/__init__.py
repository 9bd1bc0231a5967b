"""
Kinematics of a URDF robot, numpy only (SE(3) helpers are :mod:`urdf_tools_ros.core.transforms`).

* :mod:`.tree`: the kinematic tree (root, parent/child edges, cycles) of a model;
* :mod:`.mimic`: mimic chains resolved to their source joint;
* :mod:`.limits`: effective joint limits (``<limit>``, ``<safety_controller>``);
* :mod:`.validation`: what makes a joint unusable for kinematics (shared with the checker);
* :mod:`.inertia`: rotational inertia of primitives, principal moments, validity;
* :mod:`.fk_plan`: the one joint-motion formulation and the per-joint constants;
* :mod:`.forward`: :class:`KinematicModel`, forward kinematics of one configuration or a batch.

``from urdf_tools_ros.core.kinematics import KinematicModel`` keeps working (lazy re-export).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .forward import forward_kinematics, KinematicModel

__all__ = ['KinematicModel', 'forward_kinematics']

__getattr__, __dir__ = lazy_exports(__name__, {name: '.forward' for name in __all__})
