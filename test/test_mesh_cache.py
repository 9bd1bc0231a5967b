"""
Mesh facts kept on disk between checks (``core/meshes/cache.py``, ``--no-cache``).

Each test has a cache folder of its own and counts the files ``read_mesh_facts`` measures.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import REPO

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.meshes import cache as mesh_cache
from urdf_tools_ros.core.meshes import facts as mesh_facts
from urdf_tools_ros.core.meshes import solids
from urdf_tools_ros.core.meshes.cache import cache_directory, MeshFactsCache
from urdf_tools_ros.core.meshes.facts import MeshFacts, read_mesh_facts
from urdf_tools_ros.core.source.loader import load_string

SAMPLE = REPO / 'urdf' / 'meshes'
#: The cache file here: another one where manifold3d, which measures convex hulls, is missing.
FILENAME = MeshFactsCache(Path('.')).path.name


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / 'xdg-cache'
    monkeypatch.setenv('XDG_CACHE_HOME', str(home))
    return home


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the mesh files measured, in order."""
    done: list[str] = []

    def counting(path: str, solid: bool = False) -> MeshFacts:
        done.append(os.path.realpath(path))
        return read_mesh_facts(path, solid)
    monkeypatch.setattr(mesh_facts, 'read_mesh_facts', counting)
    return done


def _meshes(tmp_path: Path, *names: str) -> list[Path]:
    """Copies of sample meshes in ``tmp_path`` (so that a test may touch them)."""
    copies = []
    for name in names:
        copy = tmp_path / name
        shutil.copyfile(SAMPLE / name, copy)
        copies.append(copy)
    return copies


def _robot_text(*meshes: Path) -> str:
    links = ''.join(f'<link name="l{index}"><visual><geometry><mesh filename="file://{mesh}" '
                    'scale="1000 1000 1000"/></geometry></visual></link>'
                    for index, mesh in enumerate(meshes))
    joints = ''.join(f'<joint name="j{index}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{index}"/><origin xyz="0 0 {index * 0.1}"/></joint>'
                     for index in range(1, len(meshes)))
    return f'<robot name="r">{links}{joints}</robot>'


def _codes(text: str, use_cache: bool = True) -> list[str]:
    return [finding.code for finding in check_description(load_string(text),
                                                          use_cache=use_cache)]


def test_a_second_check_of_an_unchanged_robot_reads_no_mesh(
        tmp_path: Path, cache_home: Path, reads: list[str]) -> None:
    meshes = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    text = _robot_text(*meshes)
    first = _codes(text)
    assert sorted(reads) == sorted(str(mesh) for mesh in meshes)
    assert first.count('mesh-scale-suspect') == 2
    mesh_cache._SHARED.clear()  # as a new process: the entries come from the file
    assert _codes(text) == first
    assert len(reads) == 2
    assert (cache_home / 'urdf-tools' / FILENAME).is_file()


def test_a_touched_or_edited_mesh_is_read_again(tmp_path: Path, cache_home: Path,
                                                reads: list[str]) -> None:
    stl, obj = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    text = _robot_text(stl, obj)
    first = _codes(text)
    status = stl.stat()
    os.utime(stl, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))
    assert _codes(text) == first
    assert reads[2:] == [str(stl)]
    obj.write_text(obj.read_text(encoding='utf-8').replace('v ', 'v 0.0001 ', 1) + '\n',
                   encoding='utf-8')  # another size
    _codes(text)
    assert reads[3:] == [str(obj)]
    _codes(text)
    assert len(reads) == 4


def test_no_cache_reads_every_mesh_and_writes_nothing(tmp_path: Path, cache_home: Path,
                                                      reads: list[str]) -> None:
    meshes = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    text = _robot_text(*meshes)
    assert _codes(text, use_cache=False) == _codes(text, use_cache=False)
    assert len(reads) == 4
    assert not cache_home.exists()


def test_the_cli_no_cache_flag(tmp_path: Path, cache_home: Path) -> None:
    robot = tmp_path / 'robot.urdf'
    robot.write_text(_robot_text(*_meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')),
                     encoding='utf-8')
    command = [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', str(robot),
               '--format', 'json']
    env = dict(os.environ, PYTHONPATH=str(REPO))
    outputs = []
    for extra in (['--no-cache'], []):
        done = subprocess.run(command + extra, cwd=REPO, capture_output=True, text=True,
                              timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
        assert (cache_home / 'urdf-tools').exists() == (not extra)
    assert outputs[0] == outputs[1]
    assert 'mesh-scale-suspect' in json.dumps(outputs[0])


def test_the_cache_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'xdg'))
    assert cache_directory() == tmp_path / 'xdg' / 'urdf-tools'
    monkeypatch.setenv('HOME', str(tmp_path / 'home'))
    for value in ('', 'relative/cache'):  # the spec: a relative path is ignored
        monkeypatch.setenv('XDG_CACHE_HOME', value)
        assert cache_directory() == tmp_path / 'home' / '.cache' / 'urdf-tools'
    monkeypatch.delenv('XDG_CACHE_HOME')
    assert cache_directory() == tmp_path / 'home' / '.cache' / 'urdf-tools'


def test_the_size_bound_evicts_the_least_recently_used(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       reads: list[str]) -> None:
    clock = iter(range(1_000, 2_000))
    monkeypatch.setattr(mesh_cache.time, 'time', lambda: float(next(clock)))
    first, second = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    third = tmp_path / 'third.stl'
    shutil.copyfile(first, third)
    cache = MeshFactsCache(tmp_path / 'cache', max_entries=2)
    cache.facts(str(first))
    cache.facts(str(second))
    cache.facts(str(first))  # kept: refreshed only once a day (the clock moves a second)
    cache.facts(str(third))
    with sqlite3.connect(str(cache.path)) as connection:
        kept = sorted(row[0] for row in connection.execute('SELECT path FROM facts'))
    assert kept == sorted([str(second), str(third)])
    del reads[:]
    cache.facts(str(third))
    assert reads == []
    cache.facts(str(first))
    assert reads == [str(first)]


def test_a_corrupt_cache_is_remade(tmp_path: Path, reads: list[str]) -> None:
    (stl,) = _meshes(tmp_path, 'beacon.stl')
    folder = tmp_path / 'cache'
    folder.mkdir()
    (folder / FILENAME).write_bytes(b'this is not a database' * 100)
    expected = read_mesh_facts(str(stl))
    assert MeshFactsCache(folder).facts(str(stl)) == expected
    assert MeshFactsCache(folder).facts(str(stl)) == expected
    assert len(reads) == 1
    with sqlite3.connect(str(folder / FILENAME)) as connection:
        assert connection.execute('PRAGMA integrity_check').fetchone() == ('ok',)
        # an entry that is not ours is read again and replaced
        connection.execute("UPDATE facts SET facts = '[1, 2]'")
    assert MeshFactsCache(folder).facts(str(stl)) == expected
    assert MeshFactsCache(folder).facts(str(stl)) == expected
    assert len(reads) == 2


def test_an_unusable_cache_folder_is_no_error(tmp_path: Path, reads: list[str]) -> None:
    (stl,) = _meshes(tmp_path, 'beacon.stl')
    blocker = tmp_path / 'a-file'
    blocker.write_text('')
    cache = MeshFactsCache(blocker / 'cache')  # its parent is a file: no folder, no cache
    assert cache.facts(str(stl)) == cache.facts(str(stl)) == read_mesh_facts(str(stl))
    assert len(reads) == 2


_CHECK = ('import sys\n'
          'from urdf_tools_ros.core.checks import check_description\n'
          'from urdf_tools_ros.core.meshes import facts as mesh_facts\n'
          'from urdf_tools_ros.core.source.loader import load\n'
          'read = []\n'
          'measure = mesh_facts.read_mesh_facts\n'
          'mesh_facts.read_mesh_facts = lambda path, solid=False: (read.append(path)\n'
          '                                                       or measure(path, solid))\n'
          'codes = sorted(f.code for f in check_description(load(sys.argv[1])))\n'
          'print(len(read), codes)\n')


def test_checks_at_once_share_the_cache(tmp_path: Path, cache_home: Path) -> None:
    names = ('beacon.stl', 'gripper_palm.obj')
    meshes: list[Path] = []
    for index in range(8):
        folder = tmp_path / f'm{index}'
        folder.mkdir()
        meshes.extend(_meshes(folder, *names))
    robot = tmp_path / 'robot.urdf'
    robot.write_text(_robot_text(*meshes), encoding='utf-8')
    env = dict(os.environ, PYTHONPATH=str(REPO))
    runs = [subprocess.Popen([sys.executable, '-c', _CHECK, str(robot)], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(3)]
    results = [run.communicate(timeout=180) + (run.returncode,) for run in runs]
    assert [(code, err) for _, err, code in results] == [(0, '')] * 3
    codes = {out.split(' ', 1)[1] for out, _, _ in results}
    assert len(codes) == 1 and 'mesh-scale-suspect' in codes.pop()
    with sqlite3.connect(str(cache_home / 'urdf-tools' / FILENAME)) as connection:
        assert connection.execute('PRAGMA integrity_check').fetchone() == ('ok',)
        kept = {row[0] for row in connection.execute('SELECT path FROM facts')}
    assert kept == {str(mesh) for mesh in meshes}
    again = subprocess.run([sys.executable, '-c', _CHECK, str(robot)], cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=180)
    assert again.stdout.split(' ', 1)[0] == '0'


def test_an_ignored_mesh_scale_rule_reads_no_mesh(tmp_path: Path, cache_home: Path,
                                                  reads: list[str]) -> None:
    # the pipeline runs no check that cannot report a wanted code: ignoring mesh-scale-suspect
    # reads no mesh and writes no cache; selecting it reads them
    text = _robot_text(*_meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj'))
    check_description(load_string(text), ignore=['mesh-scale-suspect'])
    assert reads == [] and not cache_home.exists()
    check_description(load_string(text))
    assert sorted(Path(path).name for path in reads) == ['beacon.stl', 'gripper_palm.obj']


def test_every_fact_comes_back_from_the_cache(tmp_path: Path, reads: list[str]) -> None:
    from test_collision_meshes import binary_stl, CHANNEL
    channel = tmp_path / 'channel.stl'
    channel.write_bytes(binary_stl(CHANNEL))
    for path in (str(channel), *map(str, _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj'))):
        measured = read_mesh_facts(path, solid=True)
        assert measured.solid is not None
        cache = MeshFactsCache(tmp_path / 'cache')
        assert cache.facts(path, solid=True) == measured
        assert MeshFactsCache(tmp_path / 'cache').facts(path, solid=True) == measured  # kept
        assert cache.facts(path) == measured
    assert len(reads) == 3


def test_a_solid_is_measured_the_first_time_it_is_asked_for(tmp_path: Path,
                                                            reads: list[str]) -> None:
    (path,) = map(str, _meshes(tmp_path, 'beacon.stl'))
    cache = MeshFactsCache(tmp_path / 'cache')
    assert cache.facts(path).solid is None and cache.facts(path).solid is None
    assert len(reads) == 1
    assert cache.facts(path, solid=True).solid == read_mesh_facts(path, solid=True).solid
    assert cache.facts(path).solid is not None and cache.facts(path, solid=True).solid
    assert len(reads) == 2


def test_facts_without_hulls_are_kept_apart_from_those_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str]) -> None:
    pytest.importorskip('manifold3d')
    from test_collision_meshes import binary_stl, CHANNEL
    path = tmp_path / 'channel.stl'
    path.write_bytes(binary_stl(CHANNEL))
    with monkeypatch.context() as without:  # manifold3d is not installed
        without.setattr(solids, 'hulls_measured', lambda: False)
        cache = MeshFactsCache(tmp_path / 'cache')
        assert cache.path.name == mesh_cache.FILENAME_NO_HULLS
        assert cache.facts(str(path), solid=True) == cache.facts(str(path), solid=True)
        solid = cache.facts(str(path), solid=True).solid
        assert solid is not None and solid.hull_volume is None and len(reads) == 1  # kept
    cache = MeshFactsCache(tmp_path / 'cache')  # manifold3d installed since
    assert cache.path.name == mesh_cache.FILENAME
    for _ in range(2):
        solid = cache.facts(str(path), solid=True).solid
        assert solid is not None and solid.hull_volume == pytest.approx(1.0)  # the unit cube
    assert len(reads) == 2


def test_no_cache_reads_a_visual_and_collision_mesh_once_a_check(tmp_path: Path,
                                                                 cache_home: Path,
                                                                 reads: list[str]) -> None:
    meshes = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    text = _robot_text(*meshes).replace('</visual>', '</visual><collision><geometry><mesh '
                                        'filename="{}"/></geometry></collision>')
    for mesh in meshes:
        text = text.replace('filename="{}"', f'filename="file://{mesh}"', 1)
    _codes(text, use_cache=False)  # mesh-scale-suspect and the collision mesh rules
    assert sorted(reads) == sorted(str(mesh) for mesh in meshes)


def test_a_check_measures_the_solid_of_collision_meshes_only(
        tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[int] = []
    measure = mesh_facts.measure
    monkeypatch.setattr(mesh_facts, 'measure', lambda points, *rest: (
        measured.append(len(points)) or measure(points, *rest)))
    beacon, palm = _meshes(tmp_path, 'beacon.stl', 'gripper_palm.obj')
    text = _robot_text(beacon, palm).replace(
        '</visual></link><link name="l1">',
        f'</visual><collision><geometry><mesh filename="file://{beacon}"/></geometry>'
        '</collision></link><link name="l1">')
    for use_cache in (False, True):
        del measured[:]
        _codes(text, use_cache)
        assert measured == [read_mesh_facts(str(beacon)).triangles * 3]  # an STL's vertices
