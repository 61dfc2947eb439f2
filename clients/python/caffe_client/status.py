"""gRPC status codes as Caffe replies carry them (``ResponseHeader.status``, a number), and the
error a failed call raises."""

from __future__ import annotations

import enum

from .proto.caffe.v1 import envelope_pb2


class StatusCode(enum.IntEnum):
    """gRPC's 17 codes, with gRPC's numbers (``caffe.v1.StatusCode``)."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16

    @classmethod
    def of(cls, number: int) -> "StatusCode | int":
        """The code for ``number``, or the number itself when it is not one of the 17."""
        try:
            return cls(number)
        except ValueError:
            return number


# The generated enum and this one must not drift apart.
assert {code.name: code.value for code in StatusCode} == dict(envelope_pb2.StatusCode.items())

#: Codes after which the same request may be sent again (to this worker or, through a proxy, to
#: another): the worker was draining or full. DEADLINE_EXCEEDED is not among them: the time the
#: caller allowed is spent.
RETRYABLE = frozenset({StatusCode.UNAVAILABLE, StatusCode.RESOURCE_EXHAUSTED})


class RpcError(Exception):
    """A call that ended with a status other than OK, or got no reply in time.

    ``code`` is a :class:`StatusCode`; a call that no reply answered ends ``DEADLINE_EXCEEDED``
    (the deadline passed) or ``UNAVAILABLE`` (every attempt timed out), decided by the client.
    ``from_server`` tells the two kinds apart.
    """

    def __init__(
        self,
        code: "StatusCode | int",
        message: str = "",
        *,
        request_id: str = "",
        metadata: dict[str, str] | None = None,
        from_server: bool = True,
    ) -> None:
        self.code = StatusCode.of(int(code))
        self.message = message
        self.request_id = request_id
        self.metadata = metadata or {}
        self.from_server = from_server
        name = self.code.name if isinstance(self.code, StatusCode) else f"UNRECOGNIZED({self.code})"
        super().__init__(f"{name}: {message}" if message else name)
