"""ament_python / pip build of urdf_tools_ros (one file serves colcon and ``pip install .``)."""

from glob import glob
import os

from setuptools import find_packages, setup

PACKAGE = 'urdf_tools_ros'


def share(folder: str) -> list[tuple[str, list[str]]]:
    """Install every file below ``folder`` into ``share/urdf_tools_ros/<folder>``."""
    entries: dict[str, list[str]] = {}
    for path in sorted(glob(os.path.join(folder, '**', '*'), recursive=True)):
        if os.path.isfile(path):
            target = os.path.join('share', PACKAGE, os.path.dirname(path))
            entries.setdefault(target, []).append(path)
    return sorted(entries.items())


setup(
    name=PACKAGE,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*', 'bench']),
    package_data={PACKAGE: ['py.typed']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + PACKAGE]),
        ('share/' + PACKAGE, ['package.xml']),
        *share('launch'),
        *share('urdf'),
        *share('config'),
    ],
    python_requires='>=3.10',
    install_requires=['numpy', 'lxml', 'defusedxml', 'xacro>=2', 'urdfdom-py', 'setuptools',
                      'viser', 'trimesh', 'pycollada'],
    extras_require={
        # pytest 7.4.4: Ubuntu Noble's (ROS 2 Jazzy), the one launch_testing 3.4.3's plugin
        # works with (scripts/setup-ros-src.sh installs it); pytest 8 refuses that plugin.
        'test': ['pytest==7.4.4', 'pytest-rerunfailures<15', 'hypothesis', 'mypy', 'flake8',
                 'flake8-import-order', 'flake8-quotes', 'flake8-docstrings', 'lxml-stubs', 'pin',
                 'playwright', 'colcon-common-extensions', 'pyyaml', 'mujoco'],
    },
    zip_safe=False,
    maintainer='urdf_tools_ros maintainers',
    maintainer_email='maintainers@urdf-tools-ros.invalid',
    description='URDF/xacro checker, forward kinematics, joint-state and TF nodes for ROS 2',
    license='Apache-2.0',
    entry_points={
        'console_scripts': [
            'urdf-tools = urdf_tools_ros.cli.main:main',
            'check = urdf_tools_ros.cli.main:check_main',
            'robot_description = urdf_tools_ros.nodes.entry:robot_description',
            'joint_state_publisher = urdf_tools_ros.nodes.entry:joint_state_publisher',
            'joint_state_publisher_gui = urdf_tools_ros.nodes.entry:joint_state_publisher_gui',
            'tf_broadcaster = urdf_tools_ros.nodes.entry:tf_broadcaster',
            'robot_state_publisher = urdf_tools_ros.nodes.entry:robot_state_publisher',
        ],
    },
)
