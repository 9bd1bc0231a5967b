"""
Benchmark: every mesh of a large robot through the description node's GetResource service.

The robot description node runs as its own process (this venv's Python, ``python -m
urdf_tools_ros.nodes.robot_description``) with ``serve_meshes: true`` and a robot of the PyPI
package ``example-robot-data`` (``pip install example-robot-data``; talos_full_v2 and TIAGo by
default). This process reads the published ``robot_description``, and fetches each file its
``service://`` URLs name, one request at a time as RViz does: first with no etag (OK, the bytes),
then with the etag each answer gave (NOT_MODIFIED, no bytes). Beside it, the time to read the
same files from disk (warm page cache, as the node has it).

Reported per robot: files, MiB, the three times (total and per file), and the node's resident
memory after start, after serving and its peak (VmHWM), from /proc. Not a test: numbers are
printed, never asserted. Needs real rclpy and ``resource_retriever_interfaces``
(``scripts/setup-ros.sh`` builds it).

Run: ``.venv/bin/python bench/bench_mesh_service.py [--robot talos|tiago|PATH.urdf] ...``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import random
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
ERD = Path(sysconfig.get_paths()['purelib']) / 'cmeel.prefix' / 'share' / 'example-robot-data'
ROBOTS = {'talos': 'robots/talos_data/robots/talos_full_v2.urdf',
          'tiago': 'robots/tiago_description/robots/tiago.urdf'}


def memory(pid: int) -> dict[str, int]:
    """The resident set size of a process and its peak, kB: ``VmRSS``, ``VmHWM``."""
    result = {}
    for line in Path(f'/proc/{pid}/status').read_text().splitlines():
        key, _, value = line.partition(':')
        if key in ('VmRSS', 'VmHWM'):
            result[key] = int(value.split()[0])
    return result


def fetch_all(node: object, urls: list[str], etags: dict[str, str]
              ) -> tuple[float, int, dict[str, str]]:
    """
    Request each URL once (with the etag held, if any); total s, body bytes, new etags.

    ``node`` is spun by another thread; each answer is waited for on an event. (Calling
    ``spin_until_future_complete`` once per request instead makes every call slower than the
    one before in rclpy 7.1.6, on the client side.)
    """
    from resource_retriever_interfaces.srv import GetResource
    clients: dict[str, object] = {}
    total_bytes = 0
    new_etags: dict[str, str] = {}
    start = time.perf_counter()
    for url in urls:
        name, _, path = url[len('service://'):].partition(':')
        client = clients.get(name)
        if client is None:
            client = clients[name] = node.create_client(GetResource, name)
            if not client.wait_for_service(timeout_sec=10.0):
                raise SystemExit(f'no service {name}')
        future = client.call_async(GetResource.Request(path=path, etag=etags.get(url, '')))
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        done.wait(30.0)
        reply = future.result()
        if reply is None or reply.status_code == GetResource.Response.ERROR:
            raise SystemExit(f'{url}: {reply.error_reason if reply else "timed out"}')
        total_bytes += len(reply.body)
        new_etags[url] = reply.etag
    return time.perf_counter() - start, total_bytes, new_etags


def main() -> None:
    """Run the benchmark for each robot and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--robot', action='append',
                        help='talos, tiago or a URDF path (repeatable; default: talos, tiago)')
    args = parser.parse_args()
    if not ERD.is_dir():
        raise SystemExit(f'example-robot-data is not installed here ({ERD}): '
                         'pip install example-robot-data')
    workdir = Path(tempfile.mkdtemp(prefix='bench_mesh_service_'))
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(1, 200))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ['ROS_LOG_DIR'] = str(workdir)
    os.environ['URDF_TOOLS_PACKAGE_PATH'] = f'example-robot-data={ERD}'

    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from std_msgs.msg import String

    from urdf_tools_ros.core.model.robot import Mesh
    from urdf_tools_ros.core.source.loader import load, load_string
    from urdf_tools_ros.core.source.packages import draw_path
    from urdf_tools_ros.ros import qos

    rclpy.init()
    print(f'{"robot":<8} {"files":>5} {"MiB":>6} {"service s":>10} {"ms/file":>8} '
          f'{"etag s":>7} {"disk s":>7} {"RSS start":>10} {"RSS after":>10} {"peak":>8}')
    for index, robot in enumerate(args.robot or list(ROBOTS)):
        model = ERD / ROBOTS[robot] if robot in ROBOTS else Path(robot)
        log = (workdir / f'node{index}.log').open('w')
        process = subprocess.Popen(
            [sys.executable, '-m', 'urdf_tools_ros.nodes.robot_description', '--ros-args',
             '-r', f'__ns:=/bench{index}', '-p', f'model:={model}',
             '-p', 'serve_meshes:=true', '-p', 'diagnostic_period:=0.0'],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
        node = rclpy.create_node(f'bench_mesh_service{index}')
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        received: list[str] = []
        node.create_subscription(String, f'/bench{index}/robot_description',
                                 lambda msg: received.append(msg.data), qos.LATCHED_DESCRIPTION)
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        try:
            deadline = time.monotonic() + 60.0
            while not received:
                time.sleep(0.05)
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit(f'no robot_description; see {workdir / f"node{index}.log"}')
            description = load_string(received[-1], '<published>')
            urls = list(dict.fromkeys(
                element.geometry.filename for link in description.robot.links
                for element in (*link.visuals, *link.collisions)
                if isinstance(element.geometry, Mesh)))
            start_memory = memory(process.pid)
            seconds, total, etags = fetch_all(node, urls, {})
            again, _, _ = fetch_all(node, urls, etags)
            after = memory(process.pid)
            original = load(model, package_paths={'example-robot-data': str(ERD)})
            files = list(dict.fromkeys(
                draw_path(element.geometry.filename, element.geometry.resolved, original.locate)
                for link in original.robot.links for element in (*link.visuals, *link.collisions)
                if isinstance(element.geometry, Mesh)))
            disk_start = time.perf_counter()
            for file in files:
                Path(file).read_bytes()
            disk = time.perf_counter() - disk_start
            print(f'{robot:<8} {len(urls):>5} {total / 2 ** 20:>6.1f} {seconds:>10.3f} '
                  f'{1000 * seconds / len(urls):>8.1f} {again:>7.3f} {disk:>7.4f} '
                  f'{start_memory["VmRSS"] / 1024:>7.0f} MB {after["VmRSS"] / 1024:>7.0f} MB '
                  f'{after["VmHWM"] / 1024:>5.0f} MB')
        finally:
            process.terminate()
            process.wait(timeout=10)
            executor.shutdown(timeout_sec=5.0)
            spinner.join(timeout=5.0)
            node.destroy_node()
    rclpy.shutdown()


if __name__ == '__main__':
    main()
