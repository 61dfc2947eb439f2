"""Frames on the wire, as the Swift ``EventFrames`` and ``EventRendering`` handle them.

An event is ``[topic][EventHeader][body]``. Parsing checks the frame count and sizes and decodes
only the header; outputs carry the input's header with ``body_type`` set to the output's type; an
input that cannot be processed becomes a ``caffe.v1.DeadLetter`` on topic ``dead-letter`` with the
reason, a detail naming the problem and the original frames.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from google.protobuf.message import DecodeError, Message

from .proto.caffe.v1 import envelope_pb2, rendering_pb2

# CaffeProtocolLimits.standard
MAX_TOPIC_BYTES = 256
MAX_HEADER_BYTES = 16 * 1024
MAX_BODY_BYTES = 1024 * 1024

ORDER_EVENT = "caffe.v1.OrderEvent"
COMPLICATION_REQUEST = "caffe.v1.ComplicationRequest"
DEAD_LETTER_TOPIC = "dead-letter"


class ProtocolError(Exception):
    """Bytes that are not a Caffe event; ``str`` is the Swift ``CaffeProtocolError`` description."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(slots=True)
class Event:
    topic: str
    header: envelope_pb2.EventHeader
    body: bytes


def parse_event(frames: list[bytes]) -> Event:
    """Splits and checks a received event, decoding its header; raises :class:`ProtocolError`."""
    if len(frames) != 3:
        raise ProtocolError("wrongFrameCount", f"an event has 3 frames (topic, header, body), got {len(frames)}")
    topic, header_frame, body = frames
    if len(topic) > MAX_TOPIC_BYTES:
        raise ProtocolError(
            "frameTooLarge", f"topic frame of {len(topic)} bytes exceeds the limit of {MAX_TOPIC_BYTES}"
        )
    if len(body) > MAX_BODY_BYTES:
        raise ProtocolError(
            "frameTooLarge", f"event body frame of {len(body)} bytes exceeds the limit of {MAX_BODY_BYTES}"
        )
    if len(header_frame) > MAX_HEADER_BYTES:
        raise ProtocolError(
            "frameTooLarge",
            f"event header frame of {len(header_frame)} bytes exceeds the limit of {MAX_HEADER_BYTES}",
        )
    header = decode(envelope_pb2.EventHeader, header_frame, "event header")
    if not header.body_type:
        raise ProtocolError("missingField", "EventHeader is missing required field 'body_type'")
    return Event(topic.decode("utf-8", "replace"), header, body)


def decode(kind: type, data: bytes, role: str) -> Message:
    """``data`` decoded as ``kind``; raises a ``malformed`` :class:`ProtocolError`."""
    try:
        return kind.FromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        raise ProtocolError("malformed", f"{role} is not a valid {kind.DESCRIPTOR.full_name}: {error}") from error


def event_ref(header: envelope_pb2.EventHeader) -> rendering_pb2.EventRef:
    return rendering_pb2.EventRef(source_id=header.source_id, sequence=header.sequence, order_id=header.order_id)


def dead_letter(reason: int, detail: str, frames: list[bytes], ref: rendering_pb2.EventRef | None) -> list[bytes]:
    """A dead-letter event for ``frames``, keeping their bytes as they arrived."""
    letter = rendering_pb2.DeadLetter(reason=reason, detail=detail)
    if len(frames) == 3:
        letter.topic = frames[0].decode("utf-8", "replace")
        letter.original_header = frames[1]
        letter.original_body = frames[2]
    else:
        letter.original_body = b"".join(frames)
    header = envelope_pb2.EventHeader(body_type=rendering_pb2.DeadLetter.DESCRIPTOR.full_name)
    if ref is not None:
        letter.ref.CopyFrom(ref)
        header.source_id = ref.source_id
        header.sequence = ref.sequence
        header.order_id = ref.order_id
    now = time.time_ns()
    letter.received_at.seconds = now // 1_000_000_000
    letter.received_at.nanos = now % 1_000_000_000
    return [DEAD_LETTER_TOPIC.encode(), header.SerializeToString(), letter.SerializeToString()]
