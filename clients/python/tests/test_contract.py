"""The contract suite: examples docs/WIRE.md publishes, read from the page and checked against a
running worker. The page is the source: each case names the table row it documents and how the
documented detail starts, takes the full status and detail from the page, and expects the worker's
reply to be exactly that. If the page and the worker part, the case fails, whichever moved."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import zmq

from caffe_client import AckedConsumer, Publisher, RpcClient, StatusCode, Subscriber
from caffe_client.frames import encode_request, parse_reply
from caffe_client.messages import (
    ConsumerFeedback,
    DeadLetter,
    DeadLetterReason,
    EventHeader,
    HealthCheckRequest,
    Heartbeat,
    OrderEvent,
    RequestHeader,
)
from caffe_client.rpc import HEALTH_CHECK, STATS

from conftest import start_worker
from helpers import synchronise, wire_shard_table
from orders import complication, small_order

WIRE = Path(__file__).resolve().parents[3] / "docs" / "WIRE.md"
STATUS_NAMES = {code.name for code in StatusCode}
REASON_NAMES = {"MALFORMED", "INVALID", "UNKNOWN_ITEM", "RENDER_FAILED", "UNRECOVERABLE_GAP", "OVERSIZED"}


def documented(row_start: str, detail_start: str, names: set[str] = STATUS_NAMES) -> tuple[str, str]:
    """The status (or, with ``names``, the dead-letter reason) and the whole detail the page gives,
    in the table row that starts with ``row_start``, for the detail starting with ``detail_start``
    (in `` `` or ` `); the status is the last of ``names`` written before the detail in that row."""
    rows = [line for line in WIRE.read_text(encoding="utf-8").splitlines() if line.startswith(row_start)]
    assert rows, f"WIRE.md has no row starting {row_start!r}"
    status = None
    for double, single in re.findall(r"``(.+?)``|`([^`]+)`", rows[0]):
        token = double or single
        if single in names:
            status = single
        elif token.startswith(detail_start):
            assert status, f"no status before {token!r} in {row_start!r}"
            return status, token
    raise AssertionError(f"WIRE.md's row {row_start!r} documents no detail starting {detail_start!r}")


def call(endpoint: str, context: zmq.Context, header: RequestHeader, body) -> tuple[str, str, dict]:
    """One request on a fresh DEALER; the reply's status name, message and metadata."""
    socket = context.socket(zmq.DEALER)
    socket.linger = 0
    socket.connect(endpoint)
    try:
        socket.send_multipart(encode_request(header, body))
        assert socket.poll(5000), "no reply within 5 s"
        reply = parse_reply(socket.recv_multipart())
        return StatusCode.of(reply.status).name, reply.header.message, dict(reply.header.metadata)
    finally:
        socket.close()


def header(method: str = STATS, request_id: str = "contract-1") -> RequestHeader:
    return RequestHeader(method=method, request_id=request_id)


def _no_method():
    return RequestHeader(request_id="contract-1"), b""


def _unknown_method():
    return header("/caffe.v1.Admin/Stats"), b""


def _no_request_id():
    return RequestHeader(method=STATS), b""


def _nanos_outside():
    request = header()
    request.deadline.seconds = int(time.time()) + 60
    request.deadline.nanos = 2_000_000_000
    return request, b""


def _deadline_passed():
    request = header()
    request.deadline.seconds = int(time.time()) - 60
    return request, b""


def _negative_timeout():
    request = header()
    request.timeout.seconds = -1
    return request, b""


def _zero_timeout():
    request = header()
    request.timeout.SetInParent()
    return request, b""


def _unknown_service():
    return header(HEALTH_CHECK), HealthCheckRequest(service="caffe.v1.Replay")


def _not_a_health_request():
    return header(HEALTH_CHECK), b"\xff\xff\xff"


def _order_without_id():
    return header("caffe.v1.Renderer/RenderOrder"), OrderEvent()


def _bad_hour_cycle():
    request = complication("contract-hc")
    request.hour_cycle = "h99"
    return header("caffe.v1.Renderer/RenderComplication"), request


def _letter_without_event():
    return header("caffe.v1.Admin/Redrive"), DeadLetter(detail="a gap's letter keeps no event")


CASES = {
    "method absent": ("| 1 | `method`", "unreadable request: RequestHeader is missing required field 'method'", _no_method),
    "method unknown": ("| 1 | `method`", "method '/caffe.v1.Admin/Stats' is not served here", _unknown_method),
    "request id absent": ("| 2 | `request_id`", "unreadable request: RequestHeader is missing required field 'request_id'", _no_request_id),
    "deadline nanos outside": ("| 3 | `deadline`", "unreadable request: RequestHeader.deadline has nanos", _nanos_outside),
    "deadline passed": ("| 3 | `deadline`", "the deadline had passed on arrival", _deadline_passed),
    "timeout negative": ("| 5 | `timeout`", "unreadable request: RequestHeader.timeout must be", _negative_timeout),
    "timeout zero": ("| 5 | `timeout`", "the deadline had passed on arrival", _zero_timeout),
    "health: unknown service": ("| `grpc.health.v1.Health/Check` | `HealthCheckRequest`:", "unknown service", _unknown_service),
    "health: not a request": ("| `grpc.health.v1.Health/Check` | `HealthCheckRequest`:", "request body is not a valid", _not_a_health_request),
    "order without an id": ("| `Renderer/RenderOrder` |", "missing-field at orderId", _order_without_id),
    "hour cycle h99": ("| `Renderer/RenderComplication` |", "invalid-hour-cycle at hourCycle", _bad_hour_cycle),
    "redrive: a letter without its event": ("| `caffe.v1.Admin/Redrive` | `DeadLetter`: 3", "the dead letter keeps no event", _letter_without_event),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_documented_refusal_is_the_worker_s(worker, context, case):
    row, start, build = CASES[case]
    status, detail = documented(row, start)
    request, body = build()
    got = call(worker.rpc, context, request, body)
    assert got[:2] == (status, detail), f"{case}: WIRE.md says {status} {detail!r}"


def test_an_undecodable_header_is_answered_as_documented(worker, context):
    text = WIRE.read_text(encoding="utf-8")
    detail = re.search(r"a header that does not decode: ``(.+?)``", text, re.S).group(1).replace("\n", " ")
    socket = context.socket(zmq.DEALER)
    socket.linger = 0
    socket.connect(worker.rpc)
    try:
        socket.send_multipart([b"", b"\xff\xfe not a header", b""])
        assert socket.poll(5000)
        reply = parse_reply(socket.recv_multipart())
    finally:
        socket.close()
    assert (StatusCode.of(reply.status).name, reply.header.message, reply.header.request_id) == (
        "INVALID_ARGUMENT",
        detail,
        "",
    )


def test_versions_in_reply_metadata_are_the_documented_ones(worker, context):
    text = WIRE.read_text(encoding="utf-8")
    version = re.search(r"carry `caffe-version` \(the worker's release, `([^`]+)`\)", text).group(1)
    schema = re.search(r"`caffe-schema` \(the schema's version, `([^`]+)`\)", text).group(1)
    for method in (HEALTH_CHECK, STATS):
        body = HealthCheckRequest().SerializeToString() if method == HEALTH_CHECK else b""
        status, _, metadata = call(worker.rpc, context, header(method), body)
        assert status == "OK"
        assert metadata == {"caffe-version": version, "caffe-schema": schema}


def test_a_shard_worker_renders_exactly_the_table_s_sources(tmp_path, context):
    """A worker with input.shard 1/4: of one order from each id in WIRE.md's table, it renders those
    the table gives shard 1 among 4 and counts the others as not owned."""
    counts, rows = wire_shard_table()
    column = counts.index(4)
    ids = [source for source, _, _ in rows if source]  # the empty id is no source: dead-lettered INVALID
    owned = {source for source, _, shards in rows if source and shards[column] == 1}
    assert owned and len(owned) < len(ids)
    running = start_worker(tmp_path, "input.shard=1/4")
    try:
        subscriber = Subscriber(running.output, context=context)
        publishers = [Publisher(">" + running.input, source_id=source, context=context) for source in ids]
        publishers[0].wait_for_subscribers(1, timeout=10)
        synchronise(publishers[0], subscriber)
        for index, publisher in enumerate(publishers):
            publisher.publish_order(small_order(f"contract-shard-{index}"))
        # Confirmations until 10 s pass or, once every owned one came, nothing comes for a second.
        confirmed = set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            event = subscriber.receive(1.0)
            if event is None and len(confirmed) >= len(owned):
                break
            if event is not None and event.topic.startswith("confirmation."):
                confirmed.add(event.header.source_id)
        assert confirmed == owned
        with RpcClient(running.rpc, context=context) as client:
            stats = client.stats()
        assert stats.counters["events_not_owned"] == len(ids) - len(owned)
        for publisher in publishers:
            publisher.close()
        subscriber.close()
    finally:
        running.stop()


def test_an_oversized_body_is_dead_lettered_with_the_documented_detail(worker, context, source_id):
    """WIRE.md's OVERSIZED example: a body one byte over input.max_message_bytes (1 MiB)."""
    row = next(line for line in WIRE.read_text(encoding="utf-8").splitlines() if line.startswith("| `OVERSIZED` (6) |"))
    detail = re.search(r"``(the body has 1048577 bytes;.+?)``", row).group(1)
    publisher = Publisher(">" + worker.input, source_id=source_id, context=context)
    subscriber = Subscriber(worker.output, topics=["dead-letter"], context=context)
    try:
        publisher.wait_for_subscribers(1, timeout=10)
        synchronise(publisher, subscriber)
        header = EventHeader(source_id=source_id, sequence=1, body_type="caffe.v1.OrderEvent", order_id="contract-big")
        publisher.socket.send_multipart([b"order.store-mx-cdmx", header.SerializeToString(), b"x" * 1_048_577])
        # The synchronising messages' own (MALFORMED) letters may still be on the way.
        letter = DeadLetter()
        deadline = time.monotonic() + 10
        while letter.reason != DeadLetterReason.DEAD_LETTER_REASON_OVERSIZED and time.monotonic() < deadline:
            event = subscriber.receive(1.0)
            if event is not None and event.topic == "dead-letter":
                letter = event.decode_body(DeadLetter)
        assert (DeadLetterReason.Name(letter.reason), letter.detail) == ("DEAD_LETTER_REASON_OVERSIZED", detail)
        assert letter.original_body == b"" and letter.topic == "order.store-mx-cdmx"
    finally:
        publisher.close()
        subscriber.close()


def _order_frames(source: str, sequence: int, order_id: str) -> list[bytes]:
    order = small_order(order_id)
    order.source_id, order.sequence = source, sequence
    header = EventHeader(source_id=source, sequence=sequence, body_type="caffe.v1.OrderEvent", order_id=order_id)
    return [b"order.store-mx-cdmx", header.SerializeToString(), order.SerializeToString()]


def _heartbeat_frames(source: str, last_sequence: int) -> list[bytes]:
    header = EventHeader(source_id=source, body_type="caffe.v1.Heartbeat")
    return [b"order.", header.SerializeToString(), Heartbeat(last_sequence=last_sequence).SerializeToString()]


# Each case: the WIRE.md row, how the documented detail starts, and the frames that break the rule
# (sent after any frames that set the scene).
LETTER_CASES = {
    "an event without a sequence": (
        "| sequence is not 0 (except heartbeats) |",
        "the event header has no sequence",
        lambda: [_order_frames("contract-noseq", 0, "contract-noseq-1")],
    ),
    "an event without a source": (
        "| `source_id` is not empty |",
        "the event header has no source_id",
        lambda: [_order_frames("", 1, "contract-nosource-1")],
    ),
    "a heartbeat from a source that sent no event": (
        "| 1 | `last_sequence` |",
        "a heartbeat from 'pos-9'",
        lambda: [_heartbeat_frames("pos-9", 3)],
    ),
    "an event of two frames": (
        "| `MALFORMED` (1) |",
        "wrongFrameCount:",
        lambda: [[b"order.store-mx-cdmx", EventHeader(source_id="contract-2f", sequence=1).SerializeToString()]],
    ),
    "a topic over 256 bytes": (
        "| `MALFORMED` (1) |",
        "frameTooLarge:",
        lambda: [[b"order." + b"s" * 274] + _order_frames("contract-topic", 1, "contract-topic-1")[1:]],
    ),
    "a heartbeat too far ahead": (
        "| 1 | `last_sequence` |",
        "a heartbeat's last_sequence 10002",
        lambda: [_order_frames("pos-1", 1, "contract-pos-1-1"), _heartbeat_frames("pos-1", 10002)],
    ),
}


@pytest.mark.parametrize("case", sorted(LETTER_CASES))
def test_a_documented_dead_letter_is_the_worker_s(worker, context, case):
    row, start, build = LETTER_CASES[case]
    reason, detail = documented(row, start, REASON_NAMES)
    publisher = Publisher(">" + worker.input, source_id=f"contract-sync-{case[:8]}", context=context)
    subscriber = Subscriber(worker.output, topics=["dead-letter"], context=context)
    try:
        publisher.wait_for_subscribers(1, timeout=10)
        synchronise(publisher, subscriber)
        for frames in build():
            publisher.socket.send_multipart(frames)
        letters = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and detail not in [letter.detail for letter in letters]:
            event = subscriber.receive(1.0)
            if event is not None:
                letter = event.decode_body(DeadLetter)
                if letter.topic != "order.sync":  # not the synchronising ones (helpers.synchronise)
                    letters.append(letter)
        assert [(DeadLetterReason.Name(letter.reason), letter.detail) for letter in letters] == [
            (f"DEAD_LETTER_REASON_{reason}", detail)
        ], f"{case}: WIRE.md says {reason} {detail!r}"
    finally:
        publisher.close()
        subscriber.close()


def test_feedback_the_acknowledged_output_refuses_is_counted_and_registers_nothing(tmp_path, context):
    """WIRE.md "The acknowledged output", step 1: an empty frame, a message that is not a
    ConsumerFeedback, and a hello without a window are counted as undecodable_feedback and
    register nothing — no delivery reaches such a peer — while a consumer that says hello with a
    window gets the outputs."""
    text = WIRE.read_text(encoding="utf-8")
    assert "an all-zero\n`ConsumerFeedback` encodes to an empty frame, so a hello without a window is one of them" in text
    running = start_worker(tmp_path, "output.kind=acked", "output.endpoints=@tcp://127.0.0.1:*")
    try:
        refused = []
        for frame in (b"", b"\xff\x01 not feedback", ConsumerFeedback(incarnation=0).SerializeToString()):
            socket = context.socket(zmq.DEALER)
            socket.linger = 0
            socket.connect(running.output)
            socket.send(frame)
            refused.append(socket)
        consumer = AckedConsumer(running.output, window=10, context=context)
        publisher = Publisher(">" + running.input, source_id="contract-acked", context=context)
        publisher.wait_for_subscribers(1, timeout=10)
        sequence = publisher.publish_order(small_order("contract-acked-1"))
        topics = []
        deadline = time.monotonic() + 10
        while len(topics) < 2 and time.monotonic() < deadline:
            delivery = consumer.receive(1.0)
            if delivery is not None:
                topics.append(delivery.event.topic.split(".")[0])
                consumer.ack(delivery)
        assert sorted(topics) == ["confirmation", "receipt"] and sequence == 1
        assert all(not socket.poll(200) for socket in refused), "a peer that never said hello got a delivery"
        with RpcClient(running.rpc, context=context) as client:
            assert client.stats().counters["undecodable_feedback"] == 3
        for socket in refused:
            socket.close()
        consumer.close()
        publisher.close()
    finally:
        running.stop()


def test_the_time_zone_note_s_lists_are_the_worker_s(worker, context):
    """WIRE.md "Note (time zones)": every zone it lists as accepted renders without a note, every
    zone it lists as defaulted renders in UTC with the documented note — orders and complications."""
    text = WIRE.read_text(encoding="utf-8")
    note = re.search(r"\*\*Note \(time zones\):\*\*(.+?)\n\n", text, re.S).group(1).replace("\n", " ")
    accepted = re.findall(r"`([^`]+)`", re.search(r"accepted (.+?); defaulted", note).group(1))
    defaulted = re.findall(r"`([^`]+)`", re.search(r"defaulted to UTC (.+?)\. Check", note).group(1))
    assert len(accepted) >= 10 and len(defaulted) >= 3
    with RpcClient(worker.rpc, context=context) as client:
        for zone in accepted + defaulted:
            order = small_order(f"contract-tz-{zone}")
            order.customer.time_zone = zone
            order_notes = [(n.code, n.detail) for n in client.render_order(order).confirmation.notes]
            request = complication(f"contract-tz-{zone}", zone=zone)
            request_notes = [(n.code, n.detail) for n in client.render_complication(request).notes]
            if zone in accepted:
                assert (order_notes, request_notes) == ([], []), zone
            else:
                assert order_notes == [("time-zone-defaulted", f"customer time zone '{zone}' is not an IANA zone; used UTC")]
                assert request_notes == [("time-zone-defaulted", f"request time zone '{zone}' is not an IANA zone; used UTC")]


def test_a_gap_the_source_never_answers_for_is_the_documented_letter(worker, context):
    """WIRE.md "Dead letters", UNRECOVERABLE_GAP: a replay endpoint that never answers is asked
    replay.attempts (5) times, then the gap is given up with the documented detail (the page's
    example is for 'pos-1'; this source has its own id)."""
    reason, detail = documented("| `UNRECOVERABLE_GAP` (5) |", "sequences 2...3 of 'pos-1' are lost: no replay", REASON_NAMES)
    silent = context.socket(zmq.ROUTER)
    silent.linger = 0
    port = silent.bind_to_random_port("tcp://127.0.0.1")
    publisher = Publisher(">" + worker.input, source_id="contract-silent-sync", context=context)
    subscriber = Subscriber(worker.output, topics=["dead-letter"], context=context)
    try:
        publisher.wait_for_subscribers(1, timeout=10)
        synchronise(publisher, subscriber)
        for sequence in (1, 4):
            frames = _order_frames("contract-silent", sequence, f"contract-silent-{sequence}")
            header = EventHeader.FromString(frames[1])
            header.metadata["replay_endpoint"] = f"tcp://127.0.0.1:{port}"
            publisher.socket.send_multipart([frames[0], header.SerializeToString(), frames[2]])
        letter, deadline = None, time.monotonic() + 20
        while letter is None and time.monotonic() < deadline:
            event = subscriber.receive(1.0)
            if event is not None and event.header.source_id == "contract-silent":
                letter = event.decode_body(DeadLetter)
        asked = 0
        while silent.poll(0):
            silent.recv_multipart()
            asked += 1
        assert letter is not None, "no dead letter within 20 s"
        assert (DeadLetterReason.Name(letter.reason), letter.detail) == (
            f"DEAD_LETTER_REASON_{reason}",
            detail.replace("'pos-1'", "'contract-silent'"),
        )
        assert (letter.gap_from, letter.gap_to, asked) == (2, 3, 5)
    finally:
        publisher.close()
        subscriber.close()
        silent.close()
