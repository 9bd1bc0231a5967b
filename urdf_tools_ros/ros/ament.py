"""
Package lookup through ament_index, when it is installed (a ROS 2 environment).

This module imports ``ament_index_python`` lazily, so the CLI runs on machines without ROS.
"""

from __future__ import annotations


def ament_package_locator(name: str) -> str | None:
    """
    Return the share directory of ROS package ``name`` from the ament index, or ``None``.

    ``None`` also when ``ament_index_python`` is not installed or ``AMENT_PREFIX_PATH`` is unset.
    """
    try:
        from ament_index_python.packages import (get_package_share_directory,
                                                 PackageNotFoundError)
    except ImportError:
        return None
    try:
        return str(get_package_share_directory(name))
    except (PackageNotFoundError, LookupError, ValueError, KeyError, OSError):
        return None
