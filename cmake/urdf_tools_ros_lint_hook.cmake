# ament_lint_auto's extension from urdf_tools_ros: the check of the package's robot
# descriptions, when it has any.

file(GLOB_RECURSE _urdf_tools_ros_files FOLLOW_SYMLINKS "*.urdf" "*.xacro")
if(_urdf_tools_ros_files)
  message(STATUS "Added test 'urdf_tools' to check the robot descriptions (.urdf, .xacro)")
  urdf_tools_ros_lint()
endif()
