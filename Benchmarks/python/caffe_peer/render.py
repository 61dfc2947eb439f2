"""Confirmations and receipts, as the Swift ``RenderSession`` renders them.

Everything that repeats from order to order is compiled once per locale by
:class:`LocaleResources` — catalog templates (Markdown, agreement markup), the menu's names, the
constant texts (store, slogan, labels, thanks) in all three forms, texts with a hole for per-order
plain text (order number, amount, time), order lines and receipt lines per (quantity, size, item,
term of address[, currency]), ingredient sentences, formatters per currency and per (time zone,
skeleton), formatted amounts. An order then only formats its dates and new amounts, joins a list
and assembles strings and protobuf messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from caffe_client.proto.caffe.v1 import order_pb2, rendering_pb2

from . import markup, money
from .backends import Backend, LocaleFormats
from .catalog import DEFAULT_TABLE, Catalog, Plural
from .grammar import Grammar, Piece, grammar_for
from .markup import FSI, HOLE, NO_ATTRS, PDI, Elem, Node, Styled
from .menu import Item, Menu, PricedLine, PricedOrder, RenderError, price

# The catalog keys the core renders (the Swift ``CatalogKeys``).
GREETING = "Welcome, %@!"
WELCOME = "Welcome"
ORDER_LINE = "%lld %@ %@"
SUMMARY = "You ordered %@."
ITEM_COUNT = "%lld items"
PICKUP = "Your order will be ready at %@"
ORDER_NUMBER = "Order #%@"
RECEIPT_LINE = "%1$@ (%2$@ each): %3$@"
LABELLED_AMOUNT = "%1$@: %2$@"
SUBTOTAL = "Subtotal"
TAX = "Tax (%@)"
TIP = "Tip"
TOTAL = "Total"
INGREDIENTS = "Our %@ is made from: %@."
THANK_YOU = "Thank you"
SLOGAN = "Fast & Delicious Food"
STORE_NAME = "store_name"

#: Skeletons of the dates an order shows: the receipt's date and time, the pickup time.
PLACED_AT_SKELETON = "yMdjm"
PICKUP_SKELETON = "jm"

#: Bound on every per-locale cache that grows with the input (as in the Swift core).
CACHE_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class Prepared:
    """A text rendered once: its tree (for composing) and its three forms."""

    nodes: list[Node]
    styled: Styled

    @staticmethod
    def of(nodes: list[Node]) -> Prepared:
        return Prepared(nodes, markup.styled(nodes))


# MARK: Templates


class Template:
    """A catalog string compiled once: Markdown parsed around slot markers, agreement spans found."""

    def __init__(self, source: str) -> None:
        self.source = source
        marked, self.slots = markup.find_specifiers(source)
        self.nodes = markup.parse_inline(marked)
        self.spans = _agreement_spans(self.nodes)

    def slots_in_spans(self) -> set[int]:
        """Arguments (0-based) whose text agreement reads or rewrites."""
        used: set[int] = set()
        for span in self.spans:
            used.update(self.slots[slot].argument for slot in markup.slots_in(span.children))
            target = (span.attributes or {}).get("agreeWithArgument")
            if isinstance(target, int):
                used.add(target - 1)
        return used


def _agreement_spans(nodes: Sequence[Node]) -> list[Elem]:
    found: list[Elem] = []
    for node in nodes:
        if isinstance(node, Elem):
            if node.kind == "attrs" and markup.AGREEMENT_KEYS & (node.attributes or {}).keys():
                found.append(node)
            found.extend(_agreement_spans(node.children))
    return found


class PlainTemplate:
    """A plural variant or other text rendered without Markdown (``pluralText``)."""

    def __init__(self, source: str) -> None:
        marked, self.slots = markup.find_specifiers(source)
        self.pieces = [(ord(char) - markup.SLOT_BASE) if ord(char) >= markup.SLOT_BASE else char for char in marked]


# Argument values: int (counts), str (text), or a list of nodes (a document for a placeholder).
Argument = int | str | list


class LocaleResources:
    """Everything one locale needs, compiled on first use and kept (one per worker process)."""

    def __init__(self, tag: str, core: Core) -> None:
        self.tag = tag
        self.core = core
        try:
            self.formats: LocaleFormats = core.backend.locale(tag)
        except Exception as error:  # ICU or Babel cannot serve the tag at all
            raise RenderError("render-failed", f"cannot serve '{tag}': {error}", "customer.locale") from error
        catalog = core.catalog
        self.localizations = catalog.matcher.localizations(tag)
        found = catalog.value(SUMMARY, DEFAULT_TABLE, self.localizations)
        self.localization = found[1] if found else catalog.development_language
        self.is_right_to_left = self.formats.is_right_to_left
        self.isolates = self.is_right_to_left
        self.fallback_note = (
            None
            if catalog.matcher.is_supported(tag)
            else (
                "localization-fallback",
                f"no localization serves '{tag}'; using the development language '{catalog.development_language}'",
            )
        )
        self.grammar: Grammar = grammar_for(self.localization, self._agreement_plurals())
        self._templates: dict[str, Template] = {}
        self._names: dict[str, str] = {}
        self._slots: dict[tuple, Styled | None] = {}
        self._order_lines: dict[tuple, Prepared] = {}
        self.receipt_lines: dict[tuple, PreparedReceiptLine] = {}
        self._ingredients: dict[str, Prepared] = {}
        self._tax_labels: dict[str, Prepared] = {}
        self._item_counts: dict[int, Styled] = {}
        self._currencies: dict[str, tuple[Callable[[str], str], dict[int, str]]] = {}
        self._dates: dict[tuple[str, str], Callable[[float], str]] = {}
        self._greetings: dict[int, Prepared] = {}
        self._plural_templates: dict[str, PlainTemplate] = {}
        self.store_name = self.name(STORE_NAME)
        self.store_header = Prepared.of([self.store_name])
        self.slogan = self._constant(SLOGAN)
        self.thank_you = self._constant(THANK_YOU)
        self.subtotal_label = self._constant(SUBTOTAL)
        self.tip_label = self._constant(TIP)
        self.total_label = self._constant(TOTAL)

    def _agreement_plurals(self) -> Callable[[int], str]:
        # Agreement follows the language of the text, not the customer's locale.
        if self.localization == self.tag:
            return self.formats.plural_category
        try:
            return self.core.backend.locale(self.localization).plural_category
        except Exception:
            return self.formats.plural_category

    # Catalog texts

    def template(self, key: str) -> Template:
        made = self._templates.get(key)
        if made is None:
            found = self.core.catalog.value(key, DEFAULT_TABLE, self.localizations)
            source = found[0] if found and isinstance(found[0], str) else key
            try:
                made = Template(source)
            except Exception as error:
                raise RenderError(
                    "render-failed", f"'{key}' in {self.localization} does not compile: {error}"
                ) from error
            self._templates[key] = made
        return made

    def format_argument(self, value: Argument, slot: markup.Slot) -> str:
        """One argument formatted for its specifier in this locale (isolated in RTL locales)."""
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise RenderError("render-failed", f"cannot format {value!r} for %{slot.conversion}")
        if isinstance(value, int):
            if slot.conversion in "sScC":
                raise RenderError("render-failed", f"argument {slot.argument + 1} is the integer '{value}'")
            text = self.formats.integer(value)
        else:
            if slot.conversion not in "@sS":
                raise RenderError("render-failed", f"argument {slot.argument + 1} is the text '{value}'")
            text = value
        return FSI + text + PDI if self.isolates else text

    def document(self, key: str, arguments: Sequence[Argument], term_of_address: int = 0) -> list[Node]:
        """The catalog string ``key`` with ``arguments``, Markdown parsed and agreement applied."""
        template = self.template(key)
        slots = template.slots
        for slot in slots:
            if slot.argument >= len(arguments):
                raise RenderError(
                    "render-failed",
                    f"'{key}' in {self.localization}: %{slot.conversion} needs argument {slot.argument + 1}, "
                    f"but {len(arguments)} were given",
                )
        texts: dict[int, str] = {}
        for index, slot in enumerate(slots):
            value = arguments[slot.argument]
            if not isinstance(value, list):
                texts[index] = self.format_argument(value, slot)
        nodes = template.nodes
        if template.spans:
            nodes = self._agree(nodes, template, arguments, texts, term_of_address)

        def fill(index: int) -> list[Node]:
            value = arguments[slots[index].argument]
            if isinstance(value, list):
                return [FSI, *value, PDI] if self.isolates else list(value)
            return [texts[index]]

        return markup.substitute(nodes, fill)

    def _agree(
        self,
        nodes: Sequence[Node],
        template: Template,
        arguments: Sequence[Argument],
        texts: dict[int, str],
        term_of_address: int,
    ) -> list[Node]:
        raw = {number + 1: value for number, value in enumerate(arguments)}
        result: list[Node] = []
        for node in nodes:
            if not isinstance(node, Elem):
                result.append(node)
                continue
            attributes = node.attributes or {}
            if node.kind == "attrs" and markup.AGREEMENT_KEYS & attributes.keys() and self.grammar.supported:
                if all(isinstance(child, str) for child in node.children):
                    text = "".join(node.children)  # type: ignore[arg-type]
                    pieces: list[Piece] = []
                    literal: list[str] = []
                    for char in text:
                        if ord(char) >= markup.SLOT_BASE:
                            if literal:
                                pieces.append(Piece("".join(literal)))
                                literal.clear()
                            slot = ord(char) - markup.SLOT_BASE
                            argument = template.slots[slot].argument
                            value = arguments[argument]
                            pieces.append(Piece(texts.get(slot, ""), argument + 1, value))
                        else:
                            literal.append(char)
                    if literal:
                        pieces.append(Piece("".join(literal)))
                    agreed = self.grammar.agree(pieces, attributes, raw, term_of_address)
                    children: list[Node] = [agreed if isinstance(agreed, str) else "".join(agreed)]
                    result.append(Elem(node.kind, children, node.destination, node.title, node.attributes))
                    continue
            result.append(
                Elem(
                    node.kind,
                    self._agree(node.children, template, arguments, texts, term_of_address),
                    node.destination,
                    node.title,
                    node.attributes,
                )
            )
        return result

    def _constant(self, key: str) -> Prepared:
        return Prepared.of(self.document(key, []))

    def slot_text(self, key: str, label: Prepared | None = None, term_of_address: int = 0) -> Styled | None:
        """``key`` rendered once with ``label`` (if any) in its first slot and a hole in the next,
        for per-order plain text; ``None`` when agreement reads the hole."""
        slot_key = (key, label.styled.plain if label else None, term_of_address)
        if slot_key in self._slots:
            return self._slots[slot_key]
        template = self.template(key)
        hole_argument = 1 if label else 0
        made: Styled | None = None
        if hole_argument not in template.slots_in_spans():
            arguments: list[Argument] = [label.nodes, HOLE] if label else [HOLE]
            made = markup.styled(self.document(key, arguments, term_of_address))
        if len(self._slots) >= CACHE_LIMIT:
            self._slots.clear()
        self._slots[slot_key] = made
        return made

    def filled(self, key: str, value: str, term_of_address: int = 0) -> Styled:
        """The catalog string ``key`` with ``value`` as its argument."""
        slot = self.slot_text(key, term_of_address=term_of_address)
        if slot is not None:
            return slot.fill(value)
        return markup.styled(self.document(key, [value], term_of_address))

    def name(self, key: str) -> str:
        """A name from the menu's table (item, size, ingredient, store)."""
        known = self._names.get(key)
        if known is None:
            found = self.core.catalog.value(key, self.core.menu.name_table, self.localizations)
            known = found[0] if found and isinstance(found[0], str) else key
            self._names[key] = known
        return known

    def plural_text(self, key: str, count: int) -> str:
        """A catalog string with plural variants as plain text (no Markdown), for ``count``."""
        found = self.core.catalog.value(key, DEFAULT_TABLE, self.localizations)
        value = found[0] if found else key
        if isinstance(value, Plural):
            value = value.select(self.formats.plural_category(count))
        template = self._plural_templates.get(value)
        if template is None:
            template = self._plural_templates[value] = PlainTemplate(value)
        out: list[str] = []
        for piece in template.pieces:
            if isinstance(piece, int):
                out.append(self.format_argument(count, template.slots[piece]))
            else:
                out.append(piece)
        return "".join(out)

    # Order texts

    def greeting(self, name: str, term_of_address: int) -> Styled:
        if not name:
            made = self._greetings.get(term_of_address)
            if made is None:
                made = self._greetings[term_of_address] = Prepared.of(self.document(WELCOME, [], term_of_address))
            return made.styled
        return self.filled(GREETING, name, term_of_address)

    def order_line(self, line: PricedLine, term_of_address: int) -> Prepared:
        """ "2 large pizzas", agreed once per (quantity, size, item, term of address)."""
        key = (line.quantity, line.size.id, line.item.id, term_of_address)
        made = self._order_lines.get(key)
        if made is None:
            made = Prepared.of(
                self.document(
                    ORDER_LINE,
                    [line.quantity, self.name(line.size.name_key), self.name(line.item.name_key)],
                    term_of_address,
                )
            )
            if len(self._order_lines) >= CACHE_LIMIT:
                self._order_lines.clear()
            self._order_lines[key] = made
        return made

    def item_count(self, quantity: int) -> Styled:
        made = self._item_counts.get(quantity)
        if made is None:
            made = Styled.unstyled(self.plural_text(ITEM_COUNT, quantity))
            if len(self._item_counts) >= CACHE_LIMIT:
                self._item_counts.clear()
            self._item_counts[quantity] = made
        return made

    def ingredient_sentence(self, item: Item) -> Prepared:
        made = self._ingredients.get(item.id)
        if made is None:
            ingredients = self.formats.list([self.name(key) for key in item.ingredient_keys])
            made = Prepared.of(self.document(INGREDIENTS, [self.name(item.name_key), ingredients]))
            self._ingredients[item.id] = made
        return made

    def tax_label(self, rate_text: str) -> Prepared:
        made = self._tax_labels.get(rate_text)
        if made is None:
            made = Prepared.of(self.document(TAX, [self.formats.percent(rate_text)]))
            self._tax_labels[rate_text] = made
        return made

    def summary(self, lines: list[Prepared]) -> Styled:
        """The order lines as the locale lists them, each keeping its styling."""
        pieces = self.formats.list_pieces([line.styled.plain for line in lines])
        return concat([lines[piece].styled if isinstance(piece, int) else Styled.unstyled(piece) for piece in pieces])

    # Formatters

    def amount(self, minor_units: int, currency: str, fraction_digits: int) -> str:
        """An amount formatted in ``currency``, each amount formatted once (at most 4096 kept)."""
        entry = self._currencies.get(currency)
        if entry is None:
            entry = self._currencies[currency] = (self.formats.currency(currency, fraction_digits), {})
        formatter, formatted = entry
        made = formatted.get(minor_units)
        if made is None:
            made = formatter(money.wire_text(minor_units, fraction_digits))
            if len(formatted) >= CACHE_LIMIT:
                formatted.clear()
            formatted[minor_units] = made
        return made

    def date(self, time_zone: str, skeleton: str) -> Callable[[float], str]:
        key = (time_zone, skeleton)
        made = self._dates.get(key)
        if made is None:
            try:
                made = self.formats.date(time_zone, skeleton)
            except Exception as error:
                raise RenderError("render-failed", str(error), "customer.timeZone") from error
            if len(self._dates) >= 1024:
                self._dates.clear()
            self._dates[key] = made
        return made


def concat(pieces: Sequence[Styled]) -> Styled:
    """Styled texts end to end, runs merged across the seams."""
    plain, runs = markup.join_styled(pieces, separator="")
    return Styled(plain, tuple(runs), "".join([piece.html for piece in pieces]))


def fill_document(slot: Styled, document: Styled) -> Styled | None:
    """``slot`` with ``document`` in its hole, or ``None`` when the hole is styled (then the tree
    must be substituted)."""
    runs: list[Styled] = []
    for text, attrs in slot.runs:
        if HOLE in text:
            if attrs != NO_ATTRS:
                return None
            before, _, after = text.partition(HOLE)
            runs += [Styled.unstyled(before), document, Styled.unstyled(after)]
        else:
            runs.append(Styled(text, ((text, attrs),), ""))
    plain, merged = markup.join_styled(runs, separator="")
    return Styled(plain, tuple(merged), slot.html.replace(HOLE, document.html))


# MARK: Wire messages


#: An attributed run per attribute set, to copy the attributes from (a map copied in C).
_RUN_ATTRIBUTES: dict[markup.Attrs, rendering_pb2.AttributedRun] = {}


def put(target: rendering_pb2.StyledText, plain: str, runs: Sequence[tuple[str, markup.Attrs]], html: str = "") -> None:
    """Fills a message's StyledText field in place (cheaper than building one and copying it)."""
    target.plain = plain
    add = target.runs.add
    for text, attrs in runs:
        if attrs:
            model = _RUN_ATTRIBUTES.get(attrs)
            if model is None:
                if len(_RUN_ATTRIBUTES) >= CACHE_LIMIT:
                    _RUN_ATTRIBUTES.clear()
                model = _RUN_ATTRIBUTES[attrs] = rendering_pb2.AttributedRun(attributes=dict(attrs))
            run = add()
            run.MergeFrom(model)
            run.text = text
        else:
            add(text=text)
    if html:
        target.html = html


def put_styled(target: rendering_pb2.StyledText, styled: Styled) -> None:
    put(target, styled.plain, styled.runs)


@dataclass(slots=True)
class PreparedReceiptLine:
    """One receipt line in the receipt's text, as an HTML row and as its wire message."""

    styled: Styled
    html_row: str
    message: rendering_pb2.ReceiptLine


def timestamp_text(seconds: int) -> str:
    """ISO 8601 in UTC to the second, for ``<time datetime>``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


# MARK: The core


class Core:
    """The formatting core of one process: catalog, menu and backend, and the resources of each
    locale seen so far (at most 256, as the Swift session keeps)."""

    def __init__(self, config: Path, backend: Backend) -> None:
        self.backend = backend
        self.catalog = Catalog(config / "Localizations")
        self.menu = Menu.load(config / "menu.json", backend)
        self._locales: dict[str, LocaleResources] = {}

    def resources(self, tag: str) -> LocaleResources:
        made = self._locales.get(tag)
        if made is None:
            made = LocaleResources(tag, self)
            if len(self._locales) >= 256:
                self._locales.clear()
            self._locales[tag] = made
        return made

    def render(self, event: order_pb2.OrderEvent) -> tuple[rendering_pb2.Confirmation, rendering_pb2.Receipt]:
        """Checks, prices and renders an order; raises :class:`RenderError`."""
        order = price(event, self.menu, self.backend, self.backend)
        resources = self.resources(order.locale)
        notes = [rendering_pb2.RenderNote(code=code, detail=detail) for code, detail in order.notes]
        if resources.fallback_note:
            notes.append(rendering_pb2.RenderNote(code=resources.fallback_note[0], detail=resources.fallback_note[1]))
        toa = order.term_of_address
        if toa not in (1, 2, 3):
            toa = 0
        lines = [resources.order_line(line, toa) for line in order.lines]
        ref = rendering_pb2.EventRef(source_id=event.source_id, sequence=event.sequence, order_id=event.order_id)
        confirmation = self._confirmation(order, lines, resources, ref, toa)
        receipt = self._receipt(order, lines, resources, ref, toa)
        confirmation.notes.extend(notes)
        receipt.notes.extend(notes)
        return confirmation, receipt

    def _confirmation(
        self, order: PricedOrder, lines: list[Prepared], resources: LocaleResources, ref, toa: int
    ) -> rendering_pb2.Confirmation:
        event = order.event
        greeting = resources.greeting(event.customer.name, toa)
        summary = resources.summary(lines)
        slot = resources.slot_text(SUMMARY, term_of_address=toa)
        sentence = fill_document(slot, summary) if slot is not None else None
        if sentence is None:
            summary_nodes: list[Node] = []
            for piece in resources.formats.list_pieces([line.styled.plain for line in lines]):
                summary_nodes += lines[piece].nodes if isinstance(piece, int) else [piece]
            sentence = markup.styled(resources.document(SUMMARY, [summary_nodes], toa))
        quantity = sum(line.quantity for line in order.lines)
        item_count = resources.item_count(quantity)
        pieces = [greeting, sentence, item_count]
        pickup = None
        if event.HasField("pickup_at"):
            pickup_at = event.pickup_at
            ready_at = resources.date(order.time_zone, PICKUP_SKELETON)(pickup_at.seconds + pickup_at.nanos / 1e9)
            pickup = resources.filled(PICKUP, ready_at, toa)
            pieces.append(pickup)
        plain, runs = markup.join_styled(pieces)
        confirmation = rendering_pb2.Confirmation(ref=ref, locale=resources.localization)
        put_styled(confirmation.greeting, greeting)
        put_styled(confirmation.summary, summary)
        put_styled(confirmation.item_count, item_count)
        if pickup is not None:
            put_styled(confirmation.pickup, pickup)
        put(confirmation.text, plain, runs)
        return confirmation

    def _receipt(
        self, order: PricedOrder, lines: list[Prepared], resources: LocaleResources, ref, toa: int
    ) -> rendering_pb2.Receipt:
        event = order.event
        digits = order.fraction_digits
        currency = order.currency
        number_slot = resources.slot_text(ORDER_NUMBER)
        number = (
            number_slot.fill(event.order_id)
            if number_slot
            else markup.styled(resources.document(ORDER_NUMBER, [event.order_id]))
        )
        placed = event.placed_at
        placed_at = resources.date(order.time_zone, PLACED_AT_SKELETON)(placed.seconds + placed.nanos / 1e9)
        html = [
            '<article class="caffe-receipt" lang="',
            markup.escape(order.locale),
            '" dir="',
            "rtl" if resources.is_right_to_left else "ltr",
            '">\n<header>\n<h1>',
            resources.store_header.styled.html,
            '</h1>\n<p class="slogan">',
            resources.slogan.styled.html,
            '</p>\n</header>\n<p class="order-number">',
            number.html,
            '</p>\n<p class="placed-at"><time datetime="',
            timestamp_text(placed.seconds),
            '">',
            markup.escape(placed_at),
            "</time></p>\n",
        ]
        pieces = [resources.store_header.styled, resources.slogan.styled, number, Styled.unstyled(placed_at)]
        receipt = rendering_pb2.Receipt(
            ref=ref,
            locale=resources.localization,
            currency_code=currency,
            subtotal=money.wire_text(order.subtotal, digits),
            tax=money.wire_text(order.tax, digits),
            tax_rate=order.store.tax_rate_text,
            tip=money.wire_text(order.tip, digits),
            total=money.wire_text(order.total, digits),
        )
        rows: list[str] = []
        for line, description in zip(order.lines, lines):
            prepared = self._receipt_line(line, order, description, resources, toa)
            pieces.append(prepared.styled)
            rows.append(prepared.html_row)
            receipt.lines.append(prepared.message)
        totals = [
            (resources.subtotal_label, order.subtotal, False),
            (resources.tax_label(order.store.tax_rate_text), order.tax, False),
        ]
        if event.tip:
            totals.append((resources.tip_label, order.tip, False))
        totals.append((resources.total_label, order.total, True))
        total_rows: list[str] = []
        for label, value, is_total in totals:
            formatted = resources.amount(value, currency, digits)
            slot = resources.slot_text(LABELLED_AMOUNT, label=label)
            if slot is not None:
                pieces.append(slot.fill(formatted))
            else:
                pieces.append(markup.styled(resources.document(LABELLED_AMOUNT, [label.nodes, formatted])))
            total_rows.append(
                ('<tr class="total">' if is_total else "<tr>")
                + '<th scope="row">'
                + label.styled.html
                + "</th><td>"
                + markup.escape(formatted)
                + "</td></tr>\n"
            )
        seen: set[str] = set()
        sentences: list[str] = []
        for line in order.lines:
            if line.item.category != "food" or line.quantity == 0 or line.item.id in seen:
                continue
            seen.add(line.item.id)
            sentence = resources.ingredient_sentence(line.item)
            pieces.append(sentence.styled)
            sentences.append(sentence.styled.html)
        pieces.append(resources.thank_you.styled)
        html.append('<table class="lines">\n')
        html += rows
        html.append('</table>\n<table class="totals">\n')
        html += total_rows
        html.append("</table>\n")
        for sentence_html in sentences:
            html += ('<p class="ingredients">', sentence_html, "</p>\n")
        html += ('<p class="thanks">', resources.thank_you.styled.html, "</p>\n</article>\n")
        plain, runs = markup.join_styled(pieces)
        put(receipt.text, plain, runs, "".join(html))
        return receipt

    def _receipt_line(
        self, line: PricedLine, order: PricedOrder, description: Prepared, resources: LocaleResources, toa: int
    ) -> PreparedReceiptLine:
        """ "2 large pizzas ($14.25 each): $28.50" in every form, made once per line and currency."""
        key = (line.quantity, line.size.id, line.item.id, toa, order.currency)
        made = resources.receipt_lines.get(key)
        if made is not None:
            return made
        unit = resources.amount(line.unit_price, order.currency, order.fraction_digits)
        total = resources.amount(line.line_price, order.currency, order.fraction_digits)
        styled = markup.styled(resources.document(RECEIPT_LINE, [description.nodes, unit, total]))
        row = (
            '<tr><td class="description">'
            + description.styled.html
            + '</td><td class="unit-price">'
            + markup.escape(unit)
            + '</td><td class="line-price">'
            + markup.escape(total)
            + "</td></tr>\n"
        )
        message = rendering_pb2.ReceiptLine(
            unit_price=money.wire_text(line.unit_price, order.fraction_digits),
            line_price=money.wire_text(line.line_price, order.fraction_digits),
        )
        put_styled(message.description, description.styled)
        put_styled(message.formatted_price, Styled.unstyled(total))
        made = PreparedReceiptLine(styled, row, message)
        if len(resources.receipt_lines) >= CACHE_LIMIT:
            resources.receipt_lines.clear()
        resources.receipt_lines[key] = made
        return made
