"""Small helpers shared by the tests."""

from __future__ import annotations

import time
from pathlib import Path

from google.protobuf.message import Message

from caffe_client import Event, Subscriber
from caffe_client.frames import encode_event, now_timestamp
from caffe_client.messages import EventHeader


def collect(subscriber: Subscriber, count: int, timeout: float = 10.0, quiet: float = 0.3) -> list[Event]:
    """Exactly the next ``count`` events: fails if fewer arrive within ``timeout`` or another one
    arrives within ``quiet`` seconds after them."""
    events: list[Event] = []
    deadline = time.monotonic() + timeout
    while len(events) < count:
        event = subscriber.receive(max(0.0, deadline - time.monotonic()))
        assert event is not None, f"{len(events)} of {count} events arrived: {[e.topic for e in events]}"
        events.append(event)
    extra = subscriber.receive(quiet)
    assert extra is None, f"an unexpected event after {count}: {extra.topic} {extra.header}"
    return events


def lose(publisher, topic: str, body: Message, *, order_id: str = "") -> int:
    """Numbers and records an event as ``publisher`` would, but never sends it: the loss of an
    event on the way. Returns its sequence."""
    sequence = publisher.last_sequence + 1
    if hasattr(body, "sequence"):
        body.source_id = publisher.source_id
        body.sequence = sequence
    header = EventHeader(
        source_id=publisher.source_id, sequence=sequence, order_id=order_id, source_epoch=publisher.source_epoch
    )
    header.metadata.update(publisher.metadata)
    now_timestamp(header.sent_at)
    publisher.history.record(publisher.source_id, sequence, encode_event(topic, header, body))
    publisher.last_sequence = sequence
    return sequence


def by_type(events: list[Event]) -> dict[str, list[Event]]:
    grouped: dict[str, list[Event]] = {}
    for event in events:
        grouped.setdefault(event.body_type, []).append(event)
    return grouped


def synchronise(publisher, subscriber: Subscriber, timeout: float = 10.0) -> None:
    """Returns once events published now reach the worker and its outputs reach ``subscriber``:
    sends unreadable two-frame events (no source, no sequence: nothing is tracked) until their
    dead letters come back, then drains them."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the worker's outputs never reached the subscriber"
        publisher.socket.send_multipart([b"order.sync", b"synchronise"])
        event = subscriber.receive(0.2)
        if event is not None:
            break
    while subscriber.receive(0.3) is not None:
        pass


def wire_shard_table() -> tuple[list[int], list[tuple[str, int, list[int]]]]:
    """docs/WIRE.md's published shard table ("Shards"): the fleet sizes, and per row the source id
    (``(empty)`` is the empty id), its FNV-1a and its shard for each size."""
    lines = (Path(__file__).resolve().parents[3] / "docs" / "WIRE.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| `source_id` | FNV-1a 64 |"))

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.split("|")[1:-1]]

    counts = [int(cell.replace("N = ", "")) for cell in cells(lines[start])[2:]]
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        row = cells(line)
        source = "" if row[0] == "(empty)" else row[0][1:-1]
        rows.append((source, int(row[1][1:-1], 16), [int(cell) for cell in row[2:]]))
    return counts, rows
