"""Orders and requests for the tests, the same ones the Swift core's golden files were made from
(``Tests/CaffeCoreTests/CoreTestSupport.swift``, ``GoldenOutputTests.swift``)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from caffe_client.messages import ComplicationRequest, OrderEvent, TermOfAddress

GOLDENS = Path(__file__).resolve().parents[3] / "Tests/CaffeCoreTests/Goldens"

#: locale → (store, currency, time zone), as ``CoreFixture.markets``.
MARKETS = {
    "en-US": ("store-us-sfo", "USD", "America/Los_Angeles"),
    "es-ES": ("store-es-mad", "EUR", "Europe/Madrid"),
    "es-MX": ("store-mx-cdmx", "MXN", "America/Mexico_City"),
    "fr-FR": ("store-fr-par", "EUR", "Europe/Paris"),
    "de-DE": ("store-de-ber", "EUR", "Europe/Berlin"),
    "ja-JP": ("store-jp-tyo", "JPY", "Asia/Tokyo"),
    "ar-EG": ("store-eg-cai", "EGP", "Africa/Cairo"),
    "it-IT": ("store-it-rom", "EUR", "Europe/Rome"),
    "pt-BR": ("store-br-sao", "BRL", "America/Sao_Paulo"),
}


def timestamp(field, text: str) -> None:
    field.FromDatetime(datetime.fromisoformat(text.replace("Z", "+00:00")).replace(tzinfo=None))


def golden_order(order_id: str, locale: str = "en-US") -> OrderEvent:
    """The golden files' "quantities" order: 2 large pizzas, 1 small juice, 21 small salads,
    0 large coffees, a tip of 2, for Ana (feminine)."""
    store, currency, zone = MARKETS[locale]
    order = OrderEvent(order_id=order_id, store_id=store, currency_code=currency, tip="2")
    timestamp(order.placed_at, "2026-11-18T11:06:40Z")
    timestamp(order.pickup_at, "2026-11-18T11:25:00Z")
    order.customer.customer_id = "c-1"
    order.customer.name = "Ana"
    order.customer.locale = locale
    order.customer.time_zone = zone
    order.customer.term_of_address = TermOfAddress.TERM_OF_ADDRESS_FEMININE
    for item, size, quantity in [("pizza", "large", 2), ("juice", "small", 1), ("salad", "small", 21), ("coffee", "large", 0)]:
        order.lines.add(item_id=item, size=size, quantity=quantity)
    return order


def small_order(order_id: str, locale: str = "es-MX", quantity: int = 2) -> OrderEvent:
    """One line of large pizzas."""
    store, currency, zone = MARKETS[locale]
    order = OrderEvent(order_id=order_id, store_id=store, currency_code=currency)
    timestamp(order.placed_at, "2026-11-18T11:06:40Z")
    order.customer.name = "Ana"
    order.customer.locale = locale
    order.customer.time_zone = zone
    order.lines.add(item_id="pizza", size="large", quantity=quantity)
    return order


def complication(request_id: str, user: str = "u-1", locale: str = "ja-JP", zone: str = "Asia/Tokyo") -> ComplicationRequest:
    request = ComplicationRequest(request_id=request_id, user_id=user, locale=locale, time_zone=zone)
    timestamp(request.next_free_coffee, "2026-12-31T23:45:00Z")
    return request


def golden_sections(name: str) -> dict[str, str]:
    """A golden file's sections by title (``confirmation (fr)``, ``receipt html``…)."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in (GOLDENS / name).read_text(encoding="utf-8").split("\n"):
        if line.startswith("== "):
            current = line[3:]
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return {title: "\n".join(lines) for title, lines in sections.items()}


def rendered_sections(confirmation, receipt) -> dict[str, str]:
    """The same sections from the worker's messages (``GoldenText.render``), runs left out."""
    amounts = [
        f"  {line.description.plain} | {line.unit_price} | {line.line_price} | {line.formatted_price.plain}"
        for line in receipt.lines
    ]
    amounts.append(
        f"  subtotal {receipt.subtotal} tax {receipt.tax} rate {receipt.tax_rate} tip {receipt.tip} total {receipt.total}"
    )
    sections = {
        f"confirmation ({confirmation.locale})": confirmation.text.plain,
        "summary": confirmation.summary.plain,
        f"receipt ({receipt.locale}, {receipt.currency_code})": receipt.text.plain,
        "receipt amounts": "\n".join(amounts),
        "receipt html": receipt.text.html,
    }
    return sections
