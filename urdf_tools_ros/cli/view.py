"""
``urdf-tools view``: joint sliders and a live 3D view of a robot description in the browser.

In-process, without ROS: load, check (the report goes to the terminal and the page), then a
viser web server on ``--host``/``--port`` until Ctrl-C or ``--exit-after SECONDS``. With
``--watch`` the files read are polled every :data:`POLL` s (:class:`~..core.source.watch
.WatchedFiles`); a change loads, checks and shows the description again (the page follows over
viser's connection), or keeps the last one when it cannot be loaded. viser is imported only when
the command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
import logging
import sys
import time
from typing import TYPE_CHECKING

from urdf_tools_ros.core.findings import Finding
from urdf_tools_ros.core.source.loader import RobotDescription
from urdf_tools_ros.core.source.watch import WatchedFiles
from . import number_argument, report
from ..core.errors import RobotDescriptionError

if TYPE_CHECKING:
    from ..gui.viewer import RobotViewer

AddSource = Callable[[argparse.ArgumentParser], None]
Loader = Callable[[argparse.Namespace], RobotDescription]

INSTALL_HINT = "pip install 'urdf_tools_ros[view]'"
#: Seconds between two looks at the files with ``--watch`` (and at ``--exit-after``).
POLL = 0.2


_seconds = number_argument(float, lambda value: value >= 0.0, 'a number of seconds',
                           'seconds >= 0')
_port = number_argument(int, lambda value: 0 < value < 65536, 'a port number',
                        'a port in 1..65535')


def host_problem(host: str) -> str | None:
    """Why the viewer cannot listen on ``host`` (resolve it, bind any port), or ``None``."""
    import socket  # here: every urdf-tools command builds this parser, only view needs it
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f'cannot resolve it ({exc.strerror})'
    family, kind, _, _, address = infos[0]
    with socket.socket(family, kind) as probe:
        try:
            probe.bind((address[0], 0))
        except OSError as exc:
            return f'cannot listen there ({exc.strerror or exc}): not an address of this machine?'
    return None


def _checked(args: argparse.Namespace, loader: Loader
             ) -> tuple[RobotDescription, list[Finding]]:
    """Load and check as ``urdf-tools check`` does; print the report (errors as ``loader``'s)."""
    from urdf_tools_ros.core.session import resolve
    description = loader(args)
    findings = resolve(args.file).check(description)
    sys.stdout.write(report.format_text([report.FileReport(description.filename,
                                                           tuple(findings))],
                                        show_info=args.verbose, portable=False))
    sys.stdout.flush()
    return description, findings


def _reload(viewer: RobotViewer, args: argparse.Namespace, loader: Loader,
            files: WatchedFiles) -> WatchedFiles:
    """Show the description again after ``files`` changed; the files to watch from now on."""
    try:
        description, findings = _checked(args, loader)
    except (ValueError, argparse.ArgumentTypeError, RobotDescriptionError) as exc:
        print(f'urdf-tools view: {exc}; showing the last description', file=sys.stderr,
              flush=True)
        return files
    viewer.set_description(description, findings=findings)
    print(f'urdf-tools view: reloaded {description.robot.name!r}', flush=True)
    read = description.dependencies or (args.file,)
    return files if set(read) == set(files.paths) else WatchedFiles.of(read)


def cmd_view(args: argparse.Namespace, loader: Loader) -> int:
    """
    Load, check as ``urdf-tools check`` does, print the report, serve the viewer until Ctrl-C.

    :return: 0 after Ctrl-C or ``--exit-after``; 2 when the description cannot be loaded or
        checked or ``--host`` cannot be listened on; 3 when viser is not installed.
    """
    try:
        # a configuration error or unknown code in a suppression comment: exit 2, as in check
        description, findings = _checked(args, loader)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        print(f'urdf-tools view: {exc}', file=sys.stderr)
        return 2
    problem = host_problem(args.host)
    if problem is not None:
        print(f'urdf-tools view: --host {args.host}: {problem}', file=sys.stderr)
        return 2
    try:
        import trimesh  # noqa: F401 - imported by the viewer; say now if they are missing
        import viser  # noqa: F401
        from ..gui.viewer import RobotViewer
    except ImportError as exc:
        print(f'urdf-tools view: the 3D viewer needs viser and trimesh ({exc}); install: '
              f'{INSTALL_HINT}', file=sys.stderr)
        return 3
    # the meshes the viewer draws as placeholder boxes, and why: to stderr
    log = logging.getLogger('urdf_tools_ros.gui')
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter('urdf-tools view: %(message)s'))
    log.addHandler(handler)
    log.setLevel(logging.INFO if args.verbose else logging.WARNING)
    try:
        viewer = RobotViewer(description, findings=findings, host=args.host, port=args.port,
                             use_smallest_joint_limits=args.use_smallest_joint_limits,
                             show_frames=args.frames)
    except BaseException:
        log.removeHandler(handler)
        raise
    try:
        print(f'urdf-tools view: serving {description.robot.name!r} at {viewer.url} '
              '(Ctrl-C to stop)', flush=True)
        if args.open:
            import webbrowser
            webbrowser.open(viewer.url)
        files = WatchedFiles.of(description.dependencies or (args.file,)) if args.watch \
            else None
        deadline = None if args.exit_after is None else time.monotonic() + args.exit_after
        while deadline is None or time.monotonic() < deadline:
            time.sleep(POLL if deadline is None else
                       max(0.0, min(POLL, deadline - time.monotonic())))
            changed = files.changed() if files is not None else None
            if changed is not None:
                files = _reload(viewer, args, loader, changed)
    except KeyboardInterrupt:
        print('', flush=True)
    finally:
        viewer.close()
        log.removeHandler(handler)
    return 0


def add_view_arguments(view: argparse.ArgumentParser, add_source: AddSource,
                       loader: Loader) -> None:
    """The arguments of ``urdf-tools view`` (its parser made by the caller)."""
    view.description = ('Check a robot description, then serve joint sliders and a 3D view of '
                        'it posed by forward kinematics in the browser, until Ctrl-C.')
    add_source(view)
    view.add_argument('--host', default='127.0.0.1',
                      help='address to serve on (default 127.0.0.1, this machine only)')
    view.add_argument('--port', type=_port, default=8080,
                      help='port to serve on (default 8080; the next free one when taken)')
    view.add_argument('--use-smallest-joint-limits', action=argparse.BooleanOptionalAction,
                      default=True,
                      help='narrow slider ranges by <safety_controller> soft limits, as '
                           "joint_state_publisher's parameter of the same name (default: yes)")
    view.add_argument('--frames', action='store_true', help='show the link frames at start')
    view.add_argument('--open', action='store_true',
                      help='open the page in the default web browser')
    view.add_argument('--watch', action='store_true',
                      help='show the description again when one of its files changes '
                           '(the page follows)')
    view.add_argument('--exit-after', type=_seconds, metavar='SECONDS',
                      help='stop serving after SECONDS (for scripts and tests)')
    view.add_argument('-v', '--verbose', action='store_true',
                      help='also print info findings and how each texture is drawn')
    view.set_defaults(handler=lambda args: cmd_view(args, loader))
