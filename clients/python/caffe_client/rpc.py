"""gRPC-style calls over ZeroMQ: a DEALER to a worker's (or an RPC proxy's) ROUTER.

Frames (docs/WIRE.md, "Requests and replies"): the client sends ``[empty][RequestHeader][body]``
and gets ``[empty][ResponseHeader][body]``, matched by ``request_id`` (a worker answers out of
order). The status is ``ResponseHeader.status``, a gRPC code number; the body frame is empty
unless the status is OK.

Reliability is the ZeroMQ Guide's *Lazy Pirate* (chapter 4), on a DEALER: send, wait for the reply
up to the attempt's timeout, and if none came, close the socket (dropping whatever it still
holds), open a new one and send again, a bounded number of times; then give up. Replies to
earlier attempts can never be mistaken for the current one: their socket is gone, and ids are
checked. A worker that answers ``UNAVAILABLE`` (draining) or ``RESOURCE_EXHAUSTED`` (its queue is
full) is tried again after a backoff too; every other status is final.

Time: each call has a budget (``timeout``). Every attempt sends what is left of it as the
header's relative ``timeout``, counted by the worker from the request's arrival, so the hosts'
clocks never need to agree; an absolute ``deadline`` (wall-clock seconds) is sent as well when
the caller has one, and the worker applies the earlier of the two.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from typing import TypeVar

import zmq
from google.protobuf.message import Message

from .frames import ProtocolError, decode, encode_request, parse_reply
from .messages import (
    ComplicationPayload,
    ComplicationRequest,
    HealthCheckRequest,
    HealthCheckResponse,
    OrderEvent,
    RenderOrderResponse,
    RequestHeader,
    StatsRequest,
    StatsResponse,
)
from .status import RETRYABLE, RpcError, StatusCode

RENDER_ORDER = "caffe.v1.Renderer/RenderOrder"
RENDER_COMPLICATION = "caffe.v1.Renderer/RenderComplication"
HEALTH_CHECK = "grpc.health.v1.Health/Check"
STATS = "caffe.v1.Admin/Stats"

Response = TypeVar("Response", bound=Message)

_ids = itertools.count(1)


def new_request_id() -> str:
    """A request id unique to this process and call: ``<pid>-<n>``."""
    return f"{os.getpid()}-{next(_ids)}"


class RpcClient:
    """Calls one endpoint with Lazy Pirate retries.

    ``attempts``: sends per call at most. ``attempt_timeout``: how long one attempt waits for its
    reply (default: the call's budget divided among the attempts). ``backoff``: the pause before
    re-sending after a retryable status, doubled each time.
    """

    def __init__(
        self,
        endpoint: str,
        *,
        attempts: int = 3,
        attempt_timeout: float | None = None,
        backoff: float = 0.05,
        context: zmq.Context | None = None,
    ) -> None:
        if attempts < 1:
            raise ValueError("at least one attempt")
        self.endpoint = endpoint.removeprefix(">")
        self.attempts = attempts
        self.attempt_timeout = attempt_timeout
        self.backoff = backoff
        #: Sockets opened so far (1 + the attempts that timed out): what Lazy Pirate costs.
        self.connections = 0
        self._context = context or zmq.Context.instance()
        self._socket: zmq.Socket | None = None

    def _connect(self) -> zmq.Socket:
        if self._socket is None:
            socket = self._context.socket(zmq.DEALER)
            socket.setsockopt(zmq.LINGER, 0)
            socket.connect(self.endpoint)
            self._socket = socket
            self.connections += 1
        return self._socket

    def _discard(self) -> None:
        if self._socket is not None:
            self._socket.close(linger=0)
            self._socket = None

    def call(
        self,
        method: str,
        request: Message | bytes | None,
        response_type: type[Response] | None,
        *,
        timeout: float = 5.0,
        deadline: float | None = None,
        metadata: dict[str, str] | None = None,
        request_id: str | None = None,
    ) -> Response | bytes:
        """Calls ``method`` with ``request`` and returns the reply body decoded as
        ``response_type`` (the raw bytes when it is ``None``).

        ``timeout``: seconds for the whole call, retries included; ``deadline``: an absolute
        wall-clock time (``time.time()`` seconds) also sent to the worker. Raises
        :class:`RpcError`: the worker's status when it is not OK (after retries, for retryable
        ones), ``DEADLINE_EXCEEDED`` when the time ran out, ``UNAVAILABLE`` when every attempt went
        unanswered (both with ``from_server=False``).
        """
        started = time.monotonic()
        budget = timeout if deadline is None else min(timeout, deadline - time.time())
        request_id = request_id or new_request_id()
        pause = self.backoff
        last: RpcError | None = None
        out_of_time = False
        for attempt in range(self.attempts):
            remaining = budget - (time.monotonic() - started)
            if remaining <= 0:
                break
            header = RequestHeader(method=method, request_id=request_id)
            header.metadata.update(metadata or {})
            header.timeout.FromNanoseconds(int(remaining * 1e9))
            if deadline is not None:
                header.deadline.FromNanoseconds(int(deadline * 1e9))
            per_attempt = self.attempt_timeout or remaining / (self.attempts - attempt)
            socket = self._connect()
            socket.send_multipart(encode_request(header, request))
            reply = self._await(socket, request_id, min(per_attempt, remaining))
            out_of_time = per_attempt >= remaining
            if reply is None:
                # Lazy Pirate: the socket may hold a lost request or a late reply; start afresh.
                self._discard()
                last = RpcError(
                    StatusCode.UNAVAILABLE,
                    f"no reply from {self.endpoint} within {per_attempt:.3f} s ({attempt + 1} attempts)",
                    request_id=request_id,
                    from_server=False,
                )
                continue
            code = StatusCode.of(reply.status)
            if code == StatusCode.OK:
                if response_type is None:
                    return reply.body
                return decode(response_type, reply.body, "response body")
            last = RpcError(code, reply.header.message, request_id=request_id, metadata=reply.metadata)
            if code not in RETRYABLE:
                raise last
            time.sleep(max(0.0, min(pause, budget - (time.monotonic() - started))))
            pause *= 2
        if last is not None and (last.from_server or not out_of_time):
            raise last
        raise RpcError(
            StatusCode.DEADLINE_EXCEEDED,
            f"no answer within {budget:.3f} s",
            request_id=request_id,
            from_server=False,
        )

    def _await(self, socket: zmq.Socket, request_id: str, wait: float):
        until = time.monotonic() + wait
        while (left := until - time.monotonic()) > 0:
            if not socket.poll(math.ceil(left * 1000)):
                return None
            try:
                reply = parse_reply(socket.recv_multipart())
            except ProtocolError:
                continue  # not a reply at all: keep waiting for ours
            if reply.request_id == request_id:
                return reply
        return None

    # MARK: The worker's methods

    def render_order(self, order: OrderEvent, **options) -> RenderOrderResponse:
        return self.call(RENDER_ORDER, order, RenderOrderResponse, **options)

    def render_complication(self, request: ComplicationRequest, **options) -> ComplicationPayload:
        return self.call(RENDER_COMPLICATION, request, ComplicationPayload, **options)

    def health(self, service: str = "", **options) -> int:
        """The ``grpc.health.v1`` serving status: ``HealthCheckResponse.SERVING`` (1) or
        ``NOT_SERVING`` (2). An unknown service raises ``NOT_FOUND``."""
        return self.call(HEALTH_CHECK, HealthCheckRequest(service=service), HealthCheckResponse, **options).status

    def stats(self, **options) -> StatsResponse:
        return self.call(STATS, StatsRequest(), StatsResponse, **options)

    def close(self) -> None:
        self._discard()

    def __enter__(self) -> "RpcClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
