"""
Load a robot description: bounded, entity-free XML, xacro, and the one URDF reader.

``load(path)`` reads a ``.urdf`` or ``.xacro`` file (xacro args ``name:=value``), a string or
stdin into a :class:`RobotDescription`: the typed model, the final URDF XML, the loading
findings and the files it was made from (for watching). Every element keeps its source line;
for xacro it is the original ``.xacro`` file and line (the macro body for macro output), with
the macro calls that expanded it (:attr:`~urdf_tools_ros.core.location.SourceLocation.calls`).

XML from outside is untrusted: the parser never resolves entities, loads a DTD or touches the
network; entity declarations are refused; input is bounded by :data:`MAX_DESCRIPTION_BYTES`.
xacro files are programs (``${...}`` is Python): process only xacro you trust.

xacro runs in :mod:`.xacro.runner` (imported lazily, with source lines where the installed
xacro allows); the model comes from the one reader, :class:`~.reader.UrdfReader`.

Undeclared namespace prefixes (``drake:`` in robotiq_2f_85.urdf) are accepted with a warning,
as check_urdf (tinyxml) accepts them. With ``cross_check=True`` urdf_parser_py, the reference
Python reader, reads the same tree and its refusals become ``urdf-parser-py-rejects`` findings
(``urdf-tools check --urdf-parser-py``); it is off by default because it costs as much as the
whole load and check, and the rules already report everything urdfdom refuses.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from io import BytesIO
import os
from pathlib import Path
import re
import sys
from typing import Any, BinaryIO

from lxml import etree

from .packages import make_package_locator, PackageLocator, resolve_resource
from .scanner import Element, tokens
from .xacro_syntax import AsWritten, first_xacro_construct, looks_like_xacro
from .xml_safety import entity_refusal, malformed, refused_entity
from ..errors import DescriptionLoadError, DescriptionTooLargeError
from ..findings import Finding, Severity
from ..location import SourceLocation
from ..model.reader import UrdfReader
from ..model.robot import Robot

#: Largest description (file, each xacro include, and the xacro output) read, in bytes.
MAX_DESCRIPTION_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class RobotDescription:
    """
    A loaded robot description.

    :ivar robot: The typed model.
    :ivar xml: The URDF XML (xacro output for xacro input), what ``robot_description`` carries.
    :ivar filename: The file it was loaded from, ``'<string>'`` or ``'<stdin>'``.
    :ivar findings: Findings made while loading (syntax level); rules add more
        (:func:`urdf_tools_ros.core.checks.check_description`).
    :ivar dependencies: Every file read: the file itself and each xacro include.
    :ivar is_xacro: Whether xacro processed the input.
    :ivar included_from: ``{file: where the <xacro:include> that read it stands}`` for xacro
        input (the file names as element locations give them), for a finding's include chain.
    :ivar as_written: For a file not named ``.xacro`` that xacro processed because it holds
        xacro syntax, the text read as written (what check_urdf, pinocchio, MuJoCo and Gazebo
        read); else ``None``.
    :ivar locate: The package locator the loader resolved ``package://`` with (``None``: none),
        for tools that look further than ROS does (the viewer's :func:`~.packages.draw_path`).
    :ivar sources: The text of each file of :attr:`dependencies` the loader read (or was given
        for ``filename``), by the path :attr:`dependencies` names it, as written (newlines and a
        byte order mark kept): suppression comments and fixes read it, not the file again.
    """

    robot: Robot
    xml: str
    filename: str
    findings: tuple[Finding, ...] = ()
    dependencies: tuple[str, ...] = ()
    is_xacro: bool = False
    locate: PackageLocator | None = field(default=None, compare=False, repr=False)
    included_from: dict[str, SourceLocation] = field(default_factory=dict, compare=False,
                                                     repr=False)
    as_written: AsWritten | None = field(default=None, compare=False, repr=False)
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def source_text(self, filename: str) -> str:
        """
        The text of one of its files as written (by a location's file name): kept, or read.

        :raises OSError: if it was not kept and cannot be read.
        :raises ValueError: if it was not kept and is not UTF-8.
        """
        text = self.sources.get(os.path.abspath(filename))
        if text is not None:
            return text
        with open(filename, encoding='utf-8', newline='') as stream:
            return stream.read()


def _read_bounded(stream: BinaryIO, filename: str) -> bytes:
    data = stream.read(MAX_DESCRIPTION_BYTES + 1)
    if len(data) > MAX_DESCRIPTION_BYTES:
        raise DescriptionTooLargeError(
            f'larger than the limit of {MAX_DESCRIPTION_BYTES // (1024 * 1024)} MiB', filename)
    return data


def read_file(path: str | os.PathLike[str]) -> bytes:
    """
    Read a description file, bounded by :data:`MAX_DESCRIPTION_BYTES`.

    :raises DescriptionLoadError: if the file cannot be read or is too large.
    """
    name = os.fspath(path)
    try:
        if os.path.isdir(name):
            raise DescriptionLoadError('is a directory, not a robot description', name)
        with open(name, 'rb') as stream:
            return _read_bounded(stream, name)
    except OSError as exc:
        raise DescriptionLoadError(f'cannot read: {exc.strerror or exc}', name) from exc


def read_source(path: str, texts: MutableMapping[str, str]) -> str:
    """
    A description file's text, read once per run: from ``texts``, else read and kept there.

    :param texts: The files read so far in this run, by absolute path, as written (a byte
        order mark kept); filled with what is read.
    :return: The text without a byte order mark.
    :raises DescriptionLoadError: if it cannot be read, is too large, empty, binary or not UTF-8.
    """
    key = os.path.abspath(path)
    text = texts.get(key)
    if text is None:
        data = read_file(path)
        text = _decode(data, path)
        texts[key] = '\ufeff' + text if data.startswith(codecs.BOM_UTF8) else text
    return text.removeprefix('\ufeff')


def _decode(data: bytes, filename: str) -> str:
    if not data.strip():
        raise DescriptionLoadError('empty file, expected a <robot> description', filename)
    if b'\x00' in data[:8192]:
        raise DescriptionLoadError('binary file (NUL bytes), expected URDF or xacro XML',
                                   filename)
    try:
        return data.decode('utf-8-sig')
    except UnicodeDecodeError as exc:
        raise DescriptionLoadError(f'not UTF-8 text (byte {exc.start}), expected URDF or xacro',
                                   filename) from exc


# -- XML parsing ------------------------------------------------------------------------------
def _parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, recover=recover,
                           remove_pis=True)


#: An XML declaration anywhere (only the first one, before the root element, is looked at).
_DECLARATION = re.compile(r'<\?xml\b.*?\?>', re.DOTALL)
#: libxml2's messages for what tinyxml2 (urdfdom) reads and lxml refuses, by kind.
_DECLARATION_ERRORS = ('XML declaration allowed only at the start', 'Unsupported version')
_TRAILING_ERRORS = ('Extra content at the end of the document',)


def _blank(text: str, start: int, stop: int) -> str:
    """``text`` with ``[start, stop)`` replaced by spaces, newlines kept (lines do not move)."""
    return text[:start] + re.sub(r'[^\n]', ' ', text[start:stop]) + text[stop:]


def _recover(text: str, filename: str, messages: list[str],
             findings: list[Finding]) -> str | None:
    """
    Repair what urdfdom (tinyxml2) reads and libxml2 refuses, with a finding for each repair.

    A declaration that is not at the very start, or names a version libxml2 does not know
    (``<?xml version="0.0"?>``, written by some exporters), is blanked; content after the root
    element's end tag is cut. Line numbers do not change.

    :return: The repaired text, or ``None`` when the errors are of another kind.
    """
    repaired = text
    if any(message.startswith(_DECLARATION_ERRORS) for message in messages):
        match = _DECLARATION.search(text)
        if match is None or '<' in text[:match.start()].replace('<!--', ''):
            return None
        line = text.count('\n', 0, match.start()) + 1
        misplaced = match.start() > 0
        what = ('comes after other text (it must come first)'
                if misplaced else f'names an XML version libxml2 does not know: '
                f'{match.group(0)[:60]}')
        findings.append(Finding(
            'xml-declaration-invalid', Severity.WARNING, 'robot',
            f'the XML declaration {what}: urdf_parser_py'
            + (' and joint_state_publisher refuse' if misplaced else ' refuses')
            + ' the file; urdfdom reads it',
            SourceLocation(filename, line),
            'start the file with <?xml version="1.0"?> (or leave the declaration out)',
            ('urdf_parser_py', 'joint_state_publisher') if misplaced else ('urdf_parser_py',)))
        repaired = _blank(repaired, match.start(), match.end())
    if any(message.startswith(_TRAILING_ERRORS) for message in messages):
        end = _root_end(repaired)
        if end is None:
            return None
        line = repaired.count('\n', 0, end) + 1
        findings.append(Finding(
            'xml-trailing-content', Severity.WARNING, 'robot',
            f'there is content after the end tag of the root element (line {line}); urdfdom '
            'ignores it, urdf_parser_py (lxml) and joint_state_publisher (expat) refuse the file',
            SourceLocation(filename, line), 'remove everything after the </robot> end tag'))
        repaired = repaired[:end] + re.sub(r'[^\n]', '', repaired[end:])
    return repaired if repaired != text else None


def _root_end(text: str) -> int | None:
    """The offset just after the root element (:mod:`.scanner`) if it is well formed, or None."""
    root = next((token for token in tokens(text) if isinstance(token, Element)), None)
    if root is None:
        return None
    try:
        etree.fromstring(text[:root.end].encode('utf-8'), _parser())
    except etree.XMLSyntaxError:
        return None
    return root.end


def parse_xml(text: str, filename: str, *, any_root: bool = False) -> tuple[Any, list[Finding]]:
    """
    Parse XML text safely into an lxml element, keeping source lines.

    What urdfdom reads though it is not well-formed XML is read too, with a finding: an
    undeclared namespace prefix, a misplaced or unknown-version XML declaration, content after
    the root element.

    :param any_root: Accept any root element (SDF, COLLADA, a wrapper), not only ``<robot>``.
    :return: ``(root element, findings)``.
    :raises DescriptionLoadError: on malformed XML, entity declarations
        (:func:`~.xml_safety.entity_refusal`) or (unless ``any_root``) a root that is not
        ``<robot>``, naming the file and line.
    """
    refusal = entity_refusal(text, filename)
    if refusal is not None:
        raise refusal
    findings: list[Finding] = []
    for _ in range(3):
        data = text.encode('utf-8')
        parser = _parser()
        try:
            root: Any = etree.fromstring(data, parser)
            break
        except etree.XMLSyntaxError as exc:
            entries = list(parser.error_log)
            repaired = _recover(text, filename, [entry.message for entry in entries], findings)
            if repaired is not None:
                text = repaired
                continue
            if not entries or any(e.type_name != 'NS_ERR_UNDEFINED_NAMESPACE' for e in entries):
                first = entries[0] if entries else None
                line = first.line if first is not None else exc.lineno
                message = first.message if first is not None else str(exc)
                raise malformed(message, filename, line) from None
            root = etree.fromstring(data, _parser(recover=True))
            prefixes: dict[str, int] = {}
            for entry in entries:
                prefix = entry.message.split()[2] \
                    if entry.message.startswith('Namespace prefix') else entry.message
                prefixes.setdefault(prefix, entry.line)
            for prefix, line in prefixes.items():
                findings.append(Finding(
                    'xml-namespace-undeclared', Severity.WARNING, 'robot',
                    f'namespace prefix "{prefix}" is used but never declared: urdf_parser_py '
                    'and other XML tools refuse the file (check_urdf reads it)',
                    SourceLocation(filename, line),
                    f'declare it on <robot>, e.g. xmlns:{prefix}="..."'))
            break
    else:
        raise malformed('cannot be repaired', filename, None)
    if root is None:
        raise DescriptionLoadError('no XML element found', filename)
    dtd: Any = root.getroottree().docinfo.internalDTD
    entity: Any = next(dtd.iterentities(), None) if dtd is not None else None
    if entity is not None:  # one entity_refusal did not see: named all the same
        raise refused_entity(entity.name, filename, None, system=entity.system_url)
    if root.tag != 'robot' and not any_root:
        raise DescriptionLoadError(f'the root element is <{root.tag}>, expected <robot>: '
                                   'not a URDF robot description', filename, root.sourceline)
    return root, findings


#: A plain URDF longer than this (characters) is read as lxml parses it (:func:`_read_streamed`):
#: its whole tree would take about ten times its size. A shorter one is parsed whole first,
#: which is faster (talos_full_v2, 0.3 MB: 7.4 against 8.9 ms, bench/bench_load.py).
STREAM_CHARACTERS = 4_000_000


def _read_streamed(text: str, reader: UrdfReader) -> Robot | None:
    """
    Read a URDF with ``reader`` while lxml parses it, freeing each top-level element once read.

    :func:`parse_xml` builds the whole tree first: about ten times the file in memory (a 48 MB
    file, 520 MB), more than urdfdom's ``check_urdf`` takes for all its work. Here the tree
    never holds more than the element being read. Only for well-formed XML that needs none of
    :func:`parse_xml`'s refusals or repairs: a document type declaration, a root that is not
    ``<robot>`` or any XML error returns ``None`` (``reader`` then holds partial findings: the
    caller reads with a new one from :func:`parse_xml`'s tree, which says what is wrong).

    :return: The robot, or ``None`` (see above).
    """
    if '<!DOCTYPE' in text or '<!ENTITY' in text:
        return None
    events = etree.iterparse(BytesIO(text.encode('utf-8')), events=('start', 'end'),
                             resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, huge_tree=False, remove_pis=True)
    try:
        _, root = next(events)
        if root.tag != 'robot':
            return None

        def children() -> Iterator[Any]:
            depth = 0
            for event, element in events:
                if event == 'start':
                    depth += 1
                    continue
                depth -= 1
                if depth == 0 and element is not root:  # a child of <robot>, complete
                    yield element
                    element.clear()
                    while element.getprevious() is not None:  # the ones read before, comments
                        del root[0]

        return reader.robot_streamed(root, children())
    except (etree.XMLSyntaxError, StopIteration):
        return None


# -- xacro --------------------------------------------------------------------------------------
def _unknown_arguments(args: Mapping[str, str], known: set[str] | None,
                       filename: str) -> list[Finding]:
    """
    ``xacro-arg-unknown`` for each argument given that no document read declares or uses.

    xacro itself takes such an argument silently, so a misspelt name (``prefx:=r1_``) would
    leave the default in force with no word; without xacro (``known`` None) every one is unused.
    """
    findings = []
    for name in args:
        if known is None:
            message = (f'xacro argument {name}:= is given but {filename} is not run through '
                       'xacro (plain URDF): it has no effect')
        elif name not in known:
            declared = ', '.join(sorted(known)) or 'none'
            message = (f'xacro argument {name}:= is neither declared (<xacro:arg name="{name}">) '
                       f'nor used ($(arg {name})) in {filename} or its includes: xacro ignores '
                       f'it (arguments it knows: {declared})')
        else:
            continue
        findings.append(Finding('xacro-arg-unknown', Severity.WARNING, 'robot', message,
                                SourceLocation(filename)))
    return findings


# -- urdf_parser_py ---------------------------------------------------------------------------
def _urdf_parser_py_findings(root: Any, location: SourceLocation | None) -> list[Finding]:
    """Read the tree with urdf_parser_py too; its refusals and warnings become findings."""
    # imported here: only this opt-in cross-check needs it
    from urdf_parser_py import urdf as urdf_parser

    from .xacro.runner import XACRO_LOCK
    from urdf_parser_py.xml_reflection import core as urdf_parser_core
    messages: list[str] = []
    with XACRO_LOCK:
        saved = urdf_parser_core.on_error
        urdf_parser_core.on_error = messages.append
        try:
            urdf_parser.Robot.from_xml(
                root, urdf_parser_core.Path('robot', tree=etree.ElementTree(root)))
            rejected = None
        except Exception as exc:  # urdf_parser_py raises bare Exception, AttributeError, ...
            rejected = f'{type(exc).__name__}: {exc}'
        finally:
            urdf_parser_core.on_error = saved
    findings = [Finding('urdf-parser-py-warning', Severity.WARNING, 'robot',
                        f'urdf_parser_py: {message}', location)
                for message in messages
                if not message.startswith(('Unknown tag', 'Unknown attribute'))]
    if rejected is not None:
        findings.append(Finding('urdf-parser-py-rejects', Severity.ERROR, 'robot',
                                f'urdf_parser_py cannot read this description: {rejected}',
                                location))
    return findings


# -- public API ---------------------------------------------------------------------------------
def load_string(text: str, filename: str = '<string>', *,
                xacro_args: Mapping[str, str] | None = None,
                base_dir: str | None = None,
                package_paths: Mapping[str, str] | None = None,
                locator: PackageLocator | None = None,
                is_xacro: bool | None = None,
                cross_check: bool = False,
                package_folders: Sequence[str] = (),
                texts: MutableMapping[str, str] | None = None) -> RobotDescription:
    """
    Load a URDF or xacro description from text.

    :param text: The XML.
    :param filename: Where it came from (used in messages, and for xacro's relative includes
        when it is a real file).
    :param xacro_args: xacro arguments ``{name: value}`` (``name:=value`` on a command line).
    :param base_dir: Directory for relative mesh paths; default the directory of ``filename``.
    :param package_paths: Package share directories by name, for ``package://`` and ``$(find)``
        (relative ones relative to the current directory).
    :param locator: Further package locator asked last (e.g. ament_index).
    :param is_xacro: Force or skip xacro; default :func:`looks_like_xacro`.
    :param cross_check: Also read the tree with urdf_parser_py and report what it refuses
        (``urdf-parser-py-rejects``) or warns about; about as costly as the load itself.
    :param package_folders: Folders of packages, asked after ``package_paths``
        (:func:`~.packages.package_in_folders`).
    :param texts: The files read so far in this run, by absolute path (:func:`read_source`):
        an include found there is not read again; ``text`` is kept there for ``filename``
        when it is a file and not there yet.
    :raises DescriptionLoadError: malformed XML, not a robot, entities, xacro error, too large.
    """
    texts = {} if texts is None else texts
    if len(text) > MAX_DESCRIPTION_BYTES:
        raise DescriptionTooLargeError('larger than the limit', filename)
    if not text.strip():
        raise DescriptionLoadError('empty description, expected a <robot> element', filename)
    locate = make_package_locator(package_paths, locator, package_folders=package_folders)
    if base_dir is None and not filename.startswith('<'):
        base_dir = os.path.dirname(os.path.abspath(filename))
    use_xacro = looks_like_xacro(filename, text) if is_xacro is None else is_xacro
    table: dict[Any, SourceLocation] = {}
    files: tuple[str, ...] = (os.path.abspath(filename),) if os.path.isfile(filename) else ()
    if files:
        texts.setdefault(files[0], text)
    extra: list[Finding] = []
    xml_text = text
    known: set[str] | None = None  # the xacro arguments the documents declare or use
    if use_xacro:
        # only xacro input needs it
        from .xacro.runner import run_xacro
        run = run_xacro(text, filename, xacro_args or {}, locate,
                        lambda path: read_source(path, texts), MAX_DESCRIPTION_BYTES)
        xml_text, known = run.xml, run.arguments
        files = tuple(dict.fromkeys(run.files))
        extra = [Finding('xacro-warning', Severity.WARNING, 'robot', f'xacro: {message}',
                         SourceLocation(filename)) for message in run.warnings]
        if not run.lines:
            extra.append(Finding(
                'xacro-lines-unavailable', Severity.INFO, 'robot',
                f'the installed xacro lacks what line tracking needs ({run.missing}): it ran '
                'through its public API, so findings inside xacro output name the top-level '
                'file without a line', SourceLocation(filename)))
    extra.extend(_unknown_arguments(xacro_args or {}, known, filename))

    def resolve(reference: str) -> str | None:
        return resolve_resource(reference, base_dir, locate)

    sources = {path: texts[path] for path in files if path in texts}
    if not use_xacro and not cross_check and len(xml_text) > STREAM_CHARACTERS:
        reader = UrdfReader(lambda element: SourceLocation(filename, element.sourceline),
                            resolve)
        streamed = _read_streamed(xml_text, reader)
        if streamed is not None:
            return RobotDescription(streamed, xml_text, filename, (*extra, *reader.findings),
                                    files, False, locate, {}, None, sources)
    root, findings = parse_xml(xml_text, filename)
    if use_xacro:
        inherited: SourceLocation = SourceLocation(filename)
        # the output's elements are xacro's document's, in the same order (none without lines)
        given = run.sources if len(run.sources) == sum(1 for _ in root.iter(etree.Element)) \
            else ()
        numbers = iter(given)
        for element in root.iter():
            index, expansion = next(numbers) if isinstance(element.tag, str) and given \
                else (None, None)
            parent = element.getparent()
            if index is not None:
                location = run.table[index]
                if expansion is not None:  # one expansion of a macro body: which calls made it
                    location = SourceLocation(location.filename, location.line,
                                              *run.expansions[expansion])
                table[element] = location
            else:
                table[element] = table.get(parent, inherited) if parent is not None else inherited
        xml_text = etree.tostring(root, encoding='unicode')
        xml_text = '<?xml version="1.0"?>\n' + xml_text + '\n'

        def where(element: Any) -> SourceLocation:
            return table.get(element) or SourceLocation(filename)
    else:
        def where(element: Any) -> SourceLocation:
            return SourceLocation(filename, element.sourceline)

    reader = UrdfReader(where, resolve)
    robot = reader.robot(root)
    findings = [*extra, *findings, *reader.findings]
    if cross_check:
        findings.extend(_urdf_parser_py_findings(root, robot.location))
    as_written = None
    if use_xacro and is_xacro is None and not filename.endswith('.xacro'):
        as_written = _read_as_written(text, filename, base_dir, locate)
    return RobotDescription(robot, xml_text, filename, tuple(findings), files, use_xacro,
                            locate, dict(run.included_from) if use_xacro else {}, as_written,
                            sources)


def _read_as_written(text: str, filename: str, base_dir: str | None,
                     locate: PackageLocator | None) -> AsWritten | None:
    """Read ``text`` as a tool given the file reads it: without xacro (see :class:`AsWritten`)."""
    first = first_xacro_construct(text)
    if first is None:
        return None
    line, construct = first
    try:
        root, findings = parse_xml(text, filename)
    except DescriptionLoadError as exc:
        return AsWritten(line, construct, error=getattr(exc, 'reason', None) or str(exc))
    reader = UrdfReader(lambda element: SourceLocation(filename, element.sourceline),
                        lambda reference: resolve_resource(reference, base_dir, locate))
    robot = reader.robot(root)
    return AsWritten(line, construct, robot, (*findings, *reader.findings))


def load(source: str | os.PathLike[str], *,
         xacro_args: Mapping[str, str] | None = None,
         package_paths: Mapping[str, str] | None = None,
         locator: PackageLocator | None = None,
         is_xacro: bool | None = None,
         cross_check: bool = False,
         package_folders: Sequence[str] = (),
         texts: MutableMapping[str, str] | None = None) -> RobotDescription:
    """
    Load a ``.urdf`` or ``.xacro`` file, or stdin when ``source`` is ``'-'``.

    :param source: Path of the file, or ``'-'`` for standard input.
    :param xacro_args: xacro arguments ``{name: value}``.
    :param package_paths: Package share directories by name.
    :param package_folders: Folders of packages, asked after ``package_paths``.
    :param locator: Further package locator (e.g. ament_index), asked last.
    :param is_xacro: Force or skip xacro; default by extension and content.
    :param cross_check: Also read it with urdf_parser_py (see :func:`load_string`).
    :param texts: The files read so far in this run (see :func:`load_string`); every file
        is read once per run (:mod:`urdf_tools_ros.core.session`).
    :return: The description with the model, XML, loading findings and files read.
    :raises DescriptionLoadError: if it cannot be read or loaded (the message names file:line).
    """
    if os.fspath(source) == '-':
        data = _read_bounded(sys.stdin.buffer, '<stdin>')
        return load_string(_decode(data, '<stdin>'), '<stdin>', xacro_args=xacro_args,
                           package_paths=package_paths, locator=locator, is_xacro=is_xacro,
                           cross_check=cross_check, package_folders=package_folders)
    path = os.fspath(source)
    texts = {} if texts is None else texts
    text = read_source(path, texts)
    return load_string(text, str(Path(path)), xacro_args=xacro_args,
                       package_paths=package_paths, locator=locator, is_xacro=is_xacro,
                       cross_check=cross_check, package_folders=package_folders, texts=texts)


def parse_xacro_args(items: list[str]) -> dict[str, str]:
    """
    Split ``name:=value`` strings into a dict.

    :raises ValueError: if an item has no ``:=`` or an empty name.
    """
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise ValueError(f'xacro argument {item!r}: expected name:=value')
        result[name] = value
    return result
