#!/usr/bin/env python3
"""From three shards to four while orders flow: the procedure, run on hosts in network namespaces.

    sudo .build/python-client/bin/python deploy/multihost/reshard.py --bin .build/debug   # make reshard-test

Hosts, each a namespace on one switch (10.232.0.0/24):

    source   10.232.0.1   one caffe-sim replay per point of sale: PUB > proxy:5560, Replay/Fetch on :56xx
    proxy    10.232.0.2   caffe proxy --kind partition --shards N: SUB @:5560 → XPUB @:5570
    shard-i  10.232.0.1i  caffe worker (deploy/worker.yaml) with input.shard i/N, acked output @:5561
    consumer 10.232.0.21  consumer.py: a DEALER to every shard's acknowledged output

The proxy sends each point of sale's events only to the shard that owns it, so every worker's
caffe_worker_events_not_owned_total stays 0. ``--reshard-at`` seconds in, with the sources still
sending, the README's procedure ("Changing the number of shards") runs: stop the
three workers (SIGTERM: each drains and writes its checkpoint), ``caffe checkpoint reshard --to 4``,
restart the proxy with ``--shards 4``, start four workers on the new checkpoints. What the sources
sent meanwhile reaches nobody; each source's new owner finds the gap from the checkpoint it was
given and asks the source for it. At the end: sent / delivered / lost / duplicated per shard.
Exit status 0 when nothing was lost and the partition held, 1 otherwise; where namespaces cannot
be made (not root, no ``ip netns``), it says so and exits 0 without running.
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

from caffe_client import shard_of
from hosts import Fleet, Network, Progress, Timeline, binaries, can_make_namespaces, clean_environment, journal, worker_command

REPO = Path(__file__).resolve().parents[2]
SUBNET = "10.232.0"
SHARDS = [f"shard-{index}" for index in range(4)]
HOSTS = {"source": 1, "proxy": 2, **{name: 10 + index for index, name in enumerate(SHARDS)}, "consumer": 21}


def sources_for_the_test(count: int) -> list[str]:
    """``count`` point-of-sale ids that give every shard a source, among three and among four, and
    move at least two to the fourth."""
    chosen: list[str] = []
    candidates = (f"pos-{index}" for index in range(10_000))
    while len(chosen) < count:
        chosen.append(next(candidates))
        if len(chosen) == count:
            before = {shard_of(source, 3) for source in chosen}
            after = {shard_of(source, 4) for source in chosen}
            moved = sum(1 for source in chosen if shard_of(source, 4) == 3)
            if before != {0, 1, 2} or after != {0, 1, 2, 3} or moved < 2:
                chosen.pop(0)
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(REPO / ".build/debug"), help="folder with caffe and caffe-sim")
    parser.add_argument("--sources", type=int, default=8, help="points of sale, one replay process each")
    parser.add_argument("--orders", type=int, default=450, help="orders per source")
    parser.add_argument("--rate", type=float, default=15.0, help="orders per second per source")
    parser.add_argument("--reshard-at", type=float, default=10.0, help="seconds into the run")
    parser.add_argument("--linger", type=float, default=30.0, help="seconds each source serves replays after its last order")
    options = parser.parse_args()

    reason = can_make_namespaces()
    if reason is not None:
        print(f"reshard: SKIPPED: network namespaces cannot be made here: {reason}")
        return 0
    found = binaries(options.bin, "reshard-test")
    if found is None:
        return 2
    caffe, sim = found

    folder = Path(tempfile.mkdtemp(prefix="caffe-reshard-"))
    network = Network(HOSTS, SUBNET)
    fleet = Fleet(network, folder)
    timeline = Timeline("reshard")
    note = timeline.note
    started = timeline.started
    environment = clean_environment()
    proxy = network.address("proxy")

    def start_proxy(shards: int, run: int) -> None:
        fleet.start(
            f"proxy-{run}", "proxy",
            [str(caffe), "proxy", "--kind", "partition", "--shards", str(shards),
             "--frontend", f"@tcp://{proxy}:5560", "--backend", f"@tcp://{proxy}:5570",
             "--metrics-address", f"{proxy}:9465"],
        )

    def start_worker(index: int, shards: int, checkpoint: Path, run: int) -> None:
        name = SHARDS[index]
        here = network.address(name)
        command = worker_command(caffe, here, proxy, checkpoint, f"input.shard={index}/{shards}")
        fleet.start(f"{name}-{run}", name, command, env=environment)

    def proxy_metrics() -> str:
        done = subprocess.run(
            ["ip", "netns", "exec", network.namespace("proxy"), sys.executable, "-c",
             "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())",
             f"http://{proxy}:9465/metrics"],
            capture_output=True, text=True,
        )
        return done.stdout

    sources = sources_for_the_test(options.sources)
    moving = [source for source in sources if shard_of(source, 4) != shard_of(source, 3)]
    sent: set[str] = set()
    journals: dict[str, Path] = {}
    try:
        for index, source in enumerate(sources):
            path = folder / f"{source}.journal"
            sent |= journal(sim, path, options.orders, options.rate, 100 + index, source)
            journals[source] = path

        network.create()
        print(f"reshard: hosts on {SUBNET}.0/24 in namespaces caffe-{network.tag}-*", flush=True)
        print(
            "reshard: sources and owners (3 → 4 shards): "
            + ", ".join(f"{source} {shard_of(source, 3)}→{shard_of(source, 4)}" for source in sources),
            flush=True,
        )
        start_proxy(3, 1)
        for index in range(3):
            (folder / SHARDS[index]).mkdir()
            start_worker(index, 3, folder / SHARDS[index] / "worker.checkpoint", 1)
        endpoints = {
            name: (f"tcp://{network.address(name)}:5561", f"tcp://{network.address(name)}:5562") for name in SHARDS
        }
        consumer_command = [
            sys.executable, str(REPO / "deploy/multihost/consumer.py"), "--summary", str(folder / "summary.json"),
        ]
        for name, (output, rpc) in endpoints.items():
            consumer_command += ["--worker", f"{name}={output},{rpc}"]
        consumer = fleet.start("consumer", "consumer", consumer_command, stdout=subprocess.PIPE, text=True)
        progress = Progress(consumer.stdout)

        def wait_for_workers(names: list[str]) -> None:
            deadline = time.monotonic() + 30
            while not all(progress.latest.get("stats", {}).get(name) for name in names):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the workers did not answer: {progress.latest} (logs in {folder})")
                time.sleep(0.2)
            time.sleep(1.0)  # their subscriptions reach the proxy

        wait_for_workers(SHARDS[:3])
        note(f"{len(sources)} sources start: {options.orders} orders each at {options.rate:g}/s")
        for index, source in enumerate(sources):
            fleet.start(
                f"source-{source}", "source",
                [str(sim), "replay", str(journals[source]), "--endpoint", f">tcp://{proxy}:5560",
                 "--replay-endpoint", f"tcp://{network.address('source')}:{5600 + index}", "--heartbeat", "1",
                 "--linger", str(options.linger), "--json"],
            )
        while time.monotonic() < started + options.reshard_at + 2:
            time.sleep(0.1)

        before = progress.latest
        note(f"resharding: the consumer holds {before.get('kept')} outputs; stopping the three workers (SIGTERM)")
        old_stats = {name: before["stats"].get(name) or {} for name in SHARDS[:3]}
        stopping = {SHARDS[index]: fleet.processes[f"{SHARDS[index]}-1"] for index in range(3)}
        for process in stopping.values():
            process.send_signal(signal.SIGTERM)  # all three drain at once
        exits = {name: process.wait(40) for name, process in stopping.items()}
        note(f"workers drained and stopped: exit statuses {exits}")
        old_metrics = proxy_metrics()
        fleet.stop("proxy-1")
        old = [str(folder / SHARDS[index] / "worker.checkpoint") for index in range(3)]
        shown = subprocess.run(
            [str(caffe), "checkpoint", "show", "--shards", "4", *old], capture_output=True, text=True
        )
        (folder / "checkpoint-show.txt").write_text(shown.stdout + shown.stderr)
        resharded = folder / "resharded"
        done = subprocess.run(
            [str(caffe), "checkpoint", "reshard", "--to", "4", "--output", str(resharded), *old],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"caffe checkpoint reshard failed: {done.stderr.strip()}")
        note(f"caffe checkpoint reshard --to 4: {done.stdout.strip().splitlines()[-1] if done.stdout.strip() else 'done'}")
        start_proxy(4, 2)
        for index in range(4):
            start_worker(index, 4, resharded / f"shard-{index}.checkpoint", 2)
        wait_for_workers(SHARDS)
        note("four workers serving behind the proxy, now --shards 4")

        end = time.monotonic() + options.orders / options.rate + options.linger + 30
        while time.monotonic() < end and progress.latest.get("kept", 0) < 2 * len(sent):
            time.sleep(0.5)
        note(f"consumer holds {progress.latest.get('kept')} outputs")
        new_metrics = proxy_metrics()
        final_stats = progress.latest["stats"]
        fleet.stop("consumer")
        summary = json.loads((folder / "summary.json").read_text())
    finally:
        fleet.stop_all()
        network.destroy()

    # Output keys are (body_type, source_id, order_id) for confirmations and receipts.
    kept = {(key[0], key[-1]): workers for *key, workers in summary["outputs"]}
    kinds = ("caffe.v1.Confirmation", "caffe.v1.Receipt")
    delivered_orders = {order_id for order_id in sent if all((kind, order_id) in kept for kind in kinds)}
    lost = len(sent) - len(delivered_orders)
    strays = [key for key in kept if key[1] not in sent]
    print()
    print(f"{'':10} {'sent':>8} {'delivered':>10} {'lost':>6} {'duplicated':>11}")
    print(f"{'orders':10} {len(sent):8} {len(delivered_orders):10} {lost:6} {'':>11}")
    print(f"{'outputs':10} {2 * len(sent):8} {len(kept):10} {2 * len(sent) - len(kept):6} {summary['copies']:11}")
    print()
    print("duplicated: extra copies the consumer received and dropped (a worker redelivers what was sent")
    print("but not acknowledged when it stopped; the checkpoint covers only acknowledged outputs).")
    not_owned = 0
    for run, stats_by_worker in (("before", old_stats), ("after", final_stats)):
        for name in SHARDS:
            stats = stats_by_worker.get(name)
            if not stats:
                continue
            not_owned += stats.get("events_not_owned", 0)
            print(f"{name} {run}: " + ", ".join(f"{key} {value}" for key, value in stats.items()))
    for name in SHARDS:
        owned = [source for source in sources if shard_of(source, 4) == SHARDS.index(name)]
        print(f"{name}: delivered {summary['delivered'][name]} outputs; owns {', '.join(owned)} among 4")
    routed = [line for line in (old_metrics + new_metrics).splitlines() if line.startswith("caffe_proxy_routed_total")]
    print("proxy, 3 shards then 4: " + "; ".join(routed))
    print(f"sources that moved to shard 3: {', '.join(moving)}")
    print("timeline:\n  " + "\n  ".join(timeline.lines))
    print(f"logs: {folder}")
    new_owner_delivered = summary["delivered"]["shard-3"]
    failure = None
    if strays:
        failure = f"outputs for orders never sent: {strays[:5]}"
    elif lost:
        failure = f"{lost} orders lost, e.g. {sorted(set(sent) - delivered_orders)[:10]}"
    elif not_owned:
        failure = f"workers received {not_owned} events of sources they do not own: the proxy did not partition"
    elif new_owner_delivered == 0:
        failure = "shard-3 delivered nothing: the new shard took no sources"
    elif any(status != 0 for status in exits.values()):
        failure = f"a worker did not drain cleanly: {exits}"
    if failure is not None:
        print(f"reshard: FAILED: {failure}")
        print("reshard: 0 passed, 1 failed")
        return 1
    print(f"reshard: {len(sent)} orders from {len(sources)} sources through 3 → 4 shards, 0 lost")
    print("reshard: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
