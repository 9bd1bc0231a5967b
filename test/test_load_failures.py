"""
A description that cannot be loaded: said once, with a fix where one fits, in plain words.

Missing, malformed, and the XML attacks (external entity, billion laughs) as ``.urdf`` and
``.xacro``: refused at the declaration's line in the same words, never in the parser's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urdf_tools_ros.cli.main import run
from urdf_tools_ros.core.errors import DescriptionLoadError
from urdf_tools_ros.core.source.loader import load
from urdf_tools_ros.core.source.xacro import runner as xacro_runner

pytestmark = pytest.mark.portability

#: The entity declaration's line in each attack below.
XXE_LINE = 3
XXE = """<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY xxe SYSTEM "file://{secret}">
]>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="&xxe;"/>
</robot>
"""
LAUGHS_LINE = 4  # lol1, the first entity made of others
LAUGHS = '<?xml version="1.0"?>\n<!DOCTYPE robot [\n <!ENTITY lol "lol">\n' + ''.join(
    f' <!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">\n'
    for n in range(1, 10)) + ']>\n<robot name="r"><link name="&lol9;"/></robot>\n'
MALFORMED = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
             '  <link name="a">\n</robot>\n')


def _write(tmp_path: Path, kind: str, suffix: str) -> Path:
    path = tmp_path / f'{kind}{suffix}'
    secret = tmp_path / 'secret.txt'
    secret.write_text('TOP-SECRET')
    if kind != 'missing':
        path.write_text({'xxe': XXE.format(secret=secret), 'laughs': LAUGHS,
                         'malformed': MALFORMED}[kind])
    return path


def _reason(path: Path) -> DescriptionLoadError:
    with pytest.raises(DescriptionLoadError) as info:
        load(path)
    return info.value


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(['check', *args])
    out, err = capsys.readouterr()
    return code, out, err


CASES = [('missing', '.urdf'), ('malformed', '.urdf'), ('malformed', '.urdf.xacro'),
         ('xxe', '.urdf'), ('xxe', '.urdf.xacro'), ('laughs', '.urdf'),
         ('laughs', '.urdf.xacro')]


@pytest.mark.parametrize('kind, suffix', CASES)
@pytest.mark.parametrize('form', ['text', 'json', 'text -o', 'json -o'])
def test_a_load_failure_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     kind: str, suffix: str, form: str) -> None:
    path = _write(tmp_path, kind, suffix)
    error = _reason(path)
    output = tmp_path / 'report.out'
    fmt, written = form.split()[0], form.endswith('-o')
    code, out, err = _check(capsys, str(path), '--format', fmt,
                            *(['-o', str(output)] if written else []))
    assert code == 2
    report = output.read_text() if written else out
    if fmt == 'json':
        (finding,) = json.loads(report)['findings']
        assert finding['code'] == 'description-unloadable' and error.reason in finding['message']
        assert (finding['file'], finding['line']) == (error.filename, error.line)
        assert finding['fix'] == error.fix
    else:
        assert report.count(error.reason) == 1, report
        assert ('    fix: ' in report) is (error.fix is not None)
        assert report.splitlines()[-1].startswith(f'{path}: 1 error')  # the summary follows
    if written or fmt != 'text':  # the report holds it, stderr says it once, in one line
        assert err.count(error.reason) == 1 and len(err.splitlines()) == 1, err
        assert out.count(error.reason) == (0 if written else 1), out
    else:  # the text report on stdout said it: nothing more
        assert err == '', err
    assert 'TOP-SECRET' not in out + err + (output.read_text() if written else '')


def test_a_fix_only_where_one_fits(tmp_path: Path) -> None:
    assert _reason(_write(tmp_path, 'missing', '.urdf')).fix is None
    for suffix in ('.urdf', '.urdf.xacro'):
        path = _write(tmp_path, 'malformed', suffix)
        error = _reason(path)
        assert str(error).startswith(f'{path}:3: malformed XML')  # the </robot> after <link>
        assert error.line == 3 and error.fix is not None


@pytest.mark.parametrize('kind, name, line', [('xxe', "external entity 'xxe'", XXE_LINE),
                                              ('laughs', "entity 'lol1'", LAUGHS_LINE)])
def test_an_xml_attack_is_refused_in_plain_words_at_its_line(tmp_path: Path, kind: str,
                                                             name: str, line: int) -> None:
    urdf, xacro = (_reason(_write(tmp_path, kind, suffix)) for suffix in ('.urdf', '.xacro'))
    for error in (urdf, xacro):
        assert name in error.reason and 'refused' in error.reason, error
        assert error.line == line and error.fix is not None
        for parser_words in ('EntitiesForbidden', 'xmlCtxt', 'amplification', 'malformed'):
            assert parser_words not in str(error)
    assert urdf.reason == xacro.reason  # the same words for both parsers
    if kind == 'xxe':
        assert f"({tmp_path / 'secret.txt'})" in urdf.reason.replace('file://', '')


def test_an_entity_in_an_included_xacro_is_refused_there(tmp_path: Path) -> None:
    (tmp_path / 'part.xacro').write_text(LAUGHS.replace('<robot name="r">', '<robot>'))
    main = tmp_path / 'main.urdf.xacro'
    main.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:include filename="part.xacro"/>\n</robot>\n')
    error = _reason(main)
    assert error.filename.endswith('part.xacro') and error.line == LAUGHS_LINE
    assert "entity 'lol1'" in error.reason


def test_without_line_hooks_the_same_words_and_a_doctype_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, 'xxe', '.urdf.xacro')
    with_hooks = _reason(path)
    monkeypatch.setattr(xacro_runner, 'USE_LINE_HOOKS', False)
    assert (_reason(path).reason, _reason(path).line) == (with_hooks.reason, with_hooks.line)
    doctype = tmp_path / 'doctype.urdf.xacro'
    doctype.write_text('<?xml version="1.0"?>\n<!DOCTYPE robot>\n<robot name="r"/>\n')
    error = _reason(doctype)
    assert '<!DOCTYPE>' in error.reason and error.line == 2
