from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

COMPLICATION_FAMILY_CIRCULAR_SMALL: ComplicationFamily
COMPLICATION_FAMILY_GRAPHIC_CORNER: ComplicationFamily
COMPLICATION_FAMILY_GRAPHIC_RECTANGULAR: ComplicationFamily
COMPLICATION_FAMILY_MODULAR_LARGE: ComplicationFamily
COMPLICATION_FAMILY_MODULAR_SMALL: ComplicationFamily
COMPLICATION_FAMILY_UNSPECIFIED: ComplicationFamily
COMPLICATION_FAMILY_UTILITARIAN_LARGE: ComplicationFamily
COMPLICATION_FAMILY_UTILITARIAN_SMALL: ComplicationFamily
DEAD_LETTER_REASON_INVALID: DeadLetterReason
DEAD_LETTER_REASON_MALFORMED: DeadLetterReason
DEAD_LETTER_REASON_OVERSIZED: DeadLetterReason
DEAD_LETTER_REASON_RENDER_FAILED: DeadLetterReason
DEAD_LETTER_REASON_UNKNOWN_ITEM: DeadLetterReason
DEAD_LETTER_REASON_UNRECOVERABLE_GAP: DeadLetterReason
DEAD_LETTER_REASON_UNSPECIFIED: DeadLetterReason
DESCRIPTOR: _descriptor.FileDescriptor

class AttributedRun(_message.Message):
    __slots__ = ["attributes", "text"]
    class AttributesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    attributes: _containers.ScalarMap[str, str]
    text: str
    def __init__(self, text: _Optional[str] = ..., attributes: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ComplicationEntry(_message.Message):
    __slots__ = ["family", "text"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    family: ComplicationFamily
    text: StyledText
    def __init__(self, family: _Optional[_Union[ComplicationFamily, str]] = ..., text: _Optional[_Union[StyledText, _Mapping]] = ...) -> None: ...

class ComplicationPayload(_message.Message):
    __slots__ = ["entries", "locale", "notes", "request_id", "user_id"]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[ComplicationEntry]
    locale: str
    notes: _containers.RepeatedCompositeFieldContainer[RenderNote]
    request_id: str
    user_id: str
    def __init__(self, request_id: _Optional[str] = ..., user_id: _Optional[str] = ..., locale: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[ComplicationEntry, _Mapping]]] = ..., notes: _Optional[_Iterable[_Union[RenderNote, _Mapping]]] = ...) -> None: ...

class ComplicationRequest(_message.Message):
    __slots__ = ["families", "hour_cycle", "locale", "next_free_coffee", "request_id", "time_zone", "user_id"]
    FAMILIES_FIELD_NUMBER: _ClassVar[int]
    HOUR_CYCLE_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    NEXT_FREE_COFFEE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    families: _containers.RepeatedScalarFieldContainer[ComplicationFamily]
    hour_cycle: str
    locale: str
    next_free_coffee: _timestamp_pb2.Timestamp
    request_id: str
    time_zone: str
    user_id: str
    def __init__(self, request_id: _Optional[str] = ..., user_id: _Optional[str] = ..., locale: _Optional[str] = ..., time_zone: _Optional[str] = ..., hour_cycle: _Optional[str] = ..., next_free_coffee: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., families: _Optional[_Iterable[_Union[ComplicationFamily, str]]] = ...) -> None: ...

class Confirmation(_message.Message):
    __slots__ = ["greeting", "item_count", "locale", "notes", "pickup", "ref", "summary", "text"]
    GREETING_FIELD_NUMBER: _ClassVar[int]
    ITEM_COUNT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    PICKUP_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    greeting: StyledText
    item_count: StyledText
    locale: str
    notes: _containers.RepeatedCompositeFieldContainer[RenderNote]
    pickup: StyledText
    ref: EventRef
    summary: StyledText
    text: StyledText
    def __init__(self, ref: _Optional[_Union[EventRef, _Mapping]] = ..., locale: _Optional[str] = ..., greeting: _Optional[_Union[StyledText, _Mapping]] = ..., summary: _Optional[_Union[StyledText, _Mapping]] = ..., item_count: _Optional[_Union[StyledText, _Mapping]] = ..., pickup: _Optional[_Union[StyledText, _Mapping]] = ..., text: _Optional[_Union[StyledText, _Mapping]] = ..., notes: _Optional[_Iterable[_Union[RenderNote, _Mapping]]] = ...) -> None: ...

class DeadLetter(_message.Message):
    __slots__ = ["detail", "gap_from", "gap_to", "original_body", "original_header", "reason", "received_at", "ref", "topic"]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    GAP_FROM_FIELD_NUMBER: _ClassVar[int]
    GAP_TO_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_BODY_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_HEADER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_AT_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    detail: str
    gap_from: int
    gap_to: int
    original_body: bytes
    original_header: bytes
    reason: DeadLetterReason
    received_at: _timestamp_pb2.Timestamp
    ref: EventRef
    topic: str
    def __init__(self, reason: _Optional[_Union[DeadLetterReason, str]] = ..., detail: _Optional[str] = ..., topic: _Optional[str] = ..., original_header: _Optional[bytes] = ..., original_body: _Optional[bytes] = ..., ref: _Optional[_Union[EventRef, _Mapping]] = ..., received_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., gap_from: _Optional[int] = ..., gap_to: _Optional[int] = ...) -> None: ...

class EventRef(_message.Message):
    __slots__ = ["order_id", "sequence", "source_id"]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    order_id: str
    sequence: int
    source_id: str
    def __init__(self, source_id: _Optional[str] = ..., sequence: _Optional[int] = ..., order_id: _Optional[str] = ...) -> None: ...

class Receipt(_message.Message):
    __slots__ = ["currency_code", "lines", "locale", "notes", "ref", "subtotal", "tax", "tax_rate", "text", "tip", "total"]
    CURRENCY_CODE_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    SUBTOTAL_FIELD_NUMBER: _ClassVar[int]
    TAX_FIELD_NUMBER: _ClassVar[int]
    TAX_RATE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TIP_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    currency_code: str
    lines: _containers.RepeatedCompositeFieldContainer[ReceiptLine]
    locale: str
    notes: _containers.RepeatedCompositeFieldContainer[RenderNote]
    ref: EventRef
    subtotal: str
    tax: str
    tax_rate: str
    text: StyledText
    tip: str
    total: str
    def __init__(self, ref: _Optional[_Union[EventRef, _Mapping]] = ..., locale: _Optional[str] = ..., currency_code: _Optional[str] = ..., lines: _Optional[_Iterable[_Union[ReceiptLine, _Mapping]]] = ..., subtotal: _Optional[str] = ..., tax: _Optional[str] = ..., tax_rate: _Optional[str] = ..., tip: _Optional[str] = ..., total: _Optional[str] = ..., text: _Optional[_Union[StyledText, _Mapping]] = ..., notes: _Optional[_Iterable[_Union[RenderNote, _Mapping]]] = ...) -> None: ...

class ReceiptLine(_message.Message):
    __slots__ = ["description", "formatted_price", "line_price", "unit_price"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    FORMATTED_PRICE_FIELD_NUMBER: _ClassVar[int]
    LINE_PRICE_FIELD_NUMBER: _ClassVar[int]
    UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    description: StyledText
    formatted_price: StyledText
    line_price: str
    unit_price: str
    def __init__(self, description: _Optional[_Union[StyledText, _Mapping]] = ..., unit_price: _Optional[str] = ..., line_price: _Optional[str] = ..., formatted_price: _Optional[_Union[StyledText, _Mapping]] = ...) -> None: ...

class RenderNote(_message.Message):
    __slots__ = ["code", "detail"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    code: str
    detail: str
    def __init__(self, code: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class StyledText(_message.Message):
    __slots__ = ["html", "plain", "runs"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    PLAIN_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    html: str
    plain: str
    runs: _containers.RepeatedCompositeFieldContainer[AttributedRun]
    def __init__(self, plain: _Optional[str] = ..., runs: _Optional[_Iterable[_Union[AttributedRun, _Mapping]]] = ..., html: _Optional[str] = ...) -> None: ...

class ComplicationFamily(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class DeadLetterReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
