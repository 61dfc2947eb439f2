from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JournalHeader(_message.Message):
    __slots__ = ["catalog_fingerprint", "created_at", "format_version", "menu_fingerprint", "metadata", "origin"]
    class MetadataEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CATALOG_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_VERSION_FIELD_NUMBER: _ClassVar[int]
    MENU_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    catalog_fingerprint: str
    created_at: _timestamp_pb2.Timestamp
    format_version: int
    menu_fingerprint: str
    metadata: _containers.ScalarMap[str, str]
    origin: str
    def __init__(self, format_version: _Optional[int] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., menu_fingerprint: _Optional[str] = ..., catalog_fingerprint: _Optional[str] = ..., origin: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...

class JournalRecord(_message.Message):
    __slots__ = ["body", "captured_at", "header", "topic"]
    BODY_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_AT_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    body: bytes
    captured_at: _timestamp_pb2.Timestamp
    header: bytes
    topic: str
    def __init__(self, captured_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., topic: _Optional[str] = ..., header: _Optional[bytes] = ..., body: _Optional[bytes] = ...) -> None: ...
