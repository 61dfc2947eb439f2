from caffe_client.proto.caffe.v1 import order_pb2 as _order_pb2
from caffe_client.proto.caffe.v1 import rendering_pb2 as _rendering_pb2
from google.protobuf import empty_pb2 as _empty_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RenderOrderResponse(_message.Message):
    __slots__ = ["confirmation", "receipt"]
    CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    confirmation: _rendering_pb2.Confirmation
    receipt: _rendering_pb2.Receipt
    def __init__(self, confirmation: _Optional[_Union[_rendering_pb2.Confirmation, _Mapping]] = ..., receipt: _Optional[_Union[_rendering_pb2.Receipt, _Mapping]] = ...) -> None: ...

class ReplayRequest(_message.Message):
    __slots__ = ["from_sequence", "source_id", "to_sequence"]
    FROM_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    from_sequence: int
    source_id: str
    to_sequence: int
    def __init__(self, source_id: _Optional[str] = ..., from_sequence: _Optional[int] = ..., to_sequence: _Optional[int] = ...) -> None: ...

class ReplayResponse(_message.Message):
    __slots__ = ["events", "frames", "unavailable"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    FRAMES_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_order_pb2.OrderEvent]
    frames: _containers.RepeatedCompositeFieldContainer[ReplayedEvent]
    unavailable: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, events: _Optional[_Iterable[_Union[_order_pb2.OrderEvent, _Mapping]]] = ..., unavailable: _Optional[_Iterable[int]] = ..., frames: _Optional[_Iterable[_Union[ReplayedEvent, _Mapping]]] = ...) -> None: ...

class ReplayedEvent(_message.Message):
    __slots__ = ["body", "header", "topic"]
    BODY_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    body: bytes
    header: bytes
    topic: str
    def __init__(self, topic: _Optional[str] = ..., header: _Optional[bytes] = ..., body: _Optional[bytes] = ...) -> None: ...

class StatsRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class StatsResponse(_message.Message):
    __slots__ = ["counters", "gauges"]
    class CountersEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class GaugesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    COUNTERS_FIELD_NUMBER: _ClassVar[int]
    GAUGES_FIELD_NUMBER: _ClassVar[int]
    counters: _containers.ScalarMap[str, int]
    gauges: _containers.ScalarMap[str, float]
    def __init__(self, counters: _Optional[_Mapping[str, int]] = ..., gauges: _Optional[_Mapping[str, float]] = ...) -> None: ...
