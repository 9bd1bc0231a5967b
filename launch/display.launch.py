"""
Show a checked robot in RViz: description, joint states (with browser sliders), TF and RViz.

``ros2 launch urdf_tools_ros display.launch.py model:=/path/robot.urdf.xacro``; without
``model`` it shows the package's sample robot. The description and TF nodes are those of
``description.launch.py`` (included, with ``watch:=true``: the description node checks the
model, logs every finding with file:line and reloads it when the file or a xacro include
changes); this file adds the joint-state publisher and RViz.

RViz's fixed frame is ``world`` (the sample's root link, see ``config/display.rviz``); for
another robot pass ``rvizconfig`` or change the fixed frame in RViz. With ``frame_prefix`` set,
also set the RobotModel display's "TF Prefix" in RViz.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, GroupAction, IncludeLaunchDescription
from launch.conditions import IfCondition, UnlessCondition
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution, PythonExpression
from launch_ros.actions import Node, SetParameter
from launch_ros.substitutions import FindPackageShare


def generate_launch_description() -> LaunchDescription:
    """Declare the arguments; include description.launch.py; start the joint states and RViz."""
    share = FindPackageShare('urdf_tools_ros')
    use_sim_time = LaunchConfiguration('use_sim_time')
    return LaunchDescription([
        DeclareLaunchArgument(
            'model', default_value=PathJoinSubstitution([share, 'urdf',
                                                         'sample_robot.urdf.xacro']),
            description='Path of the .urdf or .xacro file to show'),
        DeclareLaunchArgument(
            'xacro_args', default_value='',
            description='xacro arguments of model, name:=value separated by spaces'),
        DeclareLaunchArgument(
            'gui', default_value='true', choices=['true', 'false'],
            description='Serve joint sliders and a 3D view in the browser'),
        DeclareLaunchArgument(
            'rviz', default_value='true', choices=['true', 'false'],
            description='Start RViz'),
        DeclareLaunchArgument(
            'rvizconfig', default_value=PathJoinSubstitution([share, 'config', 'display.rviz']),
            description='RViz configuration file'),
        DeclareLaunchArgument(
            'use_sim_time', default_value='', choices=['', 'true', 'false'],
            description='Use the /clock topic as time source; empty: as the bringup set it '
                        '(a global SetParameter), else false'),
        DeclareLaunchArgument(
            'frame_prefix', default_value='',
            description='Put before every TF frame id, e.g. robot1/'),
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
            IncludeLaunchDescription(
                PythonLaunchDescriptionSource(
                    PathJoinSubstitution([share, 'launch', 'description.launch.py'])),
                launch_arguments={
                    'model': LaunchConfiguration('model'),
                    'xacro_args': LaunchConfiguration('xacro_args'),
                    'use_sim_time': use_sim_time,
                    'frame_prefix': LaunchConfiguration('frame_prefix'),
                    'watch': 'true',
                    'serve_meshes': LaunchConfiguration('serve_meshes'),
                    'serve_meshes_kilted': LaunchConfiguration('serve_meshes_kilted')}.items()),
            Node(
                package='urdf_tools_ros', executable='joint_state_publisher',
                name='joint_state_publisher', output='screen',
                parameters=[
                    PathJoinSubstitution([share, 'config', 'joint_state_publisher.yaml']),
                    {'gui': LaunchConfiguration('gui')}]),
            Node(
                package='rviz2', executable='rviz2', name='rviz2', output='screen',
                arguments=['-d', LaunchConfiguration('rvizconfig')],
                condition=IfCondition(LaunchConfiguration('rviz'))),
        ]),
    ])
