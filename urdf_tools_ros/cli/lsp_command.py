"""
``urdf-tools lsp``: the language server on stdio (:mod:`urdf_tools_ros.lsp`).

The server needs pygls 2 and lsprotocol (the ``[lsp]`` extra), imported only when this
subcommand runs; without them it says how to install them and exits 2.
"""

from __future__ import annotations

import argparse
import sys

#: How to install what the server needs.
INSTALL = "pip install 'urdf_tools_ros[lsp]' (or: pip install 'pygls>=2' lsprotocol)"


def add_lsp_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``urdf-tools lsp``."""
    parser.description = ('A Language Server Protocol server on standard input and output: '
                          'diagnostics of urdf-tools check for .urdf and .xacro files (and the '
                          'xacro files they include) as you type, with quick fixes. Needs the '
                          f'[lsp] extra: {INSTALL}.')
    parser.add_argument('--stdio', action='store_true',
                        help='talk on standard input and output (the only way; accepted '
                             'because editors pass it)')
    parser.add_argument('--package-path', action='append', default=[], metavar='[NAME=]DIR',
                        help='as for check: a package share directory NAME=DIR or a folder of '
                             "packages DIR, asked before the workspace's package.xml folders")
    parser.add_argument('--debounce', type=float, default=150.0, metavar='MS',
                        help='milliseconds without newer text before a changed file is '
                             'checked (default 150)')
    parser.set_defaults(handler=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    """Serve until the client exits; 2 when pygls or lsprotocol is missing."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as exc:
        print(f'urdf-tools lsp: needs pygls 2 and lsprotocol ({exc.name or exc} is not '
              f'installed): {INSTALL}', file=sys.stderr)
        return 2
    from urdf_tools_ros.core.source.packages import parse_package_path
    from .version import version
    from ..lsp.app import build_server
    try:
        pairs, folders = parse_package_path(args.package_path)
    except ValueError as exc:
        print(f'urdf-tools lsp: --package-path: {exc}', file=sys.stderr)
        return 2
    server = build_server(package_paths=pairs, package_folders=folders,
                          debounce=max(args.debounce, 0.0) / 1000.0, version=version())
    server.start_io()
    return 0
