"""
Benchmark: load + every check of each shared model, beside urdf_parser_py and pinocchio.

In one process, per model: ``check_description(load(path))`` (the checker's whole work on a
file), urdf_parser_py's bare parse of the same bytes (``URDF.from_xml_string``) and pinocchio's
C++ model build (``buildModelFromUrdf``), run interleaved ``--repeat`` times after a warm-up;
the median CPU time of this process (``time.process_time``: other jobs on a shared machine do
not count) and the ratios are printed. Not a test: the goal (on talos_full_v2 and tiago_dual:
load + check <= urdf_parser_py's parse) is printed, never asserted; pinocchio's ratio is printed
beside it (its goal is retired, bench/README.md).

Beside them, ``check`` (``check_description`` alone, on a loaded description) and ``floor``: the
least CPU any Python reader of this model takes with lxml (:func:`reading_floor`: parse, touch
every element, ``float`` every number, construct every frozen object of the model from its
values; no check, no finding). ``floor+check ÷ pinocchio`` is then the best load + check can
do with today's checks, however fast the reader.

Run: ``.venv/bin/python bench/bench_load.py [--repeat N] [--profile MODEL]`` (``--profile``
prints cProfile's top functions of load + check on that model instead).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
from pathlib import Path
import pstats
import statistics
import sys
import time
from typing import Any, Callable

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pinocchio  # noqa: E402
from urdf_parser_py import urdf as urdf_parser  # noqa: E402
from urdf_parser_py.xml_reflection import core as urdf_parser_core  # noqa: E402

from urdf_tools_ros.core.checks import check_description  # noqa: E402
from urdf_tools_ros.core.kinematics import inertia  # noqa: E402
from urdf_tools_ros.core.source.loader import load, RobotDescription  # noqa: E402

MODELS = REPO.parent / 'shared' / 'models'
FILES = ['ur5_robot.urdf', 'panda.urdf', 'robotiq_2f_85_nsfix.urdf', 'cookie/cookie.urdf',
         'talos_full_v2.urdf', 'tiago_dual.urdf']
#: The models the goal is stated on.
GOAL_FILES = ('talos_full_v2.urdf', 'tiago_dual.urdf')
PARSER_GOAL = 1.0


def first_check(description: RobotDescription) -> object:
    """
    ``check_description(description)`` as a first run computes it.

    The principal moments of the tensors last asked are kept between calls
    (``inertia._eigenvalues``): emptied first, so no run reuses the previous one's.
    """
    cache = getattr(inertia, '_eigenvalues', None)  # older checkouts have none
    if cache is not None:
        cache.cache_clear()
    return check_description(description)


def load_and_check(path: Path) -> object:
    """``check_description(load(path))`` as a first run computes it (:func:`first_check`)."""
    return first_check(load(path))


def reading_floor(data: bytes, robot: object) -> Callable[[], object]:
    """
    The least work of any reader that makes ``robot`` from ``data`` in Python with lxml.

    The callable parses ``data`` with lxml (``etree.fromstring``), touches every element's tag,
    line and attributes, calls ``float`` on every word of the attributes that is a number, and
    constructs every frozen object ``robot`` holds (itself, its links, joints, origins,
    source locations...) from its field values, which are gathered beforehand. It reads no
    value into its place, checks nothing and reports nothing: a lower bound, not a reader.

    :param data: The URDF's bytes.
    :param robot: The model :func:`load` made of them (``description.robot``).
    """
    objects: list[tuple[Any, tuple[object, ...]]] = []
    seen: set[int] = set()

    def gather(value: object) -> None:
        if isinstance(value, tuple):
            for item in value:
                gather(item)
        elif dataclasses.is_dataclass(value) and id(value) not in seen:
            seen.add(id(value))
            values = tuple(getattr(value, field.name) for field in dataclasses.fields(value))
            objects.append((type(value), values))
            gather(values)
    gather(robot)
    numbers = []
    for element in etree.fromstring(data).iter():
        for _, text in element.items():
            for word in text.split():
                try:
                    float(word)
                except ValueError:
                    continue
                numbers.append(word)

    def floor() -> object:
        for element in etree.fromstring(data).iter():
            element.tag, element.sourceline, element.items()
        values = [float(word) for word in numbers]
        return values, [kind(*fields) for kind, fields in objects]
    return floor


def cpu_ms(function: Callable[[], object]) -> float:
    """CPU time of this process during one call of ``function``, ms."""
    start = time.process_time()
    function()
    return (time.process_time() - start) * 1e3


def main() -> None:
    """Print the table (or a profile)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--repeat', type=int, default=21)
    parser.add_argument('--profile', metavar='MODEL', help='e.g. talos_full_v2.urdf')
    args = parser.parse_args()
    urdf_parser_core.on_error = lambda message: None  # silence its unknown-tag notes
    if args.profile:
        path = MODELS / args.profile
        check_description(load(path))
        profile = cProfile.Profile()
        for _ in range(args.repeat):
            profile.runcall(lambda: load_and_check(path))
        pstats.Stats(profile).sort_stats('tottime').print_stats(30)
        return
    print(f'median CPU of {args.repeat} interleaved runs, ms')
    print(f'{"model":<22}{"urdf_parser_py":>16}{"pinocchio":>11}{"load":>9}{"load+check":>12}'
          f'{"÷ parser":>10}{"÷ pinocchio":>13}{"check":>9}{"floor":>9}'
          f'{"floor+check ÷ pinocchio":>25}')
    verdicts = []
    for name in FILES:
        path = MODELS / name
        if not path.exists():
            print(f'{name:<22} (missing)')
            continue
        data = path.read_bytes()
        description = load(path)
        functions = {
            'parser': lambda: urdf_parser.URDF.from_xml_string(data),
            'pinocchio': lambda: pinocchio.buildModelFromUrdf(str(path)),
            'load': lambda: load(path),
            'full': lambda: load_and_check(path),
            'check': lambda: first_check(description),
            'floor': reading_floor(data, description.robot),
        }
        for function in functions.values():
            function()
        times: dict[str, list[float]] = {key: [] for key in functions}
        for _ in range(args.repeat):
            for key, function in functions.items():
                times[key].append(cpu_ms(function))
        med = {key: statistics.median(values) for key, values in times.items()}
        to_parser, to_pinocchio = med['full'] / med['parser'], med['full'] / med['pinocchio']
        print(f'{Path(name).stem:<22}{med["parser"]:>14.2f}ms{med["pinocchio"]:>9.2f}ms'
              f'{med["load"]:>7.2f}ms{med["full"]:>10.2f}ms{to_parser:>9.2f}×'
              f'{to_pinocchio:>12.2f}×{med["check"]:>7.2f}ms{med["floor"]:>7.2f}ms'
              f'{(med["floor"] + med["check"]) / med["pinocchio"]:>24.2f}×')
        if name in GOAL_FILES:
            verdicts.append(f'{Path(name).stem}: {to_parser:.2f}× urdf_parser_py '
                            f'({"met" if to_parser <= PARSER_GOAL else "NOT met"}); '
                            f'{to_pinocchio:.2f}× pinocchio')
    print(f'goal: load+check <= {PARSER_GOAL}× urdf_parser_py parse:')
    for verdict in verdicts:
        print(f'  {verdict}')


if __name__ == '__main__':
    main()
