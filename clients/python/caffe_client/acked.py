"""The acknowledged output (``output.kind=acked``): at-least-once delivery across worker crashes.

The worker's output is a ROUTER; each consumer connects a DEALER to it and speaks
``caffe/v1/delivery.proto`` (docs/WIRE.md, "The acknowledged output"):

- consumer → worker: ``[ConsumerFeedback]``: at start (announcing itself and its window), after
  processing (``acknowledged_through``: every tag up to it is done), and at least every second;
- worker → consumer: ``[DeliveryTag][topic][EventHeader][body]``, at most ``window``
  unacknowledged at a time, tags 1, 2, 3… per consumer.

The worker checkpoints an input only when every output of it is acknowledged, so a worker crash
loses nothing the consumer has not acknowledged; what a consumer leaves unacknowledged (it went
silent for the worker's ``output.ack_timeout_ms``, or disconnected) is delivered again, possibly
to another consumer. Consumers therefore de-duplicate (:class:`~caffe_client.Deduplicator`).

How this consumer keeps its side safe:

- An acknowledgement is sent once, right after the application acknowledges; heartbeats in
  between carry incarnation 0, which acknowledges nothing. Repeating an old
  ``acknowledged_through`` would be dangerous: a worker that dropped this consumer for silence
  numbers its deliveries from 1 again, and the old number would acknowledge new deliveries that
  were never processed.
- Tags that go backwards, or a new incarnation, mean the worker forgot this consumer or
  restarted: the count starts again from the delivery in hand.
- One DEALER per worker: a DEALER connected to several peers would spread its feedback among
  them. ZeroMQ heartbeats (``ZMQ_HEARTBEAT_*``) notice a connection that died silently (a
  partitioned host) and reconnect; the worker sees a new consumer and redelivers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import zmq

from .frames import Event, ProtocolError, decode, parse_event
from .messages import ConsumerFeedback, DeliveryTag


@dataclass(slots=True)
class Delivery:
    """One output delivered by one worker, awaiting acknowledgement."""

    event: Event
    #: The worker's endpoint it came from.
    endpoint: str
    incarnation: int
    tag: int
    #: Which run of tags of that worker it belongs to (a run ends when the worker restarts or
    #: forgets this consumer); acknowledgements of an earlier run are not sent.
    run: int = 0


class _Link:
    """One worker: its DEALER and the state of its tags."""

    def __init__(self, endpoint: str, socket: zmq.Socket) -> None:
        self.endpoint = endpoint
        self.socket = socket
        self.incarnation = 0
        #: The highest tag received in the current run of tags.
        self.received = 0
        #: The highest tag acknowledged in the current run (0: none).
        self.acknowledged = 0
        #: An acknowledgement not sent yet (the socket's queue was full): (incarnation, tag).
        self.unsent: tuple[int, int] | None = None
        self.run = 0
        self.last_feedback = 0.0


class AckedConsumer:
    """Consumes the acknowledged output of one or more workers.

    ``endpoints``: each worker's acknowledged output (``>tcp://…`` or plain: connect; ``@…``:
    bind, for a worker whose output connects). ``window``: unacknowledged deliveries each worker
    may send ahead, at least 1 (the first feedback is the consumer's hello, and a hello names its
    window; a worker holds a new consumer to 8 until its first acknowledgement). ``heartbeat_interval``: how often
    the consumer reports while idle; keep it well under the workers' ``output.ack_timeout_ms``.

    Process deliveries in the order :meth:`receive` returns them and call :meth:`ack` with the
    last one processed (acknowledgements are cumulative per worker); ``auto_ack=True``
    acknowledges each delivery as it is returned (at most once for the application: a crash after
    ``receive`` loses it).
    """

    def __init__(
        self,
        endpoints: str | Sequence[str],
        *,
        window: int = 100,
        heartbeat_interval: float = 1.0,
        auto_ack: bool = False,
        context: zmq.Context | None = None,
        zmq_heartbeat_ms: int = 1_000,
        zmq_heartbeat_timeout_ms: int = 3_000,
    ) -> None:
        if window < 1:
            raise ValueError(f"window must be at least 1, not {window}: a worker ignores a hello without one")
        self.window = window
        self.heartbeat_interval = heartbeat_interval
        self.auto_ack = auto_ack
        #: Deliveries that went back to tag 1 (the worker forgot this consumer) or to a new
        #: incarnation (the worker restarted).
        self.restarts = 0
        self._context = context or zmq.Context.instance()
        self._links: list[_Link] = []
        self._poller = zmq.Poller()
        for endpoint in [endpoints] if isinstance(endpoints, str) else endpoints:
            socket = self._context.socket(zmq.DEALER)
            socket.setsockopt(zmq.LINGER, 0)
            socket.setsockopt(zmq.RCVHWM, max(1000, 2 * window))
            socket.setsockopt(zmq.HEARTBEAT_IVL, zmq_heartbeat_ms)
            socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, zmq_heartbeat_timeout_ms)
            if endpoint.startswith("@"):
                socket.bind(endpoint[1:])
            else:
                socket.connect(endpoint.removeprefix(">"))
            link = _Link(endpoint.lstrip("@>"), socket)
            self._links.append(link)
            self._poller.register(socket, zmq.POLLIN)
            self._feedback(link, 0, 0)

    def _feedback(self, link: _Link, incarnation: int, through: int) -> bool:
        message = ConsumerFeedback(incarnation=incarnation, acknowledged_through=through, window=self.window)
        try:
            link.socket.send(message.SerializeToString(), zmq.NOBLOCK)
        except zmq.Again:  # the queue to the worker is full: tried again on the next occasion
            return False
        link.last_feedback = time.monotonic()
        return True

    def _heartbeats(self) -> None:
        now = time.monotonic()
        for link in self._links:
            if link.unsent is not None:
                if self._feedback(link, *link.unsent):
                    link.unsent = None
            elif now - link.last_feedback >= self.heartbeat_interval:
                self._feedback(link, 0, 0)

    def receive(self, timeout: float | None = None) -> Delivery | None:
        """The next delivery from any worker, or ``None`` after ``timeout`` seconds. Sends
        heartbeats while it waits."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._heartbeats()
            wait = self.heartbeat_interval
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    return None
            ready = dict(self._poller.poll(max(1, int(wait * 1000))))
            for link in self._links:
                if link.socket not in ready:
                    continue
                delivery = self._take(link, link.socket.recv_multipart())
                if delivery is not None:
                    if self.auto_ack:
                        self.ack(delivery)
                    return delivery

    def _take(self, link: _Link, frames: list[bytes]) -> Delivery | None:
        if len(frames) != 4:
            raise ProtocolError("wrongFrameCount", f"a delivery is [tag][topic][header][body], got {len(frames)}")
        tag = decode(DeliveryTag, frames[0], "delivery tag")
        event = parse_event(frames[1:])
        if tag.incarnation != link.incarnation or tag.tag <= link.received:
            # A worker that restarted, or that dropped this consumer and numbers from 1 again.
            if link.incarnation or link.received:
                self.restarts += 1
            link.incarnation = tag.incarnation
            link.acknowledged = tag.tag - 1
            link.unsent = None
            link.run += 1
        link.received = tag.tag
        return Delivery(event, link.endpoint, tag.incarnation, tag.tag, link.run)

    def ack(self, delivery: Delivery) -> None:
        """Acknowledges ``delivery`` and every earlier one from the same worker."""
        for link in self._links:
            if link.endpoint != delivery.endpoint:
                continue
            if delivery.run != link.run or delivery.tag <= link.acknowledged:
                return  # an earlier run's delivery, or already acknowledged
            link.acknowledged = delivery.tag
            link.unsent = None if self._feedback(link, delivery.incarnation, delivery.tag) else (
                delivery.incarnation,
                delivery.tag,
            )

    def close(self) -> None:
        for link in self._links:
            link.socket.close(linger=0)

    def __enter__(self) -> "AckedConsumer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
