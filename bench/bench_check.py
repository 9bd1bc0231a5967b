"""
Benchmark: whole-process CPU (and memory) of ``urdf-tools check`` beside its floor.

Every CI job, pre-commit hook and launch file pays a whole process. Each command here is one
child process whose CPU is its user + system time as ``os.wait4`` reports it (the child's and
its own children's), so other jobs on the machine slow the wall clock but not the number.
The commands of a comparison run interleaved, ``--rounds`` times each; medians are printed.

Default, every case of ``../shared/ros2_descriptions/cases.json`` (the xacro arguments its
launch file passes):

* ``urdf-tools check ENTRY ARGS`` with a cold mesh cache (``XDG_CACHE_HOME`` a fresh folder
  each run) and with a warm one (one folder, filled by a first run; before the checker had a
  cache the two measure the same);
* the floor: the real xacro CLI alone on the same file and arguments, plus a
  ``python -c "import numpy, lxml.etree"`` process (what any Python checker built on them
  starts with).

Both find packages through an ament index made of the case folder (``AMENT_PREFIX_PATH``), as
in a sourced ROS workspace. Goals: check <= 1.25 × the floor on every case with a cold cache,
median of the cases' ratios <= 1.1 × with a warm one.

``--large``: a generated 20,000-link URDF of about 48 MB (``bench/gen_large_urdf.py``),
``urdf-tools check`` beside urdfdom's ``check_urdf`` (``/usr/bin/check_urdf``): CPU seconds and
maximum resident memory. Goal: no more memory than ``check_urdf`` (its CPU goal is retired,
bench/README.md; the ratio is printed).

``--file FILE``: one file beside the floor and ``check_urdf`` (CPU and wall time).

The children run without ``PYTHONDONTWRITEBYTECODE`` (an installed package has its ``.pyc``)
and the first run of each command, which writes them, is not counted. Printed, not asserted.

Run: ``.venv/bin/python bench/bench_check.py [--rounds 5] [--case ID] [--large] [--file F]``
(``--python VENV/bin/python`` runs the commands with another venv's Python).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
import json
import os
from pathlib import Path
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / 'bench'))
sys.path.insert(0, str(REPO))

from gen_large_urdf import generate  # noqa: E402

SHARED = Path(os.environ.get('URDF_TOOLS_SHARED') or REPO.parent / 'shared')
CASES = SHARED / 'ros2_descriptions' / 'cases.json'
CHECK_URDF = '/usr/bin/check_urdf'
#: The goals: per case with a cold cache, the cases' median with a warm one.
COLD_GOAL = 1.25
WARM_GOAL = 1.1


class Run:
    """One finished child: CPU seconds (user + system), wall seconds, max RSS in MB, exit code."""

    def __init__(self, cpu: float, wall: float, rss: float, code: int) -> None:
        self.cpu, self.wall, self.rss, self.code = cpu, wall, rss, code


def run(command: Sequence[str], env: dict[str, str] | None = None) -> Run:
    """Run ``command`` to its end, output discarded; its rusage from ``os.wait4``."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, child.returncode)


def child_env(**extra: str) -> dict[str, str]:
    """This environment without ``PYTHONDONTWRITEBYTECODE``, this checkout first on the path."""
    env = {key: value for key, value in os.environ.items()
           if key != 'PYTHONDONTWRITEBYTECODE'}
    env['PYTHONPATH'] = os.pathsep.join(filter(None, [str(REPO), env.get('PYTHONPATH')]))
    env.update(extra)
    return env


def checker(python: str) -> list[str]:
    """The ``urdf-tools`` command line of this checkout (its ``main``, as the console script)."""
    return [python, '-m', 'urdf_tools_ros.cli.main']


def xacro_command(python: str) -> list[str]:
    """The real xacro CLI beside ``python`` (its console script), else ``python -m xacro``."""
    script = Path(python).parent / 'xacro'
    return [str(script)] if script.exists() else [python, '-m', 'xacro']


def ament_prefix(root: Path, folder: Path) -> Path:
    """An ament prefix in ``folder`` whose index lists every package folder under ``root``."""
    index = folder / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    for package in root.iterdir():
        if package.is_dir():
            (index / package.name).touch()
            (folder / 'share' / package.name).symlink_to(package)
    return folder


def interleaved(commands: dict[str, Callable[[], Run]], rounds: int) -> dict[str, list[Run]]:
    """
    Each command once uncounted, then ``rounds`` rounds of all of them in turn.

    :raises SystemExit: a command failed in its first run (exit code 2 or more: urdf-tools'
        1 means findings, check_urdf's and xacro's any non-zero a failure, which is said).
    """
    for name, command in commands.items():
        code = command().code
        if code >= 2 or (code and 'urdf-tools' not in name and name not in ('cold', 'warm')):
            raise SystemExit(f'{name}: exit code {code} in its first run')
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            runs[name].append(command())
    return runs


def median(runs: list[Run], field: str = 'cpu') -> float:
    return statistics.median(getattr(one, field) for one in runs)


def bench_cases(python: str, rounds: int, only: list[str]) -> None:
    """The ros2_descriptions cases: check cold and warm against xacro + the import floor."""
    cases = json.loads(CASES.read_text())['cases']
    if only:
        cases = [case for case in cases if case['id'] in only]
    work = Path(tempfile.mkdtemp(prefix='bench_check_'))
    try:
        prefix = ament_prefix(CASES.parent, work / 'prefix')
        warm_cache = work / 'warm'
        warm_cache.mkdir()
        base = child_env(AMENT_PREFIX_PATH=str(prefix))
        floor_command = [python, '-c', 'import numpy, lxml.etree']
        cold_count = [0]

        def cold(command: list[str]) -> Run:
            cold_count[0] += 1
            cache = work / f'cold{cold_count[0]}'
            cache.mkdir()
            return run(command, {**base, 'XDG_CACHE_HOME': str(cache)})

        print(f'{len(cases)} cases, {rounds} rounds interleaved, CPU = user + sys of the child, '
              f'median; load average {os.getloadavg()[0]:.2f}')
        print(f'{"case":<26}{"xacro":>8}{"import":>8}{"floor":>8}{"cold":>8}{"warm":>8}'
              f'{"cold/floor":>12}{"warm/floor":>12}{"pycollada":>11}{"bound":>8}')
        cold_ratios, warm_ratios = [], []
        one_thread = {**base, 'OPENBLAS_NUM_THREADS': '1'}  # as urdf-tools runs numpy
        for case in cases:
            entry = str(CASES.parent / case['entry'])
            check = [*checker(python), 'check', entry, *case['args']]
            commands = {
                'xacro': lambda: run([*xacro_command(python), entry, *case['args']], base),
                'import': lambda: run(floor_command, base),
                'cold': lambda: cold(check),
                'warm': lambda: run(check, {**base, 'XDG_CACHE_HOME': str(warm_cache)}),
            }
            dae = collada_files(case)
            if dae:
                commands['import, 1 thread'] = lambda: run(floor_command, one_thread)
                commands['pycollada'] = lambda: run([python, '-c', PYCOLLADA, *dae], one_thread)
            runs = interleaved(commands, rounds)
            floor = median(runs['xacro']) + median(runs['import'])
            cold_ratio, warm_ratio = median(runs['cold']) / floor, median(runs['warm']) / floor
            cold_ratios.append(cold_ratio)
            warm_ratios.append(warm_ratio)
            share = ''
            if dae:
                pycollada = median(runs['pycollada']) - median(runs['import, 1 thread'])
                bound = (median(runs['warm']) + pycollada) / floor
                share = f'{pycollada:>10.3f}s{bound:>7.2f}×'
            print(f'{case["id"]:<26}{median(runs["xacro"]):>7.3f}s{median(runs["import"]):>7.3f}s'
                  f'{floor:>7.3f}s{median(runs["cold"]):>7.3f}s{median(runs["warm"]):>7.3f}s'
                  f'{cold_ratio:>11.2f}×{warm_ratio:>11.2f}×{share}'
                  f'{"" if cold_ratio <= COLD_GOAL else "  (over the cold goal)"}')
        print(POSTSCRIPT)
        worst = max(cold_ratios)
        warm = statistics.median(warm_ratios)
        print(f'goal cold: every case <= {COLD_GOAL}× the floor: worst {worst:.2f}× '
              f'{"MET" if worst <= COLD_GOAL else "NOT MET"}')
        print(f'goal warm: median <= {WARM_GOAL}× the floor: {warm:.2f}× '
              f'{"MET" if warm <= WARM_GOAL else "NOT MET"}')
    finally:
        shutil.rmtree(work, ignore_errors=True)


#: What the check does with pycollada (``mesh_facts._collada``): import it, read each file.
PYCOLLADA = """
import sys
import numpy, lxml.etree
import collada
common = collada.common
ignore = [common.DaeError, common.DaeIncompleteError, common.DaeMalformedError,
          common.DaeBrokenRefError, common.DaeUnsupportedError]
for name in sys.argv[1:]:
    with open(name, 'rb') as stream:
        try:
            collada.Collada(stream, ignore=ignore)
        except Exception:  # the check reports the file as unreadable, and goes on
            pass
"""
#: Printed under the cases' table.
POSTSCRIPT = """\
pycollada: CPU of importing pycollada and reading the case's COLLADA files with it, as the check
  does (a child importing numpy, lxml and pycollada and reading them, less one importing numpy
  and lxml; both with one BLAS thread, as urdf-tools runs numpy).
bound: (warm + pycollada) / floor: the least a cold check costs while it reads COLLADA through
  pycollada and does what a warm check does."""


def collada_files(case: dict[str, Any]) -> list[str]:
    """The COLLADA files a case's robot names that exist (its meshes, resolved), each once."""
    from urdf_tools_ros.core.model.robot import Mesh
    from urdf_tools_ros.core.source.loader import load, parse_xacro_args
    packages = {folder.name: str(folder) for folder in CASES.parent.iterdir() if folder.is_dir()}
    robot = load(CASES.parent / case['entry'], package_paths=packages,
                 xacro_args=parse_xacro_args(case['args'])).robot
    geometries = [element.geometry for link in robot.links for element in link.visuals] \
        + [element.geometry for link in robot.links for element in link.collisions]
    return sorted({geometry.resolved for geometry in geometries
                   if isinstance(geometry, Mesh) and geometry.resolved
                   and geometry.resolved.lower().endswith('.dae')
                   and os.path.isfile(geometry.resolved)})


def bench_large(python: str, rounds: int, links: int) -> None:
    """The generated large URDF: check against urdfdom's check_urdf, CPU and memory."""
    with tempfile.TemporaryDirectory(prefix='bench_large_') as folder:
        path = generate(Path(folder) / 'large.urdf', links)
        size = path.stat().st_size / 1e6
        env = child_env(XDG_CACHE_HOME=str(Path(folder) / 'cache'))
        runs = interleaved({
            'urdf-tools check': lambda: run([*checker(python), 'check', str(path)], env),
            'check_urdf (urdfdom)': lambda: run([CHECK_URDF, str(path)], env),
        }, rounds)
    print(f'generated URDF: {links} links, {size:.1f} MB, {rounds} rounds interleaved, medians; '
          f'load average {os.getloadavg()[0]:.2f}')
    for name, values in runs.items():
        print(f'  {name:<22} CPU {median(values):6.2f} s  max RSS {median(values, "rss"):6.0f} MB'
              f'  (wall {median(values, "wall"):.2f} s)')
    ours, theirs = runs['urdf-tools check'], runs['check_urdf (urdfdom)']
    cpu = median(ours) / median(theirs)
    rss = median(ours, 'rss') / median(theirs, 'rss')
    print(f'goal: memory <= check_urdf: {rss:.2f}× {"MET" if rss <= 1 else "NOT MET"} '
          f'(CPU {cpu:.2f}×)')


def bench_file(python: str, rounds: int, path: str) -> None:
    """One file beside the import floor and check_urdf: CPU and wall time."""
    env = child_env()
    commands = {
        'urdf-tools check': lambda: run([*checker(python), 'check', path], env),
        'python -c "import numpy, lxml.etree"':
            lambda: run([python, '-c', 'import numpy, lxml.etree'], env),
    }
    if os.path.exists(CHECK_URDF):
        commands['check_urdf (urdfdom)'] = lambda: run([CHECK_URDF, path], env)
    runs = interleaved(commands, rounds)
    print(f'{os.path.basename(path)}, {rounds} rounds interleaved, medians; load average '
          f'{os.getloadavg()[0]:.2f}')
    for name, values in runs.items():
        print(f'  {name:40s} CPU {median(values):.3f} s  wall {median(values, "wall"):.3f} s '
              f'(min {min(one.wall for one in values):.3f})')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--python', default=sys.executable,
                        help='the Python that runs the commands (default: this one)')
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--case', action='append', default=[], metavar='ID',
                        help='only this case of cases.json (repeatable)')
    parser.add_argument('--large', action='store_true',
                        help='the generated large URDF against check_urdf instead')
    parser.add_argument('--links', type=int, default=20000, help='links of --large')
    parser.add_argument('--file', help='one file against the floor and check_urdf instead')
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if args.large:
        bench_large(args.python, args.rounds, args.links)
    elif args.file:
        bench_file(args.python, args.rounds, args.file)
    else:
        bench_cases(args.python, args.rounds, args.case)
    return 0


if __name__ == '__main__':
    sys.exit(main())
