"""
pytest plugin: a package's robot descriptions checked, each combination of arguments an item.

A package whose ``package.xml`` has ``<test_depend>urdf_tools_ros</test_depend>`` gets, with no
test file, one item per entry run (:func:`~urdf_tools_ros.core.checks.config.package_runs`: its
configured entries and their matrices, else the entries found in it), collected from its
``package.xml`` and marked ``linter`` as ament's linters are (``-m "not linter"`` leaves them
out): ``package.xml::urdf/robot.urdf.xacro[prefix=left_]``.

A description package's test, one item per combination (``ur_type=ur3 prefix=left_``)::

    @pytest.mark.urdf_matrix('../urdf/ur.urdf.xacro', ur_type=['ur3', 'ur5e'],
                             prefix=['', 'left_'])
    def test_ur_description(urdf_description):
        pass

Each combination is its own item, its id the combination's name
(:func:`urdf_tools_ros.core.source.matrix.label`). An item fails, listing the findings that fail
it, when ``urdf-tools check`` would exit 1; it errors at set-up when the description cannot be
loaded. The body runs after the check passes, with the fixtures (a marked test takes one):

* ``urdf_description``: the :class:`~urdf_tools_ros.core.source.loader.RobotDescription`;
* ``urdf_findings``: its findings, as ``urdf-tools check`` reports them (info included);
* ``urdf_args``: the xacro arguments ``{name: value}`` of the item.

``path`` is relative to the test file's folder; each argument's values are a list of strings
(a string: one value), as keywords or in the ``matrix`` dict (a name that is not a keyword or is
an option). Options: ``package_paths`` (``{name: share dir}``, relative as ``path``; the package
whose ``package.xml`` is nearest above the test file is found by itself), ``target``,
``select``, ``ignore``, ``werror`` (as ``urdf-tools check``'s, over the configuration nearest
the description).

Registered as the ``pytest11`` entry point ``urdf_tools_ros.pytest_plugin``; ``-p
no:urdf_tools_ros.pytest_plugin`` turns it off. Loading it imports pytest and the standard
library only; the core is imported when a marked test or such a ``package.xml`` is collected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
import os
from pathlib import Path
import re
from typing import Any, NoReturn, TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # never at run time: loading the plugin imports no urdf_tools_ros module
    from urdf_tools_ros.core.session import Settings
    from urdf_tools_ros.core.source.loader import RobotDescription
    from .core.findings import Finding

__all__ = ['LINTER', 'MARKER', 'MatrixCase', 'OPTIONS']

#: The marker's name.
MARKER = 'urdf_matrix'
#: The marker of the items of a package's entries (that of ament's linters).
LINTER = 'linter'
#: A package that names this package as a test dependency gets the items of its entries.
_DEPENDS = re.compile(r'<test_depend(?:\s[^>]*)?>\s*urdf_tools_ros\s*</test_depend>')
_PYTEST_7 = int(pytest.__version__.split('.')[0]) >= 7
#: The marker's keywords that are options, not xacro arguments.
OPTIONS = ('package_paths', 'target', 'select', 'ignore', 'werror')
#: The fixtures a marked test takes (at least one).
FIXTURES = ('urdf_description', 'urdf_findings', 'urdf_args')
_CASE = 'urdf_matrix_case'
#: The item attribute that holds one item's load and check (each done once).
_RESULT = '_urdf_matrix_result'


@dataclass(frozen=True)
class MatrixCase:
    """
    One combination of a marked test: the description to load and the arguments to load it with.

    :ivar path: The description file.
    :ivar combination: The matrix's arguments, ``((name, value), ...)`` in the marker's order.
    :ivar options: The marker's options (:data:`OPTIONS`) it gives.
    :ivar packages: Share directories by package name: the test's own package, then the
        ``package_paths`` option.
    :ivar written: The path as the marker writes it (the test id's, when a test has several).
    """

    path: Path
    combination: tuple[tuple[str, str], ...]
    options: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    packages: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    written: str = ''

    @property
    def name(self) -> str:
        """The file and the combination: ``robot.urdf.xacro [prefix=left_]``."""
        from urdf_tools_ros.core.source.matrix import label
        return f'{self.path} [{label(self.combination)}]' if self.combination \
            else str(self.path)


@dataclass
class _Result:
    """What one item loaded and found: each computed once, when first asked."""

    description: RobotDescription | None = None
    error: str | None = None
    findings: list[Finding] | None = None
    settings: Settings | None = None
    problem: Exception | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Declare the marker (``pytest --markers``, ``--strict-markers``)."""
    config.addinivalue_line(
        'markers', f'{MARKER}(path, matrix=None, **args): check the robot description at path '
        '(relative to the test file) once per combination of the xacro argument values '
        '(lists of strings), one test item each; the test takes urdf_description, '
        'urdf_findings or urdf_args. Options: package_paths, target, select, ignore, werror.')
    config.addinivalue_line('markers', f'{LINTER}: a linter (ament_lint), such as the check of '
                            'the robot descriptions of a package that test_depends on '
                            'urdf_tools_ros')


def _fail(where: str, message: str) -> NoReturn:
    pytest.fail(f'{where}: @pytest.mark.{MARKER}: {message}', pytrace=False)


def _cases(marker: pytest.Mark, test_file: Path, where: str) -> list[MatrixCase]:
    """The combinations one marker stands for (collection of a marked test only)."""
    from urdf_tools_ros.core.source.matrix import combinations, MatrixError

    matrix_arg = marker.args[1] if len(marker.args) == 2 else None
    if len(marker.args) not in (1, 2) or not isinstance(marker.args[0], (str, os.PathLike)) \
            or not isinstance(matrix_arg, (Mapping, type(None))):
        _fail(where, 'expected urdf_matrix(path, matrix=None, **args), matrix a dict')
    given = dict(marker.args[1]) if len(marker.args) == 2 and marker.args[1] else {}
    options = {name: marker.kwargs[name] for name in OPTIONS if name in marker.kwargs}
    for name, values in marker.kwargs.items():
        if name in options:
            continue
        if name in given:
            _fail(where, f'xacro argument {name!r} is given twice')
        given[name] = values
    matrix: dict[str, list[str]] = {}
    for name, values in given.items():
        values = [values] if isinstance(values, str) else values
        if not isinstance(values, Sequence) or not all(isinstance(v, str) for v in values):
            _fail(where, f'{name}={values!r}: the values of a xacro argument are strings, or a '
                  'list of strings')
        if len(set(values)) != len(values):
            _fail(where, f'{name}={values!r}: a value is given twice')
        matrix[str(name)] = list(values)
    try:
        every = combinations(matrix)
    except MatrixError as exc:
        _fail(where, str(exc))
    path = test_file.parent / os.fspath(marker.args[0])
    packages = {**_own_package(test_file.parent),
                **{name: str(test_file.parent / os.fspath(folder))
                   for name, folder in dict(options.get('package_paths') or {}).items()}}
    return [MatrixCase(path, combination, options, packages, os.fspath(marker.args[0]))
            for combination in every]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Make one item per combination of each ``urdf_matrix`` marker of the test."""
    markers = list(metafunc.definition.iter_markers(MARKER))
    if not markers:
        return
    from urdf_tools_ros.core.source.matrix import label

    where = metafunc.definition.nodeid
    if _CASE not in metafunc.fixturenames:
        _fail(where, f'the test takes none of the fixtures {", ".join(FIXTURES)}; take '
              'urdf_description (or urdf_findings, urdf_args)')
    test_file = Path(os.path.abspath(str(metafunc.module.__file__)))
    cases = [case for marker in reversed(markers) for case in _cases(marker, test_file, where)]
    several = len({case.path for case in cases}) > 1
    ids = [' '.join(part for part in (case.written if several else '' if case.combination
                                      else case.path.name, label(case.combination)) if part)
           for case in cases]
    metafunc.parametrize(_CASE, cases, ids=ids, indirect=True)


@pytest.fixture
def urdf_matrix_case(request: pytest.FixtureRequest) -> MatrixCase:
    """The combination of this item (``@pytest.mark.urdf_matrix``)."""
    case = getattr(request, 'param', None)
    if not isinstance(case, MatrixCase):
        pytest.fail(f'{request.node.nodeid}: {request.fixturename} is given by '
                    f'@pytest.mark.{MARKER}(path, ...), which the test lacks', pytrace=False)
    return case


@pytest.fixture
def urdf_args(urdf_matrix_case: MatrixCase) -> dict[str, str]:
    """The xacro arguments ``{name: value}`` of this item's combination."""
    return dict(urdf_matrix_case.combination)


@pytest.fixture
def urdf_description(request: pytest.FixtureRequest,
                     urdf_matrix_case: MatrixCase) -> RobotDescription:
    """This item's description, loaded with its combination's arguments (once per item)."""
    result = _load(request.node, urdf_matrix_case)
    if result.description is None:
        pytest.fail(str(result.error), pytrace=False)
    return result.description


@pytest.fixture
def urdf_findings(request: pytest.FixtureRequest, urdf_matrix_case: MatrixCase,
                  urdf_description: RobotDescription) -> list[Finding]:
    """The findings of this item's description, as ``urdf-tools check`` reports them."""
    return _check(request.node, urdf_matrix_case).findings or []


def _own_package(start: Path) -> dict[str, str]:
    """``{name: folder}`` of the package whose ``package.xml`` is nearest above ``start``."""
    for folder in [start, *start.parents]:
        manifest = folder / 'package.xml'
        if manifest.is_file():
            match = re.search(r'<name>\s*([^<\s]+)\s*</name>',
                              manifest.read_text(encoding='utf-8', errors='replace'))
            return {match.group(1): str(folder)} if match else {}
    return {}


def _load(item: pytest.Item, case: MatrixCase) -> _Result:
    """Load the item's description, once; a failure is kept as its message."""
    result: _Result | None = getattr(item, _RESULT, None)
    if result is not None:
        return result
    from urdf_tools_ros.core.session import resolve
    from .core.errors import RobotDescriptionError

    result = _Result()
    setattr(item, _RESULT, result)
    options = case.options
    try:  # the pipeline's settings, once: the options over the configuration nearest the file
        result.settings = resolve(
            case.path, select=list(options.get('select') or ()),
            ignore=list(options.get('ignore') or ()), target=options.get('target'),
            werror=options.get('werror'), package_paths=case.packages,
            names=(f'{MARKER} select', f'{MARKER} ignore'))
    except RobotDescriptionError as exc:  # the check raises it; the load goes on without
        result.problem = exc
        result.settings = resolve(use_config=False, package_paths=case.packages)
    try:
        result.description = result.settings.load(case.path, dict(case.combination))
    except RobotDescriptionError as exc:
        result.error = f'{case.name}: cannot be loaded: {exc}'
    return result


def _check(item: pytest.Item, case: MatrixCase) -> _Result:
    """Check the item's description, once (the configuration nearest it, then the options)."""
    result = _load(item, case)
    if result.findings is not None or result.description is None:
        return result
    if result.problem is not None:  # a configuration or option that is wrong
        raise result.problem
    assert result.settings is not None
    result.findings = result.settings.check(result.description)
    return result


def _verdict(item: pytest.Item, case: MatrixCase) -> None:
    """Fail ``item`` with the findings that fail its combination, or its load's message."""
    from urdf_tools_ros.core.session import failing
    result = _check(item, case)
    if result.description is None or result.settings is None:
        pytest.fail(str(result.error), pytrace=False)
    failed = failing(result.findings or (), result.settings.werror)
    if failed:
        kinds = Counter(finding.severity.value for finding in failed)
        counts = ', '.join(f'{kinds[kind]} {kind}' + ('s' if kinds[kind] != 1 else '')
                           for kind in ('error', 'warning') if kinds[kind])
        pytest.fail(f'{case.name}: {counts}' + (' (werror)' if kinds['warning'] else '') + ':\n'
                    + '\n'.join(str(finding) for finding in failed), pytrace=False)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> None:
    """Before a marked test's body: fail it with the findings that fail its combination."""
    callspec = getattr(pyfuncitem, 'callspec', None)
    case = callspec.params.get(_CASE) if callspec is not None else None
    if isinstance(case, MatrixCase):
        _verdict(pyfuncitem, case)


class EntryItem(pytest.Item):
    """The check of one run of a package's entry (:data:`LINTER`)."""

    def __init__(self, *, case: MatrixCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.add_marker(LINTER)

    def runtest(self) -> None:
        """Fail with the findings that fail the run, as ``urdf-tools check`` would exit 1."""
        _verdict(self, self.case)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """The ``package.xml``, and a failure's title: ``urdf-tools check urdf/r.urdf.xacro``."""
        return getattr(self, 'path', None) or self.fspath, None, f'urdf-tools check {self.name}'


class PackageFile(pytest.File):
    """A ``package.xml`` that test_depends on urdf_tools_ros: the runs of its entries."""

    def collect(self) -> Iterator[EntryItem]:
        """One :class:`EntryItem` per run of the package's entries."""
        from urdf_tools_ros.core.checks.config import find_config, package_runs
        from urdf_tools_ros.core.source.matrix import label

        folder = Path(str(getattr(self, 'path', None) or self.fspath)).parent  # 6: fspath
        for file, combination in package_runs(folder, find_config(folder)):
            name = Path(os.path.relpath(file, folder)).as_posix() + (
                f'[{label(combination)}]' if combination else '')
            yield EntryItem.from_parent(self, name=name,
                                        case=MatrixCase(Path(file), combination))


def _package_file(path: Path, parent: pytest.Collector) -> PackageFile | None:
    if path.name != 'package.xml' or not _DEPENDS.search(
            path.read_text(encoding='utf-8', errors='replace')):
        return None
    if _PYTEST_7:
        return PackageFile.from_parent(parent, path=path)
    import py  # type: ignore[import-untyped]  # pytest 6 names files as py.path.local
    return PackageFile.from_parent(parent, fspath=py.path.local(path))


def _collect_file(file_path: Path, parent: pytest.Collector) -> PackageFile | None:
    """Collect a ``package.xml`` that test_depends on this package (:class:`PackageFile`)."""
    return _package_file(file_path, parent)


def _collect_path(path: Any, parent: pytest.Collector) -> PackageFile | None:
    """As :func:`_collect_file`, on pytest 6 (Humble): a ``py.path.local``, no ``file_path``."""
    return _package_file(Path(str(path)), parent)


pytest_collect_file = _collect_file if _PYTEST_7 else _collect_path
