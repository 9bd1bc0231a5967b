"""nodes layer of urdf_tools_ros."""
