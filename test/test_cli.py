"""The urdf-tools command line: verdicts, formats, exit codes, and no tracebacks."""

from __future__ import annotations

import json
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
import textwrap
import time

from lxml import etree
from paths import ROS2_DESCRIPTIONS
import pytest

from conftest import REPO, run_cli as cli, SAMPLE_ROBOT, shared_model
from urdf_tools_ros.cli.commands import COMMANDS
from urdf_tools_ros.cli.main import run

pytestmark = pytest.mark.portability

#: A revolute joint with lower > upper and no velocity limit, both at line 8; relative to the
#: repository, where ``cli`` runs and ``check`` writes it so.
BROKEN = 'test/urdf/cli/broken.urdf'


def test_sample_robot_checks_clean() -> None:
    result = cli('check', str(SAMPLE_ROBOT), '--werror')
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r': 0 errors, 0 warnings, \d+ info$', result.stdout.strip())


def test_errors_exit_1_with_compiler_style_lines() -> None:
    result = cli('check', BROKEN)
    assert result.returncode == 1
    # file:line: severity[code]: message, whole; -v adds the consumers an error breaks below it
    assert re.search(rf'^{re.escape(BROKEN)}:8: error\[joint-limit-velocity-missing\]: '
                     'joint "j".*velocity', result.stdout, re.MULTILINE), result.stdout
    assert 'breaks' not in result.stdout
    verbose = cli('check', BROKEN, '-v').stdout.splitlines()
    error = next(index for index, line in enumerate(verbose)
                 if 'error[joint-limit-velocity-missing]' in line)
    assert verbose[error + 1].startswith('    breaks: urdfdom'), verbose
    assert re.search(rf'^{re.escape(BROKEN)}:8: warning\[joint-limit-lower-above-upper\]: '
                     'joint "j".*1\\.2', result.stdout, re.MULTILINE), result.stdout
    assert '    fix: swap them: lower="0.4" upper="1.2"' in result.stdout.splitlines()
    assert '1 error,' in result.stdout


def test_werror_fails_on_warnings(tmp_path: Path) -> None:
    path = tmp_path / 'warn.urdf'
    path.write_text('<robot name="w">\n<link name="a"><visual><geometry>'
                    '<mesh filename="missing_mesh.stl"/></geometry></visual></link>\n</robot>')
    assert cli('check', str(path)).returncode == 0
    result = cli('check', str(path), '--werror')
    assert result.returncode == 1
    assert 'warning[' in result.stdout


@pytest.mark.parametrize('content', ['<robot name="r"><link name="a"></robot>', '',
                                     '<launch/>', '\x00\x01'])
def test_unloadable_exits_2_with_a_message_not_a_traceback(tmp_path: Path, content: str) -> None:
    path = tmp_path / 'bad.urdf'
    path.write_text(content)
    result = cli('check', str(path))
    assert result.returncode == 2
    said = [line for line in (result.stdout + result.stderr).splitlines()
            if 'cannot be loaded' in line]
    assert len(said) == 1 and said[0].startswith(str(path)), result.stdout + result.stderr
    assert 'Traceback' not in result.stderr + result.stdout


@pytest.mark.parametrize('sink', ['pipe', 'file'])
def test_the_console_script_writes_its_whole_output_before_it_ends(
        sink: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The whole report must arrive, through a pipe and into a file, with run()'s exit code.
    # Output is block-buffered, as users have it (PYTHONUNBUFFERED would hide a lost buffer).
    buffered = {name: value for name, value in os.environ.items()
                if name != 'PYTHONUNBUFFERED'}
    for args in (['check', str(shared_model('talos_full_v2')), '--format', 'json'],
                 ['check', shutil.copy(REPO / BROKEN, tmp_path)]):
        code = run(args)
        expected = capsys.readouterr().out
        assert len(expected) > 100
        command = [sys.executable, '-m', 'urdf_tools_ros.cli.main', *args]
        if sink == 'pipe':
            result = cli(*args, env=buffered)
            out = result.stdout
        else:
            with open(tmp_path / 'out.txt', 'w', encoding='utf-8') as stream:
                result = subprocess.run(command, cwd=REPO, env=buffered, stdout=stream,
                                        stderr=subprocess.PIPE, text=True, timeout=300)
            out = (tmp_path / 'out.txt').read_text(encoding='utf-8')
        assert (result.returncode, out) == (code, expected), result.stderr


_THREADS = textwrap.dedent("""
    import os, sys
    if sys.argv[2] == 'numpy-first':
        import numpy  # the control: numpy imported as any script would
    sys.argv = ['urdf-tools', 'check', sys.argv[1]]
    import urdf_tools_ros.cli.main as cli

    def report(code):  # instead of ending the process: how many threads it has now
        print(code, len(os.listdir('/proc/self/task')), flush=True)
        os._exit(0)

    sys.exit = report
    cli.main()
""")


@pytest.mark.skipif(not os.path.isdir('/proc/self/task'), reason='counts threads in /proc')
@pytest.mark.parametrize('chosen', [None, '2'])
def test_the_console_script_starts_no_blas_worker_threads_unless_asked(chosen: str | None) -> None:
    # OpenBLAS's workers, started at numpy's import, spin and took the core check runs on
    # on a 2-core machine; a user's own OPENBLAS_NUM_THREADS is kept.
    env = {name: value for name, value in os.environ.items() if name != 'OPENBLAS_NUM_THREADS'}
    arm = str(REPO / 'urdf' / 'examples' / 'arm.urdf')

    def threads(order: str, extra: dict[str, str]) -> int:
        done = subprocess.run([sys.executable, '-c', _THREADS, arm, order], cwd=REPO,
                              env={**env, **extra}, capture_output=True, text=True, timeout=60)
        code, count = done.stdout.split()[-2:]  # after check's report
        assert code == '1', done.stdout + done.stderr  # arm.urdf has errors: exit 1
        return int(count)

    if threads('numpy-first', {}) < 2:
        pytest.skip("this numpy's BLAS starts no worker threads here (one core, or no OpenBLAS)")
    if chosen is None:
        assert threads('cli-first', {}) == 1
    else:
        assert threads('cli-first', {'OPENBLAS_NUM_THREADS': chosen}) == int(chosen)


def test_xacro_error_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / 'bad.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <link name="${no_such_property}"/>\n</robot>\n')
    result = cli('check', str(path))
    assert result.returncode == 2
    assert f'{path}:2:' in result.stdout and 'no_such_property' in result.stdout
    assert result.stderr == ''  # the text report has said it


def test_bad_xacro_argument_is_a_usage_error() -> None:
    result = cli('check', str(SAMPLE_ROBOT), 'prefix=oops')
    assert result.returncode == 2
    assert 'name:=value' in result.stderr


def test_json_format() -> None:
    result = cli('check', BROKEN, '--format', 'json')
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data['counts']['error'] >= 1
    errors = [f for f in data['findings'] if f['severity'] == 'error']
    assert errors[0]['line'] == 8 and errors[0]['element'] == 'joint:j'
    assert errors[0]['file'] == BROKEN


def test_junit_format(tmp_path: Path) -> None:
    out = tmp_path / 'report.xml'
    result = cli('check', BROKEN, '--format', 'junit', '-o', str(out))
    assert result.returncode == 1
    suite = etree.parse(str(out)).getroot().find('testsuite')
    assert suite is not None
    failures = suite.findall('testcase/failure')
    assert int(suite.get('failures')) == len(failures) >= 1
    names = [case.get('name') for case in suite.findall('testcase')]
    assert int(suite.get('tests')) == len(names) and names[-1] == 'other rules'
    assert 'joint-limit-velocity-missing' in names  # a case per rule with findings


def test_stdin_input() -> None:
    result = subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check', '-'],
                            input=(REPO / BROKEN).read_text(), cwd=REPO, capture_output=True,
                            text=True)
    assert result.returncode == 1
    assert '<stdin>:8: error[' in result.stdout


def test_xacro_args_and_package_path(tmp_path: Path) -> None:
    result = cli('tree', str(SAMPLE_ROBOT), 'prefix:=left_')
    assert result.returncode == 0
    assert 'left_base_link' in result.stdout
    bad = cli('check', str(SAMPLE_ROBOT), '--package-path', 'nodir')
    assert bad.returncode == 2 and 'NAME=DIR' in bad.stderr


def test_tree_lists_every_link_once() -> None:
    result = cli('tree', str(SAMPLE_ROBOT))
    assert result.returncode == 0
    from urdf_tools_ros.core.source.loader import load
    robot = load(SAMPLE_ROBOT).robot
    for link in robot.links:
        assert len(re.findall(rf'(?<![\w]){re.escape(link.name)}(?![\w])', result.stdout)) >= 1
    assert 'root link: world' in result.stdout
    assert 'mimic left_finger_joint' in result.stdout


def test_graph_dot_has_one_edge_per_joint(tmp_path: Path) -> None:
    result = cli('graph', str(SAMPLE_ROBOT))
    assert result.returncode == 0
    assert result.stdout.startswith('digraph')
    from urdf_tools_ros.core.source.loader import load
    assert result.stdout.count(' -> ') == len(load(SAMPLE_ROBOT).robot.joints)
    pdf = tmp_path / 'g.pdf'
    rendered = cli('graph', str(SAMPLE_ROBOT), '-o', str(pdf))
    if shutil.which('dot'):
        assert rendered.returncode == 0 and pdf.read_bytes().startswith(b'%PDF')
    else:
        assert rendered.returncode == 1
        assert 'Graphviz "dot" is not installed' in rendered.stderr
        assert (tmp_path / 'g.dot').read_text().startswith('digraph')


@pytest.mark.parametrize('args, expected', [
    (['box', '0.1', '0.1', '0.2', '--mass', '0.6'],  # a solid cuboid
     {'ixx': 0.6 * (0.1**2 + 0.2**2) / 12, 'iyy': 0.6 * (0.1**2 + 0.2**2) / 12,
      'izz': 0.6 * (0.1**2 + 0.1**2) / 12}),
    (['cylinder', '0.05', '0.3', '--mass', '2'],
     {'ixx': 2 * (3 * 0.05**2 + 0.3**2) / 12, 'izz': 2 * 0.05**2 / 2}),
    (['sphere', '0.1', '--mass', '1'], {'ixx': 0.4 * 0.01, 'izz': 0.4 * 0.01}),
    # capsule r=0.05, L=0.2, 2 kg: by volume 1.5 kg of cylinder, 0.5 kg of hemispheres; each
    # hemisphere's centroid 3r/8 from its flat face, moved by the parallel axis theorem
    (['capsule', '0.05', '0.2', '--mass', '2'],
     {'ixx': 1.5 * (0.2**2 / 12 + 0.05**2 / 4)
      + 0.5 * (2 * 0.05**2 / 5 + 0.2**2 / 4 + 3 * 0.2 * 0.05 / 8),
      'izz': 1.5 * 0.05**2 / 2 + 0.5 * 2 * 0.05**2 / 5}),
])
def test_inertia_of_each_solid(args: list[str], expected: dict[str, float]) -> None:
    result = cli('inertia', *args)
    assert result.returncode == 0
    element = etree.fromstring(result.stdout.strip().splitlines()[-1])
    for name, value in expected.items():
        assert float(element.get(name)) == pytest.approx(value, rel=1e-5)


def test_undeclared_namespace_is_a_warning_naming_urdf_parser_py(
        capsys: pytest.CaptureFixture[str]) -> None:
    """
    robotiq_2f_85.urdf uses drake: undeclared; urdf_parser_py refuses it, urdfdom reads it.

    urdf_parser_py is on no ROS graph's path (joint_state_publisher parses with minidom): a
    warning for every target that names it (CONVENTIONS C12).
    """
    path = str(shared_model('robotiq_2f_85.urdf'))
    for target in ('ros', 'ros-humble', 'ros-rolling', 'gazebo'):
        assert run(['check', path, '--target', target, '-v']) == 0
        out = capsys.readouterr().out
        assert ':345: warning[xml-namespace-undeclared]' in out, out
        assert '    concerns: urdf_parser_py' in out and ': 0 errors,' in out


@pytest.mark.parametrize('name', ['cookie', 'cookie/xacro/cookie.xacro'])
def test_cookie_wheels_are_an_error_for_joint_state_publisher(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Wheel limits without lower/upper: upstream joint_state_publisher refuses cookie."""
    assert run(['check', str(shared_model(name)), '-v']) == 1
    lines = capsys.readouterr().out.splitlines()
    errors = [index for index, line in enumerate(lines) if ': error[' in line]
    breaks = '    breaks: joint_state_publisher'  # below its include chain and macro calls
    assert len(errors) == 2 and all('[joint-limit-bound-missing]' in lines[index]
                                    and breaks in lines[index:index + 6]
                                    for index in errors), lines
    assert run(['check', str(shared_model(name)), '--target', 'gazebo']) == 0


def test_version_is_the_packages() -> None:
    done = cli('--version')
    version = re.search(r'<version>([^<]+)</version>', (REPO / 'package.xml').read_text())
    assert done.returncode == 0 and version is not None
    assert done.stdout.strip() == f'urdf-tools {version.group(1)}'


@pytest.mark.parametrize('size', ['nan', 'inf', '0', '-1'])
def test_inertia_refuses_sizes_that_are_no_positive_number(size: str) -> None:
    done = cli('inertia', 'box', size, '0.1', '0.2', '--mass', '1')
    assert done.returncode == 2 and 'expected a finite number above 0' in done.stderr
    assert done.stdout == ''
    done = cli('inertia', 'sphere', '0.1', '--mass', size)
    assert done.returncode == 2 and 'expected a finite number above 0' in done.stderr


def test_inertia_digits_before_or_after_the_shape() -> None:
    before = cli('inertia', '--digits', '3', 'box', '1', '0.1', '0.2', '--mass', '1')
    after = cli('inertia', 'box', '1', '0.1', '0.2', '--mass', '1', '--digits', '3')
    assert before.returncode == after.returncode == 0
    assert before.stdout == after.stdout and 'iyy="0.0867"' in after.stdout


def test_view_on_an_address_this_machine_lacks_fails_at_once() -> None:
    started = time.monotonic()
    done = cli('view', str(SAMPLE_ROBOT), '--host', '192.0.2.1', '--exit-after', '30')
    assert time.monotonic() - started < 20  # not served, not waiting for --exit-after
    assert done.returncode == 2
    assert '--host 192.0.2.1: cannot listen there' in done.stderr
    assert 'serving' not in done.stdout


@pytest.mark.parametrize('command', ['check', 'rules', 'convert', 'graph', 'tree', 'inertia',
                                     'view'])
def test_every_subcommand_has_its_help_and_the_list_names_all(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A run builds the arguments of its own subcommand only; each one's help is complete."""
    with pytest.raises(SystemExit) as done:
        run([command, '--help'])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f'usage: urdf-tools {command} [-h]')
    assert re.search(r'^options:|^optional arguments:', out, re.M)  # Python 3.10+ / older
    assert len(out.splitlines()) > 5  # its arguments, not an empty stub
    for top in (['--help'], ['-h', command]):  # urdf-tools' own help lists every subcommand
        with pytest.raises(SystemExit):
            run(top)
        listing = capsys.readouterr().out
        assert all(re.search(rf'^    {name} +\S', listing, re.M)  # listed with its help
                   for name in COMMANDS), (top, listing)


def test_a_mistyped_subcommand_is_refused_naming_every_subcommand(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A run builds only the subcommand it names; a word that names none still gets the list.
    with pytest.raises(SystemExit) as done:
        run(['chek', str(SAMPLE_ROBOT)])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'chek'" in err
    assert all(f"'{name}'" in err for name in COMMANDS), err


def test_check_imports_only_what_it_needs() -> None:
    """Start-up is paid by every CI job: no xacro, viewer, cross-check or metadata for a URDF."""
    script = textwrap.dedent("""
        import contextlib, io, sys
        import numpy, lxml.etree  # the floor: what they import (subprocess on Python 3.10's
        floor = set(sys.modules)  # numpy, through platform) is not check's to answer for
        from urdf_tools_ros.cli.main import run
        with contextlib.redirect_stdout(io.StringIO()):
            code = run(['check', sys.argv[1]])
        heavy = ['xacro', 'urdf_parser_py', 'importlib.metadata', 'viser', 'trimesh',
                 'urllib.request', 'subprocess', 'defusedxml.expatbuilder', 'socket',
                 'urdf_tools_ros.cli.view', 'urdf_tools_ros.cli.inspect_commands']
        print(code, *[name for name in heavy if name in sys.modules and name not in floor])
    """)
    done = subprocess.run([sys.executable, '-c', script,
                           str(REPO / 'urdf' / 'examples' / 'arm.urdf')],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    code, *heavy = done.stdout.split()
    assert code in ('0', '1') and heavy == []  # arm.urdf has findings (exit 1): any verdict


def test_xacro_arguments_may_follow_options() -> None:
    # name:=value after an option is a xacro argument, as before the options, for check and
    # for a one-file command; another unknown word is still the usage error
    kuka = ROS2_DESCRIPTIONS / 'kuka_lbr_iiwa_support' / 'urdf' / 'lbr_iiwa14_r820.urdf.xacro'
    if not kuka.is_file():
        pytest.skip(f'{ROS2_DESCRIPTIONS} is not here')
    packages = f'--package-path={ROS2_DESCRIPTIONS}'
    before = cli('tree', str(kuka), 'prefix:=r1_', packages)
    after = cli('tree', str(kuka), packages, 'prefix:=r1_')
    assert before.returncode == after.returncode == 0, after.stderr
    assert after.stdout == before.stdout and 'r1_link_1' in after.stdout
    checked = cli('check', str(kuka), '-v', packages, 'prefix:=r1_', '--format', 'json')
    assert checked.returncode in (0, 1), checked.stderr
    assert 'xacro-arg-unknown' not in checked.stdout
    refused = cli('check', str(kuka), '-v', 'bogus')
    assert refused.returncode == 2 and 'unrecognized arguments: bogus' in refused.stderr
