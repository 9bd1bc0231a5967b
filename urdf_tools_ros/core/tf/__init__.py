"""
TF, ROS-free: what a TF broadcaster publishes and what a view that follows ``/tf`` receives.

* :mod:`.broadcast`: :class:`~.broadcast.TfFrames` (the transforms of the joints a
  ``joint_states`` message moves) and :class:`~.broadcast.TfThrottle` (robot_state_publisher's
  rate limit), used by the TF broadcaster node;
* :mod:`.buffer`: :class:`~.buffer.TfFrameStore`, the last received transform per child frame
  chained into link poses, used by the joint-state publisher's view.
"""
