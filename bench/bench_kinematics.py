"""
Benchmark: forward kinematics of every link, ours beside pinocchio, urchin and yourdfpy.

For each shared model: one full-robot FK (µs, configuration given as an array), and batched FK of
N = 1,000 and 10,000 random configurations within limits (configurations/s, best of a few
runs). Ours: ``link_pose_batch`` with the numpy backend and, when numba imports, the numba
backend; then, as a diagnostic, the numba kernel writing into a preallocated output (what the
batch costs without allocating and page-faulting a fresh (N, L, 4, 4) array: 77 MB for talos at
N = 10,000). The batch rates exclude JIT compilation (a warm-up call comes first); compile times
are printed separately: a cold compile (a subprocess with an empty ``NUMBA_CACHE_DIR``) and the
first call of this process (compile, or load from numba's on-disk cache).

Peers: pinocchio in a Python loop (forwardKinematics + updateFramePlacements), urchin's
``link_fk_batch``, yourdfpy's ``update_cfg`` + ``get_transform`` of every link (a loop; its rate
is measured on 200 configurations). Missing peers print ``-``. Not a test: the goals (talos one
FK <= 100 µs, batch >= 1,000,000 configurations/s) are reported, never asserted.

Run: ``.venv/bin/python bench/bench_kinematics.py [--ours-only]``. On a loaded machine the
numbers vary; the best of several runs is shown.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
from pathlib import Path
import re
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from urdf_tools_ros.core import fk_numba  # noqa: E402
from urdf_tools_ros.core.description import load  # noqa: E402
from urdf_tools_ros.core.joint_limits import effective_limits  # noqa: E402
from urdf_tools_ros.core.kinematics import KinematicModel  # noqa: E402

MODELS = REPO.parent / 'shared' / 'models'
FILES = ['ur5_robot.urdf', 'panda.urdf', 'robotiq_2f_85_nsfix.urdf', 'cookie/cookie.urdf',
         'talos_full_v2.urdf', 'tiago_dual.urdf']
SIZES = (1000, 10000)
GOAL = 1_000_000


def best(function: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``function`` over ``repeat`` runs after one warm-up, s."""
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def configurations(model: KinematicModel, count: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    result = np.empty((count, model.nq))
    for index, name in enumerate(model.variable_names):
        limits = effective_limits(model.tree.joint(name), use_smallest_joint_limits=False)
        result[:, index] = rng.uniform(limits.slider_lower, limits.slider_upper, count)
    return result


def full_values(model: KinematicModel, values: np.ndarray) -> dict[str, float]:
    """Every single-DOF joint's value (mimic joints derived) for one configuration."""
    result = dict(zip(model.variable_names, map(float, values)))
    for name, mimic in model.mimics.items():
        result[name] = mimic.position(result[mimic.source])
    return result


def repeats(size: int) -> int:
    """Runs of a batch of ``size``: about 50 ms of the fastest, so that noise averages out."""
    return 50 if size <= 1000 else 15


def ours(model: KinematicModel, batches: dict[int, np.ndarray]) -> list[float | None]:
    """One FK (µs; backend-independent, so only on the numpy row) and batch rates (1/s)."""
    one = batches[SIZES[0]][0]
    row: list[float | None] = [best(lambda: model.link_pose_array(one), 300) * 1e6
                               if model.backend == 'numpy' else None]
    for size in SIZES:
        row.append(size / best(lambda: model.link_pose_batch(batches[size]), repeats(size)))
    return row


def numba_into(model: KinematicModel, batches: dict[int, np.ndarray]) -> list[float | None]:
    """``link_pose_batch(Q, out=buffer)`` with the numba backend, reusing one output buffer."""
    row: list[float | None] = [None]
    for size in SIZES:
        out = np.empty((size, len(model.link_names), 4, 4))
        row.append(size / best(lambda: model.link_pose_batch(batches[size], out=out),
                               repeats(size)))
    return row


def compile_times() -> str:
    """Cold compile of the numba kernel (fresh cache, subprocess) and this process's first call."""
    code = ('import time; begin = time.perf_counter()\n'
            'from urdf_tools_ros.core import fk_numba\n'
            'imported = time.perf_counter() - begin\n'
            'print(f"{imported:.2f} {fk_numba.warm_up():.2f}")\n')
    with tempfile.TemporaryDirectory() as cache:
        result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                                text=True, env={**os.environ, 'NUMBA_CACHE_DIR': cache})
    if result.returncode != 0:
        return f'numba: cold compile failed: {result.stderr.strip()[-200:]}'
    imported, cold = result.stdout.split()
    first = fk_numba.warm_up()
    return (f'numba {fk_numba.numba.__version__}: import {imported} s; JIT compile, cold cache '
            f'{cold} s; first call in this process (on-disk cache) {first:.2f} s '
            '(excluded from the rates below)')


def pinocchio(xml: str, model: KinematicModel, batches: dict[int, np.ndarray]) -> list[float]:
    import pinocchio as pin
    reference = pin.buildModelFromXML(re.sub(r'<mimic\b[^>]*?/>', '', xml))
    data = reference.createData()

    def as_q(values: np.ndarray) -> np.ndarray:
        by_name = full_values(model, values)
        q = pin.neutral(reference)
        for joint_id in range(1, reference.njoints):
            joint, value = reference.joints[joint_id], by_name[reference.names[joint_id]]
            if joint.nq == 2:
                q[joint.idx_q:joint.idx_q + 2] = (np.cos(value), np.sin(value))
            else:
                q[joint.idx_q] = value
        return q

    def loop(qs: list[np.ndarray]) -> None:
        for q in qs:
            pin.forwardKinematics(reference, data, q)
            pin.updateFramePlacements(reference, data)

    first = [as_q(batches[SIZES[0]][0])]
    row = [best(lambda: loop(first), 300) * 1e6]
    for size in SIZES:
        qs = [as_q(values) for values in batches[size]]
        row.append(size / best(lambda: loop(qs), 3))
    return row


def urchin(path: Path, batches: dict[int, np.ndarray], model: KinematicModel) -> list[float]:
    from urchin import URDF
    with contextlib.redirect_stdout(io.StringIO()):
        robot = URDF.load(str(path), lazy_load_meshes=True)
    names = [joint.name for joint in robot.actuated_joints]

    def arrays(size: int) -> dict[str, np.ndarray]:
        values = batches[size]
        full = [full_values(model, row) for row in values[:1]]
        return {name: values[:, model.variable_names.index(name)] if name in
                model.variable_names else np.full(size, full[0][name]) for name in names}

    one = {name: value[:1] for name, value in arrays(SIZES[0]).items()}
    row = [best(lambda: robot.link_fk_batch(cfgs=one), 20) * 1e6]
    for size in SIZES:
        cfgs = arrays(size)
        row.append(size / best(lambda: robot.link_fk_batch(cfgs=cfgs), 1))
    return row


def yourdfpy(path: Path, batches: dict[int, np.ndarray], model: KinematicModel) -> list[float]:
    import yourdfpy as ydf
    robot = ydf.URDF.load(str(path), load_meshes=False, build_collision_scene_graph=False,
                          load_collision_meshes=False)
    names = robot.actuated_joint_names
    links = list(robot.link_map)

    def one(values: np.ndarray) -> None:
        by_name = full_values(model, values)
        robot.update_cfg(np.array([by_name.get(name, 0.0) for name in names]))
        for link in links:
            robot.get_transform(link)

    first = batches[SIZES[0]][0]
    single = best(lambda: one(first), 10)
    rate = 200 / best(lambda: [one(values) for values in batches[SIZES[0]][:200]], 1)
    return [single * 1e6, rate, rate]


def cell(values: list[float | None] | list[float] | None, index: int, unit: str) -> str:
    value = None if values is None else values[index]
    if value is None:
        return '-'
    if unit == 'us':
        return f'{value:,.0f} µs'
    return f'{value / 1000:,.0f} k/s' if value >= 10000 else f'{value / 1000:.2f} k/s'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--ours-only', action='store_true', help='skip the peer libraries')
    arguments = parser.parse_args()
    logging.disable(logging.CRITICAL)
    print(compile_times() if fk_numba.AVAILABLE else 'numba: not installed (numpy backend only)')
    print()
    header = ['model', 'links', 'impl', 'one FK', 'N=1,000', 'N=10,000']
    print(' | '.join(header))
    print(' | '.join('---' for _ in header))
    talos: dict[str, list[float | None]] = {}
    for name in FILES:
        path = MODELS / name
        if not path.exists():
            continue
        description = load(path)
        model = KinematicModel(description.robot, backend='numpy')
        batches = {size: configurations(model, size) for size in SIZES}
        rows: list[tuple[str, Callable[[], list[float | None] | list[float]]]] = [
            ('urdf_tools_ros numpy', lambda: ours(model, batches))]
        if fk_numba.AVAILABLE:
            fast = KinematicModel(description.robot, backend='numba')
            rows += [('urdf_tools_ros numba', lambda: ours(fast, batches)),
                     ('urdf_tools_ros numba, out= reused', lambda: numba_into(fast, batches))]
        if not arguments.ours_only:
            rows += [('pinocchio (loop)', lambda: pinocchio(description.xml, model, batches)),
                     ('urchin (batch)', lambda: urchin(path, batches, model)),
                     ('yourdfpy (loop)', lambda: yourdfpy(path, batches, model))]
        for label, run in rows:
            values: Any
            try:
                values = run()
            except Exception as exc:  # noqa: B902  (a peer failing is reported, not fatal)
                print(f'{path.stem} | | {label} | failed: {type(exc).__name__}: {exc}'[:150])
                continue
            if path.stem == 'talos_full_v2':
                talos[label] = values
            print(' | '.join([path.stem, str(len(model.link_names)), label,
                              cell(values, 0, 'us'), cell(values, 1, 'k/s'),
                              cell(values, 2, 'k/s')]))
        sys.stdout.flush()
    print()
    for label in ('urdf_tools_ros numpy', 'urdf_tools_ros numba'):
        if label in talos:
            rates = talos[label][1:]
            verdicts = [f'N={size:,}: {rate:,.0f}/s ({"met" if rate >= GOAL else "not met"})'
                        for size, rate in zip(SIZES, rates) if rate is not None]
            print(f'talos goal >= {GOAL:,}/s, {label}: ' + '; '.join(verdicts))


if __name__ == '__main__':
    main()
