"""
ROS-free core of urdf_tools_ros.

Nothing in this package imports ``rclpy``, message packages, ``tf2_ros``, ``launch`` or
``ament_index_python``; anything ROS-like (resolving ``package://``) is passed in as a callable.

The public API is one import away and re-exported lazily (:mod:`.lazy`)::

    from urdf_tools_ros.core import (load, check_description, KinematicModel, JointStateTable,
                                     RobotDescriptionError)

Packages by concept:

* :mod:`.description`: the typed model of the URDF spec, the one URDF reader, xacro, ``package://``
  resolution, and :func:`load` which ties them together;
* :mod:`.checks`: the rule catalog (one module per family) and :func:`check_description`;
* :mod:`.session`: the one check pipeline of every caller: :class:`~.session.Settings` resolved
  once (options, the configuration found upwards, the environment) by :func:`~.session.resolve`,
  load and check (:func:`~.session.run`), and whether it fails (:func:`~.session.failing`);
* :mod:`.kinematics`: the kinematic tree, mimic, limits, joint validation, inertia,
  and forward kinematics (:class:`KinematicModel` over one joint-motion formulation);
* :mod:`.joint_state`: :class:`JointStateTable`, what a joint-state publisher holds;
* :mod:`.tf`: what a TF broadcaster publishes (:mod:`.tf.broadcast`);
* leaves every package above uses: :mod:`.location` (:class:`~.location.SourceLocation`),
  :mod:`.findings` and :mod:`.errors` (the one problem value and the exceptions that carry it),
  :mod:`.transforms` (SE(3) on ``(..., 4, 4)`` arrays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .checks import check_description
    from .errors import RobotDescriptionError
    from .findings import Finding, Severity
    from .joint_state.table import JointStateTable
    from .kinematics.forward import KinematicModel
    from .session import CheckResult, resolve, Settings
    from .source.loader import load, load_string, RobotDescription

__all__ = ['CheckResult', 'Finding', 'JointStateTable', 'KinematicModel', 'RobotDescription',
           'RobotDescriptionError', 'Settings', 'Severity', 'check_description', 'load',
           'load_string', 'resolve']

__getattr__, __dir__ = lazy_exports(__name__, {
    'check_description': '.checks',
    'load': '.source.loader',
    'load_string': '.source.loader',
    'RobotDescription': '.source.loader',
    'RobotDescriptionError': '.errors',
    'Finding': '.findings',
    'Severity': '.findings',
    'JointStateTable': '.joint_state.table',
    'KinematicModel': '.kinematics.forward',
    'CheckResult': '.session',
    'resolve': '.session',
    'Settings': '.session',
})
