"""
Whether a real consumer breaks on a file: refuses it, drops part of it or reads it differently.

urdfdom: either ``check_urdf`` refuses or logs an ``Error:`` (an element dropped); Gazebo:
SDFormat refuses or drops a link (:func:`oracles.gazebo_dropped_links`); ``urdf_tools_ros``:
``KinematicModel`` or the joint-state table refuses; the others: they refuse the file. kdl,
ros2_control and joint_state_publisher cannot be asked here. Plain module, like ``oracles``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import oracles

from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.joint_state.table import JointStateTable
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load

__all__ = ['ASK', 'breaks', 'gazebo_breaks', 'urdfdom_breaks']


def kinematics_refuses(path: Path) -> bool:
    try:
        robot = load(path).robot
        KinematicModel(robot)
        JointStateTable(robot)
    except RobotDescriptionError:
        return True
    return False


def pinocchio_refuses(path: Path) -> bool | None:
    """Whether pinocchio refuses the file, with its mimic support on; None when absent."""
    try:
        import pinocchio
    except ImportError:
        return None
    try:
        pinocchio.buildModelFromUrdf(str(path), mimic=True)
    except Exception:  # noqa: B902 - pinocchio raises ValueError, RuntimeError, ...
        return True
    verdict = oracles.pinocchio(path)
    return verdict is not None and not verdict.loaded


def urdfdom_breaks(path: Path) -> bool | None:
    """Whether either check_urdf refuses the file or logs an error (an element it drops)."""
    seen = [oracles.urdfdom(path, version) for version in ('3', '6')]
    present = [verdict for verdict in seen if verdict is not None]
    if not present:
        return None
    return any(not verdict.loaded or 'Error:' in verdict.message for verdict in present)


def refused(verdict: oracles.Verdict | None) -> bool | None:
    return None if verdict is None else not verdict.loaded


def gazebo_breaks(path: Path) -> bool | None:
    """Whether SDFormat refuses the file or drops a link a moving joint carries."""
    dropped = oracles.gazebo_dropped_links(path)  # None: the probe is absent or refuses it
    if dropped is not None:
        return bool(dropped)
    return refused(oracles.gazebo(path))


#: How to ask each consumer whether it breaks on a file (``None``: it cannot be asked here).
ASK: dict[str, Callable[[Path], bool | None]] = {
    'urdfdom': urdfdom_breaks,
    # urdfdom 3.0.1 stands for the 3.x to 5.0 line (Humble, Jazzy, Kilted): URDF 1.0 only
    'urdfdom-before-5.1': lambda path: refused(oracles.urdfdom(path, '3')),
    'urdf_parser_py': lambda path: refused(oracles.urdf_parser_py(path)),
    'pinocchio': pinocchio_refuses,
    'mujoco': lambda path: refused(oracles.mujoco(path)),
    'gazebo': gazebo_breaks,
    'urdf_tools_ros': kinematics_refuses,
}


def breaks(consumer: str, path: Path,
           package_paths: Mapping[str, str] | None = None) -> bool | None:
    """Whether ``consumer`` (of :data:`ASK`) breaks on ``path``; ``None``: cannot be asked."""
    if consumer == 'mujoco':
        return refused(oracles.mujoco(path, package_paths))
    ask = ASK.get(consumer)
    return None if ask is None else ask(path)
