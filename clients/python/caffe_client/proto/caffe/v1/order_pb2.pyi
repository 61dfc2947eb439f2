from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
TERM_OF_ADDRESS_FEMININE: TermOfAddress
TERM_OF_ADDRESS_MASCULINE: TermOfAddress
TERM_OF_ADDRESS_NEUTRAL: TermOfAddress
TERM_OF_ADDRESS_UNSPECIFIED: TermOfAddress

class Customer(_message.Message):
    __slots__ = ["customer_id", "locale", "name", "term_of_address", "time_zone"]
    CUSTOMER_ID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TERM_OF_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    customer_id: str
    locale: str
    name: str
    term_of_address: TermOfAddress
    time_zone: str
    def __init__(self, customer_id: _Optional[str] = ..., name: _Optional[str] = ..., locale: _Optional[str] = ..., time_zone: _Optional[str] = ..., term_of_address: _Optional[_Union[TermOfAddress, str]] = ...) -> None: ...

class OrderEvent(_message.Message):
    __slots__ = ["currency_code", "customer", "lines", "order_id", "pickup_at", "placed_at", "sequence", "source_id", "store_id", "tip"]
    CURRENCY_CODE_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PICKUP_AT_FIELD_NUMBER: _ClassVar[int]
    PLACED_AT_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    STORE_ID_FIELD_NUMBER: _ClassVar[int]
    TIP_FIELD_NUMBER: _ClassVar[int]
    currency_code: str
    customer: Customer
    lines: _containers.RepeatedCompositeFieldContainer[OrderLine]
    order_id: str
    pickup_at: _timestamp_pb2.Timestamp
    placed_at: _timestamp_pb2.Timestamp
    sequence: int
    source_id: str
    store_id: str
    tip: str
    def __init__(self, order_id: _Optional[str] = ..., source_id: _Optional[str] = ..., sequence: _Optional[int] = ..., placed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., store_id: _Optional[str] = ..., customer: _Optional[_Union[Customer, _Mapping]] = ..., currency_code: _Optional[str] = ..., lines: _Optional[_Iterable[_Union[OrderLine, _Mapping]]] = ..., tip: _Optional[str] = ..., pickup_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class OrderLine(_message.Message):
    __slots__ = ["item_id", "quantity", "size"]
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    item_id: str
    quantity: int
    size: str
    def __init__(self, item_id: _Optional[str] = ..., size: _Optional[str] = ..., quantity: _Optional[int] = ...) -> None: ...

class TermOfAddress(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
