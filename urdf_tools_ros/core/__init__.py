"""
ROS-free core of urdf_tools_ros.

Nothing in this package imports ``rclpy``, message packages, ``tf2_ros``, ``launch`` or
``ament_index_python``; anything ROS-like (resolving ``package://``) is passed in as a callable.

The public API is one import away and re-exported lazily (:mod:`.lazy`)::

    from urdf_tools_ros.core import (load, check_description, KinematicModel, JointStateTable,
                                     RobotDescriptionError)

Packages by pipeline stage:

* :mod:`.source`: files to text (:func:`load`, packages, XML safety, the XML text scanner, xacro);
* :mod:`.model`: the typed model of the URDF spec and the one URDF reader;
* :mod:`.meshes`: mesh facts and ``package://`` resources;
* :mod:`.checks`: the rule catalog (:mod:`.checks.rules`) and :func:`check_description`;
* :mod:`.fix`: edits planned from findings;
* :mod:`.session`: the one check pipeline of every caller (:func:`~.session.resolve`,
  :func:`~.session.run`, :func:`~.session.failing`);
* :mod:`.kinematics`, :mod:`.joint_state`, :mod:`.tf`, :mod:`.diff`;
* the leaves: :mod:`.location`, :mod:`.findings`, :mod:`.errors`, :mod:`.transforms`.
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
