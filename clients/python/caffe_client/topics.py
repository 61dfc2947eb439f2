"""Topic frames of Caffe's events (docs/WIRE.md, "Topics").

Subscribers match topics by prefix (``order.`` receives every store). A worker dispatches on
``EventHeader.body_type``, never on the topic: topics exist so subscribers, proxies and recorders
can filter, and producers must use these exact forms for them to work.
"""

from __future__ import annotations

#: Inputs.
ORDER_PREFIX = "order."
COMPLICATION_REQUEST_PREFIX = "complication-request."
#: Outputs.
CONFIRMATION_PREFIX = "confirmation."
RECEIPT_PREFIX = "receipt."
COMPLICATION_PREFIX = "complication."
DEAD_LETTER = "dead-letter"
#: A source's heartbeat travels on the bare order prefix: every worker subscribed to orders
#: receives it, and no store is named by it (store ids are never empty).
HEARTBEAT = ORDER_PREFIX


def order(store: str) -> str:
    """Order events of one store: ``order.<store_id>``."""
    return ORDER_PREFIX + store


def complication_request(user: str) -> str:
    """Complication requests: ``complication-request.<user_id>``."""
    return COMPLICATION_REQUEST_PREFIX + user


def confirmation(locale: str) -> str:
    """Confirmations: ``confirmation.<locale>`` (the customer's locale as sent, see WIRE.md)."""
    return CONFIRMATION_PREFIX + locale


def receipt(store: str) -> str:
    """Receipts of one store: ``receipt.<store_id>``."""
    return RECEIPT_PREFIX + store


def complication(user: str) -> str:
    """Complication payloads for one user: ``complication.<user_id>``."""
    return COMPLICATION_PREFIX + user
