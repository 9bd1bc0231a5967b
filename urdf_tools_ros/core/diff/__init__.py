"""
Two robot descriptions compared as robots, not as text (``urdf-tools diff``).

* :mod:`.records`: the frozen change records and :class:`~.records.DescriptionDiff`;
* :mod:`.matching`: which old link or joint is which new one (by name, renames by structure);
* :mod:`.elements`: joints, links (inertial, geometry, materials) attribute by attribute;
* :mod:`.blocks`: ``<ros2_control>``, ``<gazebo>``, ``<transmission>`` as canonical XML;
* :mod:`.compare`: :func:`~.compare.diff_descriptions`, with link frames by forward kinematics
  and the checker's findings;
* :mod:`.git`: a description's repository tree as of a git revision, in a folder.

``from urdf_tools_ros.core.diff import diff_descriptions`` (lazy re-export).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .compare import diff_descriptions
    from .records import DescriptionDiff, Tolerance

__all__ = ['DescriptionDiff', 'Tolerance', 'diff_descriptions']

__getattr__, __dir__ = lazy_exports(__name__, {'diff_descriptions': '.compare',
                                               'DescriptionDiff': '.records',
                                               'Tolerance': '.records'})
