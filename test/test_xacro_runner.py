"""
xacro through its public API, with source lines where the installed xacro allows (issue 11).

The loader with the line hooks (the default where xacro has them) and without them
(``xacro_runner.USE_LINE_HOOKS = False``: ``xacro.process_file`` only) gives the same URDF and
the same robot model, apart from element locations, plus one ``xacro-lines-unavailable`` info;
the same with xacro 2.0.10 (``../shared/ros-src/``, the 2.0 line distros shipped until 2025)
in a subprocess; ``$(find pkg)`` through ``package_paths`` works both ways; and xacro is not
imported by the core until a xacro file is loaded.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
import subprocess
import sys
import tarfile
import textwrap
from typing import Any

from lxml import etree
from paths import REPO, SHARED, SHARED_MODELS
import pytest

from urdf_tools_ros.core.description import xacro_runner
from urdf_tools_ros.core.description.loader import load, RobotDescription
from urdf_tools_ros.core.errors import DescriptionLoadError

XACRO_MODELS = [REPO / 'urdf' / 'sample_robot.urdf.xacro',
                SHARED_MODELS / 'cookie' / 'xacro' / 'cookie.xacro']
XACRO_2_0 = SHARED / 'ros-src' / 'xacro-2.0.10.tar.gz'


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


def test_with_line_hooks_an_element_keeps_its_include_line() -> None:
    description = load(SHARED_MODELS / 'cookie' / 'xacro' / 'cookie.xacro')
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


def test_a_plain_load_does_not_import_xacro() -> None:
    script = textwrap.dedent("""
        import sys
        from urdf_tools_ros.core.description.loader import load
        load(sys.argv[1])
        print('xacro' in sys.modules)
    """)
    done = subprocess.run([sys.executable, '-c', script, str(SHARED_MODELS / 'panda.urdf')],
                          capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.strip() == 'False'


@pytest.fixture(scope='module')
def xacro_2_0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python package of xacro 2.0.10 (pure Python), from the shared source tarball."""
    if not XACRO_2_0.is_file():
        pytest.skip(f'{XACRO_2_0} is not there')
    folder = tmp_path_factory.mktemp('xacro_2_0_10')
    with tarfile.open(XACRO_2_0) as archive:
        for member in archive.getmembers():
            parts = Path(member.name).parts
            if member.isfile() and len(parts) >= 3 and parts[-2] == 'xacro' \
                    and parts[-3] == 'xacro' and member.name.endswith('.py'):
                stream = archive.extractfile(member)
                assert stream is not None
                (folder / 'xacro').mkdir(exist_ok=True)
                (folder / 'xacro' / parts[-1]).write_bytes(stream.read())
    assert (folder / 'xacro' / '__init__.py').is_file()
    return folder


def load_with(xacro_folder: Path, path: Path, hooks: bool) -> dict[str, Any]:
    """Load ``path`` in a subprocess whose ``import xacro`` is the one in ``xacro_folder``."""
    script = textwrap.dedent("""
        import json, sys
        sys.path.insert(0, sys.argv[1])
        from urdf_tools_ros.core.description import xacro_runner
        from urdf_tools_ros.core.description.loader import load
        from urdf_tools_ros.core.errors import DescriptionLoadError
        xacro_runner.USE_LINE_HOOKS = sys.argv[3] == 'hooks'
        try:
            description = load(sys.argv[2])
        except DescriptionLoadError as exc:
            print(json.dumps({'error': str(exc)}))
            sys.exit(0)
        import xacro
        print(json.dumps({'xacro': xacro.__file__, 'xml': description.xml,
                          'missing': xacro_runner.line_hooks_missing(),
                          'codes': sorted(f.code for f in description.findings),
                          'line': description.robot.links[0].location.line}))
    """)
    done = subprocess.run([sys.executable, '-c', script, str(xacro_folder), str(path),
                           'hooks' if hooks else 'public'],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize('hooks', [True, False])
def test_xacro_2_0_10_loads_the_sample_robot(xacro_2_0: Path, hooks: bool) -> None:
    """The 2.0 line has no xacro.root_dir, which the hooks once assumed (issue 11)."""
    path = REPO / 'urdf' / 'sample_robot.urdf.xacro'
    old = load_with(xacro_2_0, path, hooks)
    if importlib.util.find_spec('ament_index_python') is None:
        # xacro 2.0 imports ament_index_python: without it, an error naming file and module
        assert str(path) in old['error'] and 'ament_index_python' in old['error']
        return
    assert old['xacro'].startswith(str(xacro_2_0))
    current = load(path)
    assert canonical(old['xml']) == canonical(current.xml)
    if hooks:
        assert old['missing'] is None and old['line'] is not None
        assert old['codes'] == codes(current)
    else:
        assert old['missing'] == 'disabled' and old['line'] is None
        assert old['codes'] == sorted([*codes(current), 'xacro-lines-unavailable'])
