"""
Helpers of the node tests: real rclpy in-process, on localhost DDS with a random domain id.

:data:`requires_ros` skips a module's tests with :data:`ROS_MISSING`'s reason. The ``ros``
fixture (import :func:`ros_graph` and :func:`ros_context`) gives each test an executor thread
and a namespace of its own, ``/tf``, ``/tf_static`` and ``/diagnostics`` remapped into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
import itertools
from pathlib import Path
import threading
import time
from typing import Any, TypeVar

import pytest

from conftest import missing, ros_domain_id, wait_for  # noqa: F401

#: Why the ROS tests cannot run here (rclpy or a message package does not import), or None.
ROS_MISSING = missing('rclpy', 'std_msgs.msg', 'sensor_msgs.msg', 'geometry_msgs.msg',
                      'diagnostic_msgs.msg', 'tf2_msgs.msg')
#: The marks of a module of ROS tests: ``pytestmark = requires_ros``.
requires_ros = [pytest.mark.ros,
                pytest.mark.skipif(ROS_MISSING is not None, reason=str(ROS_MISSING))]
if ROS_MISSING is None:
    import rclpy
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from rclpy.qos import QoSProfile

#: Topics remapped into each test's namespace (the nodes publish them as absolute names).
ABSOLUTE_TOPICS = ('/tf', '/tf_static', '/diagnostics')

NodeT = TypeVar('NodeT', bound='Node')
_counter = itertools.count()

#: A robot with every joint kind the nodes handle: fixed, revolute (with a mimic follower),
#: prismatic, continuous. Root link ``world``.
MIMIC_URDF = (Path(__file__).parent / 'urdf' / 'nodes' / 'mimic_bot.urdf').read_text()


class Inbox:
    """Messages received on one subscription, in order (appended from the executor thread)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    def __call__(self, msg: Any) -> None:
        self.messages.append(msg)

    @property
    def last(self) -> Any:
        """The last message received."""
        return self.messages[-1]

    def clear(self) -> None:
        """Forget the messages received so far."""
        self.messages.clear()


class RosGraph:
    """
    The nodes of one test, spun by an executor in a background thread.

    :ivar namespace: The test's namespace, e.g. ``/t3``.
    """

    def __init__(self, context: Context) -> None:
        self.context = context
        self.executor = SingleThreadedExecutor(context=context)
        self._thread = threading.Thread(target=self.executor.spin, daemon=True)
        self._thread.start()
        self.namespace = f'/t{next(_counter)}'
        self._nodes: list[Node] = []
        self.probe = self.add(Node, 'probe')

    def node_kwargs(self, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments that put a node into this test's namespace and context."""
        remaps = []
        for topic in ABSOLUTE_TOPICS:
            remaps += ['-r', f'{topic}:={self.namespace}{topic}']
        overrides = [rclpy.parameter.Parameter(name, value=value)
                     for name, value in (parameters or {}).items()]
        return {'context': self.context, 'namespace': self.namespace,
                'cli_args': ['--ros-args', *remaps], 'parameter_overrides': overrides}

    def add(self, factory: Callable[..., NodeT], *args: Any,
            parameters: dict[str, Any] | None = None) -> NodeT:
        """Make a node with ``factory(*args, **node_kwargs)`` and spin it."""
        node = factory(*args, **self.node_kwargs(parameters))
        self._nodes.append(node)
        self.executor.add_node(node)
        return node

    def topic(self, name: str) -> str:
        """The name a node of this test uses for ``name`` (``/tf`` -> ``/t3/tf``)."""
        return f'{self.namespace}{name}' if name.startswith('/') else f'{self.namespace}/{name}'

    def subscribe(self, msg_type: Any, name: str, qos: QoSProfile | int = 10,
                  raw: bool = False) -> Inbox:
        """Collect the messages of topic ``name`` (resolved as by :meth:`topic`)."""
        inbox = Inbox()
        self.probe.create_subscription(msg_type, self.topic(name), inbox, qos, raw=raw)
        return inbox

    def publisher(self, msg_type: Any, name: str, qos: QoSProfile | int = 10) -> Any:
        """A publisher on topic ``name`` (resolved as by :meth:`topic`)."""
        return self.probe.create_publisher(msg_type, self.topic(name), qos)

    def close(self) -> None:
        """Stop spinning, then destroy every node of the test (never while a callback runs)."""
        self.executor.shutdown(timeout_sec=5.0)
        self._thread.join(timeout=5.0)
        for node in self._nodes:
            node.destroy_node()
        self._nodes.clear()


def settle(seconds: float = 0.3) -> None:
    """Give the graph time to deliver what it would (for asserting that nothing arrives)."""
    time.sleep(seconds)


@pytest.fixture(scope='module')
def ros_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    """One rclpy context per module on localhost DDS with a random domain id."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv('ROS_DOMAIN_ID', str(ros_domain_id()))
        patch.setenv('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
        patch.delenv('ROS_LOCALHOST_ONLY', raising=False)
        patch.delenv('ROS_STATIC_PEERS', raising=False)
        patch.setenv('ROS_LOG_DIR', str(tmp_path_factory.mktemp('ros_log')))
        context = Context()
        rclpy.init(context=context)
        try:
            yield context
        finally:
            rclpy.try_shutdown(context=context)


@pytest.fixture(name='ros')
def ros_graph(ros_context: Context) -> Iterator[RosGraph]:
    """A :class:`RosGraph` for one test, spinning its own executor; its nodes die afterwards."""
    graph = RosGraph(ros_context)
    try:
        yield graph
    finally:
        graph.close()
