"""
Where the tests find what lies outside the package: the repository, ``../shared``, the cache.

Plain module (no pytest), imported by ``conftest.py``, the oracles and ``bench/``. In a copy of
the package in a colcon workspace (``scripts/colcon-test.sh``) ``URDF_TOOLS_SHARED`` and
``URDF_TOOLS_CACHE`` point at the repository's ``../shared`` and ``.cache``; elsewhere they are
unset and the defaults below apply.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The package's source tree (the repository, or its copy in a workspace).
REPO = Path(__file__).resolve().parents[1]
#: ``../shared`` beside the repository: real robot models, ROS sources (see their SOURCES.md).
SHARED = Path(os.environ.get('URDF_TOOLS_SHARED') or REPO.parent / 'shared')
SHARED_MODELS = SHARED / 'models'
#: The real ROS 2 description packages and their cases (``cases.json``).
ROS2_DESCRIPTIONS = SHARED / 'ros2_descriptions'
#: Built oracles and extracted sources (``scripts/setup-oracles.sh``, the tests themselves).
CACHE = Path(os.environ.get('URDF_TOOLS_CACHE') or REPO / '.cache')
