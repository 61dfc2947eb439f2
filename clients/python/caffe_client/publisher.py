"""An order source: numbers its events, publishes them, keeps them for replay, sends heartbeats.

A source is identified by its ``source_id`` and numbers its events 1, 2, 3… without gaps (order
events and complication requests share the one sequence). A worker that sees a number skipped
asks the source's replay endpoint for it; a worker that hears nothing learns from the heartbeat
what the last number was. docs/WIRE.md, "Sources and sequences".

With SUB input the source binds and workers connect, so a plain PUB loses what it sends before a
worker's subscription arrives; this publisher is an XPUB that sees subscriptions and can wait for
them (:meth:`Publisher.wait_for_subscribers`). With PULL input (or a queue proxy) it is a PUSH.
"""

from __future__ import annotations

import time
from typing import Iterable

import zmq
from google.protobuf.message import Message

from . import topics
from .frames import encode_event, now_timestamp
from .messages import ComplicationRequest, EventHeader, Heartbeat, OrderEvent
from .replay import History, ReplayServer

#: The metadata key under which a source announces its replay endpoint.
REPLAY_ENDPOINT_KEY = "replay_endpoint"


class Publisher:
    """Publishes one source's events.

    ``endpoint`` is written as the worker's configuration writes endpoints: ``@tcp://…`` binds,
    ``>tcp://…`` connects; without a prefix the publisher binds. ``kind`` is ``"pub"`` (an XPUB,
    for workers whose input is SUB, directly or through a forwarder) or ``"push"`` (for PULL
    input or a queue proxy).

    ``source_epoch`` names this run of the source (``EventHeader.source_epoch``). By default a
    publisher numbering from 1 starts a new run, its epoch the current time in microseconds, so a
    restarted source that numbers from 1 again is not taken for duplicates of its last run. A
    source that persists its numbering passes ``first_sequence`` (the last sequence sent + 1)
    and the ``source_epoch`` it sent before (:attr:`source_epoch`; 0 for a stream that never had
    one, the default when ``first_sequence`` is given). ``replay`` is a :class:`ReplayServer` to
    record every event into and to announce; ``metadata`` goes into every header.

    ``heartbeat_interval``: :meth:`tick` sends a heartbeat when nothing was sent for that long.
    """

    def __init__(
        self,
        endpoint: str,
        *,
        source_id: str,
        kind: str = "pub",
        first_sequence: int = 1,
        source_epoch: int | None = None,
        replay: ReplayServer | None = None,
        metadata: dict[str, str] | None = None,
        context: zmq.Context | None = None,
        high_water_mark: int = 10_000,
        heartbeat_interval: float = 1.0,
        linger_ms: int = 5_000,
    ) -> None:
        if not source_id:
            raise ValueError("a source needs a source_id")
        if first_sequence < 1:
            raise ValueError("sequences start at 1")
        if kind not in ("pub", "push"):
            raise ValueError(f"kind is 'pub' or 'push', not {kind!r}")
        if source_epoch is None:
            source_epoch = time.time_ns() // 1000 if first_sequence == 1 else 0
        if not 0 <= source_epoch < 2**64:
            raise ValueError("source_epoch is an unsigned 64-bit number")
        self.source_id = source_id
        #: This run of the source (0: one numbering for ever).
        self.source_epoch = source_epoch
        self.kind = kind
        self.replay = replay
        self.history: History | None = replay.history if replay is not None else None
        self.metadata = dict(metadata or {})
        if replay is not None:
            self.metadata[REPLAY_ENDPOINT_KEY] = replay.endpoint
        self.heartbeat_interval = heartbeat_interval
        self.linger_ms = linger_ms
        #: The last sequence sent (0: none yet).
        self.last_sequence = first_sequence - 1
        self._last_send = 0.0
        self._subscriptions: dict[bytes, int] = {}
        self._context = context or zmq.Context.instance()
        self.socket = self._context.socket(zmq.XPUB if kind == "pub" else zmq.PUSH)
        self.socket.setsockopt(zmq.SNDHWM, high_water_mark)
        if kind == "pub":
            # Every subscription (not only the first per topic), so several workers are counted.
            self.socket.setsockopt(zmq.XPUB_VERBOSE, 1)
        address = endpoint[1:] if endpoint[:1] in "@>" else endpoint
        if endpoint.startswith(">"):
            self.socket.connect(address)
            self.endpoint = address
        else:
            self.socket.bind(address)
            self.endpoint = self.socket.getsockopt_string(zmq.LAST_ENDPOINT)

    # MARK: Subscriptions

    def subscribers(self, topic: str = topics.ORDER_PREFIX) -> int:
        """Subscriptions seen so far that cover ``topic`` (each connected subscriber counts once
        per matching prefix; behind a forwarder, the forwarder counts once)."""
        self._read_subscriptions(0)
        wanted = topic.encode()
        return sum(count for prefix, count in self._subscriptions.items() if wanted.startswith(prefix))

    def wait_for_subscribers(self, count: int = 1, topic: str = topics.ORDER_PREFIX, timeout: float = 10.0) -> int:
        """Waits until ``count`` subscriptions cover ``topic``; returns how many do.

        Raises ``TimeoutError`` when fewer arrived within ``timeout`` seconds. A PUSH publisher
        has no subscriptions: it returns at once.
        """
        if self.kind != "pub":
            return count
        deadline = time.monotonic() + timeout
        while (have := self.subscribers(topic)) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{have} of {count} subscribers to {topic!r} after {timeout} s")
            self._read_subscriptions(int(min(remaining, 0.1) * 1000) + 1)
        return have

    def _read_subscriptions(self, timeout_ms: int) -> None:
        if self.kind != "pub":
            return
        while self.socket.poll(timeout_ms, zmq.POLLIN):
            message = self.socket.recv()
            timeout_ms = 0
            if not message:
                continue
            prefix = message[1:]
            if message[0] == 1:
                self._subscriptions[prefix] = self._subscriptions.get(prefix, 0) + 1
            elif message[0] == 0 and self._subscriptions.get(prefix, 0) > 0:
                self._subscriptions[prefix] -= 1

    # MARK: Sending

    def publish_order(self, order: OrderEvent, *, metadata: dict[str, str] | None = None) -> int:
        """Numbers ``order`` (its ``source_id`` and ``sequence`` are set here; values already set
        must be this source's and the next number) and publishes it on ``order.<store_id>``.
        Returns its sequence."""
        sequence = self._next_sequence()
        if order.source_id and order.source_id != self.source_id:
            raise ValueError(f"order {order.order_id} names source {order.source_id!r}, not {self.source_id!r}")
        if order.sequence and order.sequence != sequence:
            raise ValueError(f"order {order.order_id} has sequence {order.sequence}; the next is {sequence}")
        if not order.order_id:
            raise ValueError("an order needs an order_id (unique across every source)")
        order.source_id = self.source_id
        order.sequence = sequence
        self._send(topics.order(order.store_id), order, sequence, order.order_id, metadata)
        return sequence

    def publish_complication_request(
        self, request: ComplicationRequest, *, metadata: dict[str, str] | None = None
    ) -> int:
        """Publishes ``request`` on ``complication-request.<user_id>`` under the source's next
        sequence (the body has no sequence of its own). Returns the sequence."""
        sequence = self._next_sequence()
        self._send(topics.complication_request(request.user_id), request, sequence, "", metadata)
        return sequence

    def heartbeat(self) -> None:
        """Tells workers the last sequence sent, so the loss of a stream's last events is
        noticed without waiting for the next event (``caffe.v1.Heartbeat``, sequence 0)."""
        header = self._header(0, "", None)
        frames = encode_event(topics.HEARTBEAT, header, Heartbeat(last_sequence=self.last_sequence))
        self._deliver(frames)

    def tick(self) -> bool:
        """Sends a heartbeat if nothing was sent for ``heartbeat_interval``; call it from the
        source's loop. Returns whether it sent one."""
        self._read_subscriptions(0)
        if time.monotonic() - self._last_send < self.heartbeat_interval:
            return False
        self.heartbeat()
        return True

    def _next_sequence(self) -> int:
        return self.last_sequence + 1

    def _header(self, sequence: int, order_id: str, metadata: dict[str, str] | None) -> EventHeader:
        header = EventHeader(
            source_id=self.source_id, sequence=sequence, order_id=order_id, source_epoch=self.source_epoch
        )
        header.metadata.update(self.metadata)
        header.metadata.update(metadata or {})
        now_timestamp(header.sent_at)
        return header

    def _send(self, topic: str, body: Message, sequence: int, order_id: str, metadata: dict | None) -> None:
        frames = encode_event(topic, self._header(sequence, order_id, metadata), body)
        # Kept before it is sent: a worker may ask for it as soon as it sees the next one.
        if self.history is not None:
            self.history.record(self.source_id, sequence, frames)
        self.last_sequence = sequence
        self._deliver(frames)

    def _deliver(self, frames: Iterable[bytes]) -> None:
        self.socket.send_multipart(list(frames))
        self._last_send = time.monotonic()
        self._read_subscriptions(0)

    def close(self) -> None:
        """Closes the socket, giving queued events ``linger_ms`` to leave."""
        self.socket.close(linger=self.linger_ms)

    def __enter__(self) -> "Publisher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
