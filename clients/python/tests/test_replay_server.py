"""The replay server and history on their own, a DEALER asking as a worker does; and the text
and de-duplication helpers."""

from __future__ import annotations

import pytest
import zmq

from caffe_client import Deduplicator, History, ReplayServer, StatusCode, encode_event, parse_event
from caffe_client.frames import encode_request, parse_reply
from caffe_client.messages import (
    DeadLetter,
    EventHeader,
    OrderEvent,
    Receipt,
    ReplayRequest,
    ReplayResponse,
    RequestHeader,
)
from caffe_client.replay import REPLAY_FETCH
from caffe_client.text import loose, plain_spaces, strip_bidi


def order_frames(source: str, sequence: int, size: int = 0) -> list[bytes]:
    order = OrderEvent(order_id=f"{source}-{sequence}", source_id=source, sequence=sequence, store_id="s" * size)
    header = EventHeader(source_id=source, sequence=sequence, order_id=order.order_id, metadata={"trace": "t"})
    return encode_event("order.s", header, order)


def fetch(source: str, first: int, last: int) -> bytes:
    return ReplayRequest(source_id=source, from_sequence=first, to_sequence=last).SerializeToString()


def ask(server: ReplayServer, context, method: str = REPLAY_FETCH, body: bytes | None = None):
    dealer = context.socket(zmq.DEALER)
    dealer.connect(server.endpoint)
    dealer.send_multipart(encode_request(RequestHeader(method=method, request_id="gap-1"), body))
    assert dealer.poll(5000)
    reply = parse_reply(dealer.recv_multipart())
    dealer.close(linger=0)
    return reply


def test_a_fetch_returns_what_is_held_as_sent_and_names_the_rest(context):
    history = History()
    for sequence in (1, 2, 4):
        history.record("pos-1", sequence, order_frames("pos-1", sequence))
    with ReplayServer(history=history, context=context) as server:
        reply = ask(server, context, body=fetch("pos-1", 2, 5))
        assert (reply.request_id, reply.status) == ("gap-1", StatusCode.OK)
        response = ReplayResponse.FromString(reply.body)
        assert [parse_event([e.topic.encode(), e.header, e.body]).header.sequence for e in response.frames] == [2, 4]
        assert [e.header for e in response.frames] == [history.get("pos-1", 2)[1], history.get("pos-1", 4)[1]]
        assert list(response.unavailable) == [3, 5]
        assert list(response.events) == []  # frames only, unless asked
        assert server.requests_served == 1


def test_older_workers_can_be_given_order_bodies_too(context):
    history = History()
    history.record("pos-1", 1, order_frames("pos-1", 1))
    with ReplayServer(history=history, context=context, include_events=True) as server:
        response = ReplayResponse.FromString(ask(server, context, body=fetch("pos-1", 1, 1)).body)
        assert [event.order_id for event in response.events] == ["pos-1-1"]


def test_a_reply_stops_below_its_size_limit_and_the_rest_is_asked_again(context):
    history = History()
    for sequence in range(1, 11):
        history.record("pos-1", sequence, order_frames("pos-1", sequence, size=300))
    with ReplayServer(history=history, context=context, max_reply_bytes=1500) as server:
        reply = ask(server, context, body=fetch("pos-1", 1, 10))
        response = ReplayResponse.FromString(reply.body)
        served = [EventHeader.FromString(e.header).sequence for e in response.frames]
        assert served == list(range(1, len(served) + 1)) and 1 < len(served) < 10
        assert list(response.unavailable) == []  # not served is not unavailable
        assert len(reply.body) <= 1500 + 400


def test_a_history_keeps_the_newest_events_of_each_source():
    history = History(capacity=3)
    for sequence in range(1, 6):
        history.record("a", sequence, order_frames("a", sequence))
    history.record("b", 1, order_frames("b", 1))
    assert [history.get("a", s) is not None for s in range(1, 6)] == [False, False, True, True, True]
    assert history.get("b", 1) is not None and len(history) == 4


def test_other_methods_and_unreadable_requests_are_answered(context):
    with ReplayServer(context=context) as server:
        reply = ask(server, context, method="caffe.v1.Renderer/RenderOrder")
        assert (reply.status, reply.header.message) == (StatusCode.UNIMPLEMENTED, f"this endpoint serves {REPLAY_FETCH}")
        assert ask(server, context, body=b"\xff\xff").status == StatusCode.INVALID_ARGUMENT


def test_a_wildcard_address_cannot_be_announced(context):
    with pytest.raises(ValueError, match="wildcard"):
        ReplayServer("tcp://*:*", context=context)
    with ReplayServer("tcp://*:*", announce="tcp://10.0.0.5:5563", context=context) as server:
        assert server.endpoint == "tcp://10.0.0.5:5563"


def test_deduplicator_keys():
    def output(body, header: EventHeader):
        return parse_event(encode_event("t", header, body))

    seen = Deduplicator(capacity=10)
    receipt = output(Receipt(), EventHeader(source_id="a", sequence=1, order_id="o-1"))
    retried = output(Receipt(), EventHeader(source_id="a", sequence=9, order_id="o-1"))  # the same order, sent again
    neighbour = output(Receipt(), EventHeader(source_id="b", sequence=1, order_id="o-1"))  # another source's order
    gap = output(DeadLetter(), EventHeader(source_id="a", sequence=5))
    unreadable = output(DeadLetter(), EventHeader())  # no source, no sequence: never a repeat
    assert [seen.first(receipt), seen.first(retried), seen.first(neighbour)] == [True, False, True]
    assert [seen.first(gap), seen.first(gap), seen.first(unreadable), seen.first(unreadable)] == [True, False, True, True]
    assert seen.duplicates == 2


def test_text_helpers():
    amount = "\u2068\u200f\u0662\u066b\u0660\u0660\u00a0\u062c.\u0645.\u200f\u2069"
    assert strip_bidi(amount) == "\u0662\u066b\u0660\u0660\u00a0\u062c.\u0645."
    assert plain_spaces("3:25\u202fAM \u2013 12,50\u00a0€") == "3:25 AM \u2013 12,50 €"
    assert loose("Zoe\u0308\u00a0!") == "Zoë !"
