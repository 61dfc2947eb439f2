#!/usr/bin/env python3
"""Per-order cost of the Python peers in one process, without sockets: a timing loop over the
load generator's orders, after one warm-up pass (per-locale resources compiled).

    .build/python-peers/bin/python Benchmarks/python/bench_render.py --orders 2000 --passes 5

Reports, per backend, microseconds per order for ``render`` (check, price, render both messages)
and for ``event`` (what a worker does per message: parse the frames, decode the order, render,
encode the two outputs).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from google.protobuf import json_format  # noqa: E402

from caffe_peer.backends import make_backend  # noqa: E402
from caffe_client.proto.caffe.v1 import envelope_pb2, order_pb2  # noqa: E402
from caffe_peer.render import Core  # noqa: E402
from caffe_peer.worker import EventRenderer  # noqa: E402
from check_parity import REPO, generate_orders  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the orders (best is reported)")
    parser.add_argument("--backend", choices=["pyicu", "babel", "both"], default="both")
    parser.add_argument("--config", type=Path, default=REPO / "config")
    parser.add_argument("--caffe-sim", default="/tmp/caffe-bin/caffe-sim")
    options = parser.parse_args()

    orders = [
        json_format.ParseDict(body, order_pb2.OrderEvent())
        for body in generate_orders(options.caffe_sim, options.config, options.orders, options.seed)
    ]
    messages = []
    for order in orders:
        header = envelope_pb2.EventHeader(
            body_type="caffe.v1.OrderEvent", source_id=order.source_id, sequence=order.sequence, order_id=order.order_id
        )
        messages.append([f"order.{order.store_id}".encode(), header.SerializeToString(), order.SerializeToString()])

    for name in ["pyicu", "babel"] if options.backend == "both" else [options.backend]:
        core = Core(options.config, make_backend(name))
        renderer = EventRenderer(core)
        for message in messages:  # warm-up: every locale's resources, the caches
            renderer.outputs(message)
        render_best = event_best = float("inf")
        render = core.render
        outputs = renderer.outputs
        for _ in range(options.passes):
            started = time.perf_counter()
            for order in orders:
                render(order)
            render_best = min(render_best, (time.perf_counter() - started) / len(orders))
            started = time.perf_counter()
            for message in messages:
                outputs(message)
            event_best = min(event_best, (time.perf_counter() - started) / len(messages))
        print(
            f"{name:6} render {render_best * 1e6:7.1f} µs/order   event {event_best * 1e6:7.1f} µs/order "
            f"({len(orders)} orders, best of {options.passes} passes)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
