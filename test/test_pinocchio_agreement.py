"""Every link pose of every shared model agrees with pinocchio to 1e-9, mimic joints included."""

from __future__ import annotations

from pathlib import Path
import re

import numpy as np
import pytest

from conftest import missing, SHARED_MODELS
from urdf_tools_ros.core.description import load
from urdf_tools_ros.core.joint_limits import effective_limits
from urdf_tools_ros.core.kinematics import KinematicModel

PINOCCHIO_MISSING = missing('pinocchio')
pytestmark = pytest.mark.skipif(PINOCCHIO_MISSING is not None, reason=str(PINOCCHIO_MISSING))
if PINOCCHIO_MISSING is None:
    import pinocchio as pin

TOLERANCE = 1e-9
CONFIGURATIONS = 25
_MIMIC = re.compile(r'<mimic\b[^>]*?(/>|>.*?</mimic>)', re.DOTALL)


def within_limits(model: KinematicModel, rng: np.random.Generator, count: int) -> np.ndarray:
    """Random (count, nq) configurations inside each joint's (hard) range."""
    result = np.empty((count, model.nq))
    for index, name in enumerate(model.variable_names):
        limits = effective_limits(model.tree.joint(name), use_smallest_joint_limits=False)
        result[:, index] = rng.uniform(limits.slider_lower, limits.slider_upper, count)
    return result


def pinocchio_poses(xml: str, model: KinematicModel,
                    configurations: np.ndarray) -> list[dict[str, np.ndarray]]:
    """Poses from pinocchio, built with the mimic tags removed and given every joint value."""
    reference = pin.buildModelFromXML(_MIMIC.sub('', xml))
    data = reference.createData()
    mimics = model.mimics
    frames = {link: reference.getFrameId(link, pin.BODY) for link in model.link_names}
    results = []
    for values in configurations:
        by_name = dict(zip(model.variable_names, values))
        q = pin.neutral(reference)
        for joint_id in range(1, reference.njoints):
            name = reference.names[joint_id]
            mimic = mimics.get(name)
            value = mimic.position(by_name[mimic.source]) if mimic else by_name[name]
            joint = reference.joints[joint_id]
            if joint.nq == 2:   # continuous: (cos, sin)
                q[joint.idx_q:joint.idx_q + 2] = (np.cos(value), np.sin(value))
            else:
                q[joint.idx_q] = value
        pin.forwardKinematics(reference, data, q)
        pin.updateFramePlacements(reference, data)
        results.append({link: data.oMf[frame].homogeneous.copy()
                        for link, frame in frames.items()})
    return results


def test_every_shared_model_agrees_with_pinocchio(shared_urdf: Path) -> None:
    description = load(shared_urdf)
    model = KinematicModel(description.robot)
    configurations = within_limits(model, np.random.default_rng(7), CONFIGURATIONS)
    expected = pinocchio_poses(description.xml, model, configurations)
    batch = model.link_pose_batch(configurations)
    worst = 0.0
    for row, values in enumerate(configurations):
        poses = model.link_poses(values)
        for index, link in enumerate(model.link_names):
            worst = max(worst, float(np.abs(poses[link] - expected[row][link]).max()),
                        float(np.abs(batch[row, index] - expected[row][link]).max()))
    assert worst <= TOLERANCE, f'{shared_urdf.name}: max |dT| = {worst:.3g}'


def test_mimic_joints_are_checked_against_pinocchio() -> None:
    path = SHARED_MODELS / 'talos_full_v2.urdf'
    if not path.exists():
        pytest.skip('shared models not present')
    description = load(path)
    model = KinematicModel(description.robot)
    assert len(model.mimics) == 12
    configurations = within_limits(model, np.random.default_rng(8), 3)
    expected = pinocchio_poses(description.xml, model, configurations)
    poses = model.link_poses(configurations[1])
    fingertip = 'gripper_left_fingertip_3_link'
    np.testing.assert_allclose(poses[fingertip], expected[1][fingertip], atol=TOLERANCE)
