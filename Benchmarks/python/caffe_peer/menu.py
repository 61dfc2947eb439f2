"""The menu (``config/menu.json``) and pricing an order against it.

Pricing applies the Swift core's checks in the Swift core's order (``PricedOrder``), so a bad order
fails with the same code, field and sentence, and becomes the same dead letter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from caffe_client.proto.caffe.v1 import order_pb2, rendering_pb2

from . import money

# Limits of the Swift core's ``CoreDefaults``.
DEFAULT_LOCALE = "en-US"
DEFAULT_TIME_ZONE = "UTC"
MAXIMUM_QUANTITY = 999
MAXIMUM_LINES = 100
MAXIMUM_TIP = 1_000_000


class RenderError(Exception):
    """Why an order could not be rendered: a code, the field at fault and a sentence (the Swift
    ``RenderError``); its ``str`` is the Swift description, the dead letter's detail."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.code} at {self.field}: {self.message}" if self.field else f"{self.code}: {self.message}"

    @property
    def dead_letter_reason(self) -> int:
        """The dead-letter reason for an order that failed this way."""
        if self.code in ("unknown-item", "unknown-size", "unknown-store", "missing-price"):
            return rendering_pb2.DEAD_LETTER_REASON_UNKNOWN_ITEM
        if self.code == "render-failed":
            return rendering_pb2.DEAD_LETTER_REASON_RENDER_FAILED
        return rendering_pb2.DEAD_LETTER_REASON_INVALID


@dataclass(frozen=True, slots=True)
class Size:
    id: str
    name_key: str


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    name_key: str
    category: str
    ingredient_keys: tuple[str, ...]
    #: Minor units by size id, then currency code.
    prices: dict[str, dict[str, int]]


@dataclass(frozen=True, slots=True)
class Store:
    id: str
    tax_rate_text: str
    tax_rate: money.ParsedDecimal


class CurrencyData(Protocol):
    """What pricing needs to know about currencies (a formatting backend answers)."""

    def currency_digits(self, code: str) -> int | None:
        """The currency's minor-unit digits, or ``None`` for a code that is not ISO 4217."""


@dataclass(slots=True)
class Menu:
    name_table: str
    sizes: dict[str, Size]
    items: dict[str, Item]
    stores: dict[str, Store]

    @classmethod
    def load(cls, path: Path, currencies: CurrencyData) -> Menu:
        """Reads and checks ``menu.json``; raises ``ValueError`` naming the JSON path at fault."""
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != 1:
            raise ValueError(f"version: {data.get('version')} is not supported (this build reads 1)")
        sizes = {entry["id"]: Size(entry["id"], entry["nameKey"]) for entry in data["sizes"]}
        stores: dict[str, Store] = {}
        for index, entry in enumerate(data["stores"]):
            rate = money.parse_decimal(entry["taxRate"])
            if rate is None or rate.is_negative or rate.compare_to_integer(1) >= 0:
                raise ValueError(f"stores[{index}].taxRate: '{entry['taxRate']}' is not a fraction from 0 up to 1")
            stores[entry["id"]] = Store(entry["id"], entry["taxRate"], rate)
        items: dict[str, Item] = {}
        for index, entry in enumerate(data["items"]):
            prices: dict[str, dict[str, int]] = {}
            for size_id, by_currency in entry["prices"].items():
                if size_id not in sizes:
                    raise ValueError(f"items[{index}].prices.{size_id}: not one of the menu's sizes")
                for code, text in by_currency.items():
                    digits = currencies.currency_digits(code)
                    parsed = money.parse_decimal(text)
                    if digits is None or parsed is None or parsed.is_negative:
                        raise ValueError(f"items[{index}].prices.{size_id}.{code}: '{text}' is not a price")
                    minor = money.to_minor_units(parsed, digits)
                    if minor is None:
                        raise ValueError(f"items[{index}].prices.{size_id}.{code}: too many decimals for {code}")
                    prices.setdefault(size_id, {})[code] = minor
            items[entry["id"]] = Item(
                entry["id"], entry["nameKey"], entry["category"], tuple(entry["ingredientKeys"]), prices
            )
        return cls(data["nameTable"], sizes, items, stores)


@dataclass(frozen=True, slots=True)
class PricedLine:
    item: Item
    size: Size
    quantity: int
    unit_price: int
    line_price: int


@dataclass(slots=True)
class PricedOrder:
    """An order checked against the menu and priced; amounts in minor units."""

    event: order_pb2.OrderEvent
    locale: str
    time_zone: str
    term_of_address: int
    currency: str
    fraction_digits: int
    store: Store
    lines: list[PricedLine]
    subtotal: int
    tax: int
    tip: int
    total: int
    notes: list[tuple[str, str]] = field(default_factory=list)


class LocaleChecks(Protocol):
    def is_well_formed_locale(self, tag: str) -> bool: ...

    def is_known_time_zone(self, identifier: str) -> bool: ...


def price(
    event: order_pb2.OrderEvent,
    menu: Menu,
    currencies: CurrencyData,
    checks: LocaleChecks,
) -> PricedOrder:
    """Checks ``event`` and prices it; raises :class:`RenderError` for the first problem."""
    if not event.order_id:
        raise RenderError("missing-field", "the order has no id", "orderId")
    if not event.HasField("placed_at"):
        raise RenderError("missing-field", "when was it placed?", "placedAt")
    if not event.HasField("customer"):
        raise RenderError("missing-field", "the order has no customer", "customer")
    notes: list[tuple[str, str]] = []
    customer = event.customer
    locale, time_zone = settle(customer.locale, customer.time_zone, "customer", checks, notes)

    code = event.currency_code
    if not code:
        raise RenderError("missing-field", "the order has no currency", "currencyCode")
    digits = currencies.currency_digits(code)
    if digits is None:
        raise RenderError("unknown-currency", f"'{code}' is not an ISO 4217 currency code", "currencyCode")
    if not event.store_id:
        raise RenderError("missing-field", "the order has no store", "storeId")
    store = menu.stores.get(event.store_id)
    if store is None:
        raise RenderError("unknown-store", f"'{event.store_id}' is not one of the menu's stores", "storeId")
    if not event.lines:
        raise RenderError("missing-field", "the order has no lines", "lines")
    if len(event.lines) > MAXIMUM_LINES:
        raise RenderError(
            "quantity-out-of-range", f"{len(event.lines)} lines; at most {MAXIMUM_LINES} are accepted", "lines"
        )
    lines: list[PricedLine] = []
    subtotal = 0
    items, sizes = menu.items, menu.sizes
    for index, line in enumerate(event.lines):
        item_id, size_id, quantity = line.item_id, line.size, line.quantity
        item = items.get(item_id)
        if item is None:
            raise RenderError("unknown-item", f"'{item_id}' is not on the menu", f"lines[{index}].itemId")
        size = sizes.get(size_id)
        prices = item.prices.get(size_id)
        if size is None or prices is None:
            raise RenderError("unknown-size", f"{item.id} does not come in size '{size_id}'", f"lines[{index}].size")
        unit = prices.get(code)
        if unit is None:
            raise RenderError(
                "missing-price", f"the menu has no {code} price for {item.id} ({size.id})", f"lines[{index}]"
            )
        if quantity > MAXIMUM_QUANTITY:
            raise RenderError(
                "quantity-out-of-range",
                f"{quantity} is more than the {MAXIMUM_QUANTITY} one line may order",
                f"lines[{index}].quantity",
            )
        line_price = unit * quantity
        subtotal += line_price
        lines.append(PricedLine(item, size, quantity, unit, line_price))
    # Prices and quantities are never negative, so the subtotal bounds every line price.
    if not money.fits_int64(subtotal):
        raise RenderError("invalid-amount", "the order's total is too large to compute exactly", "lines")
    tax = money.multiply_by_rate(subtotal, store.tax_rate)
    tip = _tip(event.tip, code, digits)
    total = subtotal + tax + tip
    if not money.fits_int64(total):
        raise RenderError("invalid-amount", "the order's total is too large to compute exactly", "tip")
    return PricedOrder(
        event, locale, time_zone, customer.term_of_address, code, digits, store, lines, subtotal, tax, tip, total, notes
    )


def _tip(text: str, code: str, digits: int) -> int:
    if not text:
        return 0
    parsed = money.parse_decimal(text)
    if parsed is None:
        raise RenderError("invalid-amount", f"'{text}' is not a decimal string such as \"2.50\"", "tip")
    if parsed.is_negative:
        raise RenderError("invalid-amount", f"'{text}' is negative", "tip")
    if parsed.compare_to_integer(MAXIMUM_TIP) > 0:
        raise RenderError("invalid-amount", f"'{text}' is more than the {MAXIMUM_TIP} accepted", "tip")
    if parsed.fraction_digits > digits:
        raise RenderError(
            "too-many-decimals", f"'{text}' has {parsed.fraction_digits} decimals; {code} has {digits}", "tip"
        )
    minor = money.to_minor_units(parsed, digits)
    if minor is None or not money.fits_int64(minor):
        raise RenderError("invalid-amount", "the order's total is too large to compute exactly", "tip")
    return minor


def settle(
    locale: str, time_zone: str, field: str, checks: LocaleChecks, notes: list[tuple[str, str]]
) -> tuple[str, str]:
    """The locale and time zone to use, the defaults standing in for missing or bad ones (with a
    note saying so), as the Swift ``CustomerSettings.settle``."""
    settled_locale = locale
    if not locale:
        settled_locale = DEFAULT_LOCALE
        notes.append(("locale-defaulted", f"{field} has no locale; used {DEFAULT_LOCALE} from the configuration"))
    elif not checks.is_well_formed_locale(locale):
        settled_locale = DEFAULT_LOCALE
        notes.append(("locale-defaulted", f"{field} locale '{locale}' is not a BCP 47 tag; used {DEFAULT_LOCALE}"))
    settled_zone = time_zone
    if not time_zone:
        settled_zone = DEFAULT_TIME_ZONE
        notes.append(
            ("time-zone-defaulted", f"{field} has no time zone; used {DEFAULT_TIME_ZONE} from the configuration")
        )
    elif not checks.is_known_time_zone(time_zone):
        settled_zone = DEFAULT_TIME_ZONE
        notes.append(
            ("time-zone-defaulted", f"{field} time zone '{time_zone}' is not an IANA zone; used {DEFAULT_TIME_ZONE}")
        )
    return settled_locale, settled_zone
