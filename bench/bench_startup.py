"""
Benchmark: wall time of ``urdf-tools check`` on one file, beside urdfdom's ``check_urdf``.

Every CI job and pre-commit hook pays the checker's start-up. This runs, alternating, each
command ``--rounds`` times on the same file and prints the median and the range of each:

* ``urdf-tools check FILE`` (the installed console script of the Python given by ``--python``;
  a venv with only ``pip install .`` measures what a CI job gets, without the test set-up's
  ROS wheels, whose ``.pth`` re-executes every Python start);
* ``check_urdf FILE`` (urdfdom, ``/usr/bin/check_urdf`` when installed);
* ``python -c "import numpy, lxml.etree"``: the floor of any Python checker built on them.

Printed, not asserted (goal: ``urdf-tools check`` on talos <= 1.5 times that floor). Run:
``python3 bench/bench_startup.py [--python VENV/bin/python] [FILE]``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import shutil
import statistics
import subprocess
import sys
import time

REPO = Path(__file__).resolve().parents[1]
TALOS = REPO.parent / 'shared' / 'models' / 'talos_full_v2.urdf'


def wall(command: list[str]) -> float:
    """Seconds one run of ``command`` takes (output discarded; its exit status is ignored)."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('file', nargs='?', default=str(TALOS))
    parser.add_argument('--python', default=sys.executable,
                        help='the Python whose urdf-tools to time (default: this one)')
    parser.add_argument('--rounds', type=int, default=15)
    args = parser.parse_args()
    script = Path(args.python).parent / 'urdf-tools'
    commands = {
        'urdf-tools check': [str(script), 'check', args.file],
        'python -c "import numpy, lxml.etree"': [args.python, '-c', 'import numpy, lxml.etree'],
    }
    check_urdf = shutil.which('check_urdf', path='/usr/bin') or shutil.which('check_urdf')
    if check_urdf:
        commands['check_urdf (urdfdom)'] = [check_urdf, args.file]
    for command in commands.values():  # warm the caches (.pyc, page cache) once
        wall(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, command in commands.items():
            times[name].append(wall(command))
    no_pyc = ' (PYTHONDONTWRITEBYTECODE is set)' if os.environ.get('PYTHONDONTWRITEBYTECODE') \
        else ''
    print(f'{os.path.basename(args.file)}, {args.rounds} rounds, alternating; load average '
          f'{os.getloadavg()[0]:.2f}{no_pyc}')
    for name, values in times.items():
        print(f'  {name:40s} median {statistics.median(values):.3f} s  '
              f'(min {min(values):.3f}, max {max(values):.3f})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
