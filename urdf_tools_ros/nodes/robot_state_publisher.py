"""
``robot_state_publisher``: the TF broadcaster under robot_state_publisher's node name.

A launch file written for robot_state_publisher switches by changing the package only::

    Node(package='urdf_tools_ros', executable='robot_state_publisher',
         parameters=[{'robot_description': xml}])

It publishes ``robot_description`` from its parameter, ``/tf`` and ``/tf_static`` (see
:mod:`urdf_tools_ros.nodes.tf_broadcaster`); without the parameter it follows the topic.
"""

from __future__ import annotations

from . import tf_broadcaster

__all__ = ['main']


def main(args: list[str] | None = None) -> None:
    """Run the TF broadcaster as node ``robot_state_publisher`` until shut down."""
    tf_broadcaster.main(args, node_name='robot_state_publisher')


if __name__ == '__main__':
    main()
