"""
Collision meshes as simulators use them (``core/checks/rules/collision_meshes.py``) and MuJoCo.

Meshes are written here with volumes and hulls known by construction: boxes (a 0.1 m cube, one
inside out, one open), a U-channel of three boxes, a flat quad, one triangle, STL files of 0,
200,000 and 200,001 triangles, an ASCII STL. The installed MuJoCo (4.0.0) loads a one-link URDF
with each as its collision: every refusal the rules predict is MuJoCo's, with its message, and
MuJoCo refuses nothing else of them (3.3.0 and 3.2.7 were asked the same way by hand: only the
tiny volume differs, refused from 3.3). ``-m oracle``: the same for every collision mesh of
../shared, example-robot-data and pybullet_data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
import struct
import sys

import numpy as np
import oracles
from paths import REPO, ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES, SHARED_MODELS
import pytest

from conftest import missing

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.checks.rules import collision_meshes as rules
from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.meshes import solids
from urdf_tools_ros.core.model.robot import Mesh
from urdf_tools_ros.core.source.loader import load

NO_HULL = missing('manifold3d')
NO_MUJOCO = missing('mujoco')
MUJOCO_CODES = (rules.STL_ASCII, rules.STL_TRIANGLES, rules.NOT_FINITE_VERTEX, rules.FLAT,
                rules.VOLUME_TINY)
#: What MuJoCo says when it refuses a mesh for the reason of each rule.
MUJOCO_SAYS = {
    rules.STL_ASCII: ('number of faces should be between 1 and 200000', 'has wrong size',
                      'is empty'),
    rules.STL_TRIANGLES: ('number of faces should be between 1 and 200000',),
    rules.NOT_FINITE_VERTEX: ('is not finite', 'exceeds maximum bounds'),
    rules.FLAT: ('coplanar vertices', 'collinear vertices', 'colocated vertices',
                 'at least 4 vertices required', 'qhull error'),
    rules.VOLUME_TINY: ('mesh volume is too small', 'mesh surface area is too small'),
}
#: Corner indices (bit 0: x, 1: y, 2: z) of each side of a box, counter-clockwise outside.
SIDES = ((0, 4, 6, 2), (1, 3, 7, 5), (0, 1, 5, 4), (2, 6, 7, 3), (0, 2, 3, 1), (4, 5, 7, 6))


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / 'xdg-cache'
    monkeypatch.setenv('XDG_CACHE_HOME', str(home))
    return home


def box_corners(lower: tuple[float, ...], upper: tuple[float, ...]) -> np.ndarray:
    """The 8 corners of a box, (8, 3), corner ``i`` at ``upper`` along the axes of its bits."""
    return np.array([[(upper if i >> axis & 1 else lower)[axis] for axis in range(3)]
                     for i in range(8)], dtype=float)


def box(lower: tuple[float, ...], upper: tuple[float, ...]) -> np.ndarray:
    """The 12 triangles (12, 3, 3) of a box, facing out."""
    points = box_corners(lower, upper)
    return np.array([points[[a, b, c]] for a, b, c, d in SIDES for a, b, c in
                     ((a, b, c), (a, c, d))])


def binary_stl(triangles: np.ndarray, count: int | None = None) -> bytes:
    """A binary STL of ``triangles`` (T, 3, 3); ``count`` replaces the header's count."""
    rows = np.zeros(len(triangles), dtype=[('normal', '<f4', (3,)), ('vertices', '<f4', (3, 3)),
                                           ('attribute', '<u2')])
    rows['vertices'] = triangles
    header = struct.pack('<I', len(triangles) if count is None else count)
    return b'binary'.ljust(80, b' ') + header + rows.tobytes()


def ascii_stl(triangles: np.ndarray) -> bytes:
    facets = ''.join('facet normal 0 0 0\nouter loop\n' + ''.join(
        f'vertex {x!r} {y!r} {z!r}\n' for x, y, z in triangle) + 'endloop\nendfacet\n'
        for triangle in triangles.tolist())
    return f'solid s\n{facets}endsolid s\n'.encode()


CUBE = box((0, 0, 0), (0.1, 0.1, 0.1))
#: Three disjoint boxes: a 1 x 1 x 0.1 base and two walls 0.1 thick from z = 0.2 to 1. Volume
#: 0.1 + 2 x 0.08 = 0.26 m³; its hull is the unit cube.
CHANNEL = np.concatenate([box((0, 0, 0), (1, 1, 0.1)), box((0, 0, 0.2), (0.1, 1, 1)),
                          box((0.9, 0, 0.2), (1, 1, 1))])
QUAD = np.array([[(0, 0, 0.5), (1, 0, 0.5), (1, 1, 0.5)], [(0, 0, 0.5), (1, 1, 0.5), (0, 1, 0.5)]])


def many(count: int) -> np.ndarray:
    """``count`` triangles: a cube's first (in x = 0) moved 1 mm along x each time, not flat."""
    offsets = np.arange(count, dtype=float)[:, None, None] * np.array([1e-3, 0, 0])
    return np.broadcast_to(CUBE[:1], (count, 3, 3)) + offsets


def obj(*objects: np.ndarray) -> bytes:
    """An OBJ file of the triangles (T, 3, 3) of each object, one ``o`` line each."""
    lines, count = [], 0
    for index, triangles in enumerate(objects):
        lines.append(f'o part{index}')
        lines += [f'v {x!r} {y!r} {z!r}' for x, y, z in triangles.reshape(-1, 3).tolist()]
        lines += [f'f {count + 3 * i + 1} {count + 3 * i + 2} {count + 3 * i + 3}'
                  for i in range(len(triangles))]
        count += 3 * len(triangles)
    return '\n'.join(lines).encode() + b'\n'


#: name: (file name, bytes, scale, MuJoCo codes (error for --target mujoco), the others).
CASES: dict[str, tuple[str, bytes, str, set[str], set[str]]] = {
    'cube': ('cube.stl', binary_stl(CUBE), '1 1 1', set(), set()),
    'cube-ascii': ('ascii.stl', ascii_stl(CUBE), '1 1 1', {rules.STL_ASCII}, set()),
    'empty-file': ('empty.STL', b'', '1 1 1', {rules.STL_ASCII}, set()),
    'no-triangle': ('none.stl', binary_stl(CUBE[:0]), '1 1 1', {rules.STL_TRIANGLES}, set()),
    '200000': ('max.stl', binary_stl(many(200_000)), '1 1 1', set(), {rules.HEAVY}),
    '200001': ('over.stl', binary_stl(many(200_001)), '1 1 1', {rules.STL_TRIANGLES},
               {rules.HEAVY}),
    'nan-vertex': ('nan.stl', binary_stl(CUBE * [1, 1, np.nan]), '1 1 1',
                   {rules.NOT_FINITE_VERTEX}, set()),
    'quad': ('quad.stl', binary_stl(QUAD), '1 1 1', {rules.FLAT}, set()),
    'triangle': ('triangle.stl', binary_stl(QUAD[:1]), '1 1 1', {rules.FLAT}, set()),
    'collinear': ('line.stl', binary_stl(np.array([[(0, 0, 0), (1, 0, 0), (2, 0, 0)],
                                                   [(1, 0, 0), (3, 0, 0), (2, 0, 0)]])),
                  '1 1 1', {rules.FLAT}, set()),
    'cube-1e-5': ('cube.stl', binary_stl(CUBE), '1e-5 1e-5 1e-5', {rules.VOLUME_TINY}, set()),
    'cube-1e-4': ('cube.stl', binary_stl(CUBE), '1e-4 2e-4 1e-4', set(), set()),  # 2e-15 m³
    'thin-plate': ('plate.stl', binary_stl(box((0, 0, 0), (0.1, 0.1, 1e-9))), '1 1 1', set(),
                   set()),
    'thin-plate-mm': ('plate.stl', binary_stl(box((0, 0, 0), (0.1, 0.1, 1e-9))),
                      '0.001 0.001 0.001', {rules.VOLUME_TINY}, set()),
    'channel': ('channel.stl', binary_stl(CHANNEL), '1 1 1', set(), {rules.CONCAVE}),
    # MuJoCo reads an OBJ file's first object: a flat cap first has no volume, a cube has
    'obj-quad-then-cube': ('parts.obj', obj(QUAD, CUBE), '1 1 1', {rules.VOLUME_TINY}, set()),
    'obj-cube-then-quad': ('parts.obj', obj(CUBE, QUAD + 1), '1 1 1', set(), set()),
}


def one_link(folder: Path, mesh: str, scale: str = '1 1 1', visual: bool = True) -> Path:
    """A URDF of one link with ``mesh`` as its collision (and its visual) beside it."""
    geometry = f'<geometry><mesh filename="{mesh}" scale="{scale}"/></geometry>'
    path = folder / 'robot.urdf'
    path.write_text(
        '<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1e-3" ixy="0" '
        'ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial>'
        + (f'<visual>{geometry}</visual>' if visual else '')
        + f'<collision>{geometry}</collision></link></robot>', encoding='utf-8')
    return path


def case_file(folder: Path, name: str) -> Path:
    filename, content, scale, _, _ = CASES[name]
    (folder / filename).write_bytes(content)
    return one_link(folder, filename, scale)


def codes_by_severity(path: Path, target: str) -> dict[str, Severity]:
    return {finding.code: finding.severity for finding in check_description(load(path), target)
            if finding.code.startswith('collision-mesh-')}


@pytest.mark.parametrize('name', sorted(CASES))
def test_each_case_gives_its_findings(name: str, tmp_path: Path) -> None:
    path = case_file(tmp_path, name)
    _, _, _, refused, others = CASES[name]
    if NO_HULL is not None:
        others = others - {rules.CONCAVE}
    # MuJoCo's refusals are errors for its target and infos for ROS, whose tools read the file
    # (a NaN vertex: a warning, whatever reads it)
    ros = {code: Severity.WARNING if code == rules.NOT_FINITE_VERTEX else Severity.INFO
           for code in refused | others}
    assert codes_by_severity(path, 'mujoco') == {**ros, **dict.fromkeys(refused, Severity.ERROR)}
    assert codes_by_severity(path, 'ros-jazzy') == ros


@pytest.mark.skipif(NO_HULL is not None, reason=str(NO_HULL))
def test_a_hollow_mesh_says_how_much_of_its_hull_it_fills(tmp_path: Path) -> None:
    (finding,) = [f for f in check_description(load(case_file(tmp_path, 'channel')))
                  if f.code == rules.CONCAVE]
    assert 'fills 26% of its convex hull' in finding.message  # 0.26 m³ of 1 m³
    assert 'Gazebo keeps the triangles' in finding.message
    assert finding.element == 'link:a' and finding.location is not None


def test_without_manifold3d_no_hull_is_measured_nor_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solids, 'hulls_measured', lambda: False)
    path = case_file(tmp_path, 'channel')
    assert rules.CONCAVE not in codes_by_severity(path, 'ros')


@pytest.mark.parametrize('triangles, reused, heavy', [
    (10_001, True, True), (10_000, True, False), (10_001, False, False)])
def test_a_collision_reusing_a_heavy_visual_mesh(triangles: int, reused: bool, heavy: bool,
                                                 tmp_path: Path) -> None:
    (tmp_path / 'part.stl').write_bytes(binary_stl(many(triangles)))
    path = one_link(tmp_path, 'part.stl', visual=reused)
    findings = [f for f in check_description(load(path)) if f.code == rules.HEAVY]
    assert len(findings) == heavy
    if heavy:
        assert '10,001 triangles' in findings[0].message


def test_a_mesh_shared_by_two_collisions_of_a_link_is_reported_once(tmp_path: Path) -> None:
    (tmp_path / 'quad.stl').write_bytes(binary_stl(QUAD))
    path = one_link(tmp_path, 'quad.stl')
    text = path.read_text(encoding='utf-8')
    collision = text[text.index('<collision>'):text.index('</collision>') + 12]
    path.write_text(text.replace(collision, collision * 2), encoding='utf-8')
    assert [f.code for f in check_description(load(path), 'mujoco')
            if f.code.startswith('collision-mesh-')] == [rules.FLAT]


def mujoco_disagreement(path: Path, package_paths: dict[str, str] | None = None) -> str | None:
    """
    How MuJoCo and the rules disagree on a one-link URDF, or ``None`` when they agree.

    They agree when the rules predict no refusal and MuJoCo says none of the rules' messages,
    or predict one and MuJoCo refuses with the message of that rule.
    """
    predicted = [code for code, severity in codes_by_severity(path, 'mujoco').items()
                 if severity is Severity.ERROR]
    assert set(predicted) <= set(MUJOCO_CODES)
    verdict = oracles.mujoco(path, package_paths)
    assert verdict is not None
    said = [code for code in MUJOCO_CODES if not verdict.loaded
            and any(text in verdict.message for text in MUJOCO_SAYS[code])]
    if not predicted and not said:
        return None
    if predicted and not verdict.loaded and set(predicted) & set(said):
        return None
    return f'predicted {predicted}, MuJoCo: {verdict.loaded} {verdict.message[:200]}'


@pytest.mark.skipif(NO_MUJOCO is not None, reason=str(NO_MUJOCO))
@pytest.mark.parametrize('name', sorted(CASES))
def test_mujoco_refuses_exactly_what_the_rules_predict(name: str, tmp_path: Path) -> None:
    path = case_file(tmp_path, name)
    assert mujoco_disagreement(path) is None
    verdict = oracles.mujoco(path)
    assert verdict is not None and verdict.loaded == (not CASES[name][3])


def _descriptions(corpus: str) -> Iterator[tuple[Path, dict[str, str], dict[str, str]]]:
    """``(file, xacro arguments, package paths)`` of every description of ``corpus``."""
    if corpus == 'shared':
        for path in sorted(SHARED_MODELS.rglob('*')) if SHARED_MODELS.is_dir() else ():
            if path.is_file() and path.name.endswith(('.urdf', '.xacro')):
                yield path, {}, {}
        for case in ROS2_CASES.values():
            args = dict(item.split(':=', 1) for item in case['args'])
            yield ROS2_DESCRIPTIONS / case['entry'], args, dict(ROS2_PACKAGES)
        return
    sys.path.insert(0, str(REPO / 'bench'))
    try:
        from corpus_sweep import description_files, package_root
    finally:
        sys.path.remove(str(REPO / 'bench'))
    try:
        root, paths = package_root(corpus)
    except (ImportError, FileNotFoundError) as exc:
        pytest.skip(f'{corpus}: {exc}')
    for path in description_files(root):
        yield path, {}, paths


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.skipif(NO_MUJOCO is not None, reason=str(NO_MUJOCO))
@pytest.mark.parametrize('corpus, least', [
    ('shared', 30), ('example-robot-data', 200), ('pybullet_data', 900)])
def test_mujoco_agrees_on_every_collision_mesh_of_a_corpus(corpus: str, least: int,
                                                           tmp_path: Path) -> None:
    """
    Each collision mesh MuJoCo opens, with its scale, alone in a one-link URDF.

    And each ``.urdf`` robot the rules say MuJoCo refuses for a mesh, whole: with that message.
    """
    meshes: set[tuple[str, str]] = set()
    wrong = []
    for path, args, paths in _descriptions(corpus):
        try:
            description = load(path, xacro_args=args, package_paths=paths)
        except RobotDescriptionError:
            continue
        robot = description.robot
        predicted = {f.code for f in check_description(description, 'mujoco')
                     if f.code in MUJOCO_CODES and f.severity is Severity.ERROR}
        verdict = oracles.mujoco(path, paths) if predicted and path.suffix == '.urdf' else None
        if verdict is not None and (verdict.loaded or not any(
                text in verdict.message for code in predicted for text in MUJOCO_SAYS[code])):
            wrong.append(f'{path}: predicted {sorted(predicted)}, MuJoCo: {verdict}')
        meshes.update((element.geometry.resolved, ' '.join(map(repr, element.geometry.scale)))
                      for link in robot.links for element in link.collisions
                      if isinstance(element.geometry, Mesh) and element.geometry.resolved
                      and Path(element.geometry.resolved).suffix.lower() in ('.stl', '.obj')
                      and Path(element.geometry.resolved).is_file())
    if corpus == 'shared' and not meshes:
        pytest.skip('../shared is not here')
    assert len(meshes) >= least
    for index, (mesh, scale) in enumerate(sorted(meshes)):
        folder = tmp_path / str(index)
        folder.mkdir()
        disagreement = mujoco_disagreement(one_link(folder, mesh, scale, visual=False))
        if disagreement is not None:
            wrong.append(f'{mesh} scale {scale}: {disagreement}')
    assert wrong == []
