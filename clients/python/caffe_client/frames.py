"""The frames around every Caffe message (docs/WIRE.md, "Frames").

- An event (PUB/SUB, PUSH/PULL, and each delivery of the acknowledged output after its tag) is
  three frames: ``[topic][EventHeader][body]``.
- A request, as a DEALER sends it, is ``[empty][RequestHeader][body]``; a ROUTER in front adds one
  routing frame per hop. A reply is ``[empty][ResponseHeader][body]`` at the DEALER.

Everything here is plain functions over ``bytes``: no sockets, so it serves clients, servers
(a replay endpoint, a Python worker) and tests alike.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

from google.protobuf.message import DecodeError, Message

from .messages import BODY_TYPES, EventHeader, RequestHeader, ResponseHeader, full_name

#: The worker's limits (``CaffeProtocolLimits.standard``): larger frames are refused before they
#: are decoded. ``MAX_BODY_BYTES`` is the worker's ``input.max_message_bytes`` default.
MAX_TOPIC_BYTES = 256
MAX_HEADER_BYTES = 16 * 1024
MAX_BODY_BYTES = 1024 * 1024
#: Routing frames a request may carry before its delimiter (one per ROUTER on the way).
MAX_ROUTING_FRAMES = 8


class ProtocolError(Exception):
    """Bytes that are not the Caffe message they should be.

    ``code`` is the Swift ``CaffeProtocolError.Code`` name (``wrongFrameCount``,
    ``missingDelimiter``, ``frameTooLarge``, ``malformed``, ``unexpectedBodyType``,
    ``missingField``), so logs read the same on both sides; ``str()`` is ``"code: message"``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def decode(kind: type[Message], data: bytes, role: str) -> Message:
    """``data`` decoded as ``kind``; a :class:`ProtocolError` (``malformed``) if it is not one."""
    try:
        return kind.FromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        raise ProtocolError("malformed", f"{role} is not a valid {full_name(kind)}: {error}") from error


def now_timestamp(message: Message) -> None:
    """Sets a ``google.protobuf.Timestamp`` field to the current time (UTC)."""
    nanoseconds = time.time_ns()
    message.seconds = nanoseconds // 1_000_000_000
    message.nanos = nanoseconds % 1_000_000_000


# MARK: Events


@dataclass(slots=True)
class Event:
    """An event as received: the topic, the decoded header and the body, not yet decoded."""

    topic: str
    header: EventHeader
    body: bytes
    #: The header frame exactly as received (replay servers and dead letters keep bytes).
    header_frame: bytes = b""

    @property
    def body_type(self) -> str:
        return self.header.body_type

    def message(self) -> Message:
        """The body decoded as the type its header names.

        Raises :class:`ProtocolError`: ``unexpectedBodyType`` for a type this client does not
        know, ``malformed`` for bytes that are not that type.
        """
        kind = BODY_TYPES.get(self.header.body_type)
        if kind is None:
            raise ProtocolError("unexpectedBodyType", f"no message type is known for body_type '{self.body_type}'")
        return decode(kind, self.body, "event body")

    def decode_body(self, kind: type[Message]) -> Message:
        """The body as ``kind``, after checking that the header announced that type."""
        if self.header.body_type != full_name(kind):
            raise ProtocolError(
                "unexpectedBodyType",
                f"expected a {full_name(kind)} body, the header says '{self.header.body_type}'",
            )
        return decode(kind, self.body, "event body")

    @property
    def frames(self) -> list[bytes]:
        """The three frames again (the header re-encoded when it was not kept)."""
        return [self.topic.encode(), self.header_frame or self.header.SerializeToString(), self.body]


def parse_event(frames: Sequence[bytes], *, max_body_bytes: int = MAX_BODY_BYTES) -> Event:
    """Splits and checks a received event, decoding only its header, as the worker does.

    Raises :class:`ProtocolError` for a frame count other than 3, an oversized frame, a header
    that does not decode, or a header without ``body_type``.
    """
    if len(frames) != 3:
        raise ProtocolError("wrongFrameCount", f"an event has 3 frames (topic, header, body), got {len(frames)}")
    topic, header_frame, body = (bytes(frame) for frame in frames)
    if len(topic) > MAX_TOPIC_BYTES:
        raise ProtocolError(
            "frameTooLarge", f"topic frame of {len(topic)} bytes exceeds the limit of {MAX_TOPIC_BYTES}"
        )
    if len(body) > max_body_bytes:
        raise ProtocolError(
            "frameTooLarge", f"event body frame of {len(body)} bytes exceeds the limit of {max_body_bytes}"
        )
    if len(header_frame) > MAX_HEADER_BYTES:
        raise ProtocolError(
            "frameTooLarge",
            f"event header frame of {len(header_frame)} bytes exceeds the limit of {MAX_HEADER_BYTES}",
        )
    header = decode(EventHeader, header_frame, "event header")
    if not header.body_type:
        raise ProtocolError("missingField", "EventHeader is missing required field 'body_type'")
    return Event(topic.decode("utf-8", "replace"), header, body, header_frame)


def encode_event(topic: str, header: EventHeader, body: Message) -> list[bytes]:
    """The three frames of an event; sets the header's ``body_type`` from ``body`` (the caller's
    header is not changed)."""
    stamped = EventHeader()
    stamped.CopyFrom(header)
    stamped.body_type = full_name(body)
    return [topic.encode(), stamped.SerializeToString(), body.SerializeToString()]


# MARK: Requests and replies


@dataclass(slots=True)
class Request:
    """A request as a ROUTER receives it: routing frames, decoded header, undecoded body."""

    routing: list[bytes]
    header: RequestHeader
    body: bytes

    def reply(self, code: int, body: Message | None = None, message: str = "", metadata: dict | None = None):
        """The frames answering this request, routed back the way it came."""
        return [*self.routing, *encode_reply(self.header.request_id, code, body, message, metadata)]


@dataclass(slots=True)
class Reply:
    """A reply as a DEALER receives it."""

    header: ResponseHeader
    body: bytes
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def request_id(self) -> str:
        return self.header.request_id

    @property
    def status(self) -> int:
        return self.header.status


def encode_request(header: RequestHeader, body: Message | bytes | None) -> list[bytes]:
    """``[empty][RequestHeader][body]``, what a DEALER sends (a missing body is an empty frame)."""
    payload = body if isinstance(body, bytes) else b"" if body is None else body.SerializeToString()
    return [b"", header.SerializeToString(), payload]


def encode_reply(
    request_id: str, code: int, body: Message | None = None, message: str = "", metadata: dict | None = None
) -> list[bytes]:
    """``[empty][ResponseHeader][body]``; the body frame is empty when there is no body."""
    header = ResponseHeader(request_id=request_id, status=code, message=message)
    header.metadata.update(metadata or {})
    return [b"", header.SerializeToString(), b"" if body is None else body.SerializeToString()]


def _split_envelope(frames: Sequence[bytes], shape: str) -> tuple[list[bytes], list[bytes]]:
    """``[routing…][empty][header][body]``: the delimiter is the third frame from the end (a body
    may be empty, routing ids never are)."""
    if len(frames) < 3:
        raise ProtocolError("wrongFrameCount", f"{shape}, got {len(frames)} frames")
    delimiter = len(frames) - 3
    if frames[delimiter]:
        raise ProtocolError(
            "missingDelimiter", f"{shape}, but frame {delimiter} of {len(frames)} is not the empty delimiter"
        )
    if delimiter > MAX_ROUTING_FRAMES:
        raise ProtocolError(
            "wrongFrameCount", f"{delimiter} routing frames exceed the limit of {MAX_ROUTING_FRAMES}"
        )
    return [bytes(frame) for frame in frames[:delimiter]], [bytes(frame) for frame in frames[delimiter + 1 :]]


def parse_request(frames: Sequence[bytes], *, max_body_bytes: int = MAX_BODY_BYTES) -> Request:
    """Splits a request received on a ROUTER and decodes its header (``method`` and
    ``request_id`` are required)."""
    routing, (header_frame, body) = _split_envelope(frames, "a request is [routing id…][empty][header][body]")
    if len(header_frame) > MAX_HEADER_BYTES:
        raise ProtocolError("frameTooLarge", f"request header frame of {len(header_frame)} bytes is too large")
    if len(body) > max_body_bytes:
        raise ProtocolError("frameTooLarge", f"request body frame of {len(body)} bytes is too large")
    header = decode(RequestHeader, header_frame, "request header")
    for name in ("method", "request_id"):
        if not getattr(header, name):
            raise ProtocolError("missingField", f"RequestHeader is missing required field '{name}'")
    return Request(routing, header, body)


def parse_reply(frames: Sequence[bytes], *, max_body_bytes: int = MAX_BODY_BYTES) -> Reply:
    """Splits a reply received on a DEALER: ``[empty][ResponseHeader][body]``."""
    routing, (header_frame, body) = _split_envelope(frames, "a reply is [empty][header][body]")
    if routing:
        raise ProtocolError("wrongFrameCount", f"a reply is [empty][header][body], got {len(frames)} frames")
    if len(body) > max_body_bytes:
        raise ProtocolError("frameTooLarge", f"response body frame of {len(body)} bytes is too large")
    header = decode(ResponseHeader, header_frame, "response header")
    return Reply(header, body, dict(header.metadata))
