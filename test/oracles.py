"""
Consumers as oracles: whether the real tools that read URDF load a file, and what they say.

Each function asks one consumer about one file and returns a :class:`Verdict` (a refusal is
``loaded=False`` with what the tool printed), or ``None`` when it is not installed here:
``urdfdom-3`` (``/usr/bin/check_urdf``, urdfdom 3.0.1, what Humble/Jazzy's
robot_state_publisher and RViz parse with), ``urdfdom-6`` (the ``pin`` wheel's ``check_urdf``),
``urdf_parser_py``, ``pinocchio``, ``mujoco`` and ``gazebo`` (SDFormat's URDF -> SDF through
``test/oracle_tools/sdformat_probe.cc``, built by ``scripts/setup-oracles.sh``). Plain module:
tests and ``bench/`` import it with ``test/`` on sys.path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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

__all__ = ['Verdict', 'CONSUMER_NAMES', 'ask', 'urdfdom', 'urdf_parser_py', 'pinocchio', 'mujoco',
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
    """What one consumer (:data:`CONSUMER_NAMES`) did with one file, and what it printed."""

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
    """The tree of a file or text as namespace-blind C++ parsers read it; ``None`` if not XML."""
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
    """The module ``name``, or ``None`` when it does not import."""
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
        return Path(sys.executable).parent / 'check_urdf'
    raise ValueError(f"urdfdom version must be '3' or '6', got {version!r}")


def _run(consumer: str, command: list[str], stderr_first: bool) -> Verdict | None:
    """Run a consumer's program: exit status 0 = loaded; ``None`` if it cannot be started."""
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
    """Ask urdfdom's ``check_urdf``, ``version`` ``'3'`` or ``'6'`` (else ValueError)."""
    program = _check_urdf(version)
    if not _executable(program):
        return None
    return _run(f'urdfdom-{version}', [str(program), os.path.abspath(path)], stderr_first=True)


def urdf_parser_py(path: PathLike) -> Verdict:
    """Ask ``URDF.from_xml_string`` on the bytes of ``path``; its ``on_error`` warnings too."""
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
    """Ask ``pinocchio.buildModelFromUrdf``; the message is what its urdfdom printed."""
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

    A visual whose mesh is not found is removed (MuJoCo never opens visuals); a collision's
    stays and MuJoCo refuses it, as users see. :return: the visuals removed; ``None``: no XML.
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
    Ask ``mujoco.MjModel.from_xml_path`` about a copy of ``path`` with its meshes resolved.

    MuJoCo does not resolve ``package://``: see :func:`_mujoco_copy`. A ``MUJOCO_LOG.TXT`` it
    writes into the working directory is removed.
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
    Ask SDFormat's URDF -> SDF conversion (``sdf::Root::Load``, what Gazebo does).

    The message: its errors, ``model NAME links N joints N``, then ``link NAME mass M visuals N
    collisions N`` per link after fixed-joint lumping.
    """
    if not _executable(SDFORMAT_PROBE):
        return None
    return _run('gazebo', [str(SDFORMAT_PROBE), os.path.abspath(path)], stderr_first=False)


def gazebo_dropped_links(path: PathLike) -> list[str] | None:
    """
    The links Gazebo drops with what is below them; ``None`` where :func:`gazebo` cannot tell.

    SDFormat logs "link[NAME] has no inertia, not modeled in sdf" in its debug log only; for
    the child of a lumped fixed joint (not below a root named ``world``) nothing is lost.
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
    Ask Bullet's URDF importer (DIRECT mode, in a child Python: it prints from C).

    Not a target of the checker; the message has a ``link NAME mass M`` line per link (kg).
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


def ask(consumer: str, path: PathLike,
        package_paths: Mapping[str, str] | None = None) -> Verdict | None:
    """The verdict of one of :data:`CONSUMER_NAMES` on ``path``; ``None``: not installed."""
    if consumer.startswith('urdfdom-'):
        return urdfdom(path, consumer.split('-')[1])
    if consumer == 'mujoco':
        return mujoco(path, package_paths)
    return {'urdf_parser_py': urdf_parser_py, 'pinocchio': pinocchio,
            'gazebo': gazebo}[consumer](path)


def verdicts(path: PathLike,
             package_paths: Mapping[str, str] | None = None) -> dict[str, Verdict]:
    """``{consumer: verdict}`` of every available consumer, in :data:`CONSUMER_NAMES` order."""
    found = {name: ask(name, path, package_paths) for name in CONSUMER_NAMES}
    return {name: verdict for name, verdict in found.items() if verdict is not None}
