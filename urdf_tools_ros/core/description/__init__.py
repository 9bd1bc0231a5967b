"""
The robot description: the typed URDF model and everything that produces it from a file.

* :mod:`.model`: the whole URDF spec as frozen dataclasses (:class:`~.model.Robot`, ...);
* :mod:`.reader`: the one URDF reader (XML element tree -> model, with every element's line);
* :mod:`.values`: parsing attribute values (numbers, vectors) for the reader;
* :mod:`.packages`: ``package://`` and ``file://`` resolution;
* :mod:`.loader`: :func:`load` / :func:`load_string` (bounded, entity-free XML parsing, xacro,
  the urdf_parser_py cross-check) and :class:`RobotDescription`.

``from urdf_tools_ros.core.description import load`` keeps working: the loader's public names
are re-exported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .loader import (load, load_string, looks_like_xacro, parse_xacro_args, parse_xml,
                         read_file, RobotDescription)

__all__ = ['RobotDescription', 'load', 'load_string', 'looks_like_xacro', 'parse_xacro_args',
           'parse_xml', 'read_file']

__getattr__, __dir__ = lazy_exports(__name__, {name: '.loader' for name in __all__})
