"""
The robot description node's description: where it comes from, and whether it may be published.

A :class:`DescriptionSource` is the XML itself (``robot_description``, never run through xacro:
a parameter can be set from anywhere on the network) or a file with xacro arguments (``model``,
``xacro_args``). :func:`assess` loads and checks it through
:func:`~urdf_tools_ros.core.session.run` and says why it is refused
(:mod:`urdf_tools_ros.core.checks.publication`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import os
import shlex

from .checks.publication import graph_check, GraphCheck
from .errors import DescriptionLoadError
from .session import resolve, run
from .source.loader import parse_xacro_args, RobotDescription

__all__ = ['Candidate', 'DescriptionSource', 'SOURCE_PARAMETERS', 'assess']

#: The node's parameters that say which description to publish.
SOURCE_PARAMETERS = ('model', 'xacro_args', 'robot_description')


def _xacro_args(value: object) -> tuple[str, ...] | str:
    """The ``xacro_args`` parameter as a string or a tuple of strings (unset: none)."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(item) for item in value)
    return str(value)


@dataclass(frozen=True)
class DescriptionSource:
    """
    Where the description comes from: the XML itself, or a file with xacro arguments.

    :ivar model: Path of the .urdf or .xacro file.
    :ivar xacro_args: ``name:=value`` items, or one string of them separated by spaces.
    :ivar xml: The URDF XML; used instead of ``model`` when not empty.
    """

    model: str = ''
    xacro_args: tuple[str, ...] | str = ()
    xml: str = ''

    @classmethod
    def of(cls, model: object, xacro_args: object, xml: object) -> DescriptionSource:
        """The source the parameters ``model``, ``xacro_args`` (a string or list) and XML name."""
        return cls(str(model or ''), _xacro_args(xacro_args), str(xml or ''))

    def with_parameters(self, given: Mapping[str, object]) -> DescriptionSource:
        """This source with the new values of :data:`SOURCE_PARAMETERS` in ``given``."""
        return DescriptionSource.of(given.get('model', self.model),
                                    given['xacro_args'] if 'xacro_args' in given
                                    else self.xacro_args,
                                    given.get('robot_description', self.xml))

    def watched(self) -> tuple[str, ...]:
        """The file to watch before any load succeeded (none for XML)."""
        return (os.path.abspath(self.model),) if self.model and not self.xml else ()


@dataclass(frozen=True)
class Candidate:
    """
    A description that loaded, its check for the node's graph, and why it is refused.

    :ivar source: Where it came from.
    :ivar description: The loaded description.
    :ivar check: Its findings and what the graph can do with them.
    :ivar refusal: Why it may not be published; ``None``: it may.
    """

    source: DescriptionSource
    description: RobotDescription
    check: GraphCheck
    refusal: str | None

    @property
    def watched(self) -> tuple[str, ...]:
        """The files to watch: every file read, else :meth:`DescriptionSource.watched`."""
        return self.description.dependencies or self.source.watched()


def assess(source: DescriptionSource, target: str, allow_errors: bool = False) -> Candidate:
    """
    Load and check ``source`` for the node's graph; say why it is refused, if it is.

    :param target: The distro's target, ``ros-jazzy``
        (:func:`~urdf_tools_ros.core.checks.publication.distro_target`).
    :param allow_errors: Publish even what a consumer of the graph cannot load.
    :raises RobotDescriptionError: if it cannot be loaded, or checked as configured.
    """
    if not source.xml and not source.model:
        raise DescriptionLoadError('neither robot_description nor model is set', '<parameters>')
    from_file = not source.xml  # XML: no configuration, never xacro
    settings = resolve(source.model if from_file else None, target=target, use_config=from_file,
                       is_xacro=None if from_file else False)
    if from_file:
        try:
            items = shlex.split(source.xacro_args) if isinstance(source.xacro_args, str) \
                else list(source.xacro_args)
            arguments = parse_xacro_args(items)
        except ValueError as exc:
            raise DescriptionLoadError(str(exc), '<xacro_args>') from exc
        result = run(source.model, settings, arguments)
    else:
        result = run('<robot_description>', settings, text=source.xml)
    if result.failure is not None:
        raise result.failure
    assert result.description is not None  # noqa: S101 - loaded when there is no failure
    check = graph_check(result.findings, settings.target)
    refusal = None
    if check.refusals and not allow_errors:
        refusal = (f'the check found {check.refusal_text()} and allow_errors is false; '
                   f'first: {check.refusals[0]}')
    return Candidate(source, result.description, check, refusal)
