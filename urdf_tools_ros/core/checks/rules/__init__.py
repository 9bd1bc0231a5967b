"""The rule families, one module each; importing one registers its checks (:mod:`..registry`)."""

from . import ros2_control, ros2_control_joints  # noqa: F401
