"""
Benchmark: forward kinematics on talos and tiago_dual, ours beside pinocchio in the same run.

Per robot: one full FK (``link_pose_array``, µs, configuration as an array); the TF path
(``joint_transform_arrays``, µs: what the TF broadcaster computes per ``joint_states``); a batch
of 2,000 random configurations within limits (``link_pose_batch``, configurations/s) beside
pinocchio's ``framesForwardKinematics`` called in a Python loop on the same configurations (a
fresh ``q`` per call, as a user's loop would have). Best of several runs after a warm-up; the
ratio ours/pinocchio is printed. Also the lines of code of ``urdf_tools_ros/core``. Not a test:
numbers are printed, never asserted, and no goal is set (the batch goal is retired: one FK
formulation, CONVENTIONS C11). The TF broadcaster at 1 kHz is ``bench/bench_tf_node.py``.

Run: ``.venv/bin/python bench/bench_fk.py`` (``--repo DIR`` measures another checkout).
"""

from __future__ import annotations

import argparse
import inspect
import os
from pathlib import Path
import re
import sys
import time
from typing import Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
MODELS = REPO.parent / 'shared' / 'models'
ROBOTS = ('talos_full_v2.urdf', 'tiago_dual.urdf')
BATCH = 2000
_MIMIC = re.compile(r'<mimic\b[^>]*?(/>|>.*?</mimic>)', re.DOTALL)


def best(function: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``function`` over ``repeat`` runs after one warm-up, s."""
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def blas_kernel() -> str:
    """The OpenBLAS core numpy runs (``OPENBLAS_CORETYPE`` can force a slower one), as named."""
    import ctypes
    with open('/proc/self/maps') as maps:
        libraries = sorted({line.split()[-1] for line in maps if 'openblas' in line})
    for library in libraries:
        handle = ctypes.CDLL(library)
        for symbol in ('scipy_openblas_get_corename64_', 'scipy_openblas_get_corename',
                       'openblas_get_corename'):
            function = getattr(handle, symbol, None)
            if function is not None:
                function.restype = ctypes.c_char_p
                return f'{function().decode()} ({Path(library).name})'
    return 'no OpenBLAS loaded'


def lines_of_code(folder: Path) -> int:
    """Lines of the ``.py`` files under ``folder``."""
    return sum(len(path.read_text().splitlines()) for path in folder.rglob('*.py'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--repo', type=Path, default=REPO, help='checkout to measure')
    options = parser.parse_args()
    sys.path.insert(0, str(options.repo))
    import pinocchio as pin

    # Import paths both layouts have (older checkouts: a flat core/; now: one package a concept).
    from urdf_tools_ros.core.kinematics import KinematicModel
    from urdf_tools_ros.core.source import load
    try:
        from urdf_tools_ros.core.kinematics.limits import effective_limits
    except ImportError:  # the flat layout: core/joint_limits.py
        from urdf_tools_ros.core.joint_limits import effective_limits  # type: ignore

    core = options.repo / 'urdf_tools_ros' / 'core'
    print(f'checkout {options.repo}: urdf_tools_ros/core {lines_of_code(core)} lines; OpenBLAS '
          f'core {blas_kernel()}, OPENBLAS_CORETYPE={os.environ.get("OPENBLAS_CORETYPE")}')
    print(f'{"robot":<16} {"links":>5} {"one FK":>9} {"TF path":>9} {"batch/s":>10} '
          f'{"pin loop/s":>11} {"ratio":>6}')
    rng = np.random.default_rng(0)
    for name in ROBOTS:
        description = load(MODELS / name)
        engines = {'': {}}
        if 'backend' in inspect.signature(KinematicModel).parameters:  # older checkouts
            engines = {' numpy': {'backend': 'numpy'}, ' numba': {'backend': 'numba'}}
        model = KinematicModel(description.robot)
        values = np.empty((BATCH, model.nq))
        for index, variable in enumerate(model.variable_names):
            joint = model.tree.joint(variable.split('/')[0])
            if joint.joint_type in ('floating', 'planar'):
                values[:, index] = rng.uniform(-1.0, 1.0, BATCH)
                continue
            limits = effective_limits(joint, use_smallest_joint_limits=False)
            values[:, index] = rng.uniform(limits.slider_lower, limits.slider_upper, BATCH)
        one = best(lambda: model.link_pose_array(values[0]), 2000)
        tf = best(lambda: model.joint_transform_arrays(values[0]), 2000)
        batches = {}
        for engine, options in engines.items():
            engine_model = KinematicModel(description.robot, **options)
            batches[engine] = best(lambda: engine_model.link_pose_batch(values), 7)
        reference = pin.buildModelFromXML(_MIMIC.sub('', description.xml))
        data = reference.createData()
        qs = [pin.randomConfiguration(reference) for _ in range(BATCH)]

        def loop() -> None:
            for q in qs:
                pin.framesForwardKinematics(reference, data, q)

        pinocchio = best(loop, 7)
        for engine, batch in batches.items():
            print(f'{name.split(".")[0] + engine:<16} {len(model.link_names):>5} '
                  f'{one * 1e6:>7.1f}µs {tf * 1e6:>7.1f}µs {BATCH / batch:>10,.0f} '
                  f'{BATCH / pinocchio:>11,.0f} {pinocchio / batch:>5.2f}×')


if __name__ == '__main__':
    main()
