"""
The files a description references, as the mesh server serves them (no ROS needed).

Real robots of ``test/corpus`` (meshes, material libraries, textures) are served with the bytes
on disk and etags; each refusal has its reason; the rewritten description is the same robot.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
import shutil
import sysconfig

from corpus_models import CORPUS_DIR, PACKAGE_PATHS
import pytest

from urdf_tools_ros.core.meshes.resources import (MAX_RESOURCE_BYTES, ResourceIndex,
                                                  ResourceStatus, rewrite_urls)
from urdf_tools_ros.core.model.robot import Mesh
from urdf_tools_ros.core.source.loader import load, load_string
from urdf_tools_ros.core.source.packages import draw_path

ROBOTS = {
    'pr2 (STL)': 'example-robot-data/robots/pr2_description/urdf/pr2.urdf',
    'hyq (COLLADA)': 'example-robot-data/robots/hyq_description/robots/hyq_no_sensors.urdf',
    'laikago (OBJ + MTL)': 'example-robot-data/robots/laikago_description/urdf/laikago.urdf',
    'duck (OBJ, MTL, PNG texture)': 'pybullet_data/duck_vhacd.urdf',
    'kuka iiwa (relative paths)': 'pybullet_data/kuka_iiwa/model.urdf',
}
SERVICE = '/robot1/robot_description_publisher/resource_provider'
#: The share folder of the PyPI package example-robot-data (a cmeel wheel), where installed.
ERD_SHARE = Path(sysconfig.get_paths()['purelib']) / 'cmeel.prefix' / 'share' / \
    'example-robot-data'
ERD_ROBOTS = sorted(ERD_SHARE.glob('robots/**/*.urdf'))


def _meshes(description) -> list[Mesh]:
    return [element.geometry for link in description.robot.links
            for element in (*link.visuals, *link.collisions)
            if isinstance(element.geometry, Mesh)]


def _kinematics(joint) -> tuple:
    return (joint.name, joint.joint_type, joint.parent, joint.child, joint.origin.xyz,
            joint.origin.rpy, joint.axis, joint.limit, joint.mimic)


def plugin_accepts(url: str) -> bool:
    """``RosServiceResourceRetriever::can_handle`` (resource_retriever_service_plugin)."""
    prefix = 'service://'
    if not url.startswith(prefix):
        return False
    colon = url.find(':', len(prefix))
    return colon > len(prefix) and url.find(':', colon + 1) == -1


@pytest.fixture(params=list(ROBOTS.values()), ids=list(ROBOTS))
def robot(request: pytest.FixtureRequest):
    return load(CORPUS_DIR / request.param, package_paths=PACKAGE_PATHS)


def test_every_file_of_a_real_robot_is_served_with_its_bytes_and_etag(robot) -> None:
    index = ResourceIndex.of(robot)
    meshes = {draw_path(mesh.filename, mesh.resolved, robot.locate) for mesh in _meshes(robot)}
    served = {os.path.normpath(resource.file) for resource in index}
    assert {os.path.normpath(path) for path in meshes} <= served
    for resource in index:
        reply = index.get(resource.path)
        data = Path(resource.file).read_bytes()
        assert (reply.status, reply.body, reply.error_reason) == (ResourceStatus.OK, data, '')
        assert reply.etag == hashlib.sha256(data).hexdigest()
        again = index.get(resource.path, reply.etag)
        assert (again.status, again.body, again.etag) == \
            (ResourceStatus.NOT_MODIFIED, b'', reply.etag)


@pytest.mark.skipif(not ERD_ROBOTS, reason=f'example-robot-data is not installed ({ERD_SHARE})')
def test_every_file_of_every_example_robot_data_robot_is_served_or_refused_as_missing() -> None:
    served = refused = 0
    for urdf in ERD_ROBOTS:
        description = load(urdf, package_paths={'example-robot-data': str(ERD_SHARE)})
        index = ResourceIndex.of(description)
        for mesh in _meshes(description):
            assert index.lookup(mesh.filename, as_written=True)
        for resource in index:
            reply = index.get(resource.path)
            if os.path.isfile(resource.file):
                assert reply.body == Path(resource.file).read_bytes(), resource
                served += 1
            else:  # an OBJ naming a .mtl the package does not ship; /usr/Romeo/... paths
                assert 'No such file' in reply.error_reason, resource
                refused += 1
    assert served > 10 * refused


def test_material_libraries_and_textures_are_served_beside_their_mesh() -> None:
    description = load(CORPUS_DIR / ROBOTS['duck (OBJ, MTL, PNG texture)'])
    names = {Path(resource.file).name for resource in ResourceIndex.of(description)}
    assert {'duck.mtl', 'duckCM.png'} <= names  # duck.obj -> mtllib duck.mtl -> map_Kd
    laikago = load(CORPUS_DIR / ROBOTS['laikago (OBJ + MTL)'], package_paths=PACKAGE_PATHS)
    index = ResourceIndex.of(laikago)
    for mesh in _meshes(laikago):
        library = Path(mesh.resolved).with_suffix('.mtl')
        assert index.get(index.lookup(mesh.filename, as_written=True).path[:-4] + '.mtl').body \
            == library.read_bytes()


def _package(tmp_path: Path, name: str = 'bot') -> Path:
    share = tmp_path / 'share' / name
    (share / 'meshes').mkdir(parents=True)
    (share / 'package.xml').write_text(f'<package format="3"><name>{name}</name></package>')
    shutil.copy(CORPUS_DIR / 'pybullet_data' / 'cube.obj', share / 'meshes' / 'base.obj')
    (share / 'meshes' / 'base.mtl').write_text('newmtl a\nmap_Kd ../textures/skin.png\n')
    (share / 'textures').mkdir()
    (share / 'textures' / 'skin.png').write_bytes(b'\x89PNG not really')
    (share / 'secret.txt').write_text('not referenced')
    return share


def _robot(share: Path, *filenames: str):
    links = ''.join(f'<link name="l{i}"><visual><geometry><mesh filename="{name}"/></geometry>'
                    f'</visual></link>' for i, name in enumerate(filenames))
    joints = ''.join(f'<joint name="j{i}" type="fixed"><parent link="l0"/><child link="l{i}"/>'
                     '</joint>' for i in range(1, len(filenames)))
    xml = f'<robot name="r">{links}{joints}</robot>'
    return load_string(xml, str(share / 'robot.urdf'), package_paths={share.name: str(share)})


def test_cube_obj_names_its_material_library(tmp_path: Path) -> None:
    share = _package(tmp_path)
    (share / 'meshes' / 'base.obj').write_text('mtllib base.mtl\nv 0 0 0\n')
    index = ResourceIndex.of(_robot(share, 'package://bot/meshes/base.obj'))
    assert sorted(resource.path for resource in index) == [
        'package/bot/meshes/base.mtl', 'package/bot/meshes/base.obj',
        'package/bot/textures/skin.png']
    # RViz asks for a texture at <dir of the mesh URL>/<name as the file writes it>
    assert index.get('package/bot/meshes/../textures/skin.png').body == b'\x89PNG not really'
    assert index.get('package://bot/meshes/../textures/skin.png', as_written=True).status \
        is ResourceStatus.OK


def test_collada_images_are_served_and_surface_ids_are_not_files(tmp_path: Path) -> None:
    share = _package(tmp_path)
    (share / 'meshes' / 'part.dae').write_text(
        '<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">'
        '<library_images><image id="skin_img"><init_from>../textures/skin%2Epng</init_from>'
        '</image></library_images><library_effects><effect id="e"><profile_COMMON>'
        '<newparam sid="s"><surface type="2D"><init_from>skin_img</init_from></surface>'
        '</newparam></profile_COMMON></effect></library_effects></COLLADA>')
    index = ResourceIndex.of(_robot(share, 'package://bot/meshes/part.dae'))
    assert sorted(resource.path for resource in index) == [
        'package/bot/meshes/part.dae', 'package/bot/textures/skin.png']


#: Meshes of :func:`_refused_robot` and the reason each is refused with.
REFUSED = [('package/bot/secret.txt', 'not a file of the robot description'),
           ('package/bot/meshes/../../../../etc/passwd', "'..'"),
           ('file/etc/passwd', 'not a file of the robot description'),
           ('package/bot/meshes/link.stl', 'outside its package'),
           ('package/bot/meshes/huge.stl', 'over the 64 MiB limit'),
           ('package/bot/meshes/folder.stl', 'cannot read'),
           ('package/bot/meshes/missing.stl', 'No such file')]


def _refused_robot(tmp_path: Path):
    """A robot of package ``bot`` whose meshes are refused for each reason of :data:`REFUSED`."""
    share = _package(tmp_path)
    outside = tmp_path / 'outside.stl'
    outside.write_bytes(b'solid outside')
    (share / 'meshes' / 'link.stl').symlink_to(outside)
    (share / 'meshes' / 'huge.stl').touch()
    os.truncate(share / 'meshes' / 'huge.stl', MAX_RESOURCE_BYTES + 1)
    (share / 'meshes' / 'folder.stl').mkdir()
    return _robot(share, 'package://bot/meshes/base.obj', 'package://bot/meshes/link.stl',
                  'package://bot/meshes/huge.stl', 'package://bot/meshes/folder.stl',
                  'package://bot/meshes/missing.stl')


def test_refusals_name_their_reason(tmp_path: Path) -> None:
    index = ResourceIndex.of(_refused_robot(tmp_path))
    outside = tmp_path / 'outside.stl'

    def reason(path: str) -> str:
        reply = index.get(path)
        assert (reply.status, reply.body) == (ResourceStatus.ERROR, b'')
        return reply.error_reason

    for path, words in [*REFUSED, ('package/bot/package.xml', 'not a file of the robot'),
                        ('package/bot/../bot/secret.txt', "'..'")]:
        assert words in reason(path), path
    assert reason('') == 'empty path'
    assert f'symbolic link to {outside}, outside its package' in reason(
        'package/bot/meshes/link.stl')
    assert f'{MAX_RESOURCE_BYTES + 1} bytes (64.0 MiB), over the 64 MiB limit' in reason(
        'package/bot/meshes/huge.stl')
    assert index.get('package/bot/meshes/base.obj').status is ResourceStatus.OK


def test_a_symlink_install_serves_files_linked_into_the_source_package(tmp_path: Path) -> None:
    source = _package(tmp_path / 'src')
    share = tmp_path / 'install' / 'share' / 'bot'
    for path in sorted(source.rglob('*')):  # colcon build --symlink-install
        target = share / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(path)
    index = ResourceIndex.of(_robot(share, 'package://bot/meshes/base.obj'))
    assert index.get('package/bot/meshes/base.obj').body == \
        (source / 'meshes' / 'base.obj').read_bytes()


def test_a_changed_file_gets_a_new_etag_and_its_new_bytes(tmp_path: Path) -> None:
    share = _package(tmp_path)
    index = ResourceIndex.of(_robot(share, 'package://bot/meshes/base.obj'))
    first = index.get('package/bot/meshes/base.obj')
    (share / 'meshes' / 'base.obj').write_text('v 1 2 3\n')
    second = index.get('package/bot/meshes/base.obj', first.etag)
    assert second.status is ResourceStatus.OK and second.body == b'v 1 2 3\n'
    assert second.etag != first.etag


def test_the_rewritten_description_is_the_same_robot_with_plugin_urls(robot) -> None:
    index = ResourceIndex.of(robot)
    urls = index.urls(SERVICE)
    # loaded elsewhere on this machine, each mesh resolves to the file it was drawn from
    rewritten = load_string(rewrite_urls(robot.xml, urls), str(CORPUS_DIR / 'elsewhere.urdf'),
                            package_paths=PACKAGE_PATHS)
    assert [link.name for link in rewritten.robot.links] == \
        [link.name for link in robot.robot.links]
    assert [_kinematics(joint) for joint in rewritten.robot.joints] == \
        [_kinematics(joint) for joint in robot.robot.joints]
    before, after = _meshes(robot), _meshes(rewritten)
    assert [mesh.scale for mesh in after] == [mesh.scale for mesh in before]
    for old, new in zip(before, after):
        assert plugin_accepts(new.filename), new.filename
        name, _, path = new.filename[len('service://'):].partition(':')
        assert name == SERVICE
        drawn = draw_path(old.filename, old.resolved, robot.locate)
        assert index.get(path).body == Path(drawn).read_bytes()
        assert os.path.normpath(new.resolved) == os.path.normpath(drawn)
    assert not any(plugin_accepts(url) for url in robot.xml.split('"'))


def test_a_path_with_a_colon_is_left_as_written(tmp_path: Path) -> None:
    share = _package(tmp_path)
    shutil.copy(share / 'meshes' / 'base.obj', share / 'meshes' / 'a:b.obj')
    index = ResourceIndex.of(_robot(share, 'package://bot/meshes/a:b.obj'))
    assert index.get('package/bot/meshes/a:b.obj').status is ResourceStatus.OK
    assert 'package://bot/meshes/a:b.obj' not in index.urls(SERVICE)


def test_the_viewer_draws_each_mesh_from_the_file_the_server_serves(robot) -> None:
    from urdf_tools_ros.gui.meshes import MeshCache
    from urdf_tools_ros.gui.scene import RobotScene

    class Recording(MeshCache):
        def __init__(self) -> None:
            super().__init__()
            self.paths: set[str] = set()

        def load(self, path: str, scale=(1.0, 1.0, 1.0)):
            self.paths.add(os.path.normpath(os.path.abspath(path)))
            return super().load(path, scale)

    class Scene:
        def __getattr__(self, kind: str) -> object:
            return lambda *args, **kwargs: type('Node', (), {'remove': lambda self: None})()

    cache = Recording()
    RobotScene(Scene(), robot.robot, mesh_cache=cache, locate=robot.locate)
    index = ResourceIndex.of(robot)
    assert cache.paths and cache.paths <= {resource.file for resource in index}
    for path in cache.paths:
        resource = next(item for item in index if item.file == path)
        assert index.get(resource.path).body == Path(path).read_bytes()
