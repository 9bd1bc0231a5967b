"""
TF, ROS-free: what a TF broadcaster publishes.

* :mod:`.broadcast`: :class:`~.broadcast.TfFrames` (the transforms of the joints a
  ``joint_states`` message moves) and :class:`~.broadcast.TfThrottle` (robot_state_publisher's
  rate limit), used by the TF broadcaster node.
"""
