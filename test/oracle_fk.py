"""
This package's forward kinematics against pinocchio's, on one file (a consumer oracle).

Mimic tags are removed for pinocchio and each mimic joint given its mimic value. Plain module.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
import numpy as np
import numpy.typing as npt

from oracles import _module, _parse_namespace_blind, PathLike

from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.kinematics.limits import effective_limits
from urdf_tools_ros.core.source.loader import load

__all__ = ['pinocchio_fk_difference']

FloatArray = npt.NDArray[np.float64]
#: Variables of a floating joint: ours with ``floating='quaternion'`` and pinocchio's free-flyer.
_FREE_FLYER = ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw')


def _without_mimic(xml: str) -> str:
    """The URDF with every ``<joint><mimic>`` removed (pinocchio then moves them freely)."""
    tree = _parse_namespace_blind(xml)
    if tree is None:
        raise ValueError('the URDF is not XML')  # our load() has read it: cannot happen
    root = tree.getroot()
    for mimic in root.findall('joint/mimic'):
        joint = mimic.getparent()
        if joint is not None:
            joint.remove(mimic)
    return etree.tostring(root, encoding='unicode')


def _random_configurations(model: KinematicModel, count: int,
                           rng: np.random.Generator) -> FloatArray:
    """
    (count, nq) configurations: single-DOF joints uniform in their hard range.

    Continuous joints in [-π, π]; floating: x y z in [-1, 1] m and a uniform unit quaternion
    (qx qy qz qw); planar: x, y in [-1, 1] m and yaw in [-π, π].
    """
    result = np.empty((count, model.nq))
    column = {name: index for index, name in enumerate(model.variable_names)}
    for name in model.joint_names:
        joint = model.tree.joint(name)
        if joint.joint_type == 'floating':
            quaternion = rng.normal(size=(count, 4))
            quaternion /= np.linalg.norm(quaternion, axis=1, keepdims=True)
            parts = np.hstack([rng.uniform(-1.0, 1.0, (count, 3)), quaternion])
            suffixes: tuple[str, ...] = _FREE_FLYER
        elif joint.joint_type == 'planar':
            parts = np.column_stack([rng.uniform(-1.0, 1.0, (count, 2)),
                                     rng.uniform(-np.pi, np.pi, count)])
            suffixes = ('x', 'y', 'yaw')
        else:
            limits = effective_limits(joint, use_smallest_joint_limits=False)
            result[:, column[name]] = rng.uniform(limits.slider_lower, limits.slider_upper, count)
            continue
        for index, suffix in enumerate(suffixes):
            result[:, column[f'{name}/{suffix}']] = parts[:, index]
    return result


def _pinocchio_q(pin: Any, reference: Any, model: KinematicModel,
                 values: FloatArray) -> FloatArray:
    """Pinocchio's q for our configuration ``values`` (mimic joints given their own value)."""
    by_name = dict(zip(model.variable_names, values.tolist()))
    q: FloatArray = pin.neutral(reference)
    for joint_id in range(1, reference.njoints):
        name = reference.names[joint_id]
        joint = reference.joints[joint_id]
        start = joint.idx_q
        joint_type = model.tree.joint(name).joint_type
        if joint_type == 'floating':  # free-flyer: x y z qx qy qz qw, as ours
            q[start:start + 7] = [by_name[f'{name}/{suffix}'] for suffix in _FREE_FLYER]
            continue
        if joint_type == 'planar':  # x, y, cos(yaw), sin(yaw)
            yaw = by_name[f'{name}/yaw']
            q[start:start + 4] = (by_name[f'{name}/x'], by_name[f'{name}/y'], np.cos(yaw),
                                  np.sin(yaw))
            continue
        mimic = model.mimics.get(name)
        value = mimic.position(by_name[mimic.source]) if mimic else by_name[name]
        if joint.nq == 2:  # continuous (revolute unbounded): cos, sin
            q[start:start + 2] = (np.cos(value), np.sin(value))
        else:
            q[start] = value
    return q


def pinocchio_fk_difference(path: PathLike, configurations: int = 5,
                            seed: int = 0) -> float | None:
    """
    The largest |T_root_link(ours) - T_root_link(pinocchio)| over random configurations.

    Ours: ``link_pose_array`` and ``link_pose_batch`` (``floating='quaternion'``). :return:
    ``inf`` when pinocchio lacks a link or joint of ours, ``None`` when it does not import.
    """
    pin = _module('pinocchio')
    if pin is None:
        return None
    description = load(path)
    model = KinematicModel(description.robot, floating='quaternion')
    reference = pin.buildModelFromXML(_without_mimic(description.xml))
    moving = {joint.name for joint in model.tree.joints if joint.is_moving}
    if set(list(reference.names)[1:]) != moving or not all(
            reference.existFrame(link, pin.BODY) for link in model.link_names):
        return float('inf')
    frames = [reference.getFrameId(link, pin.BODY) for link in model.link_names]
    data = reference.createData()
    worst = 0.0
    batch = _random_configurations(model, configurations, np.random.default_rng(seed))
    poses = model.link_pose_batch(batch)
    for values, batch_poses in zip(batch, poses):
        pin.forwardKinematics(reference, data, _pinocchio_q(pin, reference, model, values))
        pin.updateFramePlacements(reference, data)
        theirs = np.stack([data.oMf[frame].homogeneous for frame in frames])
        for ours in (model.link_pose_array(values), batch_poses):
            worst = max(worst, float(np.abs(ours - theirs).max()))
    return worst
