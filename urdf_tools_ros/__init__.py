"""urdf_tools_ros: from a URDF/xacro robot description to a running, visible ROS 2 graph."""

__version__ = '0.1.0'
