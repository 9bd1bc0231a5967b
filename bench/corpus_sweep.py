"""
Sweep every URDF of two installed robot packages through the checker, FK and the real consumers.

The packages are the PyPI wheels ``example-robot-data`` (its cmeel share directory) and
``pybullet`` (``pybullet_data.getDataPath()``). Each ``*.urdf`` (and ``*.xacro``) file goes
through this package, ``load`` + ``check_description(description, target=TARGET)`` +
``KinematicModel`` + FK at a few random configurations, and through the real consumers of
``test/oracles.py`` (urdfdom 3 and 6, urdf_parser_py, pinocchio, MuJoCo, Gazebo). A xacro file
that loads is given to the consumers as its expanded URDF (a temporary file). The workers'
stderr, where the consumers print their parse messages, is discarded.

Prints, per package and in total: files, clean (loaded, 0 errors), with errors, not loaded
(``RobotDescriptionError`` from ``load``), crashes (any other exception from this package, or
``KinematicModel`` refusing a file that checked with 0 errors); each consumer's loads and
refusals; the finding codes by severity (findings and files); the *false errors*: errors none
of whose named consumers of the target breaks on the file, asked live
(``test/consumer_breaks.py``: urdfdom refuses or drops an element, urdf_parser_py, pinocchio
or MuJoCo refuse, Gazebo refuses or drops a link, this package's kinematics refuses); the
errors on files urdfdom 3 and 6 and pinocchio load with the same FK (to 1e-6), by the consumer
that confirms them; the *missed refusals* (urdfdom refuses, 0 errors here: must be 0), and
the files another consumer of the target refuses with 0 errors here; every warning code on more
than half of the files; the elapsed time. Not a test: nothing is asserted.

Run: ``.venv/bin/python bench/corpus_sweep.py [--target ros] [--limit N] [--jobs 2]
[--json OUT] [--package example-robot-data|pybullet_data ...]``
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
import importlib.metadata
import json
import os
from pathlib import Path
import sys
import tempfile
import time
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / 'test'))

from consumer_breaks import breaks  # noqa: E402
import numpy as np  # noqa: E402
import oracle_fk  # noqa: E402
import oracles  # noqa: E402

from urdf_tools_ros.core.checks import check_description, TARGETS  # noqa: E402
from urdf_tools_ros.core.errors import RobotDescriptionError  # noqa: E402
from urdf_tools_ros.core.kinematics.forward import KinematicModel  # noqa: E402
from urdf_tools_ros.core.source.loader import load, RobotDescription  # noqa: E402

PACKAGES = ('example-robot-data', 'pybullet_data')
#: The consumers asked, in print order; each is one call of ``test/oracles.py``.
CONSUMERS = ('urdfdom-3', 'urdfdom-6', 'urdf_parser_py', 'pinocchio', 'mujoco', 'gazebo')
#: Consumers that load a file whose errors are listed by the consumer confirming them.
LOADING_CONSUMERS = ('urdfdom-3', 'urdfdom-6', 'pinocchio')
#: Most false errors listed one by one (the JSON output has them all).
LIST_LIMIT = 40
#: FK agreement (m and rotation-matrix entries) below which pinocchio computes the same poses.
FK_TOLERANCE = 1e-6
#: Random configurations per file (uniform in [-1, 1], rad or m).
FK_CONFIGURATIONS = 4


@dataclass
class FileResult:
    """
    What one file did, in this package and in each consumer.

    :ivar package: The package it comes from.
    :ivar path: Absolute path of the file.
    :ivar status: ``'loaded'``, ``'not-loaded'`` (``RobotDescriptionError`` from ``load``) or
        ``'crash'`` (another exception from ``load`` or ``check_description``).
    :ivar findings: ``(severity, code)`` of every finding for the target.
    :ivar crash: The exception of a crash of this package (``load``, check, kinematics, FK),
        ``None`` when there was none.
    :ivar message: The ``load`` error of a file that did not load.
    :ivar verdicts: ``{consumer: (loaded, message)}``; a consumer that is not available is
        absent.
    :ivar confirmed: ``{error code: [consumers of the target that break on the file]}``, each
        named by one of that code's findings and asked live (``[]``: none breaks, a false
        error; a consumer that cannot be asked here is left out).
    :ivar unverifiable: Error codes all of whose named consumers cannot be asked here.
    :ivar fk_difference: Largest pinocchio-vs-here FK difference, computed only for a file
        with errors that urdfdom 3 and 6 and pinocchio load; ``None`` otherwise or when
        pinocchio could not compare.
    :ivar seconds: Wall time spent on this file.
    """

    package: str
    path: str
    status: str = 'loaded'
    findings: list[tuple[str, str]] = field(default_factory=list)
    crash: str | None = None
    message: str | None = None
    verdicts: dict[str, tuple[bool, str]] = field(default_factory=dict)
    confirmed: dict[str, list[str]] = field(default_factory=dict)
    unverifiable: list[str] = field(default_factory=list)
    fk_difference: float | None = None
    seconds: float = 0.0

    @property
    def errors(self) -> list[str]:
        """Codes of the error findings, one per finding."""
        return [code for severity, code in self.findings if severity == 'error']


def example_robot_data_dir() -> Path:
    """Share directory of the installed ``example-robot-data`` (the one with ``robots/``)."""
    distribution = importlib.metadata.distribution('example-robot-data')
    marker = 'share/example-robot-data/'
    for file in distribution.files or ():
        text = file.as_posix()
        if marker in text:
            return Path(str(distribution.locate_file(text[:text.index(marker) + len(marker)])))
    raise FileNotFoundError('example-robot-data has no share/example-robot-data/ files')


def package_root(package: str) -> tuple[Path, dict[str, str]]:
    """
    Return the data directory of ``package`` and the package paths its files need.

    example-robot-data: ``example-robot-data`` and each ``robots/<name>`` folder by name
    (b1.urdf names ``package://b1_description``). pybullet_data: the xarm packages it ships in
    ``xarm/`` and ``meshes`` for franka_panda/panda.urdf (``package://meshes/...``, which
    pybullet resolves by stripping the scheme).
    """
    if package == 'example-robot-data':
        root = example_robot_data_dir()
        paths = {folder.name: str(folder) for folder in sorted((root / 'robots').iterdir())
                 if folder.is_dir()}
        paths['example-robot-data'] = str(root)
        return root, paths
    import pybullet_data
    root = Path(pybullet_data.getDataPath())
    return root, {'xarm_description': str(root / 'xarm' / 'xarm_description'),
                  'xarm_gripper': str(root / 'xarm' / 'xarm_gripper'),
                  'meshes': str(root / 'franka_panda' / 'meshes')}


def description_files(root: Path) -> list[Path]:
    """Every ``*.urdf``, ``*.urdf.xacro`` and ``*.xacro`` file below ``root``, sorted."""
    return sorted(path for path in root.rglob('*')
                  if path.is_file() and path.name.endswith(('.urdf', '.xacro')))


def _ask(consumer: str, path: str, package_paths: dict[str, str]) -> Any:
    if consumer.startswith('urdfdom-'):
        return oracles.urdfdom(path, consumer.split('-')[1])
    if consumer == 'mujoco':
        return oracles.mujoco(path, package_paths)
    return getattr(oracles, consumer)(path)


def _quiet_worker() -> None:
    """Send a worker's stderr (consumers' C++ parsers print every refusal there) to null."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)


def _consumer_verdicts(path: str, package_paths: dict[str, str]) -> dict[str, tuple[bool, str]]:
    result: dict[str, tuple[bool, str]] = {}
    for consumer in CONSUMERS:
        try:
            verdict = _ask(consumer, path, package_paths)
        except Exception as exc:  # an oracle's own failure is reported, not counted as ours
            result[consumer] = (False, f'oracle raised {type(exc).__name__}: {exc}')
            continue
        if verdict is not None:
            result[consumer] = (bool(verdict.loaded), str(verdict.message or ''))
    return result


def _exercise_kinematics(description: RobotDescription) -> None:
    """Build ``KinematicModel`` and compute FK at neutral and random configurations."""
    model = KinematicModel(description.robot)
    model.link_poses()
    rng = np.random.default_rng(0)
    poses = model.link_pose_batch(rng.uniform(-1.0, 1.0, (FK_CONFIGURATIONS, model.nq)))
    if not np.all(np.isfinite(poses)):
        raise FloatingPointError('FK returned a non-finite pose')


def sweep_file(package: str, path: str, package_paths: dict[str, str],
               target: str) -> FileResult:
    """
    Run one file through this package and through every consumer.

    :param package: Package name (reported only).
    :param path: Absolute path of the ``.urdf`` or ``.xacro`` file.
    :param package_paths: Package share directories by name, for ``package://``.
    :param target: The check target, a key of ``TARGETS``.
    :return: What happened; never raises for a problem of the file.
    """
    start = time.perf_counter()
    result = FileResult(package, path)
    description: RobotDescription | None = None
    named: dict[str, set[str]] = {}
    try:
        description = load(path, package_paths=package_paths)
        findings = check_description(description, target=target)
        result.findings = [(finding.severity.value, finding.code) for finding in findings]
        for finding in findings:
            if finding.severity.value == 'error':
                named.setdefault(finding.code, set()).update(
                    name for name in finding.consumers or () if name in TARGETS[target])
    except RobotDescriptionError as exc:
        result.status, result.message = 'not-loaded', str(exc).splitlines()[0][:300]
    except Exception as exc:
        result.status, result.crash = 'crash', f'{type(exc).__name__}: {exc}'[:300]
    if description is not None and result.status == 'loaded':
        try:
            _exercise_kinematics(description)
        except RobotDescriptionError as exc:
            if not result.errors:
                result.crash = f'KinematicModel refused a file without errors: {exc}'[:300]
        except Exception as exc:
            result.crash = f'{type(exc).__name__}: {exc}'[:300]
    with tempfile.TemporaryDirectory() as scratch:
        consumer_path = path
        if path.endswith('.xacro'):
            consumer_path = ''
            if description is not None:
                consumer_path = os.path.join(scratch, Path(path).stem + '.urdf')
                Path(consumer_path).write_text(description.xml, encoding='utf-8')
        if consumer_path:
            result.verdicts = _consumer_verdicts(consumer_path, package_paths)
            _confirm(result, named, consumer_path, package_paths)
            if result.errors and all(result.verdicts.get(name, (False, ''))[0]
                                     for name in LOADING_CONSUMERS):
                try:
                    result.fk_difference = oracle_fk.pinocchio_fk_difference(consumer_path)
                except Exception:  # pinocchio could not compare: no claim either way
                    result.fk_difference = None
    result.seconds = time.perf_counter() - start
    return result


def _confirm(result: FileResult, named: dict[str, set[str]], path: str,
             package_paths: dict[str, str]) -> None:
    """Ask each consumer an error names whether it breaks on ``path`` (once per consumer)."""
    answers: dict[str, bool | None] = {}
    for code, consumers in sorted(named.items()):
        for consumer in sorted(consumers):
            if consumer not in answers:
                try:
                    answers[consumer] = breaks(consumer, Path(path), package_paths)
                except Exception as exc:  # an oracle's own failure: no claim either way
                    answers[consumer] = None
                    result.message = f'asking {consumer}: {type(exc).__name__}: {exc}'[:300]
        asked = [consumer for consumer in sorted(consumers) if answers[consumer] is not None]
        if not asked:
            result.unverifiable.append(code)
            continue
        result.confirmed[code] = [consumer for consumer in asked if answers[consumer]]


def _row(label: str, results: list[FileResult]) -> str:
    loaded = [result for result in results if result.status == 'loaded']
    clean = sum(1 for result in loaded if not result.errors)
    not_loaded = sum(1 for result in results if result.status == 'not-loaded')
    crashes = sum(1 for result in results if result.status == 'crash' or result.crash)
    return (f'{label:<20}{len(results):>7}{clean:>7}{len(loaded) - clean:>8}{not_loaded:>12}'
            f'{crashes:>9}')


def _consumer_cell(consumer: str, results: list[FileResult]) -> str:
    verdicts = [result.verdicts[consumer] for result in results if consumer in result.verdicts]
    loads = sum(1 for loaded, _ in verdicts if loaded)
    return f'{loads}/{len(verdicts) - loads}' if verdicts else 'n/a'


def is_false_error(result: FileResult) -> bool:
    """Whether one of its errors is confirmed by none of the consumers it names (asked live)."""
    return any(not consumers for consumers in result.confirmed.values())


def loads_everywhere(result: FileResult) -> bool:
    """Whether urdfdom 3 and 6 and pinocchio load it and pinocchio's FK agrees with ours."""
    loaded = all(result.verdicts.get(name, (False, ''))[0] for name in LOADING_CONSUMERS)
    return loaded and result.fk_difference is not None and result.fk_difference < FK_TOLERANCE


def is_missed_refusal(result: FileResult) -> bool:
    """Whether urdfdom (3 or 6) refuses the file while this package reports 0 errors."""
    refused = any(not result.verdicts[name][0] for name in ('urdfdom-3', 'urdfdom-6')
                  if name in result.verdicts)
    return refused and not result.errors and result.status != 'not-loaded'


def report(results: list[FileResult], roots: dict[str, Path], target: str,
           elapsed: float) -> None:
    """Print the summary tables and lists of a sweep."""
    def name(result: FileResult) -> str:
        return f'{result.package}/{Path(result.path).relative_to(roots[result.package])}'

    by_package = {package: [r for r in results if r.package == package] for package in roots}
    print(f'\n{"package":<20}{"files":>7}{"clean":>7}{"errors":>8}{"not loaded":>12}'
          f'{"crashes":>9}')
    for package, subset in by_package.items():
        print(_row(package, subset))
    print(_row('total', results))

    columns = [*roots, 'total']
    print(f'\n{"consumer (loads/refuses)":<26}' + ''.join(f'{c:>20}' for c in columns))
    for consumer in CONSUMERS:
        cells = [_consumer_cell(consumer, subset) for subset in by_package.values()]
        cells.append(_consumer_cell(consumer, results))
        print(f'{consumer:<26}' + ''.join(f'{cell:>20}' for cell in cells))

    findings = Counter(f for result in results for f in result.findings)
    files = Counter(f for result in results for f in set(result.findings))
    order = {'error': 0, 'warning': 1, 'info': 2}
    print(f'\nfindings for target {target!r} by code:')
    print(f'{"severity":<10}{"code":<40}{"findings":>10}{"files":>8}')
    for severity, code in sorted(findings, key=lambda key: (order.get(key[0], 3), key[1])):
        print(f'{severity:<10}{code:<40}{findings[severity, code]:>10}'
              f'{files[severity, code]:>8}')

    loaded = [result for result in results if result.status == 'loaded']
    common = sorted(code for severity, code in files
                    if severity == 'warning' and files[severity, code] > len(loaded) / 2)
    print(f'\nwarnings on more than half of the {len(loaded)} loaded files: '
          f'{", ".join(common) or "none"}')

    false_errors = [result for result in results if is_false_error(result)]
    print(f'\nfalse errors (an error none of the consumers it names breaks on, asked live): '
          f'{len(false_errors)} files')
    for result in false_errors[:LIST_LIMIT]:
        print(f'  {name(result)}: ' + ', '.join(
            code for code, consumers in result.confirmed.items() if not consumers))
    unverifiable = Counter(code for result in results for code in result.unverifiable)
    print('errors whose consumers cannot be asked here (files): '
          + (', '.join(f'{code} {count}' for code, count in unverifiable.items()) or 'none'))
    confirmed = Counter((code, ' or '.join(consumers)) for result in results
                        for code, consumers in result.confirmed.items() if consumers)
    print('errors by the consumers that confirm them (files):')
    for (code, consumers), count in sorted(confirmed.items()):
        print(f'  {code:<40}{consumers:<40}{count:>6}')
    everywhere = [result for result in results if result.errors and loads_everywhere(result)]
    print(f'\nfiles with errors that urdfdom 3 and 6 and pinocchio load, FK within '
          f'{FK_TOLERANCE:g} (each error confirmed above): {len(everywhere)}')
    for result in everywhere[:LIST_LIMIT]:
        print(f'  {name(result)}: ' + ', '.join(
            f'{code} ({" or ".join(consumers) or "unconfirmed"})'
            for code, consumers in result.confirmed.items()))

    missed = [result for result in results if is_missed_refusal(result)]
    print(f'\nmissed refusals (urdfdom refuses, 0 errors here; must be 0): {len(missed)}')
    for result in missed:
        reasons = [result.verdicts[n][1] for n in ('urdfdom-3', 'urdfdom-6')
                   if n in result.verdicts and not result.verdicts[n][0]]
        print(f'  {name(result)}: {reasons[0][:160] if reasons else ""}')

    in_target = [consumer for consumer in ('urdf_parser_py', 'pinocchio', 'mujoco', 'gazebo')
                 if consumer in TARGETS[target]]
    print(f'\nrefused by another consumer of target {target!r} with 0 errors here:')
    for consumer in in_target:
        refused = [result for result in results if result.status == 'loaded'
                   and not result.errors and consumer in result.verdicts
                   and not result.verdicts[consumer][0]]
        shown = ', '.join(name(result) for result in refused[:5])
        more = f' and {len(refused) - 5} more' if len(refused) > 5 else ''
        print(f'  {consumer}: {len(refused)}' + (f' ({shown}{more})' if refused else ''))

    crashes = [result for result in results if result.status == 'crash' or result.crash]
    print(f'\ncrashes: {len(crashes)}')
    for result in crashes:
        print(f'  {name(result)}: {result.crash}')
    slowest = sorted(results, key=lambda result: result.seconds, reverse=True)[:3]
    print('\nslowest files: ' + ', '.join(f'{name(r)} {r.seconds:.1f} s' for r in slowest))
    print(f'elapsed: {elapsed:.1f} s for {len(results)} files')


def main(argv: list[str] | None = None) -> None:
    """Parse the options, sweep the packages in parallel and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--target', choices=sorted(TARGETS), default='ros',
                        help='check target whose verdicts are errors (default: ros)')
    parser.add_argument('--limit', type=int, default=None, metavar='N',
                        help='only the first N files (sorted by path) of each package')
    parser.add_argument('--jobs', type=int, default=2, help='worker processes (default: 2)')
    parser.add_argument('--json', type=Path, default=None, metavar='OUT',
                        help='also write every file result and the options as JSON')
    parser.add_argument('--package', action='append', choices=PACKAGES, default=None,
                        help='package to sweep (repeatable; default: both)')
    args = parser.parse_args(argv)
    packages = args.package or list(PACKAGES)
    start = time.perf_counter()
    roots: dict[str, Path] = {}
    tasks: list[tuple[str, str, dict[str, str], str]] = []
    for package in packages:
        root, package_paths = package_root(package)
        roots[package] = root
        files = description_files(root)[:args.limit]
        tasks += [(package, str(path), package_paths, args.target) for path in files]
        print(f'{package}: {len(files)} files in {root}')
    available = [name for name, ok in oracles.available().items() if ok]
    print(f'target {args.target!r}, {args.jobs} jobs; consumers available: '
          f'{", ".join(available) or "none"}', flush=True)
    with ProcessPoolExecutor(args.jobs, initializer=_quiet_worker) as pool:
        results = list(pool.map(sweep_file, *zip(*tasks), chunksize=4)) if tasks else []
    report(results, roots, args.target, time.perf_counter() - start)
    if args.json is not None:
        records = [{**asdict(result), 'errors': result.errors,
                    'false_error': is_false_error(result),
                    'missed_refusal': is_missed_refusal(result)} for result in results]
        args.json.write_text(json.dumps({'target': args.target, 'packages': packages,
                                         'limit': args.limit, 'files': records}, indent=1),
                             encoding='utf-8')
        print(f'wrote {args.json}')


if __name__ == '__main__':
    main()
