"""
TF, ROS-free: what a TF broadcaster publishes and how a view that follows TF poses the links.

* :mod:`.broadcast`: :class:`~.broadcast.TfFrames` (the transforms of the joints a
  ``joint_states`` message moves) and :class:`~.broadcast.TfThrottle` (robot_state_publisher's
  rate limit), used by the TF broadcaster node;
* :mod:`.view`: per-joint transforms (from a ``tf2_ros.Buffer``, else the joint state) chained
  into link poses, used by the joint-state publisher's view. The TF buffer itself is tf2_ros'.
"""
