from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

ABORTED: StatusCode
ALREADY_EXISTS: StatusCode
CANCELLED: StatusCode
DATA_LOSS: StatusCode
DEADLINE_EXCEEDED: StatusCode
DESCRIPTOR: _descriptor.FileDescriptor
FAILED_PRECONDITION: StatusCode
INTERNAL: StatusCode
INVALID_ARGUMENT: StatusCode
NOT_FOUND: StatusCode
OK: StatusCode
OUT_OF_RANGE: StatusCode
PERMISSION_DENIED: StatusCode
RESOURCE_EXHAUSTED: StatusCode
UNAUTHENTICATED: StatusCode
UNAVAILABLE: StatusCode
UNIMPLEMENTED: StatusCode
UNKNOWN: StatusCode

class EventHeader(_message.Message):
    __slots__ = ["body_type", "metadata", "order_id", "sent_at", "sequence", "source_epoch", "source_id"]
    class MetadataEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    BODY_TYPE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_EPOCH_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    body_type: str
    metadata: _containers.ScalarMap[str, str]
    order_id: str
    sent_at: _timestamp_pb2.Timestamp
    sequence: int
    source_epoch: int
    source_id: str
    def __init__(self, body_type: _Optional[str] = ..., source_id: _Optional[str] = ..., sequence: _Optional[int] = ..., order_id: _Optional[str] = ..., sent_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., metadata: _Optional[_Mapping[str, str]] = ..., source_epoch: _Optional[int] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ["last_sequence"]
    LAST_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    last_sequence: int
    def __init__(self, last_sequence: _Optional[int] = ...) -> None: ...

class RequestHeader(_message.Message):
    __slots__ = ["deadline", "metadata", "method", "request_id", "timeout"]
    class MetadataEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    deadline: _timestamp_pb2.Timestamp
    metadata: _containers.ScalarMap[str, str]
    method: str
    request_id: str
    timeout: _duration_pb2.Duration
    def __init__(self, method: _Optional[str] = ..., request_id: _Optional[str] = ..., deadline: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., metadata: _Optional[_Mapping[str, str]] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ResponseHeader(_message.Message):
    __slots__ = ["message", "metadata", "request_id", "status"]
    class MetadataEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    message: str
    metadata: _containers.ScalarMap[str, str]
    request_id: str
    status: StatusCode
    def __init__(self, request_id: _Optional[str] = ..., status: _Optional[_Union[StatusCode, str]] = ..., message: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...

class StatusCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
