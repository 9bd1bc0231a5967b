"""
ROS-free core of urdf_tools_ros.

Nothing in this package imports ``rclpy``, message packages, ``tf2_ros``, ``launch`` or
``ament_index_python``; anything ROS-like (resolving ``package://``) is passed in as a callable.
"""
