"""
The linter in a description package's ``colcon test``: an ament_cmake and an ament_python package.

A workspace of two generated description packages, built and tested with colcon on the ROS and
the urdf_tools_ros this runs in: the ROS wheels' ament_cmake and urdf_tools_ros from a sourced
colcon install space (``scripts/colcon-test.sh``; elsewhere this skips). Each package only adds
``<test_depend>urdf_tools_ros</test_depend>``. ament_lint_auto is not among the PyPI wheels, so
the ament_cmake package's ``CMakeLists.txt`` does what ``ament_lint_auto_find_test_dependencies()``
and ``ament_package()`` do with it: ``find_package(urdf_tools_ros)``, then
``ament_execute_extensions(ament_lint_auto)``. The ament_python package has no test file: the
pytest plugin collects its ``package.xml``. Both are tested clean, then with a defect in the
macro file their robot includes.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import subprocess
import time
from xml.etree import ElementTree

import pytest

from test_check_dir import ARM, LIMIT_LINE  # the macro library, its <limit> line
from test_colcon import colcon

#: What the sourced prefixes must hold: ament_cmake (the ROS wheels) and this package's config.
NEEDED = {'ament_cmake': 'share/ament_cmake/cmake/ament_cmakeConfig.cmake',
          'urdf_tools_ros': 'share/urdf_tools_ros/cmake/urdf_tools_rosConfig.cmake'}
FOUND = {name: any((Path(prefix) / path).is_file() for prefix in
                   os.environ.get('CMAKE_PREFIX_PATH', '').split(os.pathsep) if prefix)
         for name, path in NEEDED.items()}

pytestmark = [
    pytest.mark.slow, pytest.mark.installed,
    pytest.mark.skipif(not all(FOUND.values()), reason='no sourced ROS 2 with ament_cmake and '
                       'an installed urdf_tools_ros on CMAKE_PREFIX_PATH (scripts/colcon-test.sh '
                       'runs this)'),
]

#: The robot: the macro library and a file of materials included, the arm called once.
ROBOT = """\
<?xml version="1.0"?>
<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="prefix" default=""/>
  <xacro:include filename="$(find {package})/urdf/arm.xacro"/>
  <xacro:include filename="materials.xacro"/>
  <xacro:arm prefix="$(arg prefix)"/>
</robot>
"""
MATERIALS = """\
<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
</robot>
"""
PACKAGE_XML = """\
<?xml version="1.0"?>
<package format="3">
  <name>{package}</name>
  <version>0.0.0</version>
  <description>An arm</description>
  <maintainer email="a@b.invalid">a</maintainer>
  <license>Apache-2.0</license>
  <buildtool_depend>{buildtool}</buildtool_depend>
  <test_depend>urdf_tools_ros</test_depend>
  <export><build_type>{build_type}</build_type></export>
</package>
"""
CMAKELISTS = """\
cmake_minimum_required(VERSION 3.8)
project(arm_description)
find_package(ament_cmake REQUIRED)
install(DIRECTORY urdf DESTINATION share/${PROJECT_NAME})
if(BUILD_TESTING)
  # what ament_lint_auto_find_test_dependencies() and ament_package() do for the test
  # dependency urdf_tools_ros (ament_lint_auto is not among the ROS wheels on PyPI)
  find_package(urdf_tools_ros REQUIRED)
  ament_execute_extensions(ament_lint_auto)
endif()
ament_package()
"""
SETUP_PY = """\
from setuptools import setup
setup(name='arm_py_description', version='0.0.0', packages=[],
      data_files=[('share/ament_index/resource_index/packages',
                   ['resource/arm_py_description']),
                  ('share/arm_py_description', ['package.xml'])],
      tests_require=['pytest'])
"""
#: The ament_cmake package's configuration: its robot once per prefix.
TOML = """\
[[entries]]
file = "urdf/arm.urdf.xacro"
matrix = {prefix = ["", "left_"]}
"""
DEFECT = ('velocity="1"/>', '/>')  # urdfdom refuses a <limit> without velocity


def make_package(src: Path, package: str, cmake: bool) -> Path:
    """A description package in ``src``: urdf/ with the robot, its macros and its materials."""
    folder = src / package
    (folder / 'urdf').mkdir(parents=True)
    (folder / 'urdf' / 'arm.xacro').write_text(ARM)
    (folder / 'urdf' / 'materials.xacro').write_text(MATERIALS)
    (folder / 'urdf' / 'arm.urdf.xacro').write_text(ROBOT.format(package=package))
    (folder / 'package.xml').write_text(PACKAGE_XML.format(
        package=package, buildtool='ament_cmake' if cmake else 'ament_python',
        build_type='ament_cmake' if cmake else 'ament_python'))
    if cmake:
        (folder / 'CMakeLists.txt').write_text(CMAKELISTS)
        (folder / '.urdf-tools.toml').write_text(TOML)
    else:
        (folder / 'setup.py').write_text(SETUP_PY)
        (folder / 'resource').mkdir()
        (folder / 'resource' / package).write_text('')
    return folder


def junit(path: Path) -> tuple[int, int, list[ElementTree.Element]]:
    """Tests, failures (errors counted in) and the failing test cases of a JUnit file."""
    root = ElementTree.parse(path).getroot()
    suites = [root] if root.tag == 'testsuite' else list(root.iter('testsuite'))
    failing = [case for case in root.iter('testcase')
               if case.find('failure') is not None or case.find('error') is not None]
    return (sum(int(suite.get('tests', 0)) for suite in suites),
            sum(int(suite.get('failures', 0)) + int(suite.get('errors', 0)) for suite in suites),
            failing)


def reported(output: str, workspace: Path) -> dict[str, tuple[int, int, int]]:
    """``{result file: (tests, errors, failures)}`` as ``colcon test-result`` prints them."""
    counts = {}
    for line in output.splitlines():
        match = re.match(r'(\S+): (\d+) tests?, (\d+) errors?, (\d+) failures?', line)
        if match and match.group(1) != 'Summary':
            path = Path(match.group(1))
            counts[str(path if path.is_absolute() else workspace / path)] = (
                int(match.group(2)), int(match.group(3)), int(match.group(4)))
    return counts


def test_colcon_test_runs_the_check_of_every_entry(tmp_path: Path) -> None:
    workspace = tmp_path / 'ws'
    cmake = make_package(workspace / 'src', 'arm_description', cmake=True)
    python = make_package(workspace / 'src', 'arm_py_description', cmake=False)
    start = time.monotonic()
    built = colcon(workspace, 'build', '--event-handlers', 'console_direct-')
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    build = workspace / 'build'
    listed = subprocess.run(['ctest', '-N', '-L', 'linter'], cwd=build / 'arm_description',
                            capture_output=True, text=True, check=True).stdout
    assert re.search(r'Test +#1: urdf_tools$', listed, re.MULTILINE), listed
    assert 'Total Tests: 1' in listed
    built_in = time.monotonic() - start
    xunit = build / 'arm_description' / 'test_results' / 'arm_description' / \
        'urdf_tools.xunit.xml'
    pytest_xml = build / 'arm_py_description' / 'pytest.xml'

    tested = colcon(workspace, 'test', '--event-handlers', 'console_direct-')
    assert tested.returncode == 0, tested.stdout[-4000:] + tested.stderr[-4000:]
    tests, failures, _ = junit(xunit)
    suites = [suite.get('name') for suite in ElementTree.parse(xunit).iter('testsuite')]
    assert suites == ["urdf-tools check urdf/arm.urdf.xacro [prefix='']",  # in the package
                      'urdf-tools check urdf/arm.urdf.xacro [prefix=left_]']  # macros: no entry
    assert failures == 0 and tests >= 2
    cases = [case.get('name') for case in ElementTree.parse(pytest_xml).iter('testcase')]
    assert cases == ['urdf/arm.urdf.xacro'] and junit(pytest_xml)[:2] == (1, 0)
    clean = colcon(workspace, 'test-result', '--all')
    counts = reported(clean.stdout, workspace)
    assert clean.returncode == 0 and counts.pop(str(xunit)) == (tests, 0, 0), clean.stdout
    assert counts.pop(str(pytest_xml)) == (1, 0, 0)
    assert list(counts.values()) == [(1, 0, 0)], clean.stdout  # ctest's: the one linter test

    for package in (cmake, python):  # a defect in the macros, not in the entry
        macros = package / 'urdf' / 'arm.xacro'
        macros.write_text(ARM.replace(*DEFECT))
    colcon(workspace, 'test', '--event-handlers', 'console_direct-')
    result = colcon(workspace, 'test-result', '--verbose')
    assert result.returncode == 1, result.stdout
    tests, failures, failing = junit(xunit)
    py_tests, py_failures, py_failing = junit(pytest_xml)
    assert (failures, py_failures) == (2, 1)  # each combination; the one robot
    counts = reported(result.stdout, workspace)
    assert counts.pop(str(xunit)) == (tests, 0, failures), result.stdout
    assert counts.pop(str(pytest_xml)) == (py_tests, 0, py_failures)
    assert list(counts.values()) == [(1, 0, 1)], result.stdout
    assert f'Summary: {tests + py_tests + 1} tests, 0 errors, {failures + py_failures + 1} ' \
        'failures' in result.stdout
    finding = f':{LIMIT_LINE}: error[joint-limit-velocity-missing]'
    for case in failing:  # at the macro file's line, in the message colcon prints
        macros = cmake / 'urdf' / 'arm.xacro'
        assert case.find('failure').get('message').startswith(f'{macros}{finding}')
        assert (case.get('file'), case.get('line')) == (str(macros), str(LIMIT_LINE))
    assert result.stdout.count(f'{cmake / "urdf" / "arm.xacro"}{finding}') == 2
    assert f'{python / "urdf" / "arm.xacro"}{finding}' in \
        py_failing[0].find('failure').get('message')
    print(f'colcon build {built_in:.1f} s; build and two tests {time.monotonic() - start:.1f} s')
