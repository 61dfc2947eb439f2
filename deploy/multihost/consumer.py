#!/usr/bin/env python3
"""The consumer host of the multi-host test: reads the acknowledged output of every worker,
keeps the first copy of each output, and reports.

    consumer.py --worker w1=tcp://10.231.0.11:5561,tcp://10.231.0.11:5562 --worker w2=… --summary out.json

Prints one JSON line a second (outputs kept, copies dropped, per worker: deliveries and the
worker's own counts from caffe.v1.Admin/Stats) and, on SIGTERM, writes the summary: every
(order id, output kind) kept, and which workers delivered it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time

from caffe_client import AckedConsumer, RpcClient, RpcError, output_key

STATS = (
    "events_rendered", "gaps", "replay_requests", "replayed_events", "unrecoverable_gaps", "outputs_redelivered",
    "duplicates", "events_not_owned",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="append", required=True, help="name=output endpoint,rpc endpoint")
    parser.add_argument("--summary", required=True, help="where to write the summary on SIGTERM")
    parser.add_argument("--window", type=int, default=200)
    options = parser.parse_args()

    names: dict[str, str] = {}
    rpcs: dict[str, RpcClient] = {}
    for item in options.worker:
        name, endpoints = item.split("=", 1)
        output, rpc = endpoints.split(",")
        names[output] = name
        rpcs[name] = RpcClient(rpc, attempts=1)

    stop = False

    def request_stop(signum, frame) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, request_stop)
    consumer = AckedConsumer(list(names), window=options.window, heartbeat_interval=0.5)
    kept: dict[tuple[str, ...], list[str]] = {}
    delivered = {name: 0 for name in rpcs}
    covered = {name: 0 for name in rpcs}  # outputs each worker delivered at least once
    copies = 0
    started = time.monotonic()
    next_report = started + 1
    while not stop:
        delivery = consumer.receive(0.2)
        if delivery is not None:
            worker = names[delivery.endpoint]
            delivered[worker] += 1
            # (body_type, source_id, order_id) for confirmations and receipts; an unreadable input's
            # dead letter has no key and is its own output.
            key = output_key(delivery.event) or ("unkeyed", str(delivery.tag), str(delivery.run))
            if key in kept:
                copies += 1
                if worker not in kept[key]:
                    kept[key].append(worker)
                    covered[worker] += 1
            else:
                kept[key] = [worker]
                covered[worker] += 1
            consumer.ack(delivery)
        if time.monotonic() >= next_report:
            next_report += 1
            stats = {}
            for name, client in rpcs.items():
                try:
                    counters = client.stats(timeout=0.2).counters
                    stats[name] = {key: counters[key] for key in STATS}
                except RpcError:
                    stats[name] = None
            line = {
                "t": round(time.monotonic() - started, 1),
                "kept": len(kept),
                "copies": copies,
                "delivered": delivered,
                "covered": covered,
                "stats": stats,
                "restarts": consumer.restarts,
            }
            print(json.dumps(line), flush=True)
    consumer.close()
    summary = {
        "outputs": [[*key, workers] for key, workers in kept.items()],
        "copies": copies,
        "delivered": delivered,
        "restarts": consumer.restarts,
    }
    with open(options.summary, "w") as file:
        json.dump(summary, file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
