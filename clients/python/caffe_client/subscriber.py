"""Consuming a worker's outputs from its PUB (or PUSH) output, and telling repeats apart.

Delivery is at least once: after a worker restart, a replay, or with two workers rendering the
same stream, an output can arrive more than once. :class:`Deduplicator` keeps the keys of the
outputs seen recently (docs/WIRE.md, "De-duplication").
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Iterator, Sequence

import zmq

from . import topics
from .frames import Event, parse_event
from .messages import full_name, DeadLetter

#: Every output topic prefix.
OUTPUT_TOPICS = (
    topics.CONFIRMATION_PREFIX,
    topics.RECEIPT_PREFIX,
    topics.COMPLICATION_PREFIX,
    topics.DEAD_LETTER,
)


class Subscriber:
    """A SUB (or, with ``kind="pull"``, a PULL) on one or more worker outputs.

    ``endpoints`` connect unless written ``@…`` (bind). ``topics`` are prefixes (SUB only).
    Events that do not parse raise :class:`~caffe_client.frames.ProtocolError` from
    :meth:`receive`.
    """

    def __init__(
        self,
        endpoints: str | Sequence[str],
        *,
        topics: Sequence[str] = OUTPUT_TOPICS,
        kind: str = "sub",
        context: zmq.Context | None = None,
        high_water_mark: int = 100_000,
    ) -> None:
        if kind not in ("sub", "pull"):
            raise ValueError(f"kind is 'sub' or 'pull', not {kind!r}")
        self._context = context or zmq.Context.instance()
        self.socket = self._context.socket(zmq.SUB if kind == "sub" else zmq.PULL)
        self.socket.setsockopt(zmq.RCVHWM, high_water_mark)
        if kind == "sub":
            for prefix in topics:
                self.socket.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        for endpoint in [endpoints] if isinstance(endpoints, str) else endpoints:
            if endpoint.startswith("@"):
                self.socket.bind(endpoint[1:])
            else:
                self.socket.connect(endpoint.removeprefix(">"))

    def receive(self, timeout: float | None = None) -> Event | None:
        """The next output, or ``None`` after ``timeout`` seconds (``None``: wait for ever)."""
        if timeout is not None and not self.socket.poll(int(timeout * 1000)):
            return None
        return parse_event(self.socket.recv_multipart())

    def __iter__(self) -> Iterator[Event]:
        while True:
            event = self.receive()
            if event is not None:
                yield event

    def close(self) -> None:
        self.socket.close(linger=0)

    def __enter__(self) -> "Subscriber":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def output_key(event: Event) -> tuple[str, ...] | None:
    """What identifies an output across redeliveries: its body type and the input it came from.

    Confirmations and receipts are one per order of a source (``source_id``, ``order_id``: the
    same id from another source is another order, which the worker renders too); complication
    payloads and dead letters one per input event (``source_id``, ``source_epoch``, ``sequence``:
    the run of the source, so a restarted source's new run is not taken for its last); an
    ``UNRECOVERABLE_GAP`` letter names its range's first sequence, the same every time the worker
    reports that range. A dead letter of an input with no readable source and sequence (an
    unreadable message, a refused heartbeat) has no key (``None``): each is its own.
    """
    header = event.header
    if header.order_id and event.body_type != full_name(DeadLetter):
        return (event.body_type, header.source_id, header.order_id)
    if not header.source_id or not header.sequence:
        return None
    return (event.body_type, header.source_id, str(header.source_epoch), str(header.sequence))


class Deduplicator:
    """Remembers the ``capacity`` most recent output keys; :meth:`first` says whether an output
    is new. Use one per consumer (keys from :func:`output_key`)."""

    def __init__(self, capacity: int = 1_000_000) -> None:
        self.capacity = capacity
        self.duplicates = 0
        self._seen: OrderedDict[tuple[str, ...], None] = OrderedDict()

    def first(self, event: Event) -> bool:
        key = output_key(event)
        if key is None:
            return True
        if key in self._seen:
            self._seen.move_to_end(key)
            self.duplicates += 1
            return False
        self._seen[key] = None
        if len(self._seen) > self.capacity:
            self._seen.popitem(last=False)
        return True
