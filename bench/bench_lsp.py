"""
Benchmark: ``urdf-tools lsp`` from an edit to its diagnostics, beside a whole ``check``.

An editor's user waits, after each keystroke, for the debounce and the check of the robot. This
copies ``../shared/ros2_descriptions`` to a temporary folder with a ``.urdf-tools.toml`` whose
``entries`` give each case of ``cases.json`` its xacro arguments, starts one ``urdf-tools lsp``
on it (stdio, raw JSON-RPC, the default 150 ms debounce) and for each case:

* opens the entry (its text with a comment appended) and times the first
  ``publishDiagnostics`` of it: a newly opened robot;
* ``--rounds`` times, appends a space to that comment (``didChange``) and times the
  ``publishDiagnostics`` that follows, debounce included, the server warm;
* for both, also the last ``publishDiagnostics`` of the file before :data:`QUIET` seconds
  without one: the complete diagnostics. The server publishes a changed file after each entry
  that covers it (``create3.urdf.xacro`` is also included by both TurtleBot 4 entries), the
  first when the first entry's result is in;
* runs ``urdf-tools check ENTRY ARGS --package-path COPY`` as a new process ``--rounds``
  times, in the same run.

``--links N`` (default 2,000) adds a generated URDF of N links (``gen_large_urdf.py``) as
one more case. Printed, not asserted. Goals: the median change → ``publishDiagnostics`` of the
edited file <= 300 ms on every case and <= 1.5 s on the 2,000-link URDF (the first publish:
the case's own entry checked), and the first diagnostics of a newly opened robot within a
whole-process ``check``. The complete column
shows when every other entry that includes the file was checked too (create3's file is also in
both TurtleBot 4 entries); it is reported beside the goal, not a part of it. Run:
``.venv/bin/python bench/bench_lsp.py [--rounds 5] [--case ID ...] [--links N]``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / 'test'), str(REPO / 'bench')]
from gen_large_urdf import generate  # noqa: E402
from paths import ROS2_DESCRIPTIONS  # noqa: E402

COMMENT = '\n<!-- bench -->\n'
#: Seconds without a ``publishDiagnostics`` after which a file's diagnostics are complete.
QUIET = 1.0


class Client:
    """A minimal LSP client over a server's stdio: requests, notifications, diagnostics."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env)
        self.published: queue.Queue[tuple[float, str]] = queue.Queue()
        self.answers: dict[int, Any] = {}
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None  # noqa: S101 - a pipe
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b'\r\n', b'\n'):
                    break
                if line.lower().startswith(b'content-length:'):
                    length = int(line.split(b':')[1])
            message = json.loads(stream.read(length))
            if message.get('method') == 'textDocument/publishDiagnostics':
                self.published.put((time.perf_counter(), message['params']['uri']))
            elif 'id' in message and 'method' not in message:
                self.answers[message['id']] = message.get('result')

    def send(self, method: str, params: Any, request: bool = False) -> int | None:
        message: dict[str, Any] = {'jsonrpc': '2.0', 'method': method, 'params': params}
        if request:
            self._next += 1
            message['id'] = self._next
        body = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None  # noqa: S101 - a pipe
        stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        stdin.flush()
        return message.get('id')

    def request(self, method: str, params: Any, timeout: float = 60.0) -> Any:
        number = self.send(method, params, request=True)
        end = time.perf_counter() + timeout
        while number not in self.answers:
            if time.perf_counter() > end:
                raise TimeoutError(method)
            time.sleep(0.005)
        return self.answers.pop(number)

    def diagnostics_of(self, uri: str, timeout: float = 120.0) -> float:
        """The time the next ``publishDiagnostics`` of ``uri`` arrived."""
        end = time.perf_counter() + timeout
        while True:
            arrived, published = self.published.get(timeout=max(end - time.perf_counter(), 0.01))
            if published == uri:
                return arrived

    def last_diagnostics_of(self, uri: str, first: float) -> float:
        """When the last ``publishDiagnostics`` of ``uri`` came, :data:`QUIET` s without one."""
        last = first
        while True:
            try:
                arrived, published = self.published.get(timeout=QUIET)
            except queue.Empty:
                return last
            if published == uri:
                last = arrived

    def drain(self) -> None:
        while not self.published.empty():
            self.published.get_nowait()

    def close(self) -> None:
        """Ask the server to shut down and exit; kill it when it does not within 10 s."""
        try:
            self.request('shutdown', None, timeout=10)
            self.send('exit', None)
            self.process.wait(timeout=10)
        except (TimeoutError, subprocess.TimeoutExpired, BrokenPipeError):
            self.process.kill()


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a TOML basic string for these values (no control characters)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--case', action='append', help='a case id of cases.json (repeatable)')
    parser.add_argument('--links', type=int, default=2000,
                        help='links of the generated URDF case (0: none)')
    options = parser.parse_args()
    cases = json.loads((ROS2_DESCRIPTIONS / 'cases.json').read_text())['cases']
    if options.case:
        cases = [case for case in cases if case['id'] in options.case]
    folder = Path(tempfile.mkdtemp(prefix='bench-lsp-'))
    copy = folder / 'ros2_descriptions'
    shutil.copytree(ROS2_DESCRIPTIONS, copy)
    if options.links:
        generate(copy / 'generated.urdf', options.links)
        cases.append({'id': f'generated_{options.links}_links', 'entry': 'generated.urdf',
                      'args': []})
    with open(copy / '.urdf-tools.toml', 'w', encoding='utf-8') as stream:
        for case in cases:
            args = ', '.join(f'{_toml_string(name)} = {_toml_string(value)}' for name, value in
                             (arg.split(':=', 1) for arg in case['args']))
            stream.write(f'[[entries]]\nfile = {_toml_string(case["entry"])}\n'
                         f'args = {{{args}}}\n\n')
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get('PYTHONPATH')])])}
    client = Client([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'lsp'], env)
    client.request('initialize', {'processId': os.getpid(), 'rootUri': copy.as_uri(),
                                  'capabilities': {},
                                  'workspaceFolders': [{'uri': copy.as_uri(),
                                                        'name': 'ros2_descriptions'}]})
    client.send('initialized', {})
    print(f'{"case":24} {"open→diag":>9} {"complete":>8} {"check":>6} {"open/check":>10} '
          f'{"edit→diag":>9} {"complete":>8} {"edit/check":>10}   (medians, ms; first '
          f'publish, complete; {options.rounds} rounds)')
    try:
        for case in cases:
            entry = copy / case['entry']
            uri = entry.as_uri()
            text = entry.read_text(encoding='utf-8') + COMMENT
            client.drain()
            start = time.perf_counter()
            client.send('textDocument/didOpen', {'textDocument': {
                'uri': uri, 'languageId': 'xml', 'version': 1, 'text': text}})
            arrived = client.diagnostics_of(uri)
            first, opened = arrived - start, client.last_diagnostics_of(uri, arrived) - start
            edits, completes = [], []
            for version in range(2, 2 + options.rounds):
                text = text.replace('<!-- bench', '<!-- bench ', 1)
                client.drain()
                start = time.perf_counter()
                client.send('textDocument/didChange', {
                    'textDocument': {'uri': uri, 'version': version},
                    'contentChanges': [{'text': text}]})
                arrived = client.diagnostics_of(uri)
                edits.append(arrived - start)
                completes.append(client.last_diagnostics_of(uri, arrived) - start)
            client.send('textDocument/didClose', {'textDocument': {'uri': uri}})
            client.diagnostics_of(uri)
            checks = []
            for _ in range(options.rounds):
                start = time.perf_counter()
                subprocess.run([sys.executable, '-m', 'urdf_tools_ros.cli.main', 'check',
                                str(entry), *case['args'], '--package-path', str(copy)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                               cwd=REPO)
                checks.append(time.perf_counter() - start)
            check, edit = statistics.median(checks), statistics.median(edits)
            complete = statistics.median(completes)
            print(f'{case["id"]:24} {first * 1e3:9.0f} {opened * 1e3:8.0f} {check * 1e3:6.0f} '
                  f'{first / check:10.2f} {edit * 1e3:9.0f} {complete * 1e3:8.0f} '
                  f'{complete / check:10.2f}', flush=True)
    finally:
        client.close()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
