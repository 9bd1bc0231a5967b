"""
Every dependency in package.xml is installable by a ROS user on Humble and Jazzy.

Checked offline against ``../shared/ros-src/rosdistro-rosdep.tar.gz`` (skipped without it).
"""

from __future__ import annotations

import functools
import re
import tarfile
from typing import Any

from lxml import etree
from paths import SHARED
import pytest
import yaml

from conftest import REPO

ARCHIVE = SHARED / 'ros-src' / 'rosdistro-rosdep.tar.gz'
#: Ubuntu releases of the distros users run: Humble on Jammy, Jazzy on Noble.
UBUNTU = {'humble': 'jammy', 'jazzy': 'noble'}
DEPEND_TAGS = ('depend', 'build_depend', 'buildtool_depend', 'exec_depend', 'test_depend',
               'build_export_depend', 'doc_depend')


@functools.lru_cache(maxsize=None)
def rosdistro() -> dict[str, Any]:
    """``{'humble': set, 'jazzy': set, 'rosdep': dict}`` read from the archive."""
    result: dict[str, Any] = {'rosdep': {}}
    with tarfile.open(ARCHIVE) as archive:
        for member in archive.getmembers():
            if not member.isfile() or not member.name.endswith('.yaml'):
                continue
            stream = archive.extractfile(member)
            assert stream is not None
            data = yaml.safe_load(stream)
            parts = member.name.split('/')
            if parts[-1] == 'distribution.yaml':
                packages = set()
                for name, repository in (data.get('repositories') or {}).items():
                    release = repository.get('release') or {}
                    packages.update(release.get('packages') or ([name] if release else []))
                result[parts[-2]] = packages
            elif parts[-2] == 'rosdep':
                result['rosdep'].update(data)
    return result


def resolves_on_ubuntu(rule: Any, codename: str) -> bool:
    """Whether a rosdep rule gives Ubuntu ``codename`` something to install."""
    if not isinstance(rule, dict) or 'ubuntu' not in rule:
        return False
    ubuntu = rule['ubuntu']
    if isinstance(ubuntu, list):
        return bool(ubuntu)
    if isinstance(ubuntu, dict):
        if 'pip' in ubuntu or 'apt' in ubuntu:
            return True
        value = ubuntu.get(codename, ubuntu.get('*'))
        return bool(value)
    return False


def dependencies() -> list[tuple[str, str, str]]:
    """``(tag, key, condition)`` of every dependency; ``condition`` is '' when there is none."""
    root = etree.parse(str(REPO / 'package.xml')).getroot()
    return [(element.tag, (element.text or '').strip(), element.get('condition', ''))
            for element in root if isinstance(element.tag, str) and element.tag in DEPEND_TAGS]


def applies(condition: str, distro: str) -> bool:
    """Whether a format-3 ``condition`` (``$ROS_DISTRO == a or $ROS_DISTRO == b``) holds."""
    assert condition == '' or re.fullmatch(
        r'\$ROS_DISTRO == \w+( or \$ROS_DISTRO == \w+)*', condition), condition
    return condition == '' or distro in re.findall(r'== (\w+)', condition)


@pytest.mark.skipif(not ARCHIVE.exists(), reason=f'{ARCHIVE} is not present')
@pytest.mark.parametrize('tag, key, condition', dependencies())
def test_dependency_installs_on_humble_and_jazzy(tag: str, key: str, condition: str) -> None:
    data = rosdistro()
    for distro, codename in UBUNTU.items():
        if not applies(condition, distro):
            continue
        released = key in data[distro]
        assert released or resolves_on_ubuntu(data['rosdep'].get(key), codename), \
            f'<{tag}>{key}</{tag}> is neither released for {distro} nor a rosdep key for ' \
            f'Ubuntu {codename}'


@pytest.mark.skipif(not ARCHIVE.exists(), reason=f'{ARCHIVE} is not present')
def test_the_check_would_see_a_bad_key() -> None:
    data = rosdistro()
    assert 'rclpy' in data['jazzy'] and 'rclpy' in data['humble']
    assert not resolves_on_ubuntu(data['rosdep'].get('python3-viser'), 'noble')
    assert 'viser' not in data['jazzy']
    assert resolves_on_ubuntu(data['rosdep']['python3-numpy'], 'noble')
    assert applies('$ROS_DISTRO == kilted or $ROS_DISTRO == jazzy', 'jazzy')
    assert not applies('$ROS_DISTRO == kilted', 'jazzy')
