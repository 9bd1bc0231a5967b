"""
xacro through its public API, with source lines where the installed xacro allows.

The loader with the line hooks (the default where xacro has them) and without them
(``xacro_runner.USE_LINE_HOOKS = False``: ``xacro.process_file`` only) gives the same URDF and
the same robot model, apart from element locations, plus one ``xacro-lines-unavailable`` info;
and ``$(find pkg)`` through ``package_paths`` works both ways.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from typing import Any

from lxml import etree
from paths import REPO, ROS2_CASES, ROS2_DESCRIPTIONS, ROS2_PACKAGES, SHARED_MODELS
import pytest

from conftest import shared_model
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.source.loader import load, parse_xacro_args, RobotDescription
from urdf_tools_ros.core.source.xacro import runner as xacro_runner

pytestmark = [pytest.mark.installed, pytest.mark.portability]

XACRO_MODELS = [REPO / 'urdf' / 'sample_robot.urdf.xacro',
                SHARED_MODELS / 'cookie' / 'xacro' / 'cookie.xacro']
#: The real ROS 2 description packages' robots, as their launch files run xacro.
CASES = list(ROS2_CASES.values())


def canonical(xml: str) -> bytes:
    """The XML without comments and whitespace-only text, canonicalised (C14N)."""
    parser = etree.XMLParser(remove_comments=True, remove_blank_text=True,
                             resolve_entities=False, no_network=True)
    return etree.tostring(etree.fromstring(xml.encode(), parser), method='c14n')


def without_locations(value: Any) -> Any:
    """A model value with every ``location`` and ``axis_location`` left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple((item.name, without_locations(getattr(value, item.name)))
                     for item in dataclasses.fields(value)
                     if item.name not in ('location', 'axis_location'))
    if isinstance(value, (tuple, list)):
        return tuple(without_locations(item) for item in value)
    return value


def codes(description: RobotDescription) -> list[str]:
    return sorted(finding.code for finding in description.findings)


@pytest.fixture
def no_line_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)


def test_the_installed_xacro_has_the_line_hooks() -> None:
    assert xacro_runner.line_hooks_missing() is None


@pytest.mark.parametrize('path', XACRO_MODELS, ids=lambda path: path.name)
def test_without_line_hooks_the_same_urdf_and_model(path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if not path.exists():
        pytest.skip(f'shared model {path} is not present')
    with_lines = load(path, xacro_args={'prefix': 'r1_'} if 'sample' in path.name else None)
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)
    public = load(path, xacro_args={'prefix': 'r1_'} if 'sample' in path.name else None)
    assert canonical(public.xml) == canonical(with_lines.xml)
    assert without_locations(public.robot) == without_locations(with_lines.robot)
    assert codes(public) == sorted([*codes(with_lines), 'xacro-lines-unavailable'])
    assert set(public.dependencies) == set(with_lines.dependencies)
    # with the hooks, elements carry the .xacro line; without, the top-level file only
    assert with_lines.robot.links[0].location.line is not None
    assert {link.location for link in public.robot.links} == {public.robot.links[0].location}
    assert public.robot.links[0].location.line is None


@pytest.mark.parametrize('case', CASES, ids=[case['id'] for case in CASES])
def test_every_real_package_gives_xacro_s_own_urdf(case: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The hooks (line tracking, the kept expressions) change nothing xacro makes."""
    if importlib.util.find_spec('ament_index_python') is None:
        pytest.skip("xacro's public API finds packages only through ament_index_python")
    arguments = parse_xacro_args(case['args'])
    with_lines = load(ROS2_DESCRIPTIONS / case['entry'], xacro_args=arguments,
                      package_paths=ROS2_PACKAGES)
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)
    public = load(ROS2_DESCRIPTIONS / case['entry'], xacro_args=arguments,
                  package_paths=ROS2_PACKAGES)
    assert canonical(public.xml) == canonical(with_lines.xml)
    assert without_locations(public.robot) == without_locations(with_lines.robot)


def test_xacro_is_as_it_was_after_a_run_and_after_an_error(tmp_path: Path) -> None:
    """The hooks are put back after each run: xacro's module holds nothing of ours."""
    import xacro
    import xacro.substitution_args

    def state() -> dict[str, Any]:
        return {'verbosity': xacro.verbosity, '_eval_find': xacro.substitution_args._eval_find,
                **{name: value for name, value in vars(xacro).items() if callable(value)}}

    before = state()
    bad = tmp_path / 'bad.urdf.xacro'
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   '<link name="a${1 +}"/></robot>\n')
    with pytest.raises(DescriptionLoadError, match=r'1 \+'):
        load(bad)
    assert state() == before
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   '<link name="a${1 + 1}"/></robot>\n')
    assert [link.name for link in load(bad).robot.links] == ['a2']
    assert state() == before


def test_with_line_hooks_an_element_keeps_its_include_line() -> None:
    description = load(shared_model('cookie/xacro/cookie.xacro'))
    files = {Path(link.location.filename).name for link in description.robot.links}
    assert len(files) > 1  # links come from the includes, each with its own file


@pytest.mark.parametrize('hooks', [True, False])
def test_find_through_package_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    hooks: bool) -> None:
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', hooks)
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    share = tmp_path / 'parts'
    share.mkdir()
    (share / 'part.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="from_include"/></robot>')
    main = tmp_path / 'main.urdf.xacro'
    main.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:include filename="$(find parts)/part.xacro"/>\n</robot>\n')
    with pytest.raises(DescriptionLoadError, match='parts'):
        load(main)
    if not hooks and importlib.util.find_spec('ament_index_python') is None:
        # xacro's public API finds packages only through ament_index_python: a clear error
        with pytest.raises(DescriptionLoadError, match=r'\$\(find parts\).*ament_index_python'):
            load(main, package_paths={'parts': str(share)})
        return
    description = load(main, package_paths={'parts': str(share)})
    assert [link.name for link in description.robot.links] == ['from_include']
    assert not hooks or description.robot.links[0].location.filename.endswith('part.xacro')
    assert str((share / 'part.xacro').resolve()) in {str(Path(path).resolve())
                                                     for path in description.dependencies}
    import os
    assert 'AMENT_PREFIX_PATH' not in os.environ  # the temporary index is gone


def test_without_line_hooks_errors_and_entities(tmp_path: Path, no_line_hooks: None) -> None:
    bad = tmp_path / 'bad.urdf.xacro'
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<link name="${undefined_name}"/></robot>')
    with pytest.raises(DescriptionLoadError, match='undefined_name'):
        load(bad)
    entity = tmp_path / 'entity.urdf.xacro'
    entity.write_text('<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY a "b">]>'
                      '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                      '<link name="&a;"/></robot>')
    with pytest.raises(DescriptionLoadError, match='entit'):
        load(entity)
