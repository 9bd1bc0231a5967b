"""
Consumers as oracles: whether the real tools that read URDF load a file, and what they say.

Each function asks one real consumer about one file and returns a :class:`Verdict`, or ``None``
when that consumer is not installed here (:func:`available` says which are). A refusal is never
raised: it is ``loaded=False`` with what the tool printed.

* ``urdfdom-3``: Debian's ``/usr/bin/check_urdf`` (liburdfdom-tools, urdfdom 3.0.1), what ROS 2
  Humble/Jazzy's robot_state_publisher and RViz parse with; exit status 0 = loaded.
* ``urdfdom-6``: the ``check_urdf`` of the ``pin`` wheel (urdfdom 6.0.0) beside this Python.
* ``urdf_parser_py``: ``URDF.from_xml_string`` on the file's bytes (what ``from_xml_file``
  does); its warnings come through the ``on_error`` hook of ``xml_reflection``.
* ``pinocchio``: ``pinocchio.buildModelFromUrdf`` (parses with its own urdfdom 6; what that
  prints on stderr is the message).
* ``mujoco``: ``mujoco.MjModel.from_xml_path`` on a rewritten copy (``package://`` and relative
  mesh paths made absolute; meshes it cannot read removed, see :func:`mujoco`).
* ``gazebo``: SDFormat's URDF -> SDF conversion (``sdf::Root::Load``, what Gazebo does), through
  ``test/oracle_tools/sdformat_probe.cc`` built by ``scripts/setup-oracles.sh`` into
  ``.cache/oracles/sdformat_probe``.

:func:`oracle_fk.pinocchio_fk_difference` compares this package's forward kinematics with
pinocchio's.
Plain module (no pytest): tests and ``bench/`` scripts import it with ``test/`` on sys.path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
import contextlib
from dataclasses import dataclass
import functools
import importlib
import importlib.util
import os
from pathlib import Path
import re
import subprocess
import sys
import tempfile
from types import ModuleType
from typing import Any

from lxml import etree
from paths import CACHE

__all__ = ['Verdict', 'CONSUMER_NAMES', 'urdfdom', 'urdf_parser_py', 'pinocchio', 'mujoco',
           'gazebo', 'gazebo_dropped_links', 'pybullet', 'pybullet_masses', 'verdicts',
           'available']

#: The consumers, in the order :func:`verdicts` and :func:`available` list them.
CONSUMER_NAMES = ('urdfdom-3', 'urdfdom-6', 'urdf_parser_py', 'pinocchio', 'mujoco', 'gazebo')
#: urdfdom 3.0.1's check_urdf (Debian liburdfdom-tools).
URDFDOM_3 = Path('/usr/bin/check_urdf')
#: The SDFormat probe built by scripts/setup-oracles.sh.
SDFORMAT_PROBE = CACHE / 'oracles' / 'sdformat_probe'
#: Seconds a consumer's process may take.
TIMEOUT = 60.0
#: Longest message kept, characters.
MESSAGE_LIMIT = 2000

_ANSI = re.compile(r'\x1b\[[0-9;]*m')
_XML_DECLARATION = re.compile(r'^\s*<\?xml[^>]*\?>')
_MUJOCO_LOG = 'MUJOCO_LOG.TXT'
_NOT_MODELLED = re.compile(r'urdf2sdf: link\[([^\]]*)\] has no inertia, not modeled in sdf')

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Verdict:
    """
    What one consumer did with one file.

    :ivar consumer: One of :data:`CONSUMER_NAMES`.
    :ivar loaded: Whether it loaded the file.
    :ivar message: What it printed (errors, warnings; for ``gazebo`` also the model summary),
        ANSI colours removed, trimmed to about :data:`MESSAGE_LIMIT` characters.
    """

    consumer: str
    loaded: bool
    message: str


def _trim(text: str) -> str:
    text = _ANSI.sub('', text).strip()
    if len(text) <= MESSAGE_LIMIT:
        return text
    return text[:MESSAGE_LIMIT] + f' ... [{len(text) - MESSAGE_LIMIT} more characters]'


def _hardened_parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           huge_tree=False, recover=recover)


def _parse_namespace_blind(source: Path | str) -> Any:
    """
    Parse a file (``Path``) or XML text (``str``) as the C++ consumers' namespace-blind parsers.

    An undeclared prefix (``<drake:member>``) is only a namespace error: the element is kept as
    written. Any other error, or an unreadable file, gives ``None``.

    :return: The ``ElementTree``, or ``None``.
    """
    def parse(recover: bool) -> Any:
        if isinstance(source, Path):
            return etree.parse(str(source), _hardened_parser(recover))
        text = _XML_DECLARATION.sub('', source, count=1)  # lxml refuses str with an encoding
        return etree.ElementTree(etree.fromstring(text, _hardened_parser(recover)))

    try:
        return parse(recover=False)
    except OSError:
        return None
    except etree.XMLSyntaxError as exc:
        errors: Any = exc.error_log  # lxml-stubs do not know it is iterable
        if not all(entry.domain == etree.ErrorDomains.NAMESPACE for entry in errors):
            return None
    return parse(recover=True)


@functools.lru_cache(maxsize=None)
def _module(name: str) -> ModuleType | None:
    """The module ``name``, or ``None`` when it does not import (the answer is cached)."""
    try:
        return importlib.import_module(name)
    except Exception:  # noqa: B902 - a broken native module raises more than ImportError
        return None


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _check_urdf(version: str) -> Path:
    if version == '3':
        return URDFDOM_3
    if version == '6':
        # Not resolved: the venv's bin/ is beside the venv's python link, not beside its target.
        return Path(sys.executable).parent / 'check_urdf'
    raise ValueError(f"urdfdom version must be '3' or '6', got {version!r}")


def _run(consumer: str, command: list[str], stderr_first: bool) -> Verdict | None:
    """
    Run a consumer's program: exit status 0 = loaded; ``None`` if it cannot be started.

    :param stderr_first: Put its stderr before its stdout in the message (where its errors are,
        so that trimming keeps them).
    """
    with tempfile.TemporaryDirectory(prefix='oracle-') as scratch:
        try:
            done = subprocess.run(command, cwd=scratch, capture_output=True, text=True,
                                  errors='replace', timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired as exc:
            output = exc.stdout if isinstance(exc.stdout, str) else ''
            return Verdict(consumer, False, _trim(f'timed out after {TIMEOUT:g} s\n{output}'))
        except OSError:
            return None
    parts = (done.stderr, done.stdout) if stderr_first else (done.stdout, done.stderr)
    return Verdict(consumer, done.returncode == 0,
                   _trim('\n'.join(part.strip() for part in parts if part.strip())))


def urdfdom(path: PathLike, version: str) -> Verdict | None:
    """
    Ask urdfdom's ``check_urdf`` whether it loads ``path``.

    :param path: The URDF file.
    :param version: ``'3'`` (``/usr/bin/check_urdf``, urdfdom 3.0.1) or ``'6'`` (the ``pin``
        wheel's, urdfdom 6.0.0, beside ``sys.executable``).
    :return: The verdict (consumer ``urdfdom-3`` or ``urdfdom-6``; message: its stderr, where its
        ``Error:``/``Warning:`` lines are, then its stdout), or ``None`` when that program is
        absent.
    :raises ValueError: for another ``version``.
    """
    program = _check_urdf(version)
    if not _executable(program):
        return None
    return _run(f'urdfdom-{version}', [str(program), os.path.abspath(path)], stderr_first=True)


def urdf_parser_py(path: PathLike) -> Verdict:
    """
    Ask urdf_parser_py whether ``URDF.from_xml_string`` loads the bytes of ``path``.

    :return: ``loaded=False`` when it raises (the exception is the message; a file that cannot
        be read is refused too); the warnings of its ``on_error`` hook in either case.
    """
    from urdf_parser_py import urdf, xml_reflection
    from urdf_parser_py.xml_reflection import core

    messages: list[str] = []
    # urdf.py calls xml_reflection.on_error, a copy of core.on_error made by its `import *`.
    hooks: list[Any] = [core, xml_reflection]
    previous = [hook.on_error for hook in hooks]
    for hook in hooks:
        hook.on_error = messages.append
    try:
        urdf.URDF.from_xml_string(Path(path).read_bytes())
        loaded = True
    except Exception as exc:  # noqa: B902 - it raises bare Exception, AssertionError, ...
        loaded = False
        messages.append(f'{type(exc).__name__}: {exc}')
    finally:
        for hook, handler in zip(hooks, previous):
            hook.on_error = handler
    return Verdict('urdf_parser_py', loaded, _trim('\n'.join(messages)))


@contextlib.contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Capture file descriptor 2 (what C++ libraries print); the text is in the list after."""
    captured: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield captured
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                sink.seek(0)
                captured.append(sink.read().decode('utf-8', 'replace'))
    finally:
        os.close(saved)


def pinocchio(path: PathLike) -> Verdict | None:
    """
    Ask pinocchio whether ``pinocchio.buildModelFromUrdf`` loads ``path``.

    :return: The verdict (message: what its urdfdom printed, then the exception), or ``None``
        when pinocchio does not import.
    """
    pin = _module('pinocchio')
    if pin is None:
        return None
    error = ''
    with _stderr_captured() as printed:
        try:
            pin.buildModelFromUrdf(os.fspath(path))
        except Exception as exc:  # noqa: B902 - ValueError "does not contain a valid URDF model"
            error = f'{type(exc).__name__}: {exc}'
    return Verdict('pinocchio', not error, _trim('\n'.join(filter(None, printed + [error]))))


def _mesh_path(filename: str, directory: Path, package_paths: Mapping[str, str]) -> Path | None:
    """Absolute path of a ``<mesh filename>``, or ``None`` when it cannot be resolved."""
    if filename.startswith('package://'):
        package, _, rest = filename[len('package://'):].partition('/')
        if package not in package_paths:
            return None
        return Path(package_paths[package], rest).absolute()
    if filename.startswith('file://'):
        filename = filename[len('file://'):]
    elif '://' in filename:
        return None
    return (directory / filename).absolute()


def _mujoco_copy(path: Path, package_paths: Mapping[str, str], target: Path) -> int | None:
    """
    Write ``path`` to ``target`` with every mesh file found made absolute.

    A ``<visual>`` whose mesh is not found is removed (MuJoCo discards visuals and never opens
    their files); a collision mesh that is not found stays as written, and MuJoCo refuses the
    file on it ("Error opening file"), as users see. A mesh file of a type MuJoCo cannot
    decode is kept: MuJoCo refuses it in a collision ("no decoder found for mesh file").

    :return: How many ``<visual>`` elements were removed, or ``None`` when the file is not XML
        (then nothing is written and MuJoCo gets the file itself).
    """
    tree = _parse_namespace_blind(path)
    if tree is None:
        return None
    stripped = 0
    for mesh in list(tree.getroot().iter('mesh')):
        owner = mesh.getparent()
        while owner is not None and owner.tag not in ('visual', 'collision'):
            owner = owner.getparent()
        filename = mesh.get('filename')
        if owner is None or filename is None:
            continue
        resolved = _mesh_path(filename.strip(), path.parent, package_paths)
        if resolved is not None and resolved.is_file():
            mesh.set('filename', str(resolved))
        elif owner.tag == 'visual':  # MuJoCo discards visuals: it never opens their files
            parent = owner.getparent()
            if parent is not None:
                parent.remove(owner)
                stripped += 1
    tree.write(str(target), xml_declaration=True, encoding='utf-8')
    return stripped


def mujoco(path: PathLike, package_paths: Mapping[str, str] | None = None) -> Verdict | None:
    """
    Ask MuJoCo whether ``mujoco.MjModel.from_xml_path`` loads ``path``.

    MuJoCo does not resolve ``package://``, so it is handed a temporary copy: each
    ``package://NAME/rest`` mesh filename becomes ``package_paths[NAME]/rest``, a relative one
    is made absolute against the URDF's directory; a visual whose mesh then is not a file is
    removed (the message says how many were), a collision's stays and MuJoCo refuses it. A
    mesh file MuJoCo cannot decode (only .stl, .obj, .msh) is kept: it refuses one in a
    collision. A ``MUJOCO_LOG.TXT`` it
    writes into the working directory is removed.

    :param path: The URDF file.
    :param package_paths: Package share directories by package name.
    :return: The verdict, or ``None`` when mujoco does not import.
    """
    mj = _module('mujoco')
    if mj is None:
        return None
    source = Path(path).absolute()
    log = Path(_MUJOCO_LOG).absolute()
    had_log = log.exists()
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix='oracle-mujoco-') as scratch:
        copy = Path(scratch) / source.name
        stripped = _mujoco_copy(source, package_paths or {}, copy)
        if stripped:
            notes.append(f'stripped {stripped} <visual> with a missing or unresolved mesh')
        try:
            mj.MjModel.from_xml_path(str(copy if stripped is not None else source))
            loaded = True
        except Exception as exc:  # noqa: B902 - ValueError on a refusal
            loaded = False
            notes.insert(0, f'{type(exc).__name__}: {exc}')
        finally:
            if not had_log and log.exists():
                log.unlink()
    return Verdict('mujoco', loaded, _trim('\n'.join(notes)))


def gazebo(path: PathLike) -> Verdict | None:
    """
    Ask SDFormat (Gazebo's URDF -> SDF conversion, ``sdf::Root::Load``) whether it loads ``path``.

    :return: The verdict; its message has the ``error: ...`` lines, then ``model NAME links N
        joints N`` and a ``link NAME mass M visuals N collisions N`` line per link (after
        fixed-joint lumping), then
        what SDFormat logged. ``None`` when the probe is not built (scripts/setup-oracles.sh).
    """
    if not _executable(SDFORMAT_PROBE):
        return None
    return _run('gazebo', [str(SDFORMAT_PROBE), os.path.abspath(path)], stderr_first=False)


def gazebo_dropped_links(path: PathLike) -> list[str] | None:
    """
    The links Gazebo does not model, with what is attached below them.

    SDFormat's URDF conversion logs a link without mass as "urdf2sdf: link[NAME] has no
    inertia, not modeled in sdf", only in its debug log (``$HOME/.sdformat/sdformat.log``; the
    probe runs with ``HOME`` in a scratch directory). For the child of a lumped fixed joint that
    loses nothing (its visuals and collisions are merged into its parent, as the probe's counts
    show); for the root, the child of a moving joint or of a root named ``world`` (which is not
    lumped into) the link is gone.

    :return: Those dropped links in SDFormat's order (``[]``: none); ``None`` when the probe is
        not built, the file is not XML, or SDFormat refuses the file (see :func:`gazebo`).
    """
    tree = _parse_namespace_blind(Path(path))
    if not _executable(SDFORMAT_PROBE) or tree is None:
        return None
    with tempfile.TemporaryDirectory(prefix='oracle-') as scratch:
        done = subprocess.run([str(SDFORMAT_PROBE), os.path.abspath(path)], cwd=scratch,
                              env=dict(os.environ, HOME=scratch), capture_output=True,
                              text=True, errors='replace', timeout=TIMEOUT, check=False)
        log = Path(scratch, '.sdformat', 'sdformat.log')
        text = log.read_text(errors='replace') if log.exists() else ''
    if done.returncode != 0:
        return None
    lumped = set()
    for joint in tree.getroot().findall('joint'):
        parent, child = joint.find('parent'), joint.find('child')
        if joint.get('type') == 'fixed' and parent is not None and child is not None \
                and parent.get('link') != 'world':
            lumped.add(child.get('link'))
    return [name for name in _NOT_MODELLED.findall(text) if name not in lumped]


#: What the pybullet probe prints after loading: one ``link NAME mass M`` line per link.
_PYBULLET_PROBE = """
import sys
import pybullet
pybullet.connect(pybullet.DIRECT)
robot = pybullet.loadURDF(sys.argv[1])
print('\\nlink', pybullet.getBodyInfo(robot)[0].decode(), 'mass',
      pybullet.getDynamicsInfo(robot, -1)[0])
for index in range(pybullet.getNumJoints(robot)):
    print('\\nlink', pybullet.getJointInfo(robot, index)[12].decode(), 'mass',
          pybullet.getDynamicsInfo(robot, index)[0])
"""


def pybullet(path: PathLike) -> Verdict | None:
    """
    Ask Bullet's URDF importer (in DIRECT mode) whether it loads ``path``.

    Run in a child Python (pybullet prints from C). Not one of :data:`CONSUMER_NAMES`: no target
    of the checker is pybullet; tests use it to confirm what messages say it does.

    :return: The verdict; its message has a ``link NAME mass M`` line per link (kg, as pybullet
        simulates it) then what pybullet printed, or ``None`` when pybullet does not import.
    """
    if importlib.util.find_spec('pybullet') is None:  # imported by the child only: it prints
        return None
    return _run('pybullet', [sys.executable, '-c', _PYBULLET_PROBE, os.path.abspath(path)],
                stderr_first=False)


def pybullet_masses(verdict: Verdict) -> dict[str, float]:
    """The mass pybullet gave each link, kg, from a loaded :func:`pybullet` verdict."""
    return {name: float(mass) for name, mass in
            re.findall(r'^link (\S+) mass (\S+)$', verdict.message, flags=re.MULTILINE)}


def available() -> dict[str, bool]:
    """Which consumers can run here, by name (every one of :data:`CONSUMER_NAMES`)."""
    return {
        'urdfdom-3': _executable(_check_urdf('3')),
        'urdfdom-6': _executable(_check_urdf('6')),
        'urdf_parser_py': _module('urdf_parser_py.urdf') is not None,
        'pinocchio': _module('pinocchio') is not None,
        'mujoco': _module('mujoco') is not None,
        'gazebo': _executable(SDFORMAT_PROBE),
    }


def verdicts(path: PathLike,
             package_paths: Mapping[str, str] | None = None) -> dict[str, Verdict]:
    """
    Ask every available consumer about ``path``.

    :param package_paths: Package share directories, for MuJoCo's meshes.
    :return: ``{consumer: verdict}`` in :data:`CONSUMER_NAMES` order, without absent consumers.
    """
    asks: dict[str, Callable[[], Verdict | None]] = {
        'urdfdom-3': lambda: urdfdom(path, '3'),
        'urdfdom-6': lambda: urdfdom(path, '6'),
        'urdf_parser_py': lambda: urdf_parser_py(path),
        'pinocchio': lambda: pinocchio(path),
        'mujoco': lambda: mujoco(path, package_paths),
        'gazebo': lambda: gazebo(path),
    }
    result = {}
    for name in CONSUMER_NAMES:
        verdict = asks[name]()
        if verdict is not None:
            result[name] = verdict
    return result
