"""
Dump every loaded model and every finding of a set of real robots, to compare two versions.

For each description file it writes one JSON line: the file (relative to its set), the xacro
arguments, and either the load failure's message or ``repr`` of the loaded model
(:class:`~urdf_tools_ros.core.model.robot.Robot`), the loader's findings and the findings
of :func:`~urdf_tools_ros.core.check_description` for each target of ``--targets``. Only the
public names of :mod:`urdf_tools_ros.core` are used, so the same script runs on any version of
the package; two dumps are compared with ``cmp`` or ``diff``.

The sets: ``../shared/models`` (every ``.urdf`` and ``.xacro``), the ``../shared/
ros2_descriptions`` cases (``cases.json``: entry and arguments, packages from that folder),
``test/corpus`` and the installed ``example-robot-data`` and ``pybullet_data`` wheels (their
package paths as ``bench/corpus_sweep.py`` gives them). A set that is not here is left out with
a line on standard error. Not a test: nothing is asserted.

Run: ``.venv/bin/python bench/dump_results.py OUT.jsonl [--targets ros-jazzy,gazebo]``
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
import sys

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / 'test'))
sys.path.insert(0, str(REPO / 'bench'))

from paths import ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES, SHARED, SHARED_MODELS  # noqa: E402

from urdf_tools_ros.core import check_description, load, RobotDescriptionError  # noqa: E402

SUFFIXES = ('.urdf', '.xacro')


def _files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob('*')
                  if path.is_file() and path.name.endswith(SUFFIXES))


def _jobs() -> list[tuple[str, Path, dict[str, str], dict[str, str], tuple[str, ...]]]:
    """``(set, file, xacro args, package paths, package folders)`` of every description."""
    jobs: list[tuple[str, Path, dict[str, str], dict[str, str], tuple[str, ...]]] = []
    if SHARED_MODELS.is_dir():
        jobs += [('models', path, {}, {}, ()) for path in _files(SHARED_MODELS)]
    else:
        print(f'no {SHARED_MODELS}: left out', file=sys.stderr)
    for case in ROS2_CASES.values():
        args = dict(item.split(':=', 1) for item in case['args'])
        jobs.append(('ros2_descriptions', ROS2_DESCRIPTIONS / case['entry'], args,
                     dict(ROS2_PACKAGES), ()))
    jobs += [('corpus', path, {}, {}, ()) for path in _files(REPO / 'test' / 'corpus')]
    try:
        from corpus_sweep import package_root
    except ImportError as exc:  # pragma: no cover - the sweep's own imports
        print(f'bench/corpus_sweep.py cannot be imported ({exc}): wheels left out',
              file=sys.stderr)
        return jobs
    for package in ('example-robot-data', 'pybullet_data'):
        try:
            root, paths = package_root(package)
        except (ImportError, FileNotFoundError) as exc:
            print(f'{package}: {exc}: left out', file=sys.stderr)
            continue
        jobs += [(package, path, {}, paths, ()) for path in _files(root)]
    return jobs


def _relative(kind: str, path: Path) -> str:
    for base in (SHARED_MODELS, ROS2_DESCRIPTIONS, REPO / 'test' / 'corpus'):
        try:
            return str(path.relative_to(base))
        except ValueError:
            pass
    return str(path).split(kind.replace('-', '_') + os.sep)[-1]


def _clean(text: str, path: Path) -> str:
    """``text`` with the absolute folders that differ between checkouts replaced."""
    for folder, name in ((Path(sys.prefix), '<prefix>'), (SHARED, '<shared>'),
                         (REPO, '<repo>')):
        text = text.replace(str(folder.resolve()), name).replace(str(folder), name)
    return text


def dump(out: Path, targets: list[str]) -> int:
    """Write the dump to ``out``; return the number of files."""
    jobs = _jobs()
    with out.open('w') as stream:
        for kind, path, args, paths, folders in jobs:
            record: dict[str, object] = {'set': kind, 'file': _relative(kind, path),
                                         'args': args}
            try:
                description = load(path, xacro_args=args, package_paths=paths,
                                   package_folders=folders)
            except RobotDescriptionError as exc:
                record['failure'] = str(exc)
            else:
                record['robot'] = repr(description.robot)
                record['loading'] = [repr(finding) for finding in description.findings]
                for target in targets:
                    record[target] = [repr(finding) for finding in
                                      check_description(description, target)]
            stream.write(_clean(json.dumps(record, sort_keys=True), path) + '\n')
    return len(jobs)


def main() -> None:
    """Parse the command line and write the dump."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('out', type=Path)
    parser.add_argument('--targets', default='ros-humble,ros-jazzy,ros-lyrical,gazebo,mujoco',
                        help='comma-separated targets to check each description for')
    options = parser.parse_args()
    count = dump(options.out, options.targets.split(','))
    print(f'{count} files -> {options.out}')


if __name__ == '__main__':
    main()
