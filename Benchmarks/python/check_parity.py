#!/usr/bin/env python3
"""Checks that the Python peers render what the Swift worker renders.

Generates orders with ``caffe-sim generate`` (every locale of the load generator), renders each
with the Swift ``caffe render --format json`` (one process per order, run in parallel and cached
under ``.build/python-peers/parity-cache``) and with each Python backend in-process, and compares
the confirmation and the receipt field by field: plain text, runs, HTML, amounts, notes.

    .build/python-peers/bin/python Benchmarks/python/check_parity.py            # 2000 orders, both backends
    .build/python-peers/bin/python Benchmarks/python/check_parity.py --orders 200 --backend pyicu

Prints per backend and locale how many orders match exactly, which fields differ how often, and
the first few differences. Exits 1 when the PyICU backend does not match every order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

from google.protobuf import json_format  # noqa: E402

from caffe_peer.backends import make_backend  # noqa: E402
from caffe_peer.menu import RenderError  # noqa: E402
from caffe_client.proto.caffe.v1 import order_pb2  # noqa: E402
from caffe_peer.render import Core  # noqa: E402


# The markets the peers render exactly as the Swift core does. fr-FR and de-DE are left out: the
# Swift core agrees French and German phrases (issue 23) and the peers have no grammar for them.
# caffe-sim bench pipeline loads the same markets (PipelineBenchmark.parityMarkets).
PARITY_LOCALES = "en-US:1,es-ES:1,es-MX:1,ja-JP:1,ar-EG:1"


def generate_orders(sim: str, config: Path, count: int, seed: int, locales: str = PARITY_LOCALES) -> list[dict]:
    """``count`` orders from the load generator's order stream, as protobuf JSON."""
    with tempfile.TemporaryDirectory() as scratch:
        journal = Path(scratch) / "orders.journal"
        subprocess.run(
            [
                sim, "generate", "-o", str(journal), "--orders", str(count), "--seed", str(seed),
                "--config", str(config), "--locales", locales,
            ],
            check=True,
            capture_output=True,
        )
        exported = subprocess.run(
            [sim, "journal", "export", "--jsonl", str(journal)], check=True, capture_output=True, text=True
        ).stdout
    return [json.loads(line)["body"] for line in exported.splitlines() if line.strip()]


class SwiftRenderer:
    """``caffe render --format json`` per order, results cached by binary, config and order."""

    def __init__(self, caffe: str, config: Path, cache: Path) -> None:
        self.caffe = caffe
        self.config = config
        stamp = hashlib.sha256()
        for path in [Path(caffe), config / "menu.json", *sorted((config / "Localizations").rglob("*"))]:
            if path.is_file():
                info = path.stat()
                stamp.update(f"{path}:{info.st_size}:{info.st_mtime_ns}".encode())
        self.cache = cache / stamp.hexdigest()[:16]
        self.cache.mkdir(parents=True, exist_ok=True)

    def render(self, order: dict) -> dict:
        text = json.dumps(order, ensure_ascii=False, sort_keys=True)
        path = self.cache / (hashlib.sha256(text.encode()).hexdigest()[:24] + ".json")
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
        done = subprocess.run(
            [self.caffe, "render", "--order", "-", "--format", "json", "--config", str(self.config)],
            input=text.encode(),
            capture_output=True,
            cwd=REPO,
        )
        result = (
            json.loads(done.stdout)
            if done.returncode == 0
            else {"error": done.stderr.decode().strip().removeprefix("caffe render: ")}
        )
        path.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return result

    def render_all(self, orders: list[dict], jobs: int) -> list[dict]:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(self.render, orders))


#: Variations of generated orders for ``--edge-cases``: other locales (fallbacks, right-to-left
#: with an English catalog), the neutral term of address, and inputs the Swift core refuses.
EDGE_CASES: list[tuple[str, object]] = [
    *[
        ("customer.locale", tag)
        for tag in (
            "en-GB",
            "en-IN",
            "es-AR",
            "es-US",
            "es",
            "fr-CA",
            "de-AT",
            "de-CH",
            "ja",
            "ar",
            "ar-SA",
            "sv-SE",
            "pt-BR",
            "he-IL",
            "zh-Hant-TW",
            "",
            "english!",
        )
    ],
    ("customer.termOfAddress", "TERM_OF_ADDRESS_NEUTRAL"),
    ("customer.name", ""),
    ("customer.timeZone", ""),
    ("customer.timeZone", "Mars/Olympus_Mons"),
    ("currencyCode", "BHD"),
    ("currencyCode", "XYZ"),
    ("currencyCode", ""),
    ("storeId", "store-xx-nowhere"),
    ("tip", "abc"),
    ("tip", "-1"),
    ("tip", "1.2345"),
    ("tip", "2000000"),
    ("lines[0].itemId", "caviar"),
    ("lines[0].size", "huge"),
    ("lines[0].quantity", 1000),
    ("lines[0].quantity", 0),
    ("lines[0].quantity", 99),
    ("lines[0].quantity", 999),
    ("lines", []),
    ("orderId", ""),
]


def edge_case(order: dict, index: int) -> dict:
    """``order`` with the ``index``-th variation of :data:`EDGE_CASES` (cycling)."""
    path, value = EDGE_CASES[index % len(EDGE_CASES)]
    changed = json.loads(json.dumps(order))
    target = changed
    parts = re.findall(r"\w+|\[\d+\]", path)
    for part in parts[:-1]:
        target = target[int(part[1:-1])] if part.startswith("[") else target.setdefault(part, {})
    last = parts[-1]
    if last.startswith("["):
        target[int(last[1:-1])] = value
    elif value == "" or value == []:
        target.pop(last, None)
    else:
        target[last] = value
    return changed


def render_python(core: Core, order: dict) -> dict:
    event = json_format.ParseDict(order, order_pb2.OrderEvent())
    try:
        confirmation, receipt = core.render(event)
    except RenderError as error:
        return {"error": str(error)}
    return {
        "confirmation": json_format.MessageToDict(confirmation),
        "receipt": json_format.MessageToDict(receipt),
    }


def differences(swift: object, python: object, path: str = "") -> list[tuple[str, object, object]]:
    """Leaves that differ, with their paths (``receipt.lines[2].formattedPrice.plain``)."""
    if isinstance(swift, dict) and isinstance(python, dict):
        found = []
        for key in sorted(set(swift) | set(python)):
            found += differences(swift.get(key), python.get(key), f"{path}.{key}" if path else key)
        return found
    if isinstance(swift, list) and isinstance(python, list) and len(swift) == len(python):
        found = []
        for index, (left, right) in enumerate(zip(swift, python)):
            found += differences(left, right, f"{path}[{index}]")
        return found
    return [] if swift == python else [(path, swift, python)]


def field_class(path: str) -> str:
    """A difference's field without indexes: ``receipt.lines[].formattedPrice.plain``."""
    return re.sub(r"\[\d+\]", "[]", path)


def show(value: object, other: object, width: int = 100) -> str:
    """A value around its first difference from ``other``, with invisible characters escaped."""
    if isinstance(value, str) and isinstance(other, str):
        start = next((i for i, (a, b) in enumerate(zip(value, other)) if a != b), min(len(value), len(other)))
        start = max(0, start - 30)
        snippet = value[start : start + width]
        return ("…" if start else "") + snippet.encode("unicode_escape").decode("ascii")
    text = json.dumps(value, ensure_ascii=True)
    return text[:width] + ("…" if len(text) > width else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", type=int, default=2000, help="orders to generate (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=["pyicu", "babel", "both"], default="both")
    parser.add_argument("--config", type=Path, default=REPO / "config")
    parser.add_argument("--caffe", default="/tmp/caffe-bin/caffe", help="the Swift caffe binary")
    parser.add_argument("--caffe-sim", default="/tmp/caffe-bin/caffe-sim", help="the Swift caffe-sim binary")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel caffe render processes")
    parser.add_argument(
        "--edge-cases", action="store_true", help="vary the orders: other locales, bad inputs (see EDGE_CASES)"
    )
    parser.add_argument("--show", type=int, default=5, help="differences shown per backend")
    parser.add_argument(
        "--icu72",
        action="store_true",
        help="PyICU: ICU 72 as it is (its data, behaviour and time-zone rules)",
    )
    options = parser.parse_args()

    orders = generate_orders(options.caffe_sim, options.config, options.orders, options.seed)
    if options.edge_cases:
        orders = [edge_case(order, index) for index, order in enumerate(orders)]
    swift = SwiftRenderer(options.caffe, options.config, REPO / ".build/python-peers/parity-cache").render_all(
        orders, options.jobs
    )
    backends = ["pyicu", "babel"] if options.backend == "both" else [options.backend]
    print(f"{len(orders)} orders (caffe-sim generate --orders {options.orders} --seed {options.seed})")
    pyicu_exact = True
    for name in backends:
        backend = (
            make_backend(name, match_swift_icu=not options.icu72, os_time_zones=not options.icu72)
            if name == "pyicu"
            else make_backend(name)
        )
        core = Core(options.config, backend)
        per_locale: dict[str, Counter] = defaultdict(Counter)
        fields: dict[str, Counter] = defaultdict(Counter)
        shown: list[str] = []
        for order, expected in zip(orders, swift):
            locale = order.get("customer", {}).get("locale", "") or "(none)"
            got = render_python(core, order)
            found = differences(expected, got)
            per_locale[locale]["orders"] += 1
            if not found:
                per_locale[locale]["match"] += 1
                continue
            for path, left, right in found:
                fields[locale][field_class(path)] += 1
                if len(shown) < options.show:
                    shown.append(
                        f"  {order.get('orderId')} ({locale}) {path}\n"
                        f"    swift:  {show(left, right)}\n    python: {show(right, left)}"
                    )
        label = name + (" (ICU 72 as it is)" if name == "pyicu" and options.icu72 else "")
        print(f"\n{label}: exact matches per locale (confirmation and receipt, every field)")
        total = Counter()
        for locale in sorted(per_locale):
            counts = per_locale[locale]
            total.update(counts)
            print(f"  {locale:10} {counts['match']:5} / {counts['orders']}")
            for field, count in fields[locale].most_common():
                print(f"               {count:5} × {field}")
        print(f"  {'all':10} {total['match']:5} / {total['orders']}")
        if shown:
            print("  first differences:")
            print("\n".join(shown))
        if name == "pyicu" and total["match"] != total["orders"]:
            pyicu_exact = False
    return 0 if pyicu_exact else 1


if __name__ == "__main__":
    sys.exit(main())
