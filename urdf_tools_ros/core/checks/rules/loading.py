"""
Rules of the ``loading`` family: what the reader finds while it turns XML into the model.

The reader (:class:`~urdf_tools_ros.core.model.reader.UrdfReader`) and the loader make the
findings; this module catalogs their codes. Measured per element (``test_consumer_oracles``):
urdfdom refuses a link or joint it cannot parse but drops a bad ``<visual>``, ``<collision>`` or
``<inertial>``; urdf_parser_py refuses all of these; MuJoCo some.
"""

from __future__ import annotations

from ..registry import rule
from ...findings import Severity

_DROP = 'urdfdom link.cpp (drops the element it cannot parse); urdf_parser_py xml_reflection'

rule('attribute-missing', Severity.WARNING,
     'a required attribute or element is missing (link/joint name, joint type, parent/child '
     'link, mass value, inertia moments, box size, mesh filename, mimic joint, material name, '
     '...)', 'urdfdom', consumers=('urdfdom', 'urdf_parser_py'),
     reference=f'URDF spec (required attributes); {_DROP}')
rule('attribute-empty', Severity.WARNING,
     'a name or reference attribute is present but empty (name="", filename=""): unlike an '
     'absent one, most consumers read it; those that refuse it are named per element',
     reference='measured per element with check_urdf 3.0.1 and 6.0.0, urdf_parser_py, '
               'pinocchio, MuJoCo and SDFormat (test_consumer_oracles); ros2_control '
               'component_parser.cpp get_attribute_value refuses only an absent attribute')
rule('number-invalid', Severity.WARNING, 'a numeric attribute does not parse as a number',
     'urdfdom', consumers=('urdfdom', 'urdf_parser_py', 'mujoco'),
     reference='urdfdom (strToDouble: "is not a valid float"); urdf_parser_py; MuJoCo '
               '"bad format"')
rule('vector-size', Severity.WARNING,
     'a vector attribute (xyz, rpy, size, scale, rgba) does not have 3 (rgba: 4) numbers',
     'urdfdom', consumers=('urdfdom', 'urdf_parser_py', 'mujoco'),
     reference='urdfdom pose.cpp ("Parser found N elements but 3 expected"); urdf_parser_py')
rule('number-not-finite', Severity.WARNING,
     'a number is NaN or infinite (in a joint: urdfdom and the kinematics refuse it)',
     consumers=('urdfdom', 'urdf_tools_ros', 'mujoco'),
     reference='urdfdom (joint origin "nan" is refused); KinematicModel; MuJoCo')
rule('inertial-incomplete', Severity.WARNING, '<inertial> without <mass> or <inertia>',
     'urdfdom', consumers=('urdfdom', 'urdf_parser_py', 'mujoco'),
     reference=f'URDF spec, link/inertial; {_DROP}; MuJoCo "missing element"')
rule('geometry-unknown', Severity.WARNING,
     '<geometry> holds something other than box, cylinder, sphere or mesh', 'urdfdom',
     consumers=('urdfdom', 'urdf_parser_py', 'mujoco'),
     reference=f'URDF spec, link/geometry; {_DROP} ("Unknown geometry type")')
rule('unknown-element', Severity.INFO, 'an element URDF does not define (kept, ignored)',
     reference='URDF spec (http://wiki.ros.org/urdf/XML)')
rule('unknown-attribute', Severity.INFO, 'an attribute URDF does not define (ignored)',
     reference='URDF spec (http://wiki.ros.org/urdf/XML)')
rule('element-duplicate', Severity.WARNING,
     'an element that URDF allows once is repeated; urdfdom and urdf_parser_py read the first, '
     'MuJoCo refuses it, joint_state_publisher ignores a repeated <mimic>/<safety_controller>',
     consumers=('mujoco',),
     reference='urdfdom FirstChildElement; urdf_parser_py "Scalar element defined multiple '
               'times"; MuJoCo "repeated element"; joint_state_publisher 2.4 len(tags) == 1')
rule('joint-limit-bound-missing', Severity.WARNING,
     '<limit> of a revolute or prismatic joint leaves out lower or upper (URDF reads 0)',
     consumers=('joint_state_publisher',),
     reference='URDF spec, joint/limit (lower, upper default 0); joint_state_publisher 2.4 '
               'init_urdf ("lower" limit must be specified)')
rule('xml-namespace-undeclared', Severity.WARNING,
     'a namespace prefix is used but never declared (check_urdf accepts it; XML tools do not)',
     consumers=('urdf_parser_py',), reference='Namespaces in XML 1.0, NSC: Prefix Declared')
rule('xml-declaration-invalid', Severity.WARNING,
     'the XML declaration is not at the very start or names a version other than 1.0 '
     '(urdfdom reads it, lxml and expat refuse it)',
     consumers=('urdf_parser_py', 'joint_state_publisher'),
     reference='XML 1.0, 2.8 Prolog (XMLDecl must come first; VersionNum 1.x); tinyxml2 '
               'ignores the declaration')
rule('xml-trailing-content', Severity.WARNING,
     'there is content after the </robot> end tag (urdfdom ignores it, lxml and expat refuse it)',
     consumers=('urdf_parser_py', 'joint_state_publisher'),
     reference='XML 1.0, 2.1 (document = prolog element Misc*); tinyxml2 stops at the root')
rule('transmission-form-invalid', Severity.WARNING,
     'a <transmission> is in neither form urdf_parser_py reads (ROS 1: <type>, <joint> with '
     '<hardwareInterface>, <actuator>; PR2: type attribute, <joint>, <actuator>, '
     '<mechanicalReduction>)', consumers=('urdf_parser_py',),
     reference='urdf_parser_py urdf.py (Transmission, PR2Transmission, DuckTypedFactory); '
               'http://wiki.ros.org/urdf/XML/Transmission')
rule('xacro-warning', Severity.WARNING, 'xacro warned while processing the file',
     reference='xacro')
rule('xacro-lines-unavailable', Severity.INFO,
     'the installed xacro lacks a hook point line tracking uses: it ran through its public API '
     '(xacro.process_file) and elements of its output carry the top-level file without a line',
     reference='xacro (detected at load, not assumed)')
rule('xacro-arg-unknown', Severity.WARNING,
     'a xacro argument is given (name:=value, xacro_args) that the file and its includes '
     'neither declare nor use, or the file is not xacro: it has no effect (misspelt?)',
     reference='xacro (undeclared arguments are accepted silently)')
rule('urdf-parser-py-rejects', Severity.WARNING, 'urdf_parser_py cannot read the description',
     consumers=('urdf_parser_py',), reference='urdf_parser_py (urdf-tools check --urdf-parser-py)')
rule('urdf-parser-py-warning', Severity.WARNING, 'urdf_parser_py warned while reading',
     reference='urdf_parser_py (urdf-tools check --urdf-parser-py)')
#: A file that cannot be loaded at all: the one finding of its report (``urdf-tools check``).
UNLOADABLE = rule('description-unloadable', Severity.ERROR,
                  'the file cannot be read as a robot description at all (missing, unreadable, '
                  'malformed XML, a xacro error, no <robot>): the report says why, with file '
                  'and line', 'urdfdom',
                  consumers=('urdfdom', 'urdf_parser_py', 'mujoco', 'pinocchio'),
                  reference='urdfdom parseURDF ("Error parsing XML"); the loader\'s '
                            'DescriptionLoadError')
#: A xacro file of macros that no file includes: ``urdf-tools lsp`` does not check it as a robot.
NOT_AN_ENTRY = rule('description-not-an-entry', Severity.INFO,
                    'a xacro file that only holds definitions (macros, properties, arguments, '
                    'materials) and that no file of the workspace includes: the language server '
                    'does not check it as a robot (it would have no <robot name> and no links); '
                    'include it from an entry or name an entry that includes it',
                    reference='xacro (a file of <xacro:macro> definitions expands to an empty '
                              '<robot>)')

# -- URDF 1.1 and 1.2 (urdfdom 5.1 and 6.0; measured with check_urdf of urdfdom 3.0.1 and 6.0.0)
_V11 = 'urdfdom 5.1.0 (URDF 1.1: quat_xyzw, capsule; ros/rosdistro#49718)'
_V12 = 'urdfdom 6.0.0 (URDF 1.2: acceleration, deceleration, jerk; ros/rosdistro#50827)'
rule('origin-quaternion-ignored', Severity.WARNING,
     'an <origin quat_xyzw> in a URDF 1.0 file: every urdfdom ignores it and poses the element '
     'with rpy (or none), not the quaternion the author wrote', 'urdfdom', consumers=('urdfdom',),
     reference=f'{_V11}: "Ignoring quat_xyzw attribute requiring URDF version 1.1 since '
               'specified version is 1.0"; urdfdom 3/4 do not know the attribute')
rule('origin-rpy-and-quaternion', Severity.WARNING,
     'an <origin> gives both rpy and quat_xyzw (URDF 1.1 allows one)', 'urdfdom',
     consumers=('urdfdom',),
     reference=f'{_V11}: "Both rpy and quat_xyzw orientations are defined"')
rule('origin-quaternion-invalid', Severity.WARNING,
     'an <origin quat_xyzw> is zero or not finite: no rotation', consumers=('urdf_tools_ros',),
     reference='URDF 1.1 (a zero quaternion is invalid); urdfdom 6.0 accepts it unchecked')
rule('origin-quaternion-not-unit', Severity.WARNING,
     'an <origin quat_xyzw> is not of length 1 (it is read normalised)',
     reference='URDF 1.1 (unit quaternion x y z w, geometry_msgs order)')
rule('limit-attribute-ignored', Severity.WARNING,
     '<limit acceleration/deceleration/jerk> in a file before URDF 1.2: urdfdom ignores them',
     'urdfdom', reference=f'{_V12}: "Ignoring acceleration attribute. Required atleast URDF '
                          'version 1.2"')
rule('limit-attribute-negative', Severity.WARNING,
     '<limit acceleration/deceleration/jerk> is negative (URDF 1.2: non-negative)', 'urdfdom',
     consumers=('urdfdom',), reference=f'{_V12}: "acceleration value (-2) is negative"')
