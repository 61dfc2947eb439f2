"""The package as pip installs it, the generated modules, and the codec on its own."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import caffe_client
from caffe_client import ProtocolError, encode_event, parse_event
from caffe_client.frames import encode_request, parse_reply, parse_request, encode_reply
from caffe_client.messages import BODY_TYPES, EventHeader, Heartbeat, OrderEvent, RequestHeader
from caffe_client.status import StatusCode

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(os.environ.get("CAFFE_CLIENT_INSTALLED") != "1", reason="run from the source tree")
def test_the_tests_run_against_the_installed_package():
    location = Path(caffe_client.__file__).resolve()
    assert "site-packages" in location.parts, location
    assert (location.parent / "proto/caffe/v1/order_pb2.pyi").is_file()
    assert (location.parent / "py.typed").is_file()


def test_generated_modules_match_the_schema():
    done = subprocess.run([str(HERE.parent / "generate_protos.sh"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_generated_modules_do_not_claim_top_level_packages():
    import sys

    assert "grpc" not in sys.modules and "caffe" not in sys.modules
    assert OrderEvent.__module__ == "caffe_client.proto.caffe.v1.order_pb2"


def test_event_frames_round_trip_and_checks():
    header = EventHeader(source_id="s", sequence=3, order_id="o", body_type="ignored")
    frames = encode_event("order.x", header, Heartbeat(last_sequence=7))
    assert header.body_type == "ignored"  # the caller's header is not changed
    event = parse_event(frames)
    assert (event.topic, event.body_type, event.header.sequence) == ("order.x", "caffe.v1.Heartbeat", 3)
    assert event.message() == Heartbeat(last_sequence=7)
    assert event.frames == frames
    with pytest.raises(ProtocolError, match="unexpectedBodyType: expected a caffe.v1.OrderEvent body"):
        event.decode_body(OrderEvent)
    for bad, code in [
        (frames[:2], "wrongFrameCount"),
        ([b"t" * 257, frames[1], frames[2]], "frameTooLarge"),
        ([frames[0], frames[1], b"x" * (1024 * 1024 + 1)], "frameTooLarge"),
        ([frames[0], b"\xff", frames[2]], "malformed"),
        ([frames[0], EventHeader(source_id="s").SerializeToString(), frames[2]], "missingField"),
    ]:
        with pytest.raises(ProtocolError) as failure:
            parse_event(bad)
        assert failure.value.code == code
    assert set(BODY_TYPES) == {
        "caffe.v1.OrderEvent", "caffe.v1.ComplicationRequest", "caffe.v1.Heartbeat", "caffe.v1.Confirmation",
        "caffe.v1.Receipt", "caffe.v1.ComplicationPayload", "caffe.v1.DeadLetter",
    }


def test_request_and_reply_envelopes():
    frames = encode_request(RequestHeader(method="m/x", request_id="r"), None)
    assert frames[0] == b"" and frames[2] == b""
    request = parse_request([b"hop-2", b"hop-1", *frames])
    assert request.routing == [b"hop-2", b"hop-1"] and request.header.method == "m/x"
    reply = request.reply(StatusCode.NOT_FOUND, message="no")
    assert reply[:2] == [b"hop-2", b"hop-1"]
    parsed = parse_reply(reply[2:])
    assert (parsed.request_id, parsed.status, parsed.header.message, parsed.body) == ("r", 5, "no", b"")
    with pytest.raises(ProtocolError, match="missingDelimiter"):
        parse_request([b"id", b"not empty", b"h", b"b"])
    with pytest.raises(ProtocolError, match="wrongFrameCount"):
        parse_reply([b"extra", *encode_reply("r", 0)])
    with pytest.raises(ProtocolError, match="missingField"):
        parse_request([b"id", *encode_request(RequestHeader(method="m/x"), None)])
