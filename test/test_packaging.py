"""
What a pip install gives.

The CLI alone on PATH, light dependencies, the viewer as an extra, package metadata. What a
colcon build installs is ``test_colcon.py``'s.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
from pathlib import Path
import shutil
import subprocess
import sys
import zipfile

import pytest
from test_colcon import COPY_IGNORE, setup_lists

from conftest import REPO

pytestmark = pytest.mark.portability


def bdist_wheel_available() -> bool:
    """Whether setuptools can build a wheel here without build isolation."""
    if importlib.util.find_spec('wheel') is not None:
        return True
    import setuptools
    return tuple(int(part) for part in setuptools.__version__.split('.')[:2]) >= (70, 1)


@pytest.fixture(scope='module')
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel ``pip install .`` builds, from a copy of the source tree."""
    if not bdist_wheel_available():
        pytest.skip('building a wheel without network needs setuptools >= 70.1 or the wheel '
                    'package, neither is installed')
    source = tmp_path_factory.mktemp('source') / 'urdf_tools_ros'
    shutil.copytree(REPO, source, ignore=COPY_IGNORE)
    out = tmp_path_factory.mktemp('wheel')
    done = subprocess.run([sys.executable, '-m', 'pip', 'wheel', '--no-deps',
                           '--no-build-isolation', '-q', '-w', str(out), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = out.glob('urdf_tools_ros-*.whl')
    return zipfile.ZipFile(path)


def metadata_file(wheel: zipfile.ZipFile, name: str) -> str:
    (member,) = [item for item in wheel.namelist() if item.endswith(f'.dist-info/{name}')]
    return wheel.read(member).decode()


def test_a_pip_install_puts_only_urdf_tools_on_path(wheel: zipfile.ZipFile) -> None:
    entry_points = configparser.ConfigParser()
    entry_points.read_string(metadata_file(wheel, 'entry_points.txt'))
    assert list(entry_points['console_scripts']) == ['urdf-tools']
    assert set(entry_points.sections()) == {'console_scripts', 'pytest11'}
    assert entry_points['pytest11']['urdf_tools_ros.pytest_plugin'] == \
        'urdf_tools_ros.pytest_plugin'
    scripts = list(entry_points['console_scripts'])
    ros = [script.split('=', 1)[0].strip()
           for script in setup_lists('ROS_SCRIPTS')]
    assert 'joint_state_publisher' in ros and not set(ros) & set(scripts)
    assert not [name for name in wheel.namelist() if '.data/scripts/' in name]


def test_light_requirements_and_the_viewer_as_an_extra(wheel: zipfile.ZipFile) -> None:
    metadata = metadata_file(wheel, 'METADATA')
    required = [line.split(':', 1)[1].strip() for line in metadata.splitlines()
                if line.startswith('Requires-Dist:') and 'extra ==' not in line]
    names = {requirement.split(';')[0].split('>')[0].split('=')[0].strip().lower()
             for requirement in required}
    assert names == {'numpy', 'lxml', 'defusedxml', 'xacro', 'urdfdom-py', 'setuptools',
                     'pycollada', 'manifold3d', 'tomli'}  # trimesh reads the viewer's meshes only
    assert any(line.startswith('tomli') and 'python_version < "3.11"' in line
               for line in required), required  # tomllib is in the standard library from 3.11
    view = [line for line in metadata.splitlines()
            if line.startswith('Requires-Dist:') and 'extra == "view"' in line]
    assert {line.split(':', 1)[1].split(';')[0].strip() for line in view} == {'viser', 'trimesh'}
    for field in ('Summary:', 'License:', 'Requires-Python: >=3.10',
                  'Classifier: Programming Language :: Python :: 3.12',
                  'Description-Content-Type: text/markdown'):
        assert field in metadata, field


@pytest.mark.parametrize('missing', ['viser', 'trimesh'])
def test_view_without_the_extra_says_what_to_install(tmp_path: Path, missing: str) -> None:
    """A CLI whose viser or trimesh cannot be imported: exit 3 and the pip command."""
    blocker = tmp_path / f'{missing}.py'
    blocker.write_text(f'raise ImportError("no {missing} here")\n')
    done = subprocess.run(
        [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'view',
         str(REPO / 'urdf' / 'sample_robot.urdf.xacro'), '--exit-after', '1'],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(tmp_path), *filter(None, os.environ.get('PYTHONPATH', '').split(os.pathsep))])))
    assert done.returncode == 3, done.stderr
    assert "pip install 'urdf_tools_ros[view]'" in done.stderr
    # the import that failed is named (the other one may be missing too, as in CI's stages
    # whose venvs have neither)
    assert f'no {missing} here' in done.stderr or 'No module named' in done.stderr
    assert 'Traceback' not in done.stderr


def _editable_here() -> bool:
    """Whether this Python is a venv scripts/setup.sh made with this checkout installed."""
    if not (Path(sys.prefix) / '.urdf_tools_ros_setup').is_file():
        return False
    found = subprocess.run([sys.executable, '-c', 'import urdf_tools_ros; '
                            'print(urdf_tools_ros.__file__)'], cwd='/', capture_output=True,
                           text=True, timeout=60).stdout.strip()
    return bool(found) and Path(found).resolve().is_relative_to(REPO.resolve())


@pytest.mark.skipif(not _editable_here(),
                    reason='about the venv scripts/setup.sh makes (this checkout, editable)')
def test_set_up_leaves_the_package_byte_compiled_for_every_start() -> None:
    # Where PYTHONDONTWRITEBYTECODE is set, an editable install never gets .pyc files from its
    # imports: every urdf-tools run compiled the package again.
    # As on a fresh clone: no .pyc of the package yet (earlier imports may have written some).
    for cache in (REPO / 'urdf_tools_ros').rglob('__pycache__'):
        shutil.rmtree(cache)
    (Path(sys.prefix) / '.urdf_tools_ros_compiled').unlink(missing_ok=True)
    env = {**os.environ, 'URDF_TOOLS_VENV': sys.prefix, 'PYTHONDONTWRITEBYTECODE': '1'}
    subprocess.run(['bash', str(REPO / 'scripts' / 'setup.sh')], env=env, check=True,
                   capture_output=True, timeout=900)
    script = ('import sys; sys.argv = ["urdf-tools", "check", sys.argv[1]]\n'
              'from urdf_tools_ros.cli.main import main\nmain()\n')
    done = subprocess.run([sys.executable, '-v', '-c', script,
                           str(REPO / 'urdf' / 'examples' / 'arm.urdf')],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout  # arm.urdf has errors
    loaded = [line for line in done.stderr.splitlines()
              if line.startswith('# code object from') and 'urdf_tools_ros' in line]
    assert len(loaded) > 20, done.stderr[-2000:]  # the check's modules were imported
    assert all(line.endswith(".pyc'") for line in loaded), \
        [line for line in loaded if not line.endswith(".pyc'")]
    # An edit is compiled on the next set-up (scripts/urdf-tools runs it first).
    edited = REPO / 'urdf_tools_ros' / 'core' / 'findings.py'
    os.utime(edited)
    subprocess.run(['bash', str(REPO / 'scripts' / 'setup.sh')], env=env, check=True,
                   capture_output=True, timeout=900)
    again = subprocess.run([sys.executable, '-v', '-c', 'import urdf_tools_ros.core.findings'],
                           env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert f"# code object from '{importlib.util.cache_from_source(str(edited))}'" \
        in again.stderr.splitlines()
