"""A source's replay endpoint: ``caffe.v1.Replay/Fetch`` served from what the source sent.

A worker that sees a gap in a source's sequence (or hears from a heartbeat that it missed the
stream's end) asks the source's replay endpoint for the range; what the source still has is sent
again, what it no longer has is named ``unavailable`` and becomes an ``UNRECOVERABLE_GAP`` dead
letter at the worker. Every source should serve one (docs/WIRE.md, "Replay").

:class:`History` keeps the events exactly as they were sent (the three frames), bounded per
source; :class:`ReplayServer` answers on a ROUTER from a thread of its own. A
:class:`~caffe_client.publisher.Publisher` given a server records into its history and announces
its endpoint in every event's ``replay_endpoint`` metadata.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import zmq

from .frames import ProtocolError, decode, encode_reply, parse_request
from .messages import ReplayedEvent, ReplayRequest, ReplayResponse
from .status import StatusCode

REPLAY_FETCH = "caffe.v1.Replay/Fetch"


class History:
    """The last ``capacity`` events of each source, as ``(topic, header, body)`` frames by
    sequence. Thread-safe: a publisher records while the replay server reads."""

    def __init__(self, capacity: int = 100_000) -> None:
        if capacity < 1:
            raise ValueError("a history holds at least one event")
        self.capacity = capacity
        self._sources: dict[str, OrderedDict[int, tuple[bytes, bytes, bytes]]] = {}
        self._lock = threading.Lock()

    def record(self, source_id: str, sequence: int, frames: list[bytes]) -> None:
        """Keeps the frames of ``source_id``'s event ``sequence``, forgetting the oldest beyond
        ``capacity``."""
        topic, header, body = frames
        with self._lock:
            events = self._sources.setdefault(source_id, OrderedDict())
            events[sequence] = (topic, header, body)
            events.move_to_end(sequence)
            while len(events) > self.capacity:
                events.popitem(last=False)

    def get(self, source_id: str, sequence: int) -> tuple[bytes, bytes, bytes] | None:
        with self._lock:
            return self._sources.get(source_id, {}).get(sequence)

    def __len__(self) -> int:
        with self._lock:
            return sum(len(events) for events in self._sources.values())


class ReplayServer:
    """Serves ``caffe.v1.Replay/Fetch`` from a :class:`History` on a thread of its own.

    Replies carry each event as it travelled (``ReplayResponse.frames``: topic, header and body
    bytes), so complication requests and metadata come back too; with ``include_events`` order
    bodies are also listed in ``events`` (the form workers older than ``frames`` read; a worker
    that reads both takes the second copy as a duplicate). A reply stops adding events at
    ``max_reply_bytes`` (the worker refuses replies over its ``input.max_message_bytes``, 1 MiB by
    default); the worker asks again for the rest.

    ``endpoint`` is bound; ``announce`` is what workers are told to connect to (default: the bound
    endpoint, which must then name a reachable address, not a wildcard).
    """

    def __init__(
        self,
        endpoint: str = "tcp://127.0.0.1:*",
        *,
        history: History | None = None,
        announce: str | None = None,
        context: zmq.Context | None = None,
        include_events: bool = False,
        max_reply_bytes: int = 512 * 1024,
    ) -> None:
        self.history = history if history is not None else History()
        self.include_events = include_events
        self.max_reply_bytes = max_reply_bytes
        self.requests_served = 0
        self._context = context or zmq.Context.instance()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._bound = ""
        self._thread = threading.Thread(target=self._serve, args=(endpoint,), name="caffe-replay", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        self.endpoint = announce or self._bound
        if announce is None and ("0.0.0.0" in self._bound or "://*" in self._bound or "[::]" in self._bound):
            self.close()
            raise ValueError(f"{self._bound} is a wildcard; pass announce= with an address workers can reach")

    def response(self, request: ReplayRequest) -> ReplayResponse:
        """What this server answers to ``request``: held events in order, the rest unavailable."""
        response = ReplayResponse()
        if request.from_sequence > request.to_sequence or request.from_sequence == 0:
            return response
        size = 0
        for sequence in range(request.from_sequence, request.to_sequence + 1):
            frames = self.history.get(request.source_id, sequence)
            if frames is None:
                response.unavailable.append(sequence)
                continue
            topic, header, body = frames
            if size and size + len(header) + len(body) > self.max_reply_bytes:
                break
            size += len(topic) + len(header) + len(body) + 16
            response.frames.append(ReplayedEvent(topic=topic.decode("utf-8", "replace"), header=header, body=body))
            if self.include_events and topic.startswith(b"order."):
                response.events.add().MergeFromString(body)
        return response

    def _serve(self, endpoint: str) -> None:
        try:
            router = self._context.socket(zmq.ROUTER)
            router.setsockopt(zmq.LINGER, 0)
            router.bind(endpoint)
            self._bound = router.getsockopt_string(zmq.LAST_ENDPOINT)
        except BaseException as error:  # reported to the constructor
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        poller = zmq.Poller()
        poller.register(router, zmq.POLLIN)
        try:
            while not self._stop.is_set():
                if not poller.poll(50):
                    continue
                frames = router.recv_multipart()
                reply = self._answer(frames)
                if reply is not None:
                    try:
                        # Counted before the reply leaves, so a caller holding the reply sees it counted.
                        self.requests_served += 1
                        router.send_multipart(reply, zmq.NOBLOCK)
                    except zmq.Again:  # the worker is not reading; it will ask again
                        self.requests_served -= 1
                        continue
        finally:
            router.close(linger=0)

    def _answer(self, frames: list[bytes]) -> list[bytes] | None:
        try:
            request = parse_request(frames)
        except ProtocolError as error:
            # Answered all the same, so the asker is not left waiting (the worker does this too).
            return [frames[0], *encode_reply("", StatusCode.INVALID_ARGUMENT, message=f"unreadable request: {error}")]
        if request.header.method != REPLAY_FETCH:
            return request.reply(StatusCode.UNIMPLEMENTED, message=f"this endpoint serves {REPLAY_FETCH}")
        try:
            body = decode(ReplayRequest, request.body, "request body")
        except ProtocolError as error:
            return request.reply(StatusCode.INVALID_ARGUMENT, message=str(error))
        return request.reply(StatusCode.OK, self.response(body))

    def close(self) -> None:
        """Stops serving and closes the socket."""
        self._stop.set()
        self._thread.join()

    def __enter__(self) -> "ReplayServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

