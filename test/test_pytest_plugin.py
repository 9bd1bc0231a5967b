"""
The pytest plugin: ``@pytest.mark.urdf_matrix(path, name=[values])``, one item per combination.

Run through pytester (in-process, so that the loader can be counted) and in subprocesses
(what pytest imports, what it collects with and without the plugin). Link names and ros2_control
plugins are compared with what xacro itself gives and with the xacro source, never with the
plugin's output. Runs on every pytest the suite runs on (6.2.5 to 9).
"""

from __future__ import annotations

from collections import Counter
import importlib.util
import itertools
import json
import os
from pathlib import Path
import re
import subprocess
import sys
import textwrap
from typing import Any

from paths import ROS2_DESCRIPTIONS, ROS2_PACKAGES
import pytest
import xacro

from conftest import REPO, SAMPLE_ROBOT
# pytester's in-process runs forget the modules they import, and numpy cannot be imported twice
# in one process: what the plugin imports when a marked test runs is imported here, before them
import urdf_tools_ros.core.checks  # noqa: F401,I100
import urdf_tools_ros.core.source.loader  # noqa: F401
import urdf_tools_ros.core.source.xacro.runner  # noqa: F401

pytestmark = pytest.mark.portability

pytest_plugins = ['pytester']

PLUGIN = 'urdf_tools_ros.pytest_plugin'
DESCRIPTIONS = ROS2_DESCRIPTIONS
KUKA = DESCRIPTIONS / 'kuka_agilus_support' / 'urdf' / 'kr6_r700_sixx.urdf.xacro'

#: test_matrix's robot with a missing mesh (a warning): ``bad:=true`` drops the joint's velocity
#: limit (urdfdom refuses it: an error); ``maybe`` is no boolean (xacro fails); ``prefix`` goes
#: before every name.
CONDITIONAL = (REPO / 'test' / 'urdf' / 'matrix' / 'conditional.urdf.xacro').read_text().replace(
    '<link name="$(arg prefix)arm">', '<link name="$(arg prefix)arm">\n'
    '    <visual><geometry><mesh filename="arm.stl"/></geometry></visual>')
#: A xacro macro of one link, ``$(find ...)``'d by the package tests.
PART = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:macro name="part" params="name"><link name="${name}"/></xacro:macro></robot>')


def xacro_links(path: Path, args: dict[str, str]) -> list[str]:
    """The link names xacro itself writes (xacro's own API, not this package's loader)."""
    document = xacro.process_file(str(path), mappings=dict(args))
    return sorted(element.getAttribute('name')
                  for element in document.getElementsByTagName('link'))


def collected(result: Any) -> list[str]:
    """The node ids ``--collect-only -q`` lists."""
    return [line for line in result.outlines if '::' in line]


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The robot names of every check the plugin makes in this process."""
    import urdf_tools_ros.core.checks as checking
    calls: list[str] = []
    real = checking.check_description

    def counting(description: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(description.robot.links[0].name)
        return real(description, *args, **kwargs)

    monkeypatch.setattr(checking, 'check_description', counting)
    return calls


def test_one_item_per_combination_each_with_its_own_description(
        pytester: pytest.Pytester, loads: list[tuple[str, dict[str, str]]]) -> None:
    """What Universal_Robots_ROS2_Description's test once did wrong cannot happen here."""
    out = pytester.path / 'seen.jsonl'
    pytester.makepyfile(test_robot=f"""
        import json
        import pytest

        @pytest.mark.urdf_matrix({str(SAMPLE_ROBOT)!r}, prefix=['', 'a_', 'b_'],
                                 with_extras=['false', 'true'])
        def test_sample(urdf_description, urdf_args, request):
            with open({str(out)!r}, 'a') as stream:
                stream.write(json.dumps({{
                    'id': request.node.name, 'args': urdf_args,
                    'links': sorted(link.name for link in urdf_description.robot.links),
                    'object': id(urdf_description)}}) + '\\n')
    """)
    matrix = list(itertools.product(['', 'a_', 'b_'], ['false', 'true']))
    names = [f"test_sample[prefix={prefix or repr('')} with_extras={extras}]"
             for prefix, extras in matrix]
    listing = pytester.runpytest('-p', PLUGIN, '--collect-only', '-q')
    assert collected(listing) == [f'test_robot.py::{name}' for name in names]
    assert loads == []  # collecting loads nothing
    result = pytester.runpytest('-p', PLUGIN)
    result.assert_outcomes(passed=6)
    assert Counter(tuple(args.values()) for _, args in loads) == Counter(matrix)  # once each
    seen = records(out)
    assert [item['id'] for item in seen] == names
    for item, (prefix, extras) in zip(seen, matrix):
        assert item['args'] == {'prefix': prefix, 'with_extras': extras}
        assert item['links'] == xacro_links(SAMPLE_ROBOT, item['args'])
        assert all(name.startswith(prefix) for name in item['links'] if name != 'world')
    assert len({json.dumps(item['links']) for item in seen}) == 6  # six different robots


def test_a_failing_combination_lists_its_findings(pytester: pytest.Pytester,
                                                  loads: list[tuple[str, dict[str, str]]],
                                                  checks: list[str]) -> None:
    robot = pytester.path / 'urdf' / 'arm.urdf.xacro'
    robot.parent.mkdir()
    robot.write_text(CONDITIONAL)
    pytester.makepyfile(test_arm="""
        import pytest

        @pytest.mark.urdf_matrix('urdf/arm.urdf.xacro', prefix=['', 'left_'],
                                 bad=['false', 'true', 'maybe'])
        def test_arm(urdf_findings):
            pass
    """)
    result = pytester.runpytest('-p', PLUGIN, '-rfE')
    result.assert_outcomes(passed=2, failed=2, errors=2)
    # the fixture and the check before the body share one load and one check per item
    assert sorted((args['prefix'], args['bad']) for _, args in loads) == sorted(
        itertools.product(['', 'left_'], ['false', 'true', 'maybe']))
    assert sorted(checks) == ['base', 'base', 'left_base', 'left_base']  # 'maybe' never loads
    text = result.stdout.str()
    line = CONDITIONAL.splitlines().index('      <limit lower="-1" upper="1" effort="10"/>') + 1
    for prefix in ('', 'left_'):
        name = f"{robot} [prefix={prefix or repr('')} bad=true]"
        assert f'{name}: 1 error:\n{robot}:{line}: error[joint-limit-velocity-missing]: ' \
               f'joint:{prefix}shoulder: joint "{prefix}shoulder" (revolute)' in text, text
        assert f"{robot} [prefix={prefix or repr('')} bad=maybe]: cannot be loaded: " in text
    assert text.count('not a boolean expression') >= 2
    assert text.count('mesh-file-missing') == 0  # a warning: it fails nothing


@pytest.mark.parametrize('options, toml, outcome', [
    ('', '', 'passed'), ('werror=True', '', 'failed'), ("target='mujoco'", '', 'passed'),
    ("werror=True, ignore=['mesh-']", '', 'passed'),
    ("werror=True, select=['joint-']", '', 'passed'),
    ('', 'werror = true\n', 'failed')])  # the configuration file next to the description
def test_the_options_are_those_of_urdf_tools_check(
        pytester: pytest.Pytester, options: str, toml: str, outcome: str) -> None:
    (pytester.path / 'arm.urdf.xacro').write_text(CONDITIONAL)
    (pytester.path / '.urdf-tools.toml').write_text(toml)
    pytester.makepyfile(test_arm=f"""
        import pytest

        @pytest.mark.urdf_matrix('arm.urdf.xacro', bad='false', {options})
        def test_arm(urdf_findings):
            pass
    """)
    result = pytester.runpytest('-p', PLUGIN)
    result.assert_outcomes(**{outcome: 1})
    if outcome == 'failed':
        assert ': 1 warning (werror):' in result.stdout.str()
        assert 'warning[mesh-file-missing]' in result.stdout.str()


def test_findings_as_a_fixture_and_a_name_that_is_an_option(pytester: pytest.Pytester) -> None:
    """A xacro argument named like an option (or no identifier) goes in the dict."""
    (pytester.path / 'arm.urdf.xacro').write_text(
        CONDITIONAL.replace('"prefix"', '"target"').replace('arg prefix', 'arg target'))
    pytester.makepyfile(test_arm="""
        import pytest

        @pytest.mark.urdf_matrix('arm.urdf.xacro', {'target': ['p_', 'q_']})
        def test_arm(urdf_findings, urdf_description, urdf_args):
            assert {f.code for f in urdf_findings} >= {'mesh-file-missing'}
            assert urdf_description.robot.links[0].name == urdf_args['target'] + 'base'
    """)
    result = pytester.runpytest('-p', PLUGIN, '-v')
    result.assert_outcomes(passed=2)
    assert 'test_arm[target=p_] PASSED' in result.stdout.str()


def test_several_markers_name_their_files_and_a_class_marker_applies(
        pytester: pytest.Pytester) -> None:
    (pytester.path / 'urdf').mkdir()
    for name in ('one.urdf.xacro', 'urdf/two.urdf.xacro'):
        (pytester.path / name).write_text(CONDITIONAL)
    pytester.makepyfile(test_arms="""
        import pytest

        @pytest.mark.urdf_matrix('one.urdf.xacro', prefix=['', 'a_'])
        @pytest.mark.urdf_matrix('urdf/two.urdf.xacro', prefix=['b_'], bad='true')
        def test_arms(urdf_args):
            pass

        @pytest.mark.urdf_matrix('one.urdf.xacro', bad='true', ignore=['joint-limit-'])
        class TestArm:
            def test_method(self, urdf_findings):
                assert not [f for f in urdf_findings if f.code.startswith('joint-limit-')]
    """)
    listing = pytester.runpytest('-p', PLUGIN, '--collect-only', '-q')
    assert collected(listing) == [
        "test_arms.py::test_arms[one.urdf.xacro prefix='']",
        'test_arms.py::test_arms[one.urdf.xacro prefix=a_]',
        'test_arms.py::test_arms[urdf/two.urdf.xacro prefix=b_ bad=true]',
        'test_arms.py::TestArm::test_method[bad=true]']
    result = pytester.runpytest('-p', PLUGIN)
    result.assert_outcomes(passed=3, failed=1)
    assert 'two.urdf.xacro [prefix=b_ bad=true]: 1 error:' in result.stdout.str()


def test_the_test_packages_own_package_is_found(pytester: pytest.Pytester) -> None:
    """``$(find my_robot)`` in a package's test resolves to the package's own folder."""
    package = pytester.path / 'my_robot'
    (package / 'urdf').mkdir(parents=True)
    (package / 'test').mkdir()
    (package / 'package.xml').write_text(
        '<?xml version="1.0"?>\n<package format="3">\n  <name>my_robot</name>\n'
        '  <version>0.0.0</version>\n</package>\n')
    (package / 'urdf' / 'part.xacro').write_text(PART)
    (package / 'urdf' / 'robot.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:arg name="prefix" default=""/>\n'
        '  <xacro:include filename="$(find my_robot)/urdf/part.xacro"/>\n'
        '  <xacro:part name="$(arg prefix)base"/>\n</robot>\n')
    (package / 'test' / 'test_urdf.py').write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.urdf_matrix('../urdf/robot.urdf.xacro', prefix=['', 'r2_'])
        def test_urdf(urdf_description, urdf_args):
            assert [link.name for link in urdf_description.robot.links] == [
                urdf_args['prefix'] + 'base']
    """))
    pytester.runpytest('-p', PLUGIN, str(package / 'test')).assert_outcomes(passed=2)


def test_a_relative_package_path_is_relative_to_the_test_file(pytester: pytest.Pytester) -> None:
    """As the marker's path: pytest runs from elsewhere, ``$(find parts)`` is the right folder."""
    parts = pytester.path / 'parts'
    parts.mkdir()
    (parts / 'part.xacro').write_text(PART)
    tests = pytester.path / 'robot' / 'test'
    tests.mkdir(parents=True)
    (tests / 'robot.urdf.xacro').write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="$(find parts)/part.xacro"/>\n'
        '  <xacro:part name="base"/>\n</robot>\n')
    (tests / 'test_urdf.py').write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.urdf_matrix('robot.urdf.xacro', package_paths={'parts': '../../parts'})
        def test_urdf(urdf_description):
            assert [link.name for link in urdf_description.robot.links] == ['base']
    """))
    assert os.getcwd() == str(pytester.path)  # where ../../parts is not
    pytester.runpytest('-p', PLUGIN, str(tests)).assert_outcomes(passed=1)


@pytest.mark.parametrize('marker, message', [
    ("'robot.urdf.xacro', prefix=['a', 'b']", 'takes none of the fixtures'),
    ("'robot.urdf.xacro', prefix=[1, 2]", 'strings, or a list of strings'),
    ("'robot.urdf.xacro', prefix=['a', 'a']", 'a value is given twice'),
    ("'robot.urdf.xacro', {'prefix': ['a']}, prefix=['b']", "'prefix' is given twice"),
    ("'robot.urdf.xacro', prefix=[]", 'expected a list of values'),
    ('prefix=["a"]', 'expected urdf_matrix(path'),
    ("'robot.urdf.xacro', ['prefix']", 'matrix a dict'),
])
def test_a_wrong_marker_is_a_collection_error_naming_the_test(
        pytester: pytest.Pytester, marker: str, message: str) -> None:
    argument = '' if 'fixtures' in message else 'urdf_description'
    pytester.makepyfile(test_wrong=f"""
        import pytest

        @pytest.mark.urdf_matrix({marker})
        def test_wrong({argument}):
            pass

        def test_other():
            pass
    """)
    result = pytester.runpytest('-p', PLUGIN)
    assert result.ret != 0
    result.assert_outcomes(errors=1)
    text = result.stdout.str()
    assert 'test_wrong.py::test_wrong: @pytest.mark.urdf_matrix: ' in text and message in text


def test_the_fixtures_without_the_marker_fail_with_a_message(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="""
        def test_plain(urdf_description):
            pass
    """)
    result = pytester.runpytest('-p', PLUGIN)
    result.assert_outcomes(errors=1)
    assert 'is given by @pytest.mark.urdf_matrix(path, ...), which the test lacks' in \
        result.stdout.str()


# -- the linter of a package: no test file ------------------------------------------------------
#: pytest-lsp 1.0.1's pytest_runtest_call returns without yielding for an item that is not a
#: test function, which fails it; where that plugin is installed (the pytest 9 venv) it is off.
NO_LSP_PLUGIN = ('-p', 'no:pytest-lsp')


def linted_package(folder: Path, depend: str = 'test_depend') -> Path:
    """A package in ``folder`` that names urdf_tools_ros as ``depend``, with parts and entries."""
    (folder / 'urdf').mkdir(parents=True)
    (folder / 'package.xml').write_text(
        '<?xml version="1.0"?>\n<package format="3">\n  <name>my_robot</name>\n'
        f'  <version>0.0.0</version>\n  <{depend}>urdf_tools_ros</{depend}>\n</package>\n')
    (folder / 'urdf' / 'part.xacro').write_text(PART)  # macros: no entry
    (folder / 'urdf' / 'robot.urdf.xacro').write_text(CONDITIONAL)
    (folder / 'urdf' / 'two.urdf.xacro').write_text(
        '<robot name="two" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="$(find my_robot)/urdf/part.xacro"/>\n'
        '  <xacro:part name="a"/>\n  <xacro:part name="b"/>\n</robot>\n')
    return folder


def test_a_package_that_test_depends_on_it_gets_each_entry_checked(
        pytester: pytest.Pytester) -> None:
    """Collected from ``package.xml``, marked ``linter``; the macros are no entry."""
    package = linted_package(pytester.path)
    listing = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN, '--collect-only', '-q')
    assert collected(listing) == ['package.xml::urdf/robot.urdf.xacro',
                                  'package.xml::urdf/two.urdf.xacro']
    result = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN, '-m', 'linter')
    result.assert_outcomes(failed=1, passed=1)  # two roots: 'a' and 'b'
    assert 'two.urdf.xacro: 1 error:' in result.stdout.str()
    deselected = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN, '-m', 'not linter')
    assert deselected.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    (package / 'urdf' / 'two.urdf.xacro').unlink()
    robot = package / 'urdf' / 'robot.urdf.xacro'
    robot.write_text(CONDITIONAL.replace('default="false"', 'default="true"'))
    line = CONDITIONAL.splitlines().index('      <limit lower="-1" upper="1" effort="10"/>') + 1
    failed = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN)
    failed.assert_outcomes(failed=1)
    assert f'{robot}:{line}: error[joint-limit-velocity-missing]' in failed.stdout.str()


@pytest.mark.parametrize('depend', ['exec_depend', 'depend'])
def test_a_package_without_the_test_dependency_gets_nothing(pytester: pytest.Pytester,
                                                            depend: str) -> None:
    linted_package(pytester.path, depend)
    result = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_package_configuration_gives_the_entries_and_their_matrix(
        pytester: pytest.Pytester) -> None:
    package = linted_package(pytester.path)
    (package / '.urdf-tools.toml').write_text(
        '[[entries]]\nfile = "urdf/robot.urdf.xacro"\nmatrix = {bad = ["false", "true"]}\n')
    result = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN, '-v')
    result.assert_outcomes(passed=1, failed=1)
    assert 'package.xml::urdf/robot.urdf.xacro[bad=false] PASSED' in result.stdout.str()
    assert 'package.xml::urdf/robot.urdf.xacro[bad=true] FAILED' in result.stdout.str()
    (package / '.urdf-tools.toml').write_text('exclude = ["urdf/two*"]\n')
    listing = pytester.runpytest('-p', PLUGIN, *NO_LSP_PLUGIN, '--collect-only', '-q')
    assert collected(listing) == ['package.xml::urdf/robot.urdf.xacro']


# -- an unrelated run ---------------------------------------------------------------------------
UNRELATED = """
import pytest

@pytest.mark.parametrize('n', [1, 2, 3])
def test_numbers(n):
    assert n < 3

@pytest.mark.skip(reason='not today')
def test_skipped():
    pass

class TestGroup:
    def test_method(self, tmp_path):
        assert tmp_path.is_dir()
"""
CONFTEST = """
import json, os, sys

def pytest_collection_finish(session):
    with open(os.environ['MODULES_OUT'], 'w') as stream:
        json.dump(sorted(sys.modules), stream)
"""


def run_pytest(folder: Path, modules: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest in a fresh interpreter; the conftest writes ``sys.modules`` after collecting."""
    env = {key: value for key, value in os.environ.items()
           if key not in ('PYTEST_ADDOPTS', 'PYTEST_PLUGINS', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD')}
    env['MODULES_OUT'] = str(modules)
    return subprocess.run([sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def test_an_unrelated_run_is_unchanged_and_imports_nothing_of_the_package(
        tmp_path: Path) -> None:
    (tmp_path / 'test_unrelated.py').write_text(UNRELATED)
    (tmp_path / 'conftest.py').write_text(CONFTEST)
    runs = {}
    for number, switch in enumerate((PLUGIN, f'no:{PLUGIN}')):
        modules = tmp_path / f'modules{number}.json'
        done = run_pytest(tmp_path, modules, '-p', switch, '-v')
        outcome = [line for line in done.stdout.splitlines()
                   if line.startswith('test_unrelated.py::')]
        # without the time and the '=' padding, whose width depends on the time's digits
        last = done.stdout.strip().splitlines()[-1]
        summary = re.sub(r' in [\d.]+s.*?=', ' =', last).strip('= ')
        helped = run_pytest(tmp_path, tmp_path / 'unused.json', '-p', switch, '--help').stdout
        runs[switch] = (done.returncode, outcome, summary,
                        set(json.loads(modules.read_text())), helped)
    with_plugin, without = runs[PLUGIN], runs[f'no:{PLUGIN}']
    assert with_plugin[0] == without[0] == 1  # test_numbers[3] fails either way
    assert with_plugin[1] == without[1] and len(with_plugin[1]) == 5
    assert with_plugin[2] == without[2] and '1 failed, 3 passed, 1 skipped' in without[2]
    added = with_plugin[3] - without[3]
    assert PLUGIN in with_plugin[3] and PLUGIN not in without[3]
    assert added <= {'urdf_tools_ros', PLUGIN}, sorted(added)
    assert not {'lxml', 'numpy', 'xacro', 'urdf_tools_ros.core'} & with_plugin[3]
    assert with_plugin[4] == without[4]  # no command-line or ini option of its own


# -- real description packages ------------------------------------------------------------------
@pytest.mark.skipif(not KUKA.is_file(), reason=f'{DESCRIPTIONS} is not here')
def test_a_kuka_arm_over_its_modes_and_prefixes(pytester: pytest.Pytester,
                                                loads: list[tuple[str, dict[str, str]]]) -> None:
    """
    kr6_r700_sixx: ``mode`` chooses the ros2_control hardware plugin, ``prefix`` the names.

    The plugin each mode selects is read from the macro's source; the link names from the
    unprefixed robot, whose names the prefixed ones must repeat with the prefix.
    """
    macro = (KUKA.parent / 'kr_agilus_ros2_control_macro.xacro').read_text()
    mock = re.search(r"mode == 'mock'\}\">\s*<plugin>([^<]+)</plugin>", macro).group(1)
    rsi = re.search(r"driver_version == 'rsi_only'\}\">\s*<plugin>([^<]+)</plugin>",
                    macro).group(1)
    assert 'driver_version" default="rsi_only"' in KUKA.read_text()
    out = pytester.path / 'seen.jsonl'
    pytester.makepyfile(test_kuka=f"""
        import json
        import re
        import pytest

        @pytest.mark.urdf_matrix({str(KUKA)!r}, mode=['mock', 'hardware'],
                                 prefix=['', 'left_'], package_paths={ROS2_PACKAGES!r})
        def test_kuka(urdf_description, urdf_args):
            with open({str(out)!r}, 'a') as stream:
                stream.write(json.dumps({{
                    'args': urdf_args,
                    'links': [link.name for link in urdf_description.robot.links],
                    'plugins': re.findall(r'<plugin>([^<]+)</plugin>',
                                          urdf_description.xml)}}) + '\\n')
    """)
    result = pytester.runpytest('-p', PLUGIN, '-v')
    result.assert_outcomes(passed=4)
    matrix = [(mode, prefix) for mode in ('mock', 'hardware') for prefix in ('', 'left_')]
    for mode, prefix in matrix:
        shown = f"test_kuka[mode={mode} prefix={prefix or repr('')}] PASSED"
        assert shown in result.stdout.str()
    assert sorted((args['mode'], args['prefix']) for _, args in loads) == sorted(matrix)
    seen = {(item['args']['mode'], item['args']['prefix']): item for item in records(out)}
    assert sorted(seen) == sorted(matrix)
    bare = seen['mock', '']['links']
    assert len(bare) == 11 and 'base_link' in bare  # cases.json: 11 links
    for (mode, prefix), item in seen.items():
        assert item['links'] == [name if name == 'world' else prefix + name for name in bare]
        assert item['plugins'] == [mock if mode == 'mock' else rsi]


# -- the entry point, under colcon test ---------------------------------------------------------
DEPENDENT_TEST = """
import pytest


@pytest.mark.urdf_matrix('../urdf/robot.urdf.xacro', prefix=['', 'left_'],
                         bad=['false', 'true'])
def test_robot_description(urdf_description):
    pass
"""


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec('colcon_core') is None,
                    reason='colcon is not installed: pip install colcon-common-extensions')
@pytest.mark.skipif(os.environ.get('URDF_TOOLS_COLCON_INNER') == '1',
                    reason='already inside a colcon test of this package')
def test_colcon_test_of_a_dependent_package_runs_each_combination(tmp_path: Path) -> None:
    """A description package's test, with no ``-p``: colcon's build registers the plugin."""
    import shutil

    from test_colcon import colcon, COPY_IGNORE

    workspace = tmp_path / 'ws'
    shutil.copytree(REPO, workspace / 'src' / 'urdf_tools_ros', ignore=COPY_IGNORE)
    package = workspace / 'src' / 'my_robot_description'
    for folder in ('urdf', 'test', 'resource'):
        (package / folder).mkdir(parents=True)
    (package / 'resource' / 'my_robot_description').write_text('')
    (package / 'urdf' / 'robot.urdf.xacro').write_text(CONDITIONAL)
    (package / 'test' / 'test_urdf.py').write_text(DEPENDENT_TEST)
    (package / 'package.xml').write_text(textwrap.dedent("""\
        <?xml version="1.0"?>
        <package format="3">
          <name>my_robot_description</name>
          <version>0.0.0</version>
          <description>A robot</description>
          <maintainer email="a@b.invalid">a</maintainer>
          <license>Apache-2.0</license>
          <test_depend>urdf_tools_ros</test_depend>
          <test_depend>python3-pytest</test_depend>
          <export><build_type>ament_python</build_type></export>
        </package>
    """))
    (package / 'setup.py').write_text(textwrap.dedent("""\
        from setuptools import setup
        setup(name='my_robot_description', version='0.0.0', packages=[],
              data_files=[('share/ament_index/resource_index/packages',
                           ['resource/my_robot_description']),
                          ('share/my_robot_description', ['package.xml'])],
              tests_require=['pytest'])
    """))
    built = colcon(workspace, 'build', '--event-handlers', 'console_direct-')
    assert built.returncode == 0, built.stdout + built.stderr
    (entry_points,) = (workspace / 'install' / 'urdf_tools_ros').rglob(
        'urdf_tools_ros-*.egg-info/entry_points.txt')
    assert f'[pytest11]\n{PLUGIN} = {PLUGIN}\n' in entry_points.read_text()
    tested = colcon(workspace, 'test', '--packages-select', 'my_robot_description',
                    '--event-handlers', 'console_direct-')
    assert tested.returncode == 0, tested.stdout + tested.stderr
    (report,) = (workspace / 'build' / 'my_robot_description').rglob('pytest.xml')
    from xml.etree import ElementTree
    cases = {case.get('name'): case for case in ElementTree.parse(report).iter('testcase')}
    assert sorted(cases) == sorted([  # the marker's, and the linter's check of the entry
        *(f"test_robot_description[prefix={prefix or repr('')} bad={bad}]"
          for prefix in ('', 'left_') for bad in ('false', 'true')),
        'urdf/robot.urdf.xacro'])
    for name, case in cases.items():
        failure = case.find('failure')
        assert (failure is not None) is ('bad=true' in name), name
        if failure is not None:
            assert 'error[joint-limit-velocity-missing]' in (failure.get('message') or '') + \
                (failure.text or '')
