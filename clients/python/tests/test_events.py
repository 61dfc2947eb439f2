"""Events through a real worker: what a source sends, what comes out, and what the worker decides
on the way (docs/WIRE.md: frames, topics, headers, sequences, de-duplication, dead letters,
heartbeats, replay)."""

from __future__ import annotations

import time

import pytest

from caffe_client import Publisher, ReplayServer, Subscriber, output_key, topics
from caffe_client.messages import (
    ComplicationPayload,
    Confirmation,
    DeadLetter,
    DeadLetterReason,
    EventHeader,
    Heartbeat,
    Receipt,
)
from caffe_client.frames import encode_event

from helpers import by_type, collect, lose, synchronise
from orders import complication, golden_order, golden_sections, rendered_sections, small_order

SIX_LOCALES = ["en-US", "es-MX", "fr-FR", "de-DE", "ja-JP", "ar-EG"]


@pytest.fixture
def link(worker, context, source_id):
    """A source (with its replay endpoint) publishing into the shared worker, and a subscriber
    of every output, synchronised."""
    with ReplayServer("tcp://127.0.0.1:*", context=context) as replay:
        publisher = Publisher(">" + worker.input, source_id=source_id, replay=replay, context=context)
        subscriber = Subscriber(worker.output, context=context)
        publisher.wait_for_subscribers(1, timeout=10)
        synchronise(publisher, subscriber)
        yield publisher, subscriber
        publisher.close()
        subscriber.close()


def test_orders_in_six_locales_are_the_golden_outputs(link):
    publisher, subscriber = link
    for locale in SIX_LOCALES:
        publisher.publish_order(golden_order(f"A-1042-{publisher.source_id}-{locale}", locale))
    events = collect(subscriber, 2 * len(SIX_LOCALES))
    for locale in SIX_LOCALES:
        order_id = f"A-1042-{publisher.source_id}-{locale}"
        store = golden_order("x", locale).store_id
        outputs = [event for event in events if event.header.order_id == order_id]
        assert [event.topic for event in outputs] == [f"confirmation.{locale}", f"receipt.{store}"]
        confirmation = outputs[0].decode_body(Confirmation)
        receipt = outputs[1].decode_body(Receipt)
        expected = {
            title: text.replace("A-1042", order_id)
            for title, text in golden_sections(f"quantities.{locale}.txt").items()
            if not title.endswith(" runs")
        }
        actual = rendered_sections(confirmation, receipt)
        # The golden file ends each section with a newline; the html section is the file's end.
        assert {title: text.rstrip("\n") for title, text in actual.items()} == {
            title: text.rstrip("\n") for title, text in expected.items()
        }
        assert confirmation.ref.order_id == receipt.ref.order_id == order_id
        assert confirmation.ref.source_id == publisher.source_id


def test_outputs_carry_the_input_header(link):
    publisher, subscriber = link
    sequence = publisher.publish_order(small_order(f"{publisher.source_id}-1"), metadata={"trace": "t-42"})
    confirmation, receipt = collect(subscriber, 2)
    for output, body_type in [(confirmation, "caffe.v1.Confirmation"), (receipt, "caffe.v1.Receipt")]:
        header = output.header
        assert header.body_type == body_type
        assert (header.source_id, header.sequence, header.order_id) == (
            publisher.source_id,
            sequence,
            f"{publisher.source_id}-1",
        )
        assert dict(header.metadata) == {"trace": "t-42", "replay_endpoint": publisher.replay.endpoint}
    # sent_at is the source's, copied: what the consumer measures latency from.
    published = publisher.history.get(publisher.source_id, sequence)
    assert confirmation.header.sent_at == EventHeader.FromString(published[1]).sent_at


def test_the_worker_dispatches_on_body_type_not_on_topic(link):
    publisher, subscriber = link
    order = small_order(f"{publisher.source_id}-1")
    order.source_id, order.sequence = publisher.source_id, 1
    header = EventHeader(source_id=publisher.source_id, sequence=1, order_id=order.order_id)
    publisher.socket.send_multipart(encode_event("complication-request.not-an-order", header, order))
    publisher.last_sequence = 1
    events = collect(subscriber, 2)
    assert [event.topic for event in events] == ["confirmation.es-MX", "receipt.store-mx-cdmx"]


def test_header_and_body_must_name_the_same_event(link):
    publisher, subscriber = link
    order = small_order(f"{publisher.source_id}-1")
    order.source_id, order.sequence = publisher.source_id, 1
    header = EventHeader(source_id=publisher.source_id, sequence=1, order_id="another-id")
    frames = encode_event("order.store-mx-cdmx", header, order)
    publisher.socket.send_multipart(frames)
    (event,) = collect(subscriber, 1)
    letter = event.decode_body(DeadLetter)
    assert event.topic == topics.DEAD_LETTER
    assert letter.reason == DeadLetterReason.DEAD_LETTER_REASON_INVALID
    assert letter.detail == (
        f"the header's order_id 'another-id' differs from the body's '{order.order_id}'"
    )
    assert (letter.topic, letter.original_header, letter.original_body) == (
        "order.store-mx-cdmx",
        frames[1],
        frames[2],
    )
    assert (letter.ref.source_id, letter.ref.sequence, letter.ref.order_id) == (publisher.source_id, 1, "another-id")


@pytest.mark.parametrize(
    ("frames", "reason", "detail"),
    [
        (
            [b"order.x", b"only two"],
            DeadLetterReason.DEAD_LETTER_REASON_MALFORMED,
            "wrongFrameCount: an event has 3 frames (topic, header, body), got 2",
        ),
        (
            [b"order.x", b"\xff\x01garbage", b"body"],
            DeadLetterReason.DEAD_LETTER_REASON_MALFORMED,
            "malformed: event header is not a valid caffe.v1.EventHeader: malformedProtobuf",
        ),
        (
            [b"order.x", EventHeader(source_id="s", sequence=1).SerializeToString(), b""],
            DeadLetterReason.DEAD_LETTER_REASON_INVALID,
            "missingField: EventHeader is missing required field 'body_type'",
        ),
    ],
    ids=["two-frames", "unreadable-header", "no-body-type"],
)
def test_unreadable_events_become_dead_letters_with_their_bytes(link, frames, reason, detail):
    publisher, subscriber = link
    publisher.socket.send_multipart(frames)
    (event,) = collect(subscriber, 1)
    letter = event.decode_body(DeadLetter)
    assert (letter.reason, letter.detail) == (reason, detail)
    if len(frames) == 3:
        assert (letter.topic, letter.original_header, letter.original_body) == (
            frames[0].decode(),
            frames[1],
            frames[2],
        )
    else:
        assert letter.original_body == b"".join(frames)
    # A header that decodes still names the event (and its sequence is completed, not a gap).
    expected = ("s", 1) if reason == DeadLetterReason.DEAD_LETTER_REASON_INVALID else ("", 0)
    assert (event.header.source_id, event.header.sequence) == expected


def test_refused_headers_and_unknown_body_types(link):
    publisher, subscriber = link
    source = publisher.source_id
    cases = [
        (EventHeader(body_type="caffe.v1.OrderEvent", source_id=source, sequence=0), "the event header has no sequence (sources number their events from 1)"),
        (EventHeader(body_type="caffe.v1.OrderEvent", sequence=1), "the event header has no source_id"),
        (
            EventHeader(body_type="caffe.v1.Heartbeat", source_id=source, sequence=9),
            "a heartbeat takes no sequence of its own (header sequence is 0)",
        ),
        (
            EventHeader(body_type="caffe.v1.Refund", source_id=source, sequence=1),
            "body_type 'caffe.v1.Refund' is not one of caffe.v1.OrderEvent, caffe.v1.ComplicationRequest, "
            "caffe.v1.Heartbeat",
        ),
    ]
    for header, _ in cases:
        publisher.socket.send_multipart([b"order.x", header.SerializeToString(), Heartbeat().SerializeToString()])
    letters = [event.decode_body(DeadLetter) for event in collect(subscriber, len(cases))]
    # Order is kept per source only: the letter for the header without a source may come first.
    assert sorted((letter.reason, letter.detail) for letter in letters) == sorted(
        (DeadLetterReason.DEAD_LETTER_REASON_INVALID, detail) for _, detail in cases
    )


def test_a_gap_is_filled_from_the_sources_replay_endpoint(link):
    publisher, subscriber = link
    source = publisher.source_id
    publisher.publish_order(small_order(f"{source}-1"))
    lose(publisher, "order.store-mx-cdmx", small_order(f"{source}-2", quantity=3), order_id=f"{source}-2")
    lose(publisher, topics.complication_request("u-7"), complication(f"{source}-r3", "u-7"))
    publisher.publish_order(small_order(f"{source}-4"))
    events = collect(subscriber, 7)
    live = [(event.header.sequence, event.topic) for event in events if "replayed" not in event.header.metadata]
    replayed = [(event.header.sequence, event.topic) for event in events if "replayed" in event.header.metadata]
    assert live == [(1, "confirmation.es-MX"), (1, "receipt.store-mx-cdmx"), (4, "confirmation.es-MX"), (4, "receipt.store-mx-cdmx")]
    # Both lost events come back byte for byte (ReplayResponse.frames), the complication too.
    assert replayed == [(2, "confirmation.es-MX"), (2, "receipt.store-mx-cdmx"), (3, "complication.u-7")]
    assert all(event.header.metadata["replayed"] == "true" for event in events if event.header.sequence in (2, 3))
    assert by_type(events)["caffe.v1.ComplicationPayload"][0].decode_body(ComplicationPayload).request_id == f"{source}-r3"
    assert publisher.replay.requests_served == 1


def test_a_heartbeat_reveals_the_lost_end_of_a_stream(link):
    publisher, subscriber = link
    source = publisher.source_id
    publisher.heartbeat_interval = 0.5
    publisher.publish_order(small_order(f"{source}-1"))
    assert not publisher.tick()  # something was sent within the interval
    lose(publisher, "order.store-mx-cdmx", small_order(f"{source}-2"), order_id=f"{source}-2")
    collect(subscriber, 2)
    time.sleep(0.5)
    assert publisher.tick()  # quiet for the interval: a heartbeat saying 2 was sent
    events = collect(subscriber, 2)
    assert [(event.header.sequence, event.header.metadata["replayed"]) for event in events] == [(2, "true")] * 2


def test_a_new_source_starts_at_one_or_its_beginning_is_a_gap(link, context):
    publisher, subscriber = link
    source = publisher.source_id
    # This source starts at 3 and cannot replay 1 and 2: the worker renders 3, then reports them.
    late = Publisher(">" + publisher.endpoint, source_id=source + "-b", first_sequence=3, context=context)
    late.wait_for_subscribers(1)
    late.publish_order(small_order(f"{source}-b3"))
    events = collect(subscriber, 3, timeout=15)
    assert [event.topic for event in events] == ["confirmation.es-MX", "receipt.store-mx-cdmx", "dead-letter"]
    gap = events[2]
    letter = gap.decode_body(DeadLetter)
    assert letter.reason == DeadLetterReason.DEAD_LETTER_REASON_UNRECOVERABLE_GAP
    assert (letter.gap_from, letter.gap_to) == (1, 2)
    assert letter.detail == f"sequences 1...2 of '{source}-b' are lost: no replay endpoint is known for source '{source}-b'"
    # The gap's dead letter names the range's first sequence in its header.
    assert (gap.header.source_id, gap.header.sequence, gap.header.order_id) == (source + "-b", 1, "")
    late.close()


def test_a_gap_of_a_run_is_that_run_s_dead_letter(link, context):
    """WIRE.md "Dead letters": a gap's letter carries its run's source_epoch in its header, and its
    output key keeps two runs' letters for the same sequence apart."""
    publisher, subscriber = link
    source = publisher.source_id + "-run"
    letters = []
    for epoch in (11, 12):
        run = Publisher(">" + publisher.endpoint, source_id=source, first_sequence=2, source_epoch=epoch, context=context)
        run.wait_for_subscribers(1)
        run.publish_order(small_order(f"{source}-{epoch}"))
        events = collect(subscriber, 3, timeout=15)
        letters += [event for event in events if event.topic == "dead-letter"]
        run.close()
    assert [(event.header.source_id, event.header.source_epoch, event.header.sequence) for event in letters] == [
        (source, 11, 1),
        (source, 12, 1),
    ]
    assert letters[0].decode_body(DeadLetter).detail == (
        f"sequences 1...1 of '{source} (epoch 11)' are lost: no replay endpoint is known for source '{source} (epoch 11)'"
    )
    assert output_key(letters[0]) != output_key(letters[1])
    assert output_key(letters[0]) == ("caffe.v1.DeadLetter", source, "11", "1")


def test_a_restarted_source_numbering_from_one_again_is_rendered(link, context):
    publisher, subscriber = link
    publisher.publish_order(small_order(f"{publisher.source_id}-before"))
    assert [event.header.sequence for event in collect(subscriber, 2)] == [1, 1]
    # The point of sale restarts and keeps no count: a new publisher, the same source id, a new
    # epoch. Its sequence 1 is a new run's, not a duplicate of the old one.
    time.sleep(0.002)
    restarted = Publisher(">" + publisher.endpoint, source_id=publisher.source_id, context=context)
    assert restarted.source_epoch > publisher.source_epoch > 0
    restarted.wait_for_subscribers(1)
    restarted.publish_order(small_order(f"{publisher.source_id}-after"))
    events = collect(subscriber, 2)
    assert [(event.header.order_id, event.header.sequence) for event in events] == [
        (f"{publisher.source_id}-after", 1)
    ] * 2
    assert {event.header.source_epoch for event in events} == {restarted.source_epoch}
    restarted.close()


def test_order_ids_are_deduplicated_per_source(link, context):
    publisher, subscriber = link
    order_id = f"{publisher.source_id}-shared"
    publisher.publish_order(small_order(order_id))
    collect(subscriber, 2)
    # Another source cannot make this source's orders vanish by sending their ids first: its
    # order is its own and is rendered.
    other = Publisher(">" + publisher.endpoint, source_id=publisher.source_id + "-other", context=context)
    other.wait_for_subscribers(1)
    other.publish_order(small_order(order_id))
    assert {event.header.source_id for event in collect(subscriber, 2)} == {publisher.source_id + "-other"}
    # This source's retry under its next sequence is not rendered again.
    publisher.publish_order(small_order(order_id))
    assert subscriber.receive(1.0) is None
    other.close()


def test_a_missing_or_malformed_locale_falls_back_with_a_note(link):
    publisher, subscriber = link
    source = publisher.source_id
    for index, locale in enumerate(["", "english!", "sv-SE"]):
        order = small_order(f"{source}-{index}")
        order.customer.locale = locale
        publisher.publish_order(order)
    confirmations = [event for event in collect(subscriber, 6) if event.body_type == "caffe.v1.Confirmation"]
    observed = [
        (event.topic, body.locale, [(note.code, note.detail) for note in body.notes])
        for event in confirmations
        for body in [event.decode_body(Confirmation)]
    ]
    assert observed == [
        ("confirmation.en", "en", [("locale-defaulted", "customer has no locale; used en-US from the configuration")]),
        (
            "confirmation.en",  # a tag that is not one does not go into the topic
            "en",
            [("locale-defaulted", "customer locale 'english!' is not a BCP 47 tag; used en-US")],
        ),
        (
            "confirmation.sv-SE",
            "en",
            [
                (
                    "localization-fallback",
                    "no localization serves 'sv-SE'; using the development language 'en' (the String Catalog's "
                    "sourceLanguage)",
                )
            ],
        ),
    ]
