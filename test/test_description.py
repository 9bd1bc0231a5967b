"""Loading: URDF and xacro, source lines, package resolution, and bad input."""

from __future__ import annotations

from pathlib import Path
import re

from hypothesis import given, HealthCheck, settings, strategies as st
import pytest

from conftest import SAMPLE_ROBOT, shared_model, SHARED_URDFS
from urdf_tools_ros.core.errors import (DescriptionLoadError, DescriptionTooLargeError,
                                        RobotDescriptionError)
from urdf_tools_ros.core.model.robot import Box, Mesh, Origin, Sphere
from urdf_tools_ros.core.source import loader as description
from urdf_tools_ros.core.source.loader import load, load_string, RobotDescription


READER = Path(__file__).parent / 'urdf' / 'reader'


def codes(desc: description.RobotDescription) -> list[str]:
    return [finding.code for finding in desc.findings]


# -- good input -------------------------------------------------------------------------------
def test_every_element_keeps_its_line() -> None:
    path = READER / 'two_links.urdf'
    desc = load(path)
    robot = desc.robot
    assert desc.findings == () and not desc.is_xacro and robot.name == 'r'
    assert robot.link('a').location.line == 2
    assert str(robot.joint('j').location) == f'{path}:8'
    assert robot.link('a').visuals[0].location.line == 3
    assert robot.link('a').visuals[0].geometry == Box((1.0, 2.0, 3.0))
    assert desc.dependencies == (str(path.resolve()),)


def test_xacro_elements_point_at_the_original_file_and_line() -> None:
    desc = load(SAMPLE_ROBOT)
    assert desc.is_xacro
    sources = {Path(f).name for f in desc.dependencies}
    assert 'sample_robot.urdf.xacro' in sources and len(sources) >= 2
    for joint in desc.robot.joints:
        location = joint.location
        assert location is not None and location.line is not None
        lines = Path(location.filename).read_text().splitlines()
        # The line holds a <joint> (or a macro call/definition line that writes one).
        assert '<joint' in lines[location.line - 1] or 'xacro:' in lines[location.line - 1]
    assert 'urdf_tools_ros_source' not in desc.xml


def _unknown_arguments(desc: RobotDescription) -> list[str]:
    return [f.message for f in desc.findings if f.code == 'xacro-arg-unknown']


def test_xacro_arguments_are_applied_and_one_no_document_knows_is_reported() -> None:
    prefixed = load(SAMPLE_ROBOT, xacro_args={'prefix': 'r1_', 'prefx': 'r2_'})
    [message] = _unknown_arguments(prefixed)
    assert 'prefx:=' in message and 'prefix' in message  # names the ones it knows
    assert {j.name for j in prefixed.robot.joints} == \
        {f'r1_{j.name}' for j in load(SAMPLE_ROBOT).robot.joints}
    # Declared in an include, or used through $(arg) without a declaration: known.
    main = READER / 'args' / 'main.urdf.xacro'
    desc = load(main, xacro_args={'side': 'r', 'tag': 't', 'extra': 'e'})
    assert {link.name for link in desc.robot.links} == {'r_t', 'e'}
    assert _unknown_arguments(desc) == []
    assert len(_unknown_arguments(load(main, xacro_args={'side': 'r', 'tag': 't', 'extra': 'e',
                                                         'sid': 'x'}))) == 1


def test_xacro_argument_given_to_a_plain_urdf_is_reported(tmp_path: Path) -> None:
    path = tmp_path / 'plain.urdf'
    path.write_text('<robot name="r"><link name="a"/></robot>')
    [message] = _unknown_arguments(load(path, xacro_args={'prefix': 'r1_'}))
    assert 'not run through xacro' in message
    assert _unknown_arguments(load(path)) == []


def test_package_uri_resolves_to_this_package() -> None:
    desc = load(SAMPLE_ROBOT)
    meshes = [v.geometry for link in desc.robot.links for v in link.visuals
              if isinstance(v.geometry, Mesh)]
    assert meshes
    for mesh in meshes:
        assert mesh.resolved is not None and Path(mesh.resolved).is_file(), mesh


def test_package_path_argument_resolves_package_uri(tmp_path: Path) -> None:
    share = tmp_path / 'my_pkg'
    (share / 'meshes').mkdir(parents=True)
    (share / 'meshes' / 'm.stl').write_bytes(b'solid x\nendsolid x\n')
    text = ('<robot name="r"><link name="a"><visual><geometry>'
            '<mesh filename="package://my_pkg/meshes/m.stl"/></geometry></visual></link></robot>')
    unresolved = load_string(text).robot.links[0].visuals[0].geometry
    assert isinstance(unresolved, Mesh) and unresolved.resolved is None
    resolved = load_string(text, package_paths={'my_pkg': str(share)})
    mesh = resolved.robot.links[0].visuals[0].geometry
    assert isinstance(mesh, Mesh) and mesh.resolved == str(share / 'meshes' / 'm.stl')


def test_cookie_xacro_equals_shipped_urdf() -> None:
    from_xacro = load(shared_model('cookie/xacro/cookie.xacro')).robot
    shipped = load(shared_model('cookie')).robot

    def strip(robot: object) -> object:
        import dataclasses
        if dataclasses.is_dataclass(robot) and not isinstance(robot, type):
            return tuple((f.name, strip(getattr(robot, f.name)))
                         for f in dataclasses.fields(robot)
                         if f.name not in ('location', 'axis_location'))
        if isinstance(robot, tuple):
            return tuple(strip(item) for item in robot)
        return robot
    assert len(from_xacro.links) == 62
    assert strip(from_xacro) == strip(shipped)


def test_unknown_elements_are_kept_and_reported_as_info() -> None:
    desc = load_string('<robot name="r">\n<link name="a"/>\n<widget name="s"/>\n</robot>')
    assert [e.tag for e in desc.robot.unknown_elements] == ['widget']
    (finding,) = desc.findings
    assert (finding.code, finding.severity.value, finding.location.line) == \
        ('unknown-element', 'info', 3)


def test_sensor_is_urdf_and_kept() -> None:
    """``<sensor>`` is defined by the URDF spec (sensor): kept, no finding."""
    desc = load_string('<robot name="r">\n<link name="a"/>\n<sensor name="s" update_rate="10">'
                       '<parent link="a"/><camera><image width="64" height="48"/></camera>'
                       '</sensor>\n</robot>')
    assert [e.attribute('name') for e in desc.robot.sensors] == ['s']
    assert desc.robot.unknown_elements == ()
    assert desc.findings == ()


def test_reader_takes_the_first_child_of_each_tag() -> None:
    # comments, a namespaced twin and a second <origin> do not change which one is read
    robot = load_string(
        '<robot name="r" xmlns:n="urn:n"><link name="a"/><link name="b">'
        '<visual><!-- c --><n:origin xyz="9 9 9"/><origin xyz="1 2 3"/><origin xyz="4 5 6"/>'
        '<geometry><!-- c --><sphere radius="0.5"/><box size="1 1 1"/></geometry></visual>'
        '</link><joint name="j" type="fixed"><child link="b"/><parent link="a"/>'
        '<parent link="x"/><n:origin xyz="9 9 9"/><origin rpy="0 0 1"/><origin xyz="7 7 7"/>'
        '</joint></robot>').robot
    visual = robot.link('b').visuals[0]
    assert visual.origin == Origin((1.0, 2.0, 3.0))
    assert visual.geometry == Sphere(0.5)
    joint = robot.joint('j')
    assert (joint.parent, joint.child, joint.origin) == ('a', 'b', Origin(rpy=(0.0, 0.0, 1.0)))


def test_reader_reports_a_bad_repeated_value_every_time() -> None:
    description = load_string(
        '<robot name="r"><link name="a"><visual><origin xyz="1 x 3"/><geometry>'
        '<sphere radius="1"/></geometry></visual><collision><origin xyz="1 x 3"/><geometry>'
        '<sphere radius="1"/></geometry></collision></link></robot>')
    assert [finding.code for finding in description.findings] == ['number-invalid'] * 2


# -- syntax-level findings --------------------------------------------------------------------
@pytest.mark.parametrize('snippet, code', [
    ('<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
     '<origin xyz="1 2"/></joint>', 'vector-size'),
    ('<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
     '<origin xyz="1 2 x"/></joint>', 'number-invalid'),
    ('<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
     '<origin xyz="1 nan 0"/></joint>', 'number-not-finite'),
    ('<joint name="j" type="fixed"><parent link="a"/></joint>', 'attribute-missing'),
    ('<joint type="fixed"><parent link="a"/><child link="b"/></joint>', 'attribute-missing'),
])
def test_reader_findings(snippet: str, code: str) -> None:
    text = f'<robot name="r">\n<link name="a"/><link name="b"/>\n{snippet}\n</robot>'
    desc = load_string(text)
    found = [f for f in desc.findings if f.code == code]
    assert found, desc.findings
    assert found[0].location.line == 3
    assert found[0].severity.value == 'error'


# -- bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize('content, message', [
    (b'', 'empty'),
    (b'   \n', 'empty'),
    (b'\x00\x01\x02binary', 'binary'),
    (b'\xff\xfe\xfa not utf8', 'not UTF-8'),
    (b'<robot name="r"><link name="a"></robot>', 'malformed XML'),
    (b'<launch><node/></launch>', 'expected <robot>'),
    (b'just text', 'malformed XML'),
    (None, 'cannot read'),  # no such file
    ('folder', 'directory'),
])
def test_bad_files_name_the_file(tmp_path: Path, content: bytes | str | None,
                                 message: str) -> None:
    path = tmp_path / 'bad.urdf'
    if content == 'folder':
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(DescriptionLoadError, match=re.escape(message)) as info:
        load(path)
    assert str(path) in str(info.value)


def test_size_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(description, 'MAX_DESCRIPTION_BYTES', 100)
    path = tmp_path / 'big.urdf'
    path.write_text('<robot name="r">' + '<link name="a"/>' * 20 + '</robot>')
    with pytest.raises(DescriptionTooLargeError):
        load(path)


def test_xacro_malformed_include_names_the_included_file() -> None:
    with pytest.raises(DescriptionLoadError, match='malformed XML') as info:
        load(READER / 'bad_include' / 'main.urdf.xacro')
    assert info.value.filename.endswith('part.xacro')
    assert info.value.line == 3


def test_xacro_state_is_restored_after_an_error(tmp_path: Path) -> None:
    import xacro
    before = (xacro.parse, xacro.eval_all, xacro.warning)
    path = tmp_path / 'bad.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    '<link name="${nope}"/></robot>')
    with pytest.raises(DescriptionLoadError):
        load(path)
    assert (xacro.parse, xacro.eval_all, xacro.warning) == before
    assert load(SAMPLE_ROBOT).robot.name


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_fuzz_bytes_only_raise_our_error(data: bytes) -> None:
    import tempfile
    with tempfile.NamedTemporaryFile(suffix='.urdf') as handle:
        handle.write(data)
        handle.flush()
        try:
            load(handle.name)
        except RobotDescriptionError:
            pass


_TAGS = ['robot', 'link', 'joint', 'parent', 'child', 'origin', 'axis', 'limit', 'mimic',
         'inertial', 'mass', 'inertia', 'visual', 'collision', 'geometry', 'box', 'mesh',
         'material', 'color', 'safety_controller', 'transmission', 'gazebo']
_ATTRS = ['name', 'type', 'link', 'xyz', 'rpy', 'lower', 'upper', 'effort', 'velocity',
          'joint', 'multiplier', 'value', 'ixx', 'size', 'filename', 'rgba', 'k_velocity']
_VALUES = st.sampled_from(['a', 'b', '1', '-1 0', '0 0 1', 'nan', 'inf', '1e309', '',
                           'revolute', 'fixed', 'weird', '1 2 3 4', 'package://x/y.stl'])


@st.composite
def urdf_like(draw: st.DrawFn, depth: int = 0) -> str:
    tag = 'robot' if depth == 0 else draw(st.sampled_from(_TAGS))
    attrs = draw(st.dictionaries(st.sampled_from(_ATTRS), _VALUES, max_size=4))
    children = [] if depth > 3 else draw(st.lists(urdf_like(depth + 1), max_size=4))
    attr_text = ''.join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<{tag}{attr_text}>{"".join(children)}</{tag}>'


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urdf_like())
def test_fuzz_structured_urdf_only_raise_our_error(text: str) -> None:
    from urdf_tools_ros.core.checks import check_description
    try:
        desc = load_string(text)
    except RobotDescriptionError:
        return
    check_description(desc)


# -- urdf_parser_py cross-check ---------------------------------------------------------------
def test_cross_check_accepts_the_sample_and_shared_models(shared_urdf: Path) -> None:
    for path in (SAMPLE_ROBOT, shared_urdf):
        desc = load(path, cross_check=True)
        assert [f for f in desc.findings if f.code.startswith('urdf-parser-py')] == []


def test_cross_check_reports_what_urdf_parser_py_refuses() -> None:
    # urdf_parser_py cannot read a joint whose <limit> has a non-numeric value.
    text = ('<robot name="r"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="x" upper="1" effort="1" velocity="1"/></joint></robot>')
    assert 'urdf-parser-py-rejects' not in codes(load_string(text))
    checked = load_string(text, cross_check=True)
    assert 'urdf-parser-py-rejects' in codes(checked)
    assert 'number-invalid' in codes(checked)


@pytest.mark.parametrize('name', [*sorted(SHARED_URDFS), 'robotiq_2f_85.urdf'])
def test_a_urdf_read_as_it_is_parsed_loads_as_from_the_whole_tree(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Above ``STREAM_CHARACTERS`` a plain URDF is read while lxml parses it: same description."""
    path = shared_model(name)
    whole = load(path)
    streamed: list[object] = []
    read = description._read_streamed

    def spy(text: str, reader: object) -> object:
        robot = read(text, reader)  # type: ignore[arg-type]
        streamed.append(robot)
        return robot

    monkeypatch.setattr(description, 'STREAM_CHARACTERS', 0)
    monkeypatch.setattr(description, '_read_streamed', spy)
    again = load(path)
    assert again == whole and again.findings == whole.findings
    # robotiq_2f_85's undeclared namespace prefix is an XML error: the whole-tree parse repairs
    # it; every other file was read as it was parsed.
    assert len(streamed) == 1 and (streamed[0] is None) == (name == 'robotiq_2f_85.urdf')


@pytest.mark.parametrize('text', [
    '<robot name="r">\n  <link name="a">\n</robot>\n',  # malformed at line 3
    '<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY e "x">]>\n<robot name="&e;"/>\n',
    '<model name="m"/>\n',
    '<robot name="r"><link name="a"/></robot>\n<robot name="s"/>\n',
])
def test_what_the_streamed_read_cannot_take_fails_as_the_whole_tree_says(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> None:
    path = tmp_path / 'bad.urdf'
    path.write_text(text)
    outcomes = []
    for limit in (description.STREAM_CHARACTERS, 0):
        monkeypatch.setattr(description, 'STREAM_CHARACTERS', limit)
        try:
            outcomes.append(('loaded', load(path)))
        except DescriptionLoadError as exc:
            outcomes.append(('refused', str(exc)))
    assert outcomes[0] == outcomes[1]
