"""Requests and replies: a real worker's methods, statuses and deadlines, and the client's Lazy
Pirate retries against servers that misbehave on purpose (docs/WIRE.md, "Requests and replies")."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import zmq

from caffe_client import RpcClient, RpcError, StatusCode
from caffe_client.frames import encode_request, parse_reply, parse_request
from caffe_client.messages import (
    HealthCheckRequest,
    HealthCheckResponse,
    OrderEvent,
    RequestHeader,
)
from caffe_client.rpc import HEALTH_CHECK, STATS

from conftest import start_worker
from orders import complication, golden_order, golden_sections, rendered_sections

STATS_COUNTERS = {
    "events_received", "events_rendered", "outputs_published", "outputs_acknowledged", "outputs_redelivered",
    "consumers_lost", "duplicates", "late_events", "heartbeats", "oversized_messages", "gaps", "missing_sequences",
    "replay_requests", "replayed_events", "replay_connections", "unrecoverable_gaps", "unrecoverable_sequences",
    "checkpoints", "checkpoint_failures", "checkpoint_torn_lines", "checkpoint_compactions", "replay_endpoints_refused",
    "sources_expired", "sources_retired",
    "sources_revived", "source_restarts", "events_not_owned", "undecodable_feedback", "consumers_evicted",
    "consumers_disconnected",
    "deliveries_timed_out", "parked_events", "unparked_events", "redriven_events", "spans_exported", "spans_dropped",
    "span_exports_failed", "locale_compilations",
    "locale_evictions", "locale_promotions", "locale_approximations", "handshake_failures", "input_disconnects",
    "rpc_replies_dropped", "dead_letters", "rpc_requests", "outputs", "agreement_words_left", "reloads",
}
STATS_GAUGES = {
    "queue_depth_render", "queue_depth_rpc", "gaps_pending", "consumers", "unacknowledged", "render_threads", "serving",
    "healthy", "sources_active", "sources_dormant", "parked", "locale_cache_bytes", "lag_events", "ready",
}


@pytest.fixture
def client(worker, context):
    with RpcClient(worker.rpc, context=context) as client:
        yield client


@pytest.mark.parametrize("service", ["", "caffe.v1.Renderer", "caffe.v1.Admin", "grpc.health.v1.Health"])
def test_health_knows_the_server_and_its_services(client, service):
    assert client.health(service) == HealthCheckResponse.SERVING


def test_health_of_an_unknown_service_is_not_found(client):
    with pytest.raises(RpcError) as failure:
        client.health("caffe.v1.Replay")
    assert (failure.value.code, failure.value.message) == (StatusCode.NOT_FOUND, "unknown service 'caffe.v1.Replay'")
    assert failure.value.from_server


def test_stats_names_every_counter_and_gauge(client):
    stats = client.stats()
    assert set(stats.counters) == STATS_COUNTERS
    assert set(stats.gauges) == STATS_GAUGES
    assert stats.gauges["serving"] == 1.0 and stats.gauges["render_threads"] == 1.0


def test_render_order_is_the_golden_output(client):
    response = client.render_order(golden_order("A-1042", "ar-EG"))
    expected = {t: s.rstrip("\n") for t, s in golden_sections("quantities.ar-EG.txt").items() if not t.endswith(" runs")}
    actual = rendered_sections(response.confirmation, response.receipt)
    assert {t: s.rstrip("\n") for t, s in actual.items()} == expected


def test_render_complication(client):
    payload = client.render_complication(complication("r-1"))
    assert (payload.request_id, payload.user_id, payload.locale) == ("r-1", "u-1", "ja-JP")
    assert len(payload.entries) == 7  # no families asked: every family


def test_bad_input_and_unknown_items(client):
    with pytest.raises(RpcError) as failure:
        client.render_order(OrderEvent())
    assert (failure.value.code, failure.value.message) == (
        StatusCode.INVALID_ARGUMENT,
        "missing-field at orderId: the order has no id",
    )
    order = golden_order("A-1", "en-US")
    order.lines[0].item_id = "caviar"
    with pytest.raises(RpcError) as failure:
        client.render_order(order)
    assert (failure.value.code, failure.value.message) == (
        StatusCode.NOT_FOUND,
        "unknown-item at lines[0].itemId: 'caviar' is not on the menu",
    )


def raw_call(worker, context, frames: list[bytes]):
    dealer = context.socket(zmq.DEALER)
    dealer.connect(worker.rpc)
    dealer.send_multipart(frames)
    assert dealer.poll(5000), "no reply"
    reply = dealer.recv_multipart()
    dealer.close(linger=0)
    return reply


def test_statuses_are_decided_method_first_then_deadline(worker, context):
    past = RequestHeader(method="caffe.v1.Nope/Call", request_id="r-1")
    past.deadline.FromSeconds(1)
    reply = parse_reply(raw_call(worker, context, encode_request(past, None)))
    assert (reply.request_id, reply.status) == ("r-1", StatusCode.UNIMPLEMENTED)
    past.method = HEALTH_CHECK
    reply = parse_reply(raw_call(worker, context, encode_request(past, HealthCheckRequest())))
    assert (reply.status, reply.header.message, reply.body) == (
        StatusCode.DEADLINE_EXCEEDED,
        "the deadline had passed on arrival",
        b"",
    )


def test_a_relative_timeout_needs_no_agreement_between_clocks(worker, context):
    # A deadline far in the past by this host's clock is wrong; a relative timeout never is.
    header = RequestHeader(method=HEALTH_CHECK, request_id="r-2")
    header.timeout.FromMilliseconds(2000)
    reply = parse_reply(raw_call(worker, context, encode_request(header, HealthCheckRequest())))
    assert (reply.status, HealthCheckResponse.FromString(reply.body).status) == (StatusCode.OK, 1)
    header.timeout.FromNanoseconds(0)
    reply = parse_reply(raw_call(worker, context, encode_request(header, HealthCheckRequest())))
    assert reply.status == StatusCode.DEADLINE_EXCEEDED


@pytest.mark.parametrize(
    ("frames", "request_id", "message"),
    [
        (
            [b"no delimiter, no header"],
            "",
            "unreadable request: a request is [routing id…][empty][header][body], got 2 frames",
        ),
        (
            [b"", RequestHeader(method=HEALTH_CHECK, request_id="r-3").SerializeToString()],
            "r-3",
            "unreadable request: a request is [routing id…][empty][header][body], but frame 0 of 3 is not the "
            "empty delimiter",
        ),
        (
            encode_request(RequestHeader(method=HEALTH_CHECK), None),
            "",
            "unreadable request: RequestHeader is missing required field 'request_id'",
        ),
    ],
    ids=["one-frame", "no-body-frame", "no-request-id"],
)
def test_unreadable_requests_are_answered(worker, context, frames, request_id, message):
    reply = parse_reply(raw_call(worker, context, frames))
    assert (reply.request_id, reply.status, reply.header.message) == (request_id, StatusCode.INVALID_ARGUMENT, message)


def test_replies_are_matched_by_request_id(worker, context):
    dealer = context.socket(zmq.DEALER)
    dealer.connect(worker.rpc)
    # A render (queued for the render thread) then a health check (answered at once).
    dealer.send_multipart(
        encode_request(RequestHeader(method="caffe.v1.Renderer/RenderOrder", request_id="slow"), golden_order("A-7"))
    )
    dealer.send_multipart(encode_request(RequestHeader(method=STATS, request_id="fast"), None))
    replies = [parse_reply(dealer.recv_multipart()) for _ in range(2)]
    assert sorted((reply.request_id, reply.status) for reply in replies) == [("fast", 0), ("slow", 0)]
    dealer.close(linger=0)


# MARK: Lazy Pirate


class FlakyServer:
    """A ROUTER that answers requests from a script: ``"drop"`` ignores one, a status code
    answers with it (OK with a SERVING health reply)."""

    def __init__(self, context: zmq.Context, script: list) -> None:
        self.router = context.socket(zmq.ROUTER)
        self.router.bind("tcp://127.0.0.1:*")
        self.endpoint = self.router.getsockopt_string(zmq.LAST_ENDPOINT)
        self.script = list(script)
        self.seen: list[tuple[str, int]] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.stop = threading.Event()
        self.thread.start()

    def serve(self) -> None:
        while not self.stop.is_set():
            if not self.router.poll(20):
                continue
            request = parse_request(self.router.recv_multipart())
            action = self.script.pop(0) if self.script else StatusCode.OK
            self.seen.append((request.header.request_id, request.header.timeout.ToMilliseconds()))
            if action == "drop":
                continue
            body = HealthCheckResponse(status=1) if action == StatusCode.OK else None
            self.router.send_multipart(request.reply(action, body, message=f"scripted {action!r}"))

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.router.close(linger=0)


def test_lazy_pirate_reconnects_and_resends_after_a_lost_reply(context):
    server = FlakyServer(context, ["drop", "drop", StatusCode.OK])
    client = RpcClient(server.endpoint, attempts=3, attempt_timeout=0.3, context=context)
    assert client.health(timeout=5) == HealthCheckResponse.SERVING
    assert client.connections == 3  # a fresh socket after each unanswered attempt
    ids = {request_id for request_id, _ in server.seen}
    assert len(server.seen) == 3 and len(ids) == 1
    # Each attempt sends what is left of the call's 5 s as its relative timeout.
    budgets = [budget for _, budget in server.seen]
    assert budgets == sorted(budgets, reverse=True) and 4000 < budgets[0] <= 5000 and budgets[2] < 4500
    server.close()


def test_lazy_pirate_retries_unavailable_but_not_invalid_argument(context):
    server = FlakyServer(context, [StatusCode.UNAVAILABLE, StatusCode.RESOURCE_EXHAUSTED, StatusCode.OK])
    client = RpcClient(server.endpoint, attempts=3, backoff=0.01, context=context)
    assert client.health() == HealthCheckResponse.SERVING
    assert client.connections == 1  # answered attempts keep the socket
    server.script = [StatusCode.INVALID_ARGUMENT, StatusCode.OK]
    with pytest.raises(RpcError) as failure:
        client.health()
    assert failure.value.code == StatusCode.INVALID_ARGUMENT and failure.value.from_server
    server.close()


def test_lazy_pirate_gives_up(context):
    server = FlakyServer(context, ["drop"] * 10)
    client = RpcClient(server.endpoint, attempts=2, attempt_timeout=0.2, context=context)
    with pytest.raises(RpcError) as failure:
        client.health(timeout=5)
    assert (failure.value.code, failure.value.from_server) == (StatusCode.UNAVAILABLE, False)
    started = time.monotonic()
    with pytest.raises(RpcError) as failure:
        RpcClient(server.endpoint, attempts=3, context=context).health(timeout=0.3)
    assert failure.value.code == StatusCode.DEADLINE_EXCEEDED
    assert 0.25 < time.monotonic() - started < 1.0
    server.close()


def test_lazy_pirate_reaches_a_worker_that_starts_late(tmp_path, context):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = RpcClient(f"tcp://127.0.0.1:{port}", attempts=20, attempt_timeout=0.5, context=context)
    late: list = []
    starter = threading.Timer(
        1.0, lambda: late.append(start_worker(tmp_path, f"rpc.endpoint=@tcp://127.0.0.1:{port}", name="late"))
    )
    starter.start()
    try:
        assert client.health(timeout=20) == HealthCheckResponse.SERVING
        assert client.connections >= 2
    finally:
        starter.join()
        for worker in late:
            assert worker.stop() == 0
