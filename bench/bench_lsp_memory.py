"""
Benchmark: ``urdf-tools lsp``'s memory over many edits of one robot.

Starts one ``urdf-tools lsp`` per file (stdio, :class:`bench_lsp.Client`), opens the file, then
sends ``--edits`` ``didChange`` notifications, each a new text (the edit's number in a comment
at the end), waits for the ``publishDiagnostics`` of the file after each, then asks a hover and
the document symbols, as an editor does (each new text fills the server's per-text caches).
Prints the
server's resident memory (``VmRSS`` of ``/proc/<pid>/status``) after the first 50 edits and
every 250 after.

Goal: after 1,000 edits within 50 MB of after the first 50, for urdf_tutorial's
08-macroed and for tiago_dual. Printed, not asserted. Run:
``.venv/bin/python bench/bench_lsp_memory.py [--edits 1000] [FILE ...]``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import Client, REPO  # noqa: E402
from paths import ROS2_DESCRIPTIONS, SHARED_MODELS  # noqa: E402

FILES = [ROS2_DESCRIPTIONS / 'urdf_tutorial' / 'urdf' / '08-macroed.urdf.xacro',
         SHARED_MODELS / 'tiago_dual.urdf']


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB (``VmRSS``)."""
    with open(f'/proc/{pid}/status', encoding='ascii') as stream:
        kilobytes = next(int(line.split()[1]) for line in stream if line.startswith('VmRSS:'))
    return kilobytes / 1024


def edited(text: str, number: int) -> str:
    """``text`` with edit ``number`` in a comment at its end (each edit a new text)."""
    return f'{text}\n<!-- edit {number} -->\n'


def measure(path: Path, edits: int) -> list[tuple[int, float]]:
    """``(edits done, RSS in MB)`` after 50 edits and every 250 after, for one server."""
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])])}
    client = Client([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'lsp'], env)
    root = next((folder for folder in path.parents if (folder / 'package.xml').is_file()),
                path.parent)
    client.request('initialize', {'processId': os.getpid(), 'rootUri': root.as_uri(),
                                  'capabilities': {}})
    client.send('initialized', {})
    uri, text = path.as_uri(), path.read_text(encoding='utf-8')
    client.send('textDocument/didOpen', {'textDocument': {
        'uri': uri, 'languageId': 'xml', 'version': 1, 'text': text}})
    client.diagnostics_of(uri)
    sizes = []
    try:
        for number in range(1, edits + 1):
            client.drain()
            client.send('textDocument/didChange', {
                'textDocument': {'uri': uri, 'version': number + 1},
                'contentChanges': [{'text': edited(text, number)}]})
            client.diagnostics_of(uri)
            for method in ('textDocument/hover', 'textDocument/documentSymbol'):  # as editors ask
                client.request(method, {'textDocument': {'uri': uri},
                                        'position': {'line': number % 40, 'character': 8}})
            if number == 50 or number % 250 == 0 or number == edits:
                time.sleep(0.5)  # the worker's clean-up after the publish
                sizes.append((number, rss_mb(client.process.pid)))
                print(f'{path.name:28} {number:5d} edits  {sizes[-1][1]:7.1f} MB', flush=True)
    finally:
        client.close()
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--edits', type=int, default=1000)
    parser.add_argument('files', nargs='*', type=Path, default=FILES)
    options = parser.parse_args()
    for path in options.files:
        sizes = measure(path, options.edits)
        first, last = sizes[0][1], sizes[-1][1]
        print(f'{path.name:28} after 50: {first:.1f} MB, after {sizes[-1][0]}: {last:.1f} MB, '
              f'growth {last - first:+.1f} MB (goal <= 50)', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
