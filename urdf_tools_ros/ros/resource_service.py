"""
GetResource services that serve a robot description's files to RViz on another machine.

``resource_retriever_interfaces`` (Lyrical, Rolling) on this node's ``mesh_service``, the
published description then carrying ``service://`` URLs (:meth:`ResourceServers.rewrite`); and
with ``serve_meshes_kilted``, ``rviz_resource_interfaces`` on the one global
``/rviz/get_resource`` (Kilted), URLs as written. What is served:
:class:`~urdf_tools_ros.core.meshes.resources.ResourceIndex`.
"""

from __future__ import annotations

import array
import importlib
from typing import Any

from rclpy.node import Node

from urdf_tools_ros.core.meshes.resources import ResourceIndex, rewrite_urls
from urdf_tools_ros.core.source.loader import RobotDescription

__all__ = ['KILTED_SERVICE', 'ResourceServers']

#: The one service name RViz 15.0 (Kilted) asks.
KILTED_SERVICE = '/rviz/get_resource'


def _service_type(package: str) -> Any | None:
    """``<package>.srv.GetResource``, or ``None`` when the package is not installed."""
    try:
        return importlib.import_module(f'{package}.srv').GetResource
    except (ImportError, AttributeError):
        return None


class ResourceServers:
    """
    The GetResource services of one node, answering for its current description.

    :param node: The node the services belong to.
    :param service_name: Name of the Lyrical/Rolling service (relative names resolve in the
        node's namespace, ``~`` in the node's).
    :param kilted: Also serve Kilted RViz's ``/rviz/get_resource``.
    """

    def __init__(self, node: Node, service_name: str, kilted: bool) -> None:
        self._node = node
        self._index = ResourceIndex(())
        self._services: list[Any] = []
        self.service_name: str | None = None
        logger = node.get_logger()
        lyrical = _service_type('resource_retriever_interfaces')
        if lyrical is None:
            logger.warning('serve_meshes: resource_retriever_interfaces is not installed (ROS 2 '
                           'Lyrical and Rolling have it): no service:// URLs, meshes not served '
                           'on it')
        else:
            self.service_name = node.resolve_service_name(service_name)
            self._services.append(node.create_service(lyrical, self.service_name,
                                                      self._on_get_resource))
            logger.info(f"serving the description's meshes on {self.service_name} "
                        '(resource_retriever_interfaces/srv/GetResource); robot_description '
                        'carries service:// URLs')
        if kilted:
            self._serve_kilted(logger)
        if not self._services:
            logger.error('serve_meshes: no GetResource interface installed, meshes are not '
                         'served')

    def _serve_kilted(self, logger: Any) -> None:
        kilted = _service_type('rviz_resource_interfaces')
        if kilted is None:
            logger.warning('serve_meshes_kilted: rviz_resource_interfaces is not installed '
                           f'(ROS 2 Kilted has it): {KILTED_SERVICE} not served')
            return
        taken = [name for name, _ in self._node.get_service_names_and_types()
                 if name == KILTED_SERVICE]
        if taken:
            logger.warning(f'serve_meshes_kilted: {KILTED_SERVICE} is served by another node '
                           '(RViz asks one server per graph): not served here')
            return
        self._services.append(self._node.create_service(kilted, KILTED_SERVICE,
                                                        self._on_rviz_get_resource))
        logger.info(f"serving the description's meshes on {KILTED_SERVICE} "
                    '(rviz_resource_interfaces/srv/GetResource, URLs as written)')

    @property
    def serving(self) -> bool:
        """Whether any service was created."""
        return bool(self._services)

    def serve(self, description: RobotDescription) -> int:
        """Answer for ``description`` from now on; return how many files it references."""
        self._index = ResourceIndex.of(description)
        return len(self._index)

    def rewrite(self, xml: str) -> str:
        """``xml`` with the served files' URLs pointing at this node's service (if it has one)."""
        if self.service_name is None:
            return xml
        return rewrite_urls(xml, self._index.urls(self.service_name))

    def _answer(self, request: Any, response: Any, as_written: bool) -> Any:
        reply = self._index.get(request.path, request.etag, as_written=as_written)
        response.status_code = int(reply.status)
        response.error_reason = reply.error_reason
        response.expanded_path = reply.expanded_path
        response.etag = reply.etag
        response.body = array.array('B', reply.body)  # a bytes value is checked per byte
        if reply.error_reason:
            self._node.get_logger().warning(f'GetResource {request.path!r} refused: '
                                            f'{reply.error_reason}', throttle_duration_sec=1.0)
        return response

    def _on_get_resource(self, request: Any, response: Any) -> Any:
        return self._answer(request, response, as_written=False)

    def _on_rviz_get_resource(self, request: Any, response: Any) -> Any:
        return self._answer(request, response, as_written=True)
