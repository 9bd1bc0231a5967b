"""
Link poses for a view that follows TF, ROS-free: chain per-joint transforms along the tree.

A view (the joint-state publisher's browser page) asks its TF buffer (``tf2_ros.Buffer``) for the
``T_parent_child`` of each joint of the robot and poses the links by chaining them from the root
(:func:`chain_link_poses`); a joint TF has nothing for is posed by the joint state the view holds
(:func:`joint_edges`, forward kinematics), so the robot shows without any TF broadcaster and
shows what TF says as soon as it says it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..kinematics.forward import KinematicModel
from ..kinematics.transforms import FloatArray
from ..kinematics.tree import KinematicTree

__all__ = ['chain_link_poses', 'joint_edges']


def chain_link_poses(tree: KinematicTree, edges: Mapping[str, FloatArray],
                     fallback: Mapping[str, FloatArray] | None = None) -> dict[str, FloatArray]:
    """
    The pose of each link in the root frame from per-joint transforms.

    ``T_root_child = T_root_parent @ T_parent_child``, parents first (tree order), with
    ``T_parent_child = edges[joint]``, else ``fallback[joint]``.

    :param tree: The robot's kinematic tree.
    :param edges: ``{joint: T_parent_child}`` (4, 4) float64, e.g. from TF.
    :param fallback: ``{joint: T_parent_child}`` for joints ``edges`` lacks (e.g.
        :func:`joint_edges` of the joint state), or ``None``.
    :return: ``{link: T_root_link}``, new finite (4, 4) float64 arrays, for the root (identity)
        and each link whose whole chain to the root is known and finite; the others are left out.
    """
    poses: dict[str, FloatArray] = {tree.root: np.eye(4)}
    fallback = fallback or {}
    for joint in tree.joints:
        T_root_parent = poses.get(joint.parent)
        if T_root_parent is None:
            continue
        T_parent_child = edges.get(joint.name)
        if T_parent_child is None:
            T_parent_child = fallback.get(joint.name)
        if T_parent_child is None:
            continue
        with np.errstate(invalid='ignore', over='ignore'):
            T_root_child: FloatArray = T_root_parent @ T_parent_child
        if np.isfinite(T_root_child).all():
            poses[joint.child] = T_root_child
    return poses


def joint_edges(model: KinematicModel, positions: Mapping[str, float]) -> dict[str, FloatArray]:
    """
    ``T_parent_child`` of every joint at a joint state: the fallback of a view following TF.

    :param model: Forward kinematics of the robot.
    :param positions: ``{joint: position}``, rad or m, e.g. a joint-state table's sample;
        names that are not variables of ``model`` (mimic joints, which follow their source,
        and joints of other robots) are ignored, missing joints are at 0.
    :return: ``{joint: T_parent_child}``, (4, 4) float64, for moving and fixed joints.
    :raises JointStateError: for NaN/inf or a magnitude above 1e150 (see
        :meth:`~urdf_tools_ros.core.kinematics.forward.KinematicModel.configuration`).
    """
    variables = set(model.variable_names)
    edges = model.joint_transforms({name: value for name, value in positions.items()
                                    if name in variables})
    edges.update(model.fixed_joint_transforms())
    return edges
