"""
Every parameter of every node, declared in one place with a description and a range.

Names and defaults follow robot_state_publisher and joint_state_publisher where the role is the
same. A parameter read only at start is read-only. A number parameter takes an integer or a
double; a value of the wrong type or out of range is logged and the default used
(:func:`declare`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
import math
from typing import Any, TYPE_CHECKING, TypeVar

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.exceptions import (InvalidParameterException, InvalidParameterTypeException,
                              InvalidParameterValueException, ParameterException)
from rclpy.node import Node

if TYPE_CHECKING:
    from rclpy.parameter import Parameter

__all__ = ['on_set', 'CLAMP_CHOICES', 'DESCRIPTION_PARAMETERS', 'DescriptionSettings',
           'JOINT_STATE_GUI_PARAMETERS', 'JOINT_STATE_PARAMETERS', 'JointStateSettings',
           'ParameterSpec', 'TF_PARAMETERS', 'TfSettings', 'ZEROS_PREFIX', 'declare',
           'declare_zeros', 'descriptor', 'problem', 'settings', 'spec', 'value']

ParameterValue = bool | int | float | str | list[str]

#: Prefix of joint_state_publisher's per-joint default positions, ``zeros.<joint>``.
ZEROS_PREFIX = 'zeros.'
#: Values of the joint-state publisher's ``clamp`` parameter (core ClampPolicy values).
CLAMP_CHOICES = ('none', 'position', 'safety_controller')


@dataclass(frozen=True)
class ParameterSpec:
    """
    One node parameter.

    :ivar default: Default value; its Python type is the parameter type (``list`` = strings).
    :ivar read_only: Read at start only (``ros2 param set`` is refused).
    :ivar minimum: Inclusive range of numbers, with ``maximum``.
    :ivar constraints: Further constraints in words (``additional_constraints``).
    :ivar dynamic_typing: Takes more than one type (an integer parameter then a double too).
    :ivar above: Exclusive lower bound of numbers.
    """

    name: str
    default: ParameterValue
    description: str
    read_only: bool = True
    minimum: float | None = None
    maximum: float | None = None
    constraints: str = ''
    dynamic_typing: bool = False
    above: float | None = None

    @property
    def is_number(self) -> bool:
        """An integer or double parameter (its default is a number, not a bool)."""
        return isinstance(self.default, (int, float)) and not isinstance(self.default, bool)


def descriptor(item: ParameterSpec) -> ParameterDescriptor:
    """The ``rcl_interfaces/ParameterDescriptor`` of a spec."""
    result = ParameterDescriptor(description=item.description, read_only=item.read_only,
                                 additional_constraints=item.constraints,
                                 dynamic_typing=item.dynamic_typing or item.is_number)
    if item.minimum is not None and item.maximum is not None and \
            not isinstance(item.default, bool):
        if isinstance(item.default, int):
            result.integer_range = [IntegerRange(from_value=int(item.minimum),
                                                 to_value=int(item.maximum), step=1)]
        elif isinstance(item.default, float):
            result.floating_point_range = [FloatingPointRange(
                from_value=float(item.minimum), to_value=float(item.maximum), step=0.0)]
    return result


_DESCRIPTION_XML = ParameterSpec(
    'robot_description', '',
    'The URDF XML itself. A new value set at run time is loaded and checked first and refused '
    'with the reason when it cannot be used.', read_only=False)

#: The robot description node.
DESCRIPTION_PARAMETERS: tuple[ParameterSpec, ...] = (
    ParameterSpec('model', '',
                  'Path of the .urdf or .xacro file to publish (used when robot_description is '
                  'empty). package:// and $(find) resolve through ament_index.', read_only=False),
    ParameterSpec('xacro_args', '',
                  'xacro arguments of model: a list of name:=value, or one string of them '
                  'separated by spaces (shell quoting), as on the xacro command line.',
                  read_only=False, constraints='a string or a list of strings',
                  dynamic_typing=True),
    _DESCRIPTION_XML,
    ParameterSpec('allow_errors', False,
                  "Publish a description that the distro's urdfdom (robot_state_publisher, RViz) "
                  "or this package's nodes cannot load. Errors of other consumers never stop "
                  'publication; every error is logged and reported on /diagnostics either way.'),
    ParameterSpec('watch', False,
                  'Reload model when the file or any xacro include changes; a broken edit keeps '
                  'the last good description published.'),
    ParameterSpec('watch_period', 1.0, 'How often watched files are checked for changes, s.',
                  minimum=0.05, maximum=60.0),
    ParameterSpec('diagnostic_period', 1.0,
                  'Republish the check report on /diagnostics every this many s (0: only when '
                  'the description changes).', minimum=0.0, maximum=3600.0),
    ParameterSpec('serve_meshes', False,
                  'Serve the files the description references (meshes, textures) over ROS, so '
                  'that RViz on another machine shows the robot: robot_description (topic and '
                  'parameter) then carries service:// URLs of mesh_service, which every reader '
                  'of it sees. Needs resource_retriever_interfaces (ROS 2 Lyrical, Rolling).'),
    ParameterSpec('mesh_service', '~/resource_provider',
                  'Name of the resource_retriever_interfaces/srv/GetResource service of '
                  "serve_meshes (relative: in the namespace; ~: the node's own)."),
    ParameterSpec('serve_meshes_kilted', False,
                  "With serve_meshes, also answer Kilted RViz's /rviz/get_resource "
                  '(rviz_resource_interfaces; URLs as written, one server per graph).'),
)

#: The joint-state publisher node (joint_state_publisher's names and defaults).
JOINT_STATE_PARAMETERS: tuple[ParameterSpec, ...] = (
    ParameterSpec('rate', 10, 'Publish rate of joint_states, Hz (an integer or a double).',
                  constraints='> 0', dynamic_typing=True, above=0.0),
    ParameterSpec('source_list', [],
                  'sensor_msgs/JointState topics whose values are merged by joint name.',
                  dynamic_typing=True),
    ParameterSpec('use_mimic_tags', True,
                  'Derive joints with a <mimic> tag from their source joint.'),
    ParameterSpec('use_smallest_joint_limits', True,
                  'Narrow joint ranges by the safety_controller soft limits.'),
    ParameterSpec('delta', 0.0,
                  'Move every joint by this much at each publication, turning back at the ends '
                  'of its range (rad or m; 0 or less: still).'),
    ParameterSpec('publish_default_positions', True,
                  'Publish positions before any source gives them.'),
    ParameterSpec('publish_default_velocities', False,
                  'Publish velocities (0) before any source gives them.'),
    ParameterSpec('publish_default_efforts', False,
                  'Publish efforts (0) before any source gives them.'),
    ParameterSpec('clamp', 'none',
                  'Clamping of values from sources and sliders: none (as joint_state_publisher),'
                  ' position (into the joint limits), safety_controller (position, then velocity '
                  'and effort into the safety controller bounds).',
                  constraints='one of: ' + ', '.join(CLAMP_CHOICES)),
    ParameterSpec('gui', False,
                  'Serve joint sliders and a 3D view in the browser (needs viser); the sliders '
                  'publish through the same table.'),
    ParameterSpec('gui_host', '127.0.0.1',
                  'Address the slider page is served on (127.0.0.1: this machine only).'),
    ParameterSpec('gui_port', 8080,
                  'Port of the slider page (the next free one when taken).', minimum=1,
                  maximum=65535),
)

#: ``joint_state_publisher_gui``: the same with ``gui`` on by default.
JOINT_STATE_GUI_PARAMETERS: tuple[ParameterSpec, ...] = tuple(
    replace(item, default=True) if item.name == 'gui' else item
    for item in JOINT_STATE_PARAMETERS)

#: The TF broadcaster node (robot_state_publisher's names and defaults).
TF_PARAMETERS: tuple[ParameterSpec, ...] = (
    ParameterSpec('publish_frequency', 20.0,
                  'Largest rate at which the transforms of a joint are published, Hz, by the '
                  'joint_states stamps (0: no limit).', read_only=False, minimum=0.0,
                  maximum=1000.0),
    ParameterSpec('ignore_timestamp', False,
                  'Publish the transforms of every joint_states message, whatever its stamp.',
                  read_only=False),
    ParameterSpec('frame_prefix', '', 'Put before every frame id of /tf and /tf_static.',
                  read_only=False),
    ParameterSpec('description_from_topic', False,
                  'Take the description from the robot_description topic even when the '
                  'robot_description parameter is set (robot_state_publisher on Kilted and '
                  'Rolling); without it the topic is followed only when the parameter is empty.'),
    ParameterSpec(
        _DESCRIPTION_XML.name, '',
        'The URDF XML. When set, the node publishes it on robot_description itself (as '
        'robot_state_publisher does) instead of subscribing to that topic; a new value set at '
        'run time is refused with the reason when it cannot be used.', read_only=False),
)


def spec(specs: Iterable[ParameterSpec], name: str) -> ParameterSpec:
    """The spec named ``name``; raises :exc:`KeyError` if there is none."""
    for item in specs:
        if item.name == name:
            return item
    raise KeyError(name)


def problem(item: ParameterSpec, given: Any) -> str | None:
    """
    Why ``given`` is no value for ``item`` (wrong type, not finite, out of range), or ``None``.

    A double parameter takes an integer too; an empty byte array (ROS's ``[]``) is a list.
    """
    default = item.default
    if isinstance(default, bool):
        return None if isinstance(given, bool) else 'is not true or false'
    if item.is_number:
        if isinstance(given, bool) or not isinstance(given, (int, float)) \
                or not math.isfinite(given):
            return 'is not a number'
        if isinstance(default, int) and not item.dynamic_typing and not isinstance(given, int):
            return 'is not an integer'
        if item.above is not None and not given > item.above:
            return f'is not above {item.above:g}'
        if item.minimum is not None and given < item.minimum or \
                item.maximum is not None and given > item.maximum:
            return f'is not within [{item.minimum:g}, {item.maximum:g}]'
        return None
    if isinstance(default, list):
        if isinstance(given, (list, tuple)) and all(isinstance(entry, str) for entry in given) \
                or type(given).__name__ == 'array' and len(given) == 0:
            return None
        return 'is not a list of strings'
    if item.dynamic_typing:
        return None
    return None if isinstance(given, str) else 'is not a string'


def declare(node: Node, specs: Sequence[ParameterSpec]) -> list[str]:
    """
    Declare ``specs`` on ``node``; overrides (``-p``, ``--params-file``) give the values.

    An override that is no value for its spec is logged as a warning and the default used.

    :return: The warnings logged, one per refused override.
    """
    warnings: list[str] = []
    for item in specs:
        # First dynamic, to see an override of any type; then as its spec says.
        if not node.has_parameter(item.name):
            node.declare_parameter(item.name, item.default,
                                   ParameterDescriptor(dynamic_typing=True))
        given = node.get_parameter(item.name).value
        reason = problem(item, given)
        node.undeclare_parameter(item.name)
        try:
            node.declare_parameter(item.name, item.default, descriptor(item),
                                   ignore_override=reason is not None)
        except (InvalidParameterTypeException, InvalidParameterValueException) as exc:
            reason = str(exc)
            node.declare_parameter(item.name, item.default, descriptor(item),
                                   ignore_override=True)
        if reason is None:
            continue
        warning = f'parameter {item.name}: {given!r} {reason}; using the default {item.default!r}'
        node.get_logger().warning(warning)
        warnings.append(warning)
    return warnings


def value(node: Node, name: str) -> Any:
    """A declared parameter's value; an unset string array is ``[]``."""
    try:
        result = node.get_parameter(name).value
    except ParameterException:  # statically typed and unset (Iron and later raise)
        return []
    if result is None:
        return []
    if isinstance(result, (list, tuple)) or type(result).__name__ == 'array':
        return list(result)
    return result


@dataclass(frozen=True)
class DescriptionSettings:
    """The robot description node's parameters at start (:data:`DESCRIPTION_PARAMETERS`)."""

    model: str
    xacro_args: str
    robot_description: str
    allow_errors: bool
    watch: bool
    watch_period: float          # s
    diagnostic_period: float     # s
    serve_meshes: bool
    mesh_service: str
    serve_meshes_kilted: bool


@dataclass(frozen=True)
class JointStateSettings:
    """The joint-state publisher's parameters at start (:data:`JOINT_STATE_PARAMETERS`)."""

    rate: float                  # Hz, > 0
    source_list: tuple[str, ...]
    use_mimic_tags: bool
    use_smallest_joint_limits: bool
    delta: float                 # rad or m per publish
    publish_default_positions: bool
    publish_default_velocities: bool
    publish_default_efforts: bool
    clamp: str
    gui: bool
    gui_host: str
    gui_port: int


@dataclass(frozen=True)
class TfSettings:
    """The TF broadcaster's parameters at start (:data:`TF_PARAMETERS`)."""

    publish_frequency: float     # Hz
    ignore_timestamp: bool
    frame_prefix: str
    description_from_topic: bool
    robot_description: str


_Settings = TypeVar('_Settings', DescriptionSettings, JointStateSettings, TfSettings)
#: The parameter table of each settings class.
SETTINGS_TABLES: dict[type, tuple[ParameterSpec, ...]] = {
    DescriptionSettings: DESCRIPTION_PARAMETERS, JointStateSettings: JOINT_STATE_PARAMETERS,
    TfSettings: TF_PARAMETERS}


def settings(node: Node, kind: type[_Settings]) -> _Settings:
    """The parameters of ``node`` read once into the frozen settings ``kind`` (lists as tuples)."""
    given: dict[str, Any] = {}
    for item in SETTINGS_TABLES[kind]:
        current = value(node, item.name)
        if isinstance(current, list):
            current = tuple(current)
        elif isinstance(item.default, float) or item.name == 'rate':
            current = float(current)
        given[item.name] = current
    return kind(**given)


def declare_zeros(node: Node, joints: Iterable[str]) -> tuple[dict[str, float], list[str]]:
    """
    Declare ``zeros.<joint>`` for each joint (unset unless overridden) and read them.

    :return: ``{joint: position}`` of the zeros set (rad or m), and a problem for each one set
        to something other than a number.
    """
    zeros: dict[str, float] = {}
    problems: list[str] = []
    for joint in joints:
        name = ZEROS_PREFIX + joint
        if not node.has_parameter(name):
            try:
                node.declare_parameter(name, None, ParameterDescriptor(
                    description=f'Start position of joint "{joint}", rad or m.',
                    dynamic_typing=True))
            except InvalidParameterException:
                continue
        current = node.get_parameter(name).value
        if current is None:
            continue
        if isinstance(current, (int, float)) and not isinstance(current, bool):
            zeros[joint] = float(current)
        else:
            problems.append(f'{name}: {current!r} is not a number')
    return zeros, problems


def on_set(node: Node, validate: Callable[[dict[str, Any]], str | None],
           apply: Callable[[dict[str, Any]], None]) -> None:
    """
    Validate parameter changes in the on-set callback; apply them once they are set.

    ``apply`` runs from rclpy's post-set callback (Iron and later), else from a guard condition.

    :param validate: ``{name: new value}`` -> the reason for refusing, or ``None``.
    :param apply: ``{name: new value}`` of changes that were set.
    """
    from rcl_interfaces.msg import SetParametersResult  # here: docs/_ext stubs rclpy's modules

    def on_set_parameters(changes: list[Parameter]) -> SetParametersResult:
        reason = validate({change.name: change.value for change in changes})
        if reason is None and fallback is not None:
            pending.append({change.name: change.value for change in changes})
            fallback.trigger()
        return SetParametersResult(successful=reason is None, reason=reason or '')

    def apply_pending() -> None:
        while pending:
            apply(pending.pop(0))

    pending: list[dict[str, Any]] = []
    post_set = getattr(node, 'add_post_set_parameters_callback', None)
    fallback = None if post_set is not None else node.create_guard_condition(apply_pending)
    if post_set is not None:
        post_set(lambda changes: apply({change.name: change.value for change in changes}))
    node.add_on_set_parameters_callback(on_set_parameters)
