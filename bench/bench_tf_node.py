"""
Benchmark: the TF node keeping up with joint states at 1 kHz on talos.

Goal: the TF broadcaster receives ``joint_states`` at 1 kHz on talos (``talos_full_v2.urdf`` of
``../shared/models``) and publishes every one on ``/tf``: 0 dropped. Its CPU is printed, not
bounded.

The node runs as its own process (``python -m urdf_tools_ros.nodes.tf_broadcaster``, this venv)
with the model as its ``robot_description`` parameter and ``ignore_timestamp: true`` (every
message is published, as robot_state_publisher does with that parameter). This process
publishes ``joint_states`` naming every actuated joint at ``--rate`` Hz for ``--duration`` s
after a 1 s warm-up and counts the ``/tf`` messages it receives (a raw subscription: counted,
not read). Printed: sent, received, dropped (sent - received), and the CPU time (user + system,
from /proc) per second of wall time of the node process and of this one, in % of one core.
The machine's other load counts: run it on an idle machine. Real rclpy on localhost DDS.

Run: ``.venv/bin/python bench/bench_tf_node.py [--rate 1000] [--duration 10] [--model FILE]``
(``URDF_TOOLS_SHARED`` points at ``../shared`` elsewhere).
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
import random
import subprocess
import sys
import tempfile
import threading
import time

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHARED = Path(os.environ.get('URDF_TOOLS_SHARED') or REPO.parent / 'shared')
MODEL = SHARED / 'models' / 'talos_full_v2.urdf'


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads), s."""
    fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def main() -> None:
    """Run the benchmark and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--rate', type=float, default=1000.0, help='joint_states rate, Hz')
    parser.add_argument('--duration', type=float, default=10.0, help='measured time, s')
    parser.add_argument('--model', type=Path, default=MODEL, help='URDF file')
    args = parser.parse_args()
    if not args.model.is_file():
        raise SystemExit(f'{args.model} is not present (set URDF_TOOLS_SHARED or --model)')

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
    received = [0]
    statics: list[object] = []

    def on_tf(data: bytes) -> None:
        received[0] += 1

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

        def send(count: int) -> None:
            """Publish ``count`` messages at the rate, each stamped when it is sent."""
            start = time.perf_counter()
            for index in range(count):
                target = start + index * period
                while (left := target - time.perf_counter()) > 0.0:
                    if left > 0.0003:
                        time.sleep(left - 0.0002)
                msg.position = [0.3 * math.sin(0.001 * index + joint)
                                for joint in range(len(names))]
                msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(time.time_ns(),
                                                                        1_000_000_000)
                publisher.publish(msg)

        send(int(args.rate))  # warm-up, 1 s
        time.sleep(0.5)  # its last /tf messages arrive before the count starts
        received[0] = 0
        sent = int(args.rate * args.duration)
        node_cpu, own_cpu, wall = cpu_seconds(process.pid), time.process_time(), time.monotonic()
        send(sent)
        wall = time.monotonic() - wall
        node_cpu, own_cpu = cpu_seconds(process.pid) - node_cpu, time.process_time() - own_cpu
        time.sleep(1.0)  # the last messages in flight
        got = received[0]
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

    dropped = sent - got
    print(f'{args.model.name}: {len(names)} actuated joints in each joint_states, '
          f'{len(description.robot.joints)} joints; executor {type(executor).__name__}')
    print(f'sent {sent} at {sent / wall:.0f} Hz over {wall:.2f} s; received {got} on /tf; '
          f'dropped {dropped}')
    print(f'CPU: TF node {100 * node_cpu / wall:.1f} % of one core; this process (publisher '
          f'+ /tf counter) {100 * own_cpu / wall:.1f} %')
    print(f'goal (0 dropped at {args.rate:.0f} Hz): {"met" if dropped == 0 else "NOT met"}')


if __name__ == '__main__':
    main()
