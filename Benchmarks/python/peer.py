#!/usr/bin/env python3
"""The Python peer worker: the Caffe worker's job (order events in on PULL, localized
confirmations and receipts out on PUSH, bad input as dead letters) in Python, the benchmark's
baseline.

    .build/python-peers/bin/python Benchmarks/python/peer.py --backend pyicu --processes 2 \\
        --input tcp://127.0.0.1:5570 --output tcp://127.0.0.1:5571

Both endpoints are connected (the load generator binds them). SIGTERM or SIGINT stops every
process cleanly.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from caffe_peer.worker import Options, serve  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["pyicu", "babel"], default="pyicu", help="formatting backend")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--input", default="tcp://127.0.0.1:5570", help="PULL endpoint to connect to")
    parser.add_argument("--output", default="tcp://127.0.0.1:5571", help="PUSH endpoint to connect to")
    parser.add_argument(
        "--config",
        type=Path,
        default=HERE.parent.parent / "config",
        help="folder with Localizations/ and menu.json (default: the repository's config/)",
    )
    parser.add_argument("--high-water-mark", type=int, default=10_000, help="socket queue limit, both ways")
    options = parser.parse_args(argv)
    if options.processes < 1:
        parser.error("--processes must be at least 1")
    return serve(
        Options(
            input=options.input,
            output=options.output,
            config=options.config,
            backend=options.backend,
            processes=options.processes,
            high_water_mark=options.high_water_mark,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
