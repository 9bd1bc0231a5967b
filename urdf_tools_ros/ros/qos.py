"""
The named QoS profiles of the nodes, matching what the ROS 2 tools use on the wire.

Sources: robot_state_publisher (``robot_description`` and ``/tf_static`` reliable +
transient_local depth 1, ``/tf`` as tf2_ros' ``DynamicBroadcasterQoS``: reliable volatile depth
100, ``joint_states`` subscribed with ``rclcpp::SensorDataQoS``: best effort depth 5; ours is
deeper, see :data:`JOINT_STATES_SUBSCRIPTION`),
joint_state_publisher (``joint_states`` published reliable depth 10) and RViz's RobotModel
display (``robot_description`` reliable + transient_local depth 1).

A best-effort subscription matches both reliable and best-effort publishers, so
:data:`JOINT_STATES_SUBSCRIPTION` takes joint states from any source; a transient-local
subscription gets the last sample of a transient-local publisher when it joins late.
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

#: ``joint_states`` subscriptions: sensor data (best effort), which matches reliable publishers
#: too. Depth 50 instead of SensorDataQoS's 5: 50 messages of a 1 kHz stream are held while
#: the node's thread is held up (see bench/bench_tf_node.py); depth plays no part in QoS matching.
JOINT_STATES_SUBSCRIPTION = _profile(50, ReliabilityPolicy.BEST_EFFORT, DurabilityPolicy.VOLATILE)

#: ``joint_states`` publisher: as joint_state_publisher (reliable, depth 10).
JOINT_STATES_PUBLISHER = _profile(10, ReliabilityPolicy.RELIABLE, DurabilityPolicy.VOLATILE)

#: ``/diagnostics``: as diagnostic_updater publishes it (reliable, volatile).
DIAGNOSTICS = _profile(10, ReliabilityPolicy.RELIABLE, DurabilityPolicy.VOLATILE)
