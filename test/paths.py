"""
Where the tests find what lies outside the package: the repository, ``../shared``, the cache.

Plain module, imported by ``conftest.py``, the oracles and ``bench/``; ``URDF_TOOLS_SHARED`` and
``URDF_TOOLS_CACHE`` point elsewhere from a colcon workspace (``scripts/colcon-test.sh``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: The package's source tree (the repository, or its copy in a workspace).
REPO = Path(__file__).resolve().parents[1]
#: ``../shared`` beside the repository: real robot models, ROS sources (see their SOURCES.md).
SHARED = Path(os.environ.get('URDF_TOOLS_SHARED') or REPO.parent / 'shared')
SHARED_MODELS = SHARED / 'models'
#: The real ROS 2 description packages and their cases (``cases.json``).
ROS2_DESCRIPTIONS = SHARED / 'ros2_descriptions'
#: The robots of ``cases.json`` by id (entry, xacro arguments, counts of the real xacro), read
#: once; empty when ``ROS2_DESCRIPTIONS`` is not here.
ROS2_CASES: dict[str, dict[str, Any]] = {
    case['id']: case
    for case in json.loads((ROS2_DESCRIPTIONS / 'cases.json').read_text())['cases']
} if (ROS2_DESCRIPTIONS / 'cases.json').is_file() else {}
#: The packages of ``ROS2_DESCRIPTIONS``, name to folder (what ``$(find name)`` reaches).
ROS2_PACKAGES: dict[str, str] = {
    path.name: str(path) for path in sorted(ROS2_DESCRIPTIONS.iterdir()) if path.is_dir()
} if ROS2_DESCRIPTIONS.is_dir() else {}
#: Built oracles and extracted sources (``scripts/setup-oracles.sh``, the tests themselves).
CACHE = Path(os.environ.get('URDF_TOOLS_CACHE') or REPO / '.cache')
