"""
The source stage: files to text and text to a loaded description.

* :mod:`.loader`: :func:`load` / :func:`load_string` (bounded, entity-free XML parsing, xacro,
  the one reader of :mod:`..model`, the urdf_parser_py cross-check) and
  :class:`RobotDescription`;
* :mod:`.packages`: ``package://``, ``$(find pkg)`` and ``file://`` resolution;
* :mod:`.scanner`: the one XML text scanner (where elements, attributes and comments stand);
* :mod:`.xml_safety`, :mod:`.xacro_syntax`: what parsers refuse, and whether a text needs xacro;
* :mod:`.matrix`, :mod:`.watch`: argument matrices, and the files a description was made from;
* :mod:`.discovery`, :mod:`.entries`: the packages of a colcon workspace, and which description
  files of a folder are entries (what includes what);
* :mod:`.xacro`: xacro through its public API, and its errors in plain words.

The loader's public names are re-exported lazily: ``from urdf_tools_ros.core.source import load``.
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
