"""
Robot description and TF for a robot's bringup: the checked description and /tf, /tf_static.

``ros2 launch urdf_tools_ros description.launch.py model:=/path/robot.urdf.xacro`` replaces
robot_state_publisher (with xacro run by the description node, which checks the model first and
refuses a description with errors). Joint states come from the robot's drivers on
``joint_states``.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, GroupAction
from launch.conditions import UnlessCondition
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution, PythonExpression
from launch_ros.actions import Node, SetParameter
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description() -> LaunchDescription:
    """Declare the arguments and start the description and TF nodes."""
    share = FindPackageShare('urdf_tools_ros')
    use_sim_time = LaunchConfiguration('use_sim_time')
    return LaunchDescription([
        DeclareLaunchArgument(
            'model', description='Path of the .urdf or .xacro file of the robot'),
        DeclareLaunchArgument(
            'xacro_args', default_value='',
            description='xacro arguments of model, name:=value separated by spaces'),
        DeclareLaunchArgument(
            'use_sim_time', default_value='', choices=['', 'true', 'false'],
            description='Use the /clock topic as time source; empty: as the bringup set it '
                        '(a global SetParameter), else false'),
        DeclareLaunchArgument(
            'frame_prefix', default_value='',
            description='Put before every TF frame id, e.g. robot1/'),
        DeclareLaunchArgument(
            'watch', default_value='false', choices=['true', 'false'],
            description='Reload, re-check and republish the model when it or a xacro include '
                        'changes'),
        DeclareLaunchArgument(
            'serve_meshes', default_value='false', choices=['true', 'false'],
            description='Serve the meshes over ROS for RViz on another machine (Lyrical, '
                        'Rolling); robot_description then carries service:// URLs'),
        DeclareLaunchArgument(
            'serve_meshes_kilted', default_value='false', choices=['true', 'false'],
            description="With serve_meshes, also answer Kilted RViz's /rviz/get_resource"),
        # Scoped: the use_sim_time set here reaches this file's nodes only; without the
        # argument the nodes keep what a bringup set globally (SetParameter) or the default.
        GroupAction([
            SetParameter('use_sim_time', use_sim_time,
                         condition=UnlessCondition(PythonExpression(
                             ["'", use_sim_time, "' == ''"]))),
            Node(
                package='urdf_tools_ros', executable='robot_description',
                name='robot_description_publisher', output='screen',
                parameters=[
                    PathJoinSubstitution([share, 'config', 'robot_description.yaml']),
                    {'model': ParameterValue(LaunchConfiguration('model'), value_type=str),
                     'xacro_args': ParameterValue(LaunchConfiguration('xacro_args'),
                                                  value_type=str),
                     'watch': ParameterValue(LaunchConfiguration('watch'), value_type=bool),
                     'serve_meshes': ParameterValue(LaunchConfiguration('serve_meshes'),
                                                    value_type=bool),
                     'serve_meshes_kilted': ParameterValue(
                         LaunchConfiguration('serve_meshes_kilted'), value_type=bool)}]),
            Node(
                package='urdf_tools_ros', executable='tf_broadcaster',
                name='tf_broadcaster', output='screen',
                parameters=[
                    PathJoinSubstitution([share, 'config', 'tf_broadcaster.yaml']),
                    {'frame_prefix': ParameterValue(LaunchConfiguration('frame_prefix'),
                                                    value_type=str)}]),
        ]),
    ])
