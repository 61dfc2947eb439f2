"""Every message of the ``caffe.v1`` wire schema (and ``grpc.health.v1``), under one roof.

The classes are the generated ones (``caffe_client.proto``); this module only gathers them, so
application code writes ``from caffe_client.messages import OrderEvent`` instead of reaching into
generated module paths, and finds a body's class from its ``EventHeader.body_type``.
"""

from __future__ import annotations

from google.protobuf.message import Message

from .proto.caffe.v1.delivery_pb2 import ConsumerFeedback, DeliveryTag
from .proto.caffe.v1.envelope_pb2 import EventHeader, Heartbeat, RequestHeader, ResponseHeader
from .proto.caffe.v1.journal_pb2 import JournalHeader, JournalRecord
from .proto.caffe.v1.order_pb2 import Customer, OrderEvent, OrderLine, TermOfAddress
from .proto.caffe.v1.rendering_pb2 import (
    AttributedRun,
    ComplicationEntry,
    ComplicationFamily,
    ComplicationPayload,
    ComplicationRequest,
    Confirmation,
    DeadLetter,
    DeadLetterReason,
    EventRef,
    Receipt,
    ReceiptLine,
    RenderNote,
    StyledText,
)
from .proto.caffe.v1.services_pb2 import (
    RenderOrderResponse,
    ReplayedEvent,
    ReplayRequest,
    ReplayResponse,
    StatsRequest,
    StatsResponse,
)
from .proto.grpc.health.v1.health_pb2 import HealthCheckRequest, HealthCheckResponse

__all__ = [
    "AttributedRun",
    "BODY_TYPES",
    "ComplicationEntry",
    "ComplicationFamily",
    "ComplicationPayload",
    "ComplicationRequest",
    "Confirmation",
    "ConsumerFeedback",
    "Customer",
    "DeadLetter",
    "DeadLetterReason",
    "DeliveryTag",
    "EventHeader",
    "EventRef",
    "HealthCheckRequest",
    "HealthCheckResponse",
    "Heartbeat",
    "JournalHeader",
    "JournalRecord",
    "OrderEvent",
    "OrderLine",
    "Receipt",
    "ReceiptLine",
    "RenderNote",
    "RenderOrderResponse",
    "ReplayRequest",
    "ReplayResponse",
    "ReplayedEvent",
    "RequestHeader",
    "ResponseHeader",
    "StatsRequest",
    "StatsResponse",
    "StyledText",
    "TermOfAddress",
    "full_name",
]


def full_name(message: Message | type[Message]) -> str:
    """The message's full protobuf name, as ``EventHeader.body_type`` carries it
    (``"caffe.v1.OrderEvent"``)."""
    return message.DESCRIPTOR.full_name


#: The bodies an event may carry, by the ``body_type`` its header names: inputs (orders,
#: complication requests, heartbeats) and the worker's outputs.
BODY_TYPES: dict[str, type[Message]] = {
    full_name(kind): kind
    for kind in (OrderEvent, ComplicationRequest, Heartbeat, Confirmation, Receipt, ComplicationPayload, DeadLetter)
}
