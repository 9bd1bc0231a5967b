#!/usr/bin/env bash
# Former name of scripts/setup-ros-src.sh, which now installs launch and launch_ros together
# with launch_testing, ros2cli, tf2/tf2_ros, the full tf2_msgs and composition_interfaces from
# ../shared/ros-src. Kept so that the older name still works; same arguments.
# Usage: scripts/setup-launch.sh [VENV]
exec "$(dirname "${BASH_SOURCE[0]}")/setup-ros-src.sh" "$@"
