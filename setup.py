"""ament_python / pip build of urdf_tools_ros (one file serves colcon and ``pip install .``)."""

from glob import glob
import os
import sys

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


#: What the checker, the kinematics core and the CLI need: ``pip install urdf_tools_ros``.
#: (setuptools: urdfdom-py imports pkg_resources; pycollada measures COLLADA meshes for the
#: checker; manifold3d gives a collision mesh's convex hull, which MuJoCo, PhysX and PyBullet
#: collide with: it has no rosdep key, so a ROS install without it skips that one rule.)
REQUIRES = ['numpy', 'lxml', 'defusedxml', 'xacro>=2', 'urdfdom-py', 'setuptools',
            'pycollada', 'manifold3d', 'tomli; python_version < "3.11"']
#: The browser viewer (``urdf-tools view``, the joint-state publisher's ``gui``); trimesh reads
#: its meshes (the checker reads none through it).
VIEW = ['viser', 'trimesh']
#: The language server (``urdf-tools lsp``): only that subcommand imports them.
LSP = ['pygls>=2,<3', 'lsprotocol>=2025']
#: On a pip install's PATH: the CLI alone.
CLI_SCRIPTS = ['urdf-tools = urdf_tools_ros.cli.main:main']
#: ``ros2 run urdf_tools_ros check`` and the node executables, only in a colcon build: colcon runs
#: ``setup.py install`` or ``develop``, which put console scripts in ``lib/urdf_tools_ros``
#: (setup.cfg), where ament looks; a pip install builds a wheel and leaves them out of ``bin/``.
ROS_SCRIPTS = ['check = urdf_tools_ros.cli.main:check_main',
               'robot_description = urdf_tools_ros.nodes.robot_description:main',
               'joint_state_publisher = urdf_tools_ros.nodes.joint_state_publisher:main',
               'joint_state_publisher_gui = urdf_tools_ros.nodes.joint_state_publisher:gui_main',
               'tf_broadcaster = urdf_tools_ros.nodes.tf_broadcaster:main',
               'robot_state_publisher = urdf_tools_ros.nodes.robot_state_publisher:main']
COLCON_BUILD = bool({'install', 'develop'} & set(sys.argv[1:]))
#: The pytest plugin (``@pytest.mark.urdf_matrix``), loaded by every pytest of an environment
#: that has the package (a pip install, or ``colcon test`` of a package that depends on it);
#: named as its module, so that ``-p urdf_tools_ros.pytest_plugin`` and the entry point are one
#: plugin. Loading it imports pytest and the standard library only.
PYTEST_PLUGINS = ['urdf_tools_ros.pytest_plugin = urdf_tools_ros.pytest_plugin']


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
        # find_package(urdf_tools_ros): the ament_lint_auto extension (the linter of
        # ament_cmake packages)
        *share('cmake'),
    ],
    python_requires='>=3.10',
    install_requires=REQUIRES,
    extras_require={
        'view': VIEW,
        'lsp': LSP,
        # pytest 7.4.4: Ubuntu Noble's (ROS 2 Jazzy), the one launch_testing 3.4.3's plugin
        # works with; pytest 8 refuses that plugin. The suite also runs on 6.2.5 and 9.
        # pytest-xdist: scripts/test.sh runs the suite in two processes (needs pytest >= 7).
        'test': ['pytest==7.4.4', 'pytest-rerunfailures<15', 'pytest-xdist', 'hypothesis',
                 'mypy', 'flake8', 'flake8-import-order', 'flake8-quotes', 'flake8-docstrings',
                 'lxml-stubs', 'pin', 'playwright', 'colcon-common-extensions', 'pyyaml',
                 'mujoco', 'jsonschema', 'junitparser', 'pre-commit', 'example-robot-data',
                 *VIEW, *LSP],
        # The manual in docs/ (scripts/docs.sh): Sphinx with Markdown pages (MyST).
        'docs': ['sphinx>=7.2,<10', 'myst-parser>=3,<6'],
    },
    zip_safe=False,
    maintainer='urdf_tools_ros maintainers',
    maintainer_email='maintainers@urdf-tools-ros.invalid',
    description='URDF/xacro checker, forward kinematics, joint-state and TF nodes for ROS 2',
    long_description=open(os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                       'README.md'), encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    license='Apache-2.0',
    keywords=['ROS 2', 'URDF', 'xacro', 'robot_state_publisher', 'joint_state_publisher'],
    classifiers=[
        'Development Status :: 4 - Beta',
        'Intended Audience :: Developers',
        'Intended Audience :: Science/Research',
        'License :: OSI Approved :: Apache Software License',
        'Operating System :: POSIX :: Linux',
        'Programming Language :: Python :: 3',
        'Programming Language :: Python :: 3 :: Only',
        'Programming Language :: Python :: 3.10',
        'Programming Language :: Python :: 3.11',
        'Programming Language :: Python :: 3.12',
        'Topic :: Scientific/Engineering',
        'Topic :: Software Development :: Quality Assurance',
        'Typing :: Typed',
    ],
    entry_points={
        'console_scripts': CLI_SCRIPTS + (ROS_SCRIPTS if COLCON_BUILD else []),
        'pytest11': PYTEST_PLUGINS,
    },
)
