"""
Rules of the ``loading`` family: what the reader finds while it turns XML into the model.

The findings themselves are made in :mod:`urdf_tools_ros.core.urdf_reader` (with
:mod:`~urdf_tools_ros.core.xml_values` and :mod:`~urdf_tools_ros.core.urdf_extensions`) and
:mod:`urdf_tools_ros.core.description`; this module only catalogs their codes.
"""

from __future__ import annotations

from . import rule
from ..findings import Severity

rule('attribute-missing', Severity.ERROR,
     'a required attribute or element is missing (link/joint name, joint type, parent/child '
     'link, mass value, inertia moments, box size, mesh filename, mimic joint, ...)', 'urdfdom')
rule('number-invalid', Severity.ERROR, 'a numeric attribute does not parse as a number',
     'urdfdom')
rule('vector-size', Severity.ERROR,
     'a vector attribute (xyz, rpy, size, scale, rgba) does not have 3 (rgba: 4) numbers',
     'urdfdom')
rule('number-not-finite', Severity.ERROR, 'a number is NaN or infinite')
rule('inertial-incomplete', Severity.ERROR, '<inertial> without <mass> or <inertia>', 'urdfdom')
rule('geometry-unknown', Severity.ERROR,
     '<geometry> holds something other than box, cylinder, sphere or mesh', 'urdfdom')
rule('unknown-element', Severity.INFO, 'an element URDF does not define (kept, ignored)')
rule('unknown-attribute', Severity.INFO, 'an attribute URDF does not define (ignored)')
rule('xml-namespace-undeclared', Severity.WARNING,
     'a namespace prefix is used but never declared (check_urdf accepts it; XML tools do not)')
rule('xacro-warning', Severity.WARNING, 'xacro warned while processing the file')
rule('urdf-parser-py-rejects', Severity.ERROR, 'urdf_parser_py cannot read the description')
rule('urdf-parser-py-warning', Severity.WARNING, 'urdf_parser_py warned while reading')
