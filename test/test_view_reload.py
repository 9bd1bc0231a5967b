"""
``urdf-tools view --watch``: a saved change reaches the page.

The page gets the model over viser's websocket; the test connects as the page does and reads
viser's frames (as of viser 1.x: the message size, the compressed size, then zstd-compressed
msgpack ``{"messages": [...]}``).
"""

from __future__ import annotations

from pathlib import Path
import re
import signal
import subprocess
import sys
import threading
import time
from typing import Any
import urllib.request

import pytest

from conftest import free_port, missing, REPO, wait_for

MISSING = missing('viser', 'trimesh', 'websockets.sync.client', 'zstandard', 'msgspec')
pytestmark = pytest.mark.skipif(MISSING is not None, reason=str(MISSING))
ROBOT = """<?xml version="1.0"?>
<robot name="{name}">
  <link name="{link}"><visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>
</robot>
"""


def _shown(connection: Any, seconds: float, label: str = '') -> tuple[list[str], list[str]]:
    """
    The panel labels (the robot's name) and scene frames viser sends on ``connection``.

    Read for ``seconds``, or until the panel is labelled ``label``.
    """
    import msgspec
    import zstandard
    labels: list[str] = []
    frames: list[str] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until and (not label or label not in labels):
        try:
            frame = connection.recv(timeout=max(until - time.monotonic(), 0.01))
        except TimeoutError:
            break
        size, packed = int.from_bytes(frame[:8], 'little'), int.from_bytes(frame[8:16], 'little')
        for message in msgspec.msgpack.decode(zstandard.ZstdDecompressor().decompress(
                frame[16:16 + packed], max_output_size=size))['messages']:
            if message['type'] == 'SetGuiPanelLabelMessage':
                labels.append(message['label'])
            elif message['type'] == 'FrameMessage':
                frames.append(message['name'])
    return labels, frames


def test_a_saved_change_is_shown_and_a_broken_one_keeps_the_last(tmp_path: Path) -> None:
    import viser
    from websockets.sync.client import connect
    from websockets.typing import Subprotocol
    path = tmp_path / 'robot.urdf'
    path.write_text(ROBOT.format(name='first', link='base'))
    process = subprocess.Popen(
        [sys.executable, '-m', 'urdf_tools_ros.cli.main', 'view', str(path), '--watch',
         '--port', str(free_port()), '--exit-after', '120'], cwd=REPO, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: list[str] = []
    err: list[str] = []
    for stream, lines in ((process.stdout, out), (process.stderr, err)):
        threading.Thread(target=lines.extend, args=(stream,), daemon=True).start()
    try:
        assert wait_for(lambda: any('serving' in line for line in out), 60), out
        url = re.search(r'at (http://\S+) ', ''.join(out)).group(1)  # type: ignore[union-attr]
        assert urllib.request.urlopen(url, timeout=10).status == 200
        with connect(url.replace('http', 'ws'), open_timeout=10,
                     subprotocols=[Subprotocol(f'viser-v{viser.__version__}')]) as page:
            assert _shown(page, 10.0, 'first')[0] == ['first']
            path.write_text(ROBOT.format(name='second', link='arm_after_save'))
            labels, frames = _shown(page, 20.0, 'second')
            assert labels == ['second'] and '/robot/arm_after_save' in frames
            path.write_text('<robot name="third"><link')  # not well formed: keeps 'second'
            assert wait_for(lambda: any('showing the last description' in line
                                        for line in err), 20), err
            assert _shown(page, 0.5) == ([], [])
        assert "urdf-tools view: reloaded 'second'" in ''.join(out)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
