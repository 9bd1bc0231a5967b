"""
Benchmark: full load + every check of each shared model, against urdf_parser_py's bare parse.

Prints a table (median of repeated runs, ms). Not a test: the goal (talos_full_v2's full load
and check within 1.5 × urdf_parser_py's parse time) is reported, never asserted.

Run: ``.venv/bin/python bench/bench_load.py [--repeat N]``
"""

from __future__ import annotations

import argparse
from pathlib import Path
import statistics
import sys
import time
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from urdf_parser_py import urdf as urdf_parser  # noqa: E402
from urdf_parser_py.xml_reflection import core as urdf_parser_core  # noqa: E402

from urdf_tools_ros.core.checks import check_description  # noqa: E402
from urdf_tools_ros.core.description.loader import load  # noqa: E402

MODELS = REPO.parent / 'shared' / 'models'
FILES = ['ur5_robot.urdf', 'panda.urdf', 'robotiq_2f_85_nsfix.urdf', 'cookie/cookie.urdf',
         'talos_full_v2.urdf', 'tiago_dual.urdf']


def median_ms(function: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``function`` over ``repeat`` runs after one warm-up, ms."""
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=15)
    args = parser.parse_args()
    urdf_parser_core.on_error = lambda message: None  # silence its unknown-tag notes
    print(f'{"model":<24}{"urdf_parser_py parse":>22}{"load":>10}{"load+check":>12}'
          f'{"ratio":>8}')
    for name in FILES:
        path = MODELS / name
        if not path.exists():
            print(f'{name:<24} (missing)')
            continue
        data = path.read_bytes()
        bare = median_ms(lambda: urdf_parser.URDF.from_xml_string(data), args.repeat)
        loaded = median_ms(lambda: load(path), args.repeat)
        full = median_ms(lambda: check_description(load(path)), args.repeat)
        print(f'{Path(name).stem:<24}{bare:>20.2f}ms{loaded:>8.2f}ms{full:>10.2f}ms'
              f'{full / bare:>7.2f}x')
    print('goal: talos_full_v2 load+check <= 1.5x urdf_parser_py parse')


if __name__ == '__main__':
    main()
