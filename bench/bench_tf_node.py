"""
Benchmark: joint_states at 1 kHz into the TF broadcaster node, real rclpy on localhost DDS.

The node runs as its own process (this venv's Python, ``python -m
urdf_tools_ros.nodes.tf_broadcaster``) with talos_full_v2 as its ``robot_description``
parameter and ``ignore_timestamp: true`` (so that every message is published, as
robot_state_publisher does with that parameter). This process publishes ``joint_states`` naming
every actuated joint (mimic joints are computed by the node) at ``--rate`` Hz for
``--duration`` s after a 1 s warm-up, each stamped with the system clock when it is sent, and
receives ``/tf`` as serialized bytes (a raw subscription, spun by the same kind of executor the
node uses: :func:`urdf_tools_ros.ros.spin.make_executor`).

Reported: messages sent, received and dropped (a sent stamp never seen on ``/tf``), latency from
stamp to ``/tf`` receipt (p50, p99, max), and the CPU time of the node process (user + system,
from /proc) per second of wall time, in % of one core; this process's own CPU for context.
Goals: at 1 kHz 0 dropped and the node under 50 % of one core (on the events executor), at
500 Hz 0 dropped; p99 <= 2 ms. Not a test: the numbers are printed, never asserted. The
machine's other load counts: run it on an idle machine.

Run: ``.venv/bin/python bench/bench_tf_node.py [--rate 1000] [--duration 10]``.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
MODEL = REPO.parent / 'shared' / 'models' / 'talos_full_v2.urdf'


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads), s."""
    fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU time of each thread of process ``pid`` by thread name (names summed), s."""
    result: dict[str, float] = {}
    for task in Path(f'/proc/{pid}/task').iterdir():
        try:
            text = (task / 'stat').read_text()
        except OSError:
            continue
        name = text[text.index('(') + 1:text.rindex(')')]
        fields = text.rsplit(')', 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
        result[name] = result.get(name, 0.0) + seconds
    return result


def rss(pid: int) -> int:
    """Resident set size of process ``pid``, kB."""
    for line in Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def main() -> None:  # noqa: C901 - one linear script
    """Run the benchmark and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--rate', type=float, default=1000.0, help='joint_states rate, Hz')
    parser.add_argument('--duration', type=float, default=10.0, help='measured time, s')
    parser.add_argument('--model', type=Path, default=MODEL, help='URDF file')
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix='bench_tf_node_'))
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(1, 200))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ['ROS_LOG_DIR'] = str(workdir)

    import rclpy
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    import yaml

    from urdf_tools_ros.core.kinematics.forward import KinematicModel
    from urdf_tools_ros.core.source.loader import load
    from urdf_tools_ros.ros import qos
    from urdf_tools_ros.ros.spin import make_executor

    description = load(args.model)
    names = list(KinematicModel(description.robot).joint_names)
    parameters = workdir / 'parameters.yaml'
    parameters.write_text(yaml.safe_dump({'tf_broadcaster': {'ros__parameters': {
        'robot_description': description.xml, 'ignore_timestamp': True}}}))
    node_log = (workdir / 'node.log').open('w')
    process = subprocess.Popen(
        [sys.executable, '-m', 'urdf_tools_ros.nodes.tf_broadcaster', '--ros-args',
         '--params-file', str(parameters)], cwd=REPO, stdout=node_log, stderr=subprocess.STDOUT)

    rclpy.init()
    node = rclpy.create_node('bench_tf_node')
    received: dict[int, int] = {}  # stamp ns -> receipt ns
    statics: list[object] = []

    def on_tf(data: bytes) -> None:
        now = time.time_ns()
        if len(data) >= 16:
            sec, nanosec = struct.unpack_from('<iI', data, 8)  # first transform's stamp
            received.setdefault(sec * 1_000_000_000 + nanosec, now)

    node.create_subscription(TFMessage, '/tf', on_tf, qos.TF, raw=True)
    node.create_subscription(TFMessage, '/tf_static', statics.append, qos.TF_STATIC)
    publisher = node.create_publisher(JointState, 'joint_states', qos.JOINT_STATES_PUBLISHER)
    executor = make_executor()
    executor.add_node(node)
    running = True

    def spin() -> None:
        while running and rclpy.ok():
            executor.spin_once(timeout_sec=0.1)

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    try:
        deadline = time.monotonic() + 30.0
        while not statics or publisher.get_subscription_count() < 1 or \
                node.count_publishers('/tf') < 1:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(f'the TF node did not come up; see {workdir / "node.log"}')
            time.sleep(0.05)

        msg = JointState()
        msg.name = names
        period = 1.0 / args.rate

        def send(count: int) -> list[int]:
            """Publish ``count`` messages at the rate; return their stamps."""
            stamps = []
            start = time.perf_counter()
            for index in range(count):
                target = start + index * period
                while True:
                    left = target - time.perf_counter()
                    if left <= 0.0:
                        break
                    if left > 0.0003:
                        time.sleep(left - 0.0002)
                phase = 0.001 * index
                msg.position = [0.3 * math.sin(phase + joint) for joint in range(len(names))]
                stamp = time.time_ns()
                msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp, 1_000_000_000)
                publisher.publish(msg)
                stamps.append(stamp)
            return stamps

        send(int(args.rate))  # warm-up, 1 s
        time.sleep(0.2)
        received.clear()
        node_cpu, own_cpu, wall = cpu_seconds(process.pid), time.process_time(), time.monotonic()
        threads = thread_cpu(process.pid)
        stamps = send(int(args.rate * args.duration))
        wall = time.monotonic() - wall
        node_cpu, own_cpu = cpu_seconds(process.pid) - node_cpu, time.process_time() - own_cpu
        threads = {name: seconds - threads.get(name, 0.0)
                   for name, seconds in thread_cpu(process.pid).items()}
        node_rss_kb = rss(process.pid)
        time.sleep(0.5)  # the last messages in flight
        latencies = [(received[stamp] - stamp) / 1e6 for stamp in stamps if stamp in received]
        dropped = len(stamps) - len(latencies)
    finally:
        running = False
        spinner.join(timeout=5.0)
        node.destroy_node()
        rclpy.try_shutdown()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        node_log.close()

    achieved = len(stamps) / wall
    print(f'executor {type(executor).__name__}, model {args.model.name}: '
          f'{len(names)} actuated joints in each '
          f'joint_states, {len(description.robot.joints)} joints')
    print(f'sent {len(stamps)} at {achieved:.0f} Hz over {wall:.2f} s; received '
          f'{len(latencies)}; dropped {dropped}')
    if latencies:
        print(f'latency stamp -> /tf receipt: p50 {percentile(latencies, 0.5):.3f} ms, '
              f'p90 {percentile(latencies, 0.9):.3f} ms, p99 {percentile(latencies, 0.99):.3f} '
              f'ms, max {max(latencies):.3f} ms')
    print(f'CPU: TF node {100 * node_cpu / wall:.1f} % of one core; this process (publisher '
          f'+ /tf receiver) {100 * own_cpu / wall:.1f} %')
    busiest = sorted(threads.items(), key=lambda item: -item[1])[:4]
    print('  node threads: ' + ', '.join(f'{name} {100 * seconds / wall:.1f} %'
                                         for name, seconds in busiest))
    rss_kb = node_rss_kb
    print(f'TF node resident memory: {rss_kb / 1024:.0f} MB')
    goals = [('p99 <= 2 ms', bool(latencies) and percentile(latencies, 0.99) <= 2.0),
             ('0 dropped', dropped == 0), ('node < 50 % of one core', node_cpu / wall < 0.5)]
    print('goals: ' + ', '.join(f'{name}: {"met" if met else "NOT met"}' for name, met in goals))


if __name__ == '__main__':
    main()
