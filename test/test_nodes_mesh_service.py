"""
``serve_meshes``: the description node serves a robot's files over GetResource, on real rclpy.

A client of ``resource_retriever_interfaces`` (Lyrical/Rolling) or Kilted's
``/rviz/get_resource`` gets the bytes on disk; each test skips where the interface is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

from corpus_models import CORPUS_DIR, PACKAGE_PATHS
from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest
from ros_helpers import (requires_ros, ros_context, ros_graph,  # noqa: F401
                         ROS_MISSING, RosGraph, wait_for)
from test_resources import (_meshes, _package, _refused_robot, _robot, ERD_SHARE,
                            plugin_accepts, REFUSED)

from conftest import missing
from urdf_tools_ros.core.source.loader import load, load_string, parse_xacro_args
from urdf_tools_ros.core.source.packages import draw_path, PACKAGE_PATH_ENV

LYRICAL_MISSING = missing('resource_retriever_interfaces.srv')
KILTED_MISSING = missing('rviz_resource_interfaces.srv')
pytestmark = [*requires_ros, pytest.mark.skipif(
    ROS_MISSING is None and LYRICAL_MISSING is not None, reason=str(LYRICAL_MISSING))]
if ROS_MISSING is None and LYRICAL_MISSING is None:
    from rclpy.parameter import Parameter
    from resource_retriever_interfaces.srv import GetResource
    from std_msgs.msg import String

    from urdf_tools_ros.nodes.robot_description import RobotDescriptionNode
    from urdf_tools_ros.ros import qos, resource_service

ERD = {'example-robot-data': str(ERD_SHARE)}
#: ``(model, xacro arguments, package paths)``: a corpus robot (test_resources serves the files
#: of the others: STL, COLLADA, OBJ with material libraries, a texture), the large robots of
#: the installed example-robot-data and the meshed packages of ../shared/ros2_descriptions.
SOLO12 = 'example-robot-data/robots/solo_description/robots/solo12.urdf'
ROBOTS = [pytest.param(str(CORPUS_DIR / SOLO12), '', PACKAGE_PATHS, id='solo12'),
          *(pytest.param(str(ERD_SHARE / 'robots' / robot), '', ERD, id=Path(robot).stem,
                         marks=pytest.mark.skipif(not (ERD_SHARE / 'robots' / robot).is_file(),
                                                  reason=f'{ERD_SHARE} is not installed'))
            for robot in ('talos_data/robots/talos_full_v2.urdf',
                          'tiago_description/robots/tiago.urdf')),
          *(pytest.param(str(ROS2_DESCRIPTIONS / ROS2_CASES.get(case, {}).get('entry', '')),
                         ' '.join(ROS2_CASES.get(case, {}).get('args', [])), ROS2_PACKAGES,
                         id=case, marks=pytest.mark.skipif(case not in ROS2_CASES,
                                                           reason=f'{ROS2_DESCRIPTIONS} absent'))
            for case in ('robotiq_2f_85', 'r2c_r6bot', 'interbotix_wx250s',
                         'kuka_lbr_iiwa14_r820'))]


def _call(ros: RosGraph, client, path: str, etag: str = ''):
    assert client.wait_for_service(timeout_sec=10.0), client.srv_name
    future = client.call_async(GetResource.Request(path=path, etag=etag))
    assert wait_for(future.done, timeout=30.0)
    return future.result()


def _published(ros: RosGraph, monkeypatch: pytest.MonkeyPatch, packages: dict[str, str],
               **params: object) -> tuple[object, str]:
    monkeypatch.setenv(PACKAGE_PATH_ENV, os.pathsep.join(f'{name}={path}'
                                                         for name, path in packages.items()))
    node = ros.add(RobotDescriptionNode, parameters={'serve_meshes': True, **params})
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert wait_for(lambda: received.messages)
    return node, received.last.data


@pytest.mark.parametrize('model, xacro_args, packages', ROBOTS)
def test_every_mesh_of_a_real_robot_comes_through_the_service(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch, model: str, xacro_args: str,
        packages: dict[str, str]) -> None:
    on_disk = Path(model).read_bytes()
    node, xml = _published(ros, monkeypatch, packages, model=model, xacro_args=xacro_args)
    original = load(model, xacro_args=parse_xacro_args(xacro_args.split()),
                    package_paths=ROS2_PACKAGES)
    served = _meshes(load_string(xml, '<published>'))
    assert len(served) == len(_meshes(original)) > 0
    clients: dict[str, object] = {}
    for before, after in zip(_meshes(original), served):
        assert plugin_accepts(after.filename), after.filename
        name, _, path = after.filename[len('service://'):].partition(':')
        client = clients.setdefault(name, ros.probe.create_client(GetResource, name))
        disk = Path(draw_path(before.filename, before.resolved, original.locate)).read_bytes()
        reply = _call(ros, client, path)
        assert (reply.status_code, reply.error_reason) == (GetResource.Response.OK, '')
        assert bytes(reply.body) == disk
        again = _call(ros, client, path, reply.etag)
        assert (again.status_code, len(again.body), again.etag) == \
            (GetResource.Response.NOT_MODIFIED, 0, reply.etag)
    assert list(clients) == [f'{ros.namespace}/robot_description_publisher/resource_provider']
    assert wait_for(lambda: node.get_parameter('robot_description').value == xml)
    assert Path(model).read_bytes() == on_disk


def test_refusals_come_back_with_their_reason(ros: RosGraph, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    robot = _refused_robot(tmp_path)
    _, xml = _published(ros, monkeypatch, {'bot': str(tmp_path / 'share' / 'bot')},
                        robot_description=robot.xml)
    name = f'{ros.namespace}/robot_description_publisher/resource_provider'
    client = ros.probe.create_client(GetResource, name)
    for path, reason in REFUSED:
        reply = _call(ros, client, path)
        assert (reply.status_code, len(reply.body)) == (GetResource.Response.ERROR, 0), path
        assert reason in reply.error_reason, (path, reply.error_reason)
    assert f'service://{name}:package/bot/meshes/base.obj' in xml


def test_robots_in_other_namespaces_and_nodes_do_not_collide(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shares = {name: _package(tmp_path / name, name) for name in ('left', 'right')}
    for name, share in shares.items():
        (share / 'meshes' / 'base.obj').write_text(f'# {name}\n')
    monkeypatch.setenv(PACKAGE_PATH_ENV, os.pathsep.join(f'{n}={s}' for n, s in shares.items()))
    kwargs = ros.node_kwargs
    names = {}
    for name, share in shares.items():
        xml = _robot(share, f'package://{name}/meshes/base.obj').xml
        for node_name, namespace in [(f'{name}_description', ros.namespace),
                                     ('robot_description_publisher', f'{ros.namespace}/{name}')]:
            options = kwargs({'serve_meshes': True, 'robot_description': xml})
            options['namespace'] = namespace
            node = RobotDescriptionNode(node_name, **options)
            ros._nodes.append(node)
            ros.executor.add_node(node)
            names[(name, namespace)] = node
    services = set()
    for (name, _), node in names.items():
        service = node._resources.service_name
        services.add(service)
        client = ros.probe.create_client(GetResource, service)
        assert bytes(_call(ros, client, f'package/{name}/meshes/base.obj').body) == \
            f'# {name}\n'.encode()
        other = 'right' if name == 'left' else 'left'
        assert _call(ros, client, f'package/{other}/meshes/base.obj').status_code == \
            GetResource.Response.ERROR
    assert len(services) == 4


@pytest.mark.skipif(KILTED_MISSING is not None, reason=str(KILTED_MISSING))
def test_kilted_rviz_gets_urls_as_written_from_one_server(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rviz_resource_interfaces.srv import GetResource as KiltedGetResource
    share = _package(tmp_path)
    (share / 'meshes' / 'base.obj').write_text('mtllib base.mtl\n')
    xml = _robot(share, 'package://bot/meshes/base.obj').xml
    first, _ = _published(ros, monkeypatch, {'bot': str(share)}, robot_description=xml,
                          serve_meshes_kilted=True)
    second = ros.add(RobotDescriptionNode, 'second', parameters={
        'serve_meshes': True, 'serve_meshes_kilted': True, 'robot_description': xml})
    assert second._resources.serving  # on its own Lyrical service only
    client = ros.probe.create_client(KiltedGetResource, resource_service.KILTED_SERVICE)
    assert client.wait_for_service(timeout_sec=10.0)
    for url, file in [('package://bot/meshes/base.obj', 'meshes/base.obj'),
                      ('package://bot/meshes/../textures/skin.png', 'textures/skin.png')]:
        future = client.call_async(KiltedGetResource.Request(path=url))
        assert wait_for(future.done)
        assert bytes(future.result().body) == (share / file).read_bytes()

    def served_by(node: object) -> list[str]:
        return [name for name, _ in ros.probe.get_service_names_and_types_by_node(
            node.get_name(), ros.namespace) if name == resource_service.KILTED_SERVICE]

    assert wait_for(lambda: served_by(first)) and not served_by(second)


def test_off_by_default_and_off_without_the_interface(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    share = _package(tmp_path)
    xml = _robot(share, 'package://bot/meshes/base.obj').xml
    monkeypatch.setenv(PACKAGE_PATH_ENV, f'bot={share}')
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    ros.add(RobotDescriptionNode, parameters={'robot_description': xml})
    assert wait_for(lambda: received.messages)
    assert received.last.data == xml
    monkeypatch.setattr(resource_service, '_service_type', lambda package: None)
    node = ros.add(RobotDescriptionNode, 'without', parameters={
        'robot_description': xml, 'serve_meshes': True})
    assert not node._resources.serving
    assert 'service://' not in node._resources.rewrite(xml)
    names = [name for name, _ in ros.probe.get_service_names_and_types()]
    assert not [name for name in names if name.endswith('resource_provider')]
    assert node.set_parameters([Parameter('robot_description', value=xml)])[0].successful


@pytest.mark.skipif(KILTED_MISSING is not None, reason=str(KILTED_MISSING))
def test_on_kilted_alone_the_description_keeps_its_urls(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    share = _package(tmp_path)
    xml = _robot(share, 'package://bot/meshes/base.obj').xml
    real = resource_service._service_type
    monkeypatch.setattr(resource_service, '_service_type', lambda package: None if
                        package == 'resource_retriever_interfaces' else real(package))
    node, published = _published(ros, monkeypatch, {'bot': str(share)}, robot_description=xml,
                                 serve_meshes_kilted=True)
    assert published == xml and node._resources.serving
    assert node._resources.service_name is None


def test_a_new_description_is_served_instead_of_the_old_one(
        ros: RosGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = (CORPUS_DIR / 'pybullet_data' / robot
                     for robot in ('duck_vhacd.urdf', 'kuka_iiwa/model.urdf'))
    node, xml = _published(ros, monkeypatch, PACKAGE_PATHS, model=str(first))
    received = ros.subscribe(String, 'robot_description', qos.LATCHED_DESCRIPTION)
    assert node.set_parameters([Parameter('model', value=str(second))])[0].successful
    assert wait_for(lambda: received.messages and received.last.data != xml)
    new = received.last.data
    assert wait_for(lambda: node.get_parameter('robot_description').value == new)
    client = ros.probe.create_client(GetResource, node._resources.service_name)
    for old_mesh, new_mesh in zip(_meshes(load_string(xml, '<old>')),
                                  _meshes(load_string(new, '<new>'))):
        assert _call(ros, client, new_mesh.filename.partition(':')[2].partition(':')[2]) \
            .status_code == GetResource.Response.OK
        old_path = old_mesh.filename.partition(':')[2].partition(':')[2]
        if old_path not in new:
            assert _call(ros, client, old_path).status_code == GetResource.Response.ERROR
