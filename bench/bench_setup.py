"""
Benchmark: time and disk of the set-ups a user meets, each into a fresh virtualenv.

* the main command's set-up (``scripts/setup.sh``: the package and the browser viewer, what
  ``scripts/urdf-tools view`` runs first);
* ``pip install .`` (the checker, the kinematics core and the CLI: light dependencies);
* with ``--with-tests``, the test set-up's Python part (``scripts/setup.sh --test``).

Printed, not asserted (goals: main command ready in < 60 s and < 300 MB; ``pip
install .`` < 100 MB); sizes are the venv's and what the set-up added over a bare venv.
pip's cache is used as on a machine that installed once before; run with ``PIP_NO_CACHE_DIR=1``
for a cold one. Run: ``python3 bench/bench_setup.py [--with-tests]``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile
import time

REPO = Path(__file__).resolve().parents[1]


def size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (symlinks not followed)."""
    return sum(path.lstat().st_size for path in folder.rglob('*') if path.is_file()
               and not path.is_symlink())


def measure(label: str, commands: list[list[str]], venv: Path, env: dict[str, str],
            bare: int) -> None:
    start = time.monotonic()
    for command in commands:
        subprocess.run(command, cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    took = time.monotonic() - start
    scripts = sorted(path.name for path in (venv / 'bin').iterdir()
                     if path.name in ('urdf-tools', 'joint_state_publisher', 'check',
                                      'robot_state_publisher', 'tf_broadcaster'))
    total = size(venv)
    added = (total - bare) / 1e6
    print(f'{label:<28} {took:6.1f} s {total / 1e6:7.0f} MB ({added:+.0f} MB over a bare venv)'
          f'   on PATH: {", ".join(scripts)}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--with-tests', action='store_true', help='also the test set-up')
    options = parser.parse_args()
    python = shutil.which('python3') or sys.executable
    with tempfile.TemporaryDirectory(prefix='bench_setup_') as scratch:
        root = Path(scratch)
        # What a bare venv already holds (pip, setuptools): the goals count what a set-up adds.
        subprocess.run([python, '-m', 'venv', str(root / 'bare')], check=True)
        bare = size(root / 'bare')
        print(f'a bare venv ({python}): {bare / 1e6:.0f} MB')
        runs = [('main command set-up', ['view'])]
        if options.with_tests:
            runs.append(('test set-up (Python part)', ['--test']))
        for label, flags in runs:
            venv = root / label.split()[0]
            env = dict(os.environ, URDF_TOOLS_VENV=str(venv))
            setup = ['bash', 'scripts/setup.sh'] + ([] if flags == ['view'] else flags)
            measure(label, [setup], venv, env, bare)
        venv, source = root / 'pip', root / 'source'
        shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
            '.git', '.venv', '.cache', 'build', 'install', 'log', '*.egg-info', '__pycache__'))
        measure('pip install .', [[python, '-m', 'venv', str(venv)],
                                  [str(venv / 'bin' / 'python'), '-m', 'pip', 'install', '-q',
                                   str(source)]], venv, dict(os.environ), bare)


if __name__ == '__main__':
    main()
