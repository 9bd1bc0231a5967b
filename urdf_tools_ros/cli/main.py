"""
``urdf-tools``: check, inspect and view URDF/xacro robot descriptions from the command line.

Subcommands: ``check`` (findings like a compiler; exit 0 clean, 1 errors, 2 could not load),
``tree`` (the link/joint tree like check_urdf), ``graph`` (Graphviz), ``inertia`` (the tensor
of a solid box/cylinder/sphere), ``view`` (joint sliders and a 3D view in the browser).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
import os
import sys

from .version import version
from ..core.errors import RobotDescriptionError

EXIT_OK = 0
EXIT_LOAD = 2
EXIT_INTERNAL = 3


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked (importlib.metadata is slow)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f'{parser.prog} {version()}')  # on stdout, as argparse's own 'version' action
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """
    The argument parser of ``urdf-tools``.

    :param command: The subcommand whose arguments to build (the others are listed with their
        help only: every run pays for what its parser builds); ``None`` builds all of them.
    """
    from . import commands
    parser = argparse.ArgumentParser(
        prog='urdf-tools',
        description='Check, inspect and view URDF and xacro robot descriptions.')
    parser.add_argument('--version', action=_VersionAction, nargs=0,
                        help="show program's version number and exit")
    sub = parser.add_subparsers(dest='command', metavar='COMMAND', required=True)
    commands.add_commands(sub, only=command)
    return parser


def single_threaded_blas() -> None:
    """
    Ask numpy's BLAS for no worker threads (``OPENBLAS_NUM_THREADS=1``) unless the user chose.

    OpenBLAS's threads spin when numpy is imported; the command's matrices are 3×3 and 4×4,
    which BLAS does not split anyway. Takes effect only before numpy's first import.
    """
    if 'numpy' not in sys.modules:
        os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')


def run(argv: Sequence[str] | None = None) -> int:
    """
    Parse ``argv`` and run the subcommand.

    :return: The process exit code; never raises for bad input (messages go to stderr).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    # The subcommand is the first word that is not an option (urdf-tools' own options take no
    # value); none, or `urdf-tools -h check`: every subcommand is listed, none with arguments.
    command = next((word for word in argv if not word.startswith('-')), '')
    if command and {'-h', '--help'} & set(argv[:argv.index(command)]):
        command = ''
    parser = build_parser(command)
    args = _parse(parser, argv)
    try:
        return int(args.handler(args))
    except RobotDescriptionError as exc:
        print(f'urdf-tools: {exc}', file=sys.stderr)
        return EXIT_LOAD
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # last line of defence: a message, never a traceback
        print(f'urdf-tools: internal error: {type(exc).__name__}: {exc} '
              '(please report it with the input file)', file=sys.stderr)
        return EXIT_INTERNAL


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """
    Parse ``argv``, taking ``name:=value`` xacro arguments wherever they stand.

    argparse leaves ``name:=value`` after an option (``check FILE -v a:=1``) unrecognised; such
    words go to ``file`` (``check``, ``diff``) or ``xacro_args``. Any other is a usage error.
    """
    args, extra = parser.parse_known_args(argv)
    if not extra:
        return args
    target = 'xacro_args' if isinstance(getattr(args, 'xacro_args', None), list) else 'file'
    if any(':=' not in word or word.startswith('-') for word in extra) \
            or not isinstance(getattr(args, target, None), list):
        return parser.parse_args(argv)  # exits with the usage error
    getattr(args, target).extend(extra)
    return args


def main() -> None:
    """Console entry point of ``urdf-tools``."""
    single_threaded_blas()
    sys.exit(run())


def check_main() -> None:
    """Console entry point of ``check`` (``ros2 run urdf_tools_ros check FILE``)."""
    single_threaded_blas()
    sys.exit(run(['check', *sys.argv[1:]]))


if __name__ == '__main__':
    main()
