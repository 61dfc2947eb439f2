#!/usr/bin/env python3
"""Caffe on five hosts, in Linux network namespaces this script makes and removes itself.

    sudo .build/python-client/bin/python deploy/multihost/multihost.py --bin .build/debug   # make multihost

Hosts, each a namespace with one interface on a bridge (the "switch", a namespace too), private
addresses that exist only inside them:

    source   10.231.0.1   caffe-sim replay: PUB > proxy:5560, serves Replay/Fetch on :5563
    proxy    10.231.0.2   caffe proxy --kind forwarder: XSUB @:5560 → XPUB @:5570
    worker-1 10.231.0.11  caffe worker (deploy/worker.yaml): SUB > proxy:5570, acked output @:5561
    worker-2 10.231.0.12  the same
    consumer 10.231.0.21  consumer.py: a DEALER to each worker's acknowledged output

Both workers subscribe to the whole stream (active/active): a worker tracks each source's
sequence, so workers that each took a share of one stream (PULL) would each see gaps everywhere.
The consumer keeps the first copy of each output (by order id and kind).

The run: the source plays a generated journal (``--orders`` at ``--rate``, 90 s by default); ``--partition-at``
seconds in, worker-2's switch port goes down for ``--partition`` seconds; once worker-2 has
caught up (asking the source for what it missed), worker-1's host is killed (its worker gets
SIGKILL and its port goes down). At the end: sent / delivered / lost / duplicated, and each
worker's part. Exit status 0 when nothing was lost, 1 otherwise; where namespaces cannot be made
(not root, no ``ip netns``), it says so and exits 0 without running.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hosts import Fleet, Network, Progress, Timeline, binaries, can_make_namespaces, clean_environment, journal, worker_command

REPO = Path(__file__).resolve().parents[2]
SUBNET = "10.231.0"
HOSTS = {"source": 1, "proxy": 2, "worker-1": 11, "worker-2": 12, "consumer": 21}


def address(host: str) -> str:
    return f"{SUBNET}.{HOSTS[host]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(REPO / ".build/debug"), help="folder with caffe and caffe-sim")
    parser.add_argument("--orders", type=int, default=9000)
    parser.add_argument("--rate", type=float, default=100.0, help="orders per second of the journal")
    parser.add_argument("--partition-at", type=float, default=5.0, help="seconds into the run")
    parser.add_argument("--partition", type=float, default=30.0, help="seconds worker-2 stays cut off")
    parser.add_argument("--drain", type=float, default=60.0, help="seconds to wait for the rest after the source ends")
    options = parser.parse_args()

    reason = can_make_namespaces()
    if reason is not None:
        print(f"multihost: SKIPPED: network namespaces cannot be made here: {reason}")
        return 0
    found = binaries(options.bin, "multihost")
    if found is None:
        return 2
    caffe, sim = found

    folder = Path(tempfile.mkdtemp(prefix="caffe-multihost-"))
    network = Network(HOSTS, SUBNET)
    fleet = Fleet(network, folder)
    timeline = Timeline("multihost")
    note = timeline.note

    try:
        orders = folder / "orders.journal"
        sent = journal(sim, orders, options.orders, options.rate, 22, "multihost")

        network.create()
        print(
            f"multihost: {len(HOSTS)} hosts on {SUBNET}.0/24 in namespaces caffe-{network.tag}-*: "
            + ", ".join(f"{host} {address(host)}" for host in HOSTS),
            flush=True,
        )
        proxy = address("proxy")
        fleet.start(
            "proxy", "proxy",
            [str(caffe), "proxy", "--kind", "forwarder", "--frontend", f"@tcp://{proxy}:5560",
             "--backend", f"@tcp://{proxy}:5570"],
        )
        rpc = {}
        for worker in ("worker-1", "worker-2"):
            here = address(worker)
            rpc[worker] = f"tcp://{here}:5562"
            command = worker_command(caffe, here, proxy, folder / f"{worker}.checkpoint")
            fleet.start(worker, worker, command, env=clean_environment())
        consumer = fleet.start(
            "consumer", "consumer",
            [sys.executable, str(REPO / "deploy/multihost/consumer.py"), "--summary", str(folder / "summary.json"),
             "--worker", f"worker-1=tcp://{address('worker-1')}:5561,{rpc['worker-1']}",
             "--worker", f"worker-2=tcp://{address('worker-2')}:5561,{rpc['worker-2']}"],
            stdout=subprocess.PIPE, text=True,
        )
        progress = Progress(consumer.stdout)
        deadline = time.monotonic() + 30
        while not all(progress.latest.get("stats", {}).get(worker) for worker in rpc):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the workers did not answer: {progress.latest} (logs in {folder})")
            time.sleep(0.2)
        time.sleep(1.0)  # the workers' subscriptions reach the forwarder
        note(f"source starts: {len(sent)} orders at {options.rate:g}/s")
        fleet.start(
            "source", "source",
            [str(sim), "replay", str(orders), "--endpoint", f">tcp://{proxy}:5560",
             "--replay-endpoint", f"tcp://{address('source')}:5563", "--heartbeat", "1",
             "--linger", str(options.drain), "--json"],
        )
        source_started = time.monotonic()

        def wait_until(moment: float) -> None:
            while time.monotonic() < source_started + moment:
                time.sleep(0.1)

        wait_until(options.partition_at)
        before = progress.latest["covered"]["worker-2"]
        network.unplug("worker-2")
        note(f"worker-2 partitioned (switch port down); it had delivered {before} outputs")
        wait_until(options.partition_at + options.partition)
        during = progress.latest["covered"]["worker-2"]
        network.plug("worker-2")
        note(f"worker-2 reconnected; it delivered {during - before} outputs while cut off")
        # Worker-1 dies only once worker-2 has caught up: then worker-2 alone must deliver the rest.
        catch_up = time.monotonic() + 90
        while time.monotonic() < catch_up:
            covered = progress.latest["covered"]
            if covered["worker-2"] >= covered["worker-1"] - 50:
                break
            time.sleep(0.5)
        stats = progress.latest["stats"].get("worker-2") or {}
        note(
            f"worker-2 caught up: gaps {stats.get('gaps')}, replay requests {stats.get('replay_requests')}, "
            f"replayed events {stats.get('replayed_events')}, unrecoverable {stats.get('unrecoverable_gaps')}"
        )
        fleet.stop("worker-1", signal.SIGKILL)
        network.unplug("worker-1")
        note(f"worker-1 host killed (SIGKILL, port down) after delivering {progress.latest['delivered']['worker-1']}")
        # The source lingers after its last order (heartbeats, replay endpoint) for --drain.
        end = time.monotonic() + options.orders / options.rate * 3 + options.drain
        while time.monotonic() < end and progress.latest.get("kept", 0) < 2 * len(sent):
            time.sleep(0.5)
        note(f"consumer holds {progress.latest.get('kept')} outputs")
        fleet.stop("consumer")
        summary = json.loads((folder / "summary.json").read_text())
        final_stats = progress.latest["stats"]
    finally:
        fleet.stop_all()
        network.destroy()

    # Output keys are (body_type, source_id, order_id) for confirmations and receipts.
    kept = {(key[0], key[-1]): workers for *key, workers in summary["outputs"]}
    kinds = ("caffe.v1.Confirmation", "caffe.v1.Receipt")
    delivered_orders = {order_id for order_id in sent if all((kind, order_id) in kept for kind in kinds)}
    lost = len(sent) - len(delivered_orders)
    strays = [key for key in kept if key[1] not in sent]
    by_worker2 = sum(1 for workers in kept.values() if "worker-2" in workers)
    alone = sum(1 for workers in kept.values() if workers == ["worker-2"])
    print()
    print(f"{'':10} {'sent':>8} {'delivered':>10} {'lost':>6} {'duplicated':>11}")
    print(f"{'orders':10} {len(sent):8} {len(delivered_orders):10} {lost:6} {'':>11}")
    print(f"{'outputs':10} {2 * len(sent):8} {len(kept):10} {2 * len(sent) - len(kept):6} {summary['copies']:11}")
    print()
    print("duplicated: extra copies the consumer received and dropped (both workers render every order")
    print("while both are up; a worker redelivers what a silent consumer left unacknowledged).")
    for worker in ("worker-1", "worker-2"):
        stats = final_stats.get(worker) or {}
        print(
            f"{worker}: delivered {summary['delivered'][worker]} outputs; "
            + (", ".join(f"{key} {value}" for key, value in stats.items()) if stats else "gone")
        )
    print(f"worker-2 delivered {by_worker2} of the {len(kept)} outputs kept (all: it recovered what the partition cost it)")
    print(f"worker-2 alone delivered {alone} outputs (after worker-1's host was killed)")
    print("timeline:\n  " + "\n  ".join(timeline.lines))
    print(f"logs: {folder}")
    failure = None
    if strays:
        failure = f"outputs for orders never sent: {strays[:5]}"
    elif lost:
        failure = f"{lost} orders lost, e.g. {sorted(set(sent) - delivered_orders)[:10]}"
    elif alone == 0:
        failure = "worker-1 was killed after the stream ended, so the test proved nothing about it"
    if failure is not None:
        print(f"multihost: FAILED: {failure}")
        print("multihost: 0 passed, 1 failed")
        return 1
    print(f"multihost: {len(sent)} orders through a partition and a host killed, 0 lost")
    print("multihost: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
