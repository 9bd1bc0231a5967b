"""The rule families, one module each; importing one registers its checks (:mod:`..registry`)."""

from . import ros2_control  # noqa: F401
