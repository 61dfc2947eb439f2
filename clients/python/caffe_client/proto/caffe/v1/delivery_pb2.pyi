from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class ConsumerFeedback(_message.Message):
    __slots__ = ["acknowledged_through", "incarnation", "window"]
    ACKNOWLEDGED_THROUGH_FIELD_NUMBER: _ClassVar[int]
    INCARNATION_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    acknowledged_through: int
    incarnation: int
    window: int
    def __init__(self, incarnation: _Optional[int] = ..., acknowledged_through: _Optional[int] = ..., window: _Optional[int] = ...) -> None: ...

class DeliveryTag(_message.Message):
    __slots__ = ["incarnation", "tag"]
    INCARNATION_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    incarnation: int
    tag: int
    def __init__(self, incarnation: _Optional[int] = ..., tag: _Optional[int] = ...) -> None: ...
