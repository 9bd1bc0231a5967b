"""
The named QoS profiles of the nodes, matching what the ROS 2 tools use on the wire.

Sources: robot_state_publisher (and tf2_ros' ``DynamicBroadcasterQoS``), joint_state_publisher
and RViz's RobotModel display.
"""

from __future__ import annotations

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

__all__ = ['DIAGNOSTICS', 'JOINT_STATES_PUBLISHER', 'JOINT_STATES_SUBSCRIPTION',
           'LATCHED_DESCRIPTION', 'TF', 'TF_STATIC']


def _profile(depth: int, reliability: ReliabilityPolicy,
             durability: DurabilityPolicy) -> QoSProfile:
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth, reliability=reliability,
                      durability=durability)


#: ``robot_description``: the last description reaches every late joiner (RViz, TF, sliders).
LATCHED_DESCRIPTION = _profile(1, ReliabilityPolicy.RELIABLE, DurabilityPolicy.TRANSIENT_LOCAL)

#: ``/tf``: moving joints, as tf2_ros' TransformBroadcaster publishes them.
TF = _profile(100, ReliabilityPolicy.RELIABLE, DurabilityPolicy.VOLATILE)

#: ``/tf_static``: fixed joints, one message with the full set, kept for late joiners.
TF_STATIC = _profile(1, ReliabilityPolicy.RELIABLE, DurabilityPolicy.TRANSIENT_LOCAL)

#: ``joint_states`` subscriptions: best effort (matches reliable publishers too); depth 50, not
#: SensorDataQoS's 5, holds 50 ms of a 1 kHz stream.
JOINT_STATES_SUBSCRIPTION = _profile(50, ReliabilityPolicy.BEST_EFFORT, DurabilityPolicy.VOLATILE)

#: ``joint_states`` publisher: as joint_state_publisher (reliable, depth 10).
JOINT_STATES_PUBLISHER = _profile(10, ReliabilityPolicy.RELIABLE, DurabilityPolicy.VOLATILE)

#: ``/diagnostics``: as diagnostic_updater publishes it (reliable, volatile).
DIAGNOSTICS = _profile(10, ReliabilityPolicy.RELIABLE, DurabilityPolicy.VOLATILE)
