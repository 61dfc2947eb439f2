#!/usr/bin/env python3
"""The README's "Adding a language" walkthrough, played by a script: a Polish translator filling the
.xcloc `caffe catalog export` wrote, and the team opening a store in Warsaw.

    polish.py translate EXPORT.xcloc    the first draft, as translators often hand one in: the
                                        order lines' agreement markup copied from English, and one
                                        plural category (many) left empty
    polish.py revise EXPORT.xcloc       the draft corrected after `caffe lint --strict` named both:
                                        order lines written so no word has to agree with the number
                                        ("pizza, rozmiar duży × 5"), every plural category filled
    polish.py open-store MENU.json      store-pl-waw (pl-PL, PLN, Europe/Warsaw, 8 % VAT) and a PLN
                                        price for every item and size the menu sells in euros

Each writes the file in place and says what it did. The translations are the script's own.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

# What the translator writes, by (file, unit id). The first draft differs only where DRAFT says.
TRANSLATIONS: dict[tuple[str, str], str] = {}


def translate(file: str, entries: dict[str, str]) -> None:
    for unit, text in entries.items():
        TRANSLATIONS[(file, unit)] = text


translate("Localizable.xcstrings", {
    "%1$@ (%2$@ each): %3$@": "%1$@ (%2$@ za szt.): %3$@",
    "%1$@: %2$@": "%1$@: %2$@",
    "%@ ordered %lld coffees": "%1$@ zamawia %#@coffees@",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.one": "%arg kawę",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.few": "%arg kawy",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.many": "%arg kaw",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.other": "%arg kawy",
    # Polish has no agreement rules here: the size agrees with "rozmiar", never with the item.
    "%lld %@ %@": "%3$@, rozmiar %2$@ × %1$lld",
    "%lld items|==|plural.one": "%lld produkt",
    "%lld items|==|plural.few": "%lld produkty",
    "%lld items|==|plural.many": "%lld produktów",
    "%lld items|==|plural.other": "%lld produktu",
    "Add %lld %@ %@ to your order": "Dodaj do zamówienia: %3$@, rozmiar %2$@ × %1$lld",
    "Coffee with %lld %@": "Kawa z dodatkiem: %2$@ × %1$lld",
    "Fast & Delicious Food": "^[Szybkie](rainbow: 'fun') i ^[pyszne](rainbow: 'extreme') jedzenie",
    "Open your receipt|==|device.applewatch": "Otwórz paragon na iPhonie",
    "Open your receipt|==|device.other": "Stuknij, aby otworzyć paragon",
    "Order #%@": "Zamówienie nr %@",
    "Our %@ is made from: %@.": "Skład – %1$@: %2$@.",
    "Subtotal": "Suma częściowa",
    "Tax (%@)": "VAT (%@)",
    "Thank you": "**Dziękujemy!** _Odwiedź naszą [stronę](https://caffe.example.com)._",
    "Tip": "Napiwek",
    "Total": "Razem",
    "Welcome": "Witamy",
    "Welcome, %@!": "Witaj, %@!",
    "You ordered %@.": "Twoje zamówienie: %@.",
    "Your order will be ready at %@": "Twoje zamówienie będzie gotowe o %@",
})
translate("en.lproj/Menu.strings", {
    "bread": "chleb", "cafe_au_lait": "kawa z mlekiem", "cheese": "ser", "coffee": "kawa",
    "coffee_beans": "ziarna kawy", "cucumber": "ogórek", "flour": "mąka", "ham": "szynka", "juice": "sok",
    "large": "duży", "lettuce": "sałata", "milk": "mleko", "olive_oil": "oliwa z oliwek",
    "oranges": "pomarańcze", "pizza": "pizza", "prosciutto": "prosciutto", "salad": "sałatka",
    "sandwich": "kanapka", "small": "mały", "store_name": "Caffé", "tomatoes": "pomidory", "water": "woda",
    "water_bottle": "butelka wody",
})
translate("en.lproj/Menu.stringsdict", {
    "/cortadito:dict/NSStringLocalizedFormatKey:dict/:string": "%#@name@",
    **{f"/cortadito:dict/name:dict/{category}:dict/:string": "cortadito" for category in ("one", "few", "many", "other")},
})
translate("en.lproj/Receipt.stringsdict", {
    "/%1$@ added %2$lld %3$@:dict/NSStringLocalizedFormatKey:dict/:string": "%1$@ dodaje %2$#@items@",
    **{f"/%1$@ added %2$lld %3$@:dict/items:dict/{category}:dict/:string": "%2$lld × %3$@"
       for category in ("one", "few", "many", "other")},
    "/%1$lld lines, %2$lld items:dict/NSStringLocalizedFormatKey:dict/:string": "%1$#@lines@, %2$#@items@",
    "/%1$lld lines, %2$lld items:dict/items:dict/one:dict/:string": "%2$lld produkt",
    "/%1$lld lines, %2$lld items:dict/items:dict/few:dict/:string": "%2$lld produkty",
    "/%1$lld lines, %2$lld items:dict/items:dict/many:dict/:string": "%2$lld produktów",
    "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string": "%2$lld produktu",
    "/%1$lld lines, %2$lld items:dict/lines:dict/one:dict/:string": "%1$lld pozycja",
    "/%1$lld lines, %2$lld items:dict/lines:dict/few:dict/:string": "%1$lld pozycje",
    "/%1$lld lines, %2$lld items:dict/lines:dict/many:dict/:string": "%1$lld pozycji",
    "/%1$lld lines, %2$lld items:dict/lines:dict/other:dict/:string": "%1$lld pozycji",
    "/%lld free coffees:dict/NSStringLocalizedFormatKey:dict/:string": "%#@coffees@",
    "/%lld free coffees:dict/coffees:dict/zero:dict/:string": "Jeszcze nie masz darmowej kawy",
    "/%lld free coffees:dict/coffees:dict/one:dict/:string": "%lld darmowa kawa",
    "/%lld free coffees:dict/coffees:dict/few:dict/:string": "%lld darmowe kawy",
    "/%lld free coffees:dict/coffees:dict/many:dict/:string": "%lld darmowych kaw",
    "/%lld free coffees:dict/coffees:dict/other:dict/:string": "%lld darmowej kawy",
})

# The first draft: the order lines' markup copied from the English source, and "many" forgotten.
DRAFT: dict[tuple[str, str], str | None] = {
    ("Localizable.xcstrings", "%lld %@ %@"): "^[%1$lld %2$@ %3$@](inflect: true)",
    ("Localizable.xcstrings", "Add %lld %@ %@ to your order"): "Dodaj ^[%1$lld %2$@ %3$@](inflect: true) do zamówienia",
    ("Localizable.xcstrings", "Coffee with %lld %@"): "Kawa ^[z %lld %@](inflect: true)",
    ("Localizable.xcstrings", "%lld items|==|plural.many"): None,
}

FILE = re.compile(r'(<file original=")([^"]*)(".*?</file>)', re.S)
UNIT = re.compile(r'(<trans-unit id=")([^"]*)(".*?</trans-unit>)', re.S)
TARGET = re.compile(r"<target[^>]*?(/>|>.*?</target>)", re.S)


def fill(xliff: Path, draft: bool) -> None:
    text = xliff.read_text(encoding="utf-8")
    filled = left = 0

    def unit(match: re.Match, file: str) -> str:
        nonlocal filled, left
        key = (file, html.unescape(match.group(2)))
        value = DRAFT.get(key, TRANSLATIONS.get(key)) if draft and key in DRAFT else TRANSLATIONS.get(key)
        if value is None:
            left += 1
            return match.group(0)
        filled += 1
        target = f'<target state="translated">{html.escape(value, quote=False)}</target>'
        return match.group(1) + match.group(2) + TARGET.sub(lambda _: target, match.group(3), count=1)

    def file(match: re.Match) -> str:
        name = html.unescape(match.group(2))
        return match.group(1) + match.group(2) + UNIT.sub(lambda found: unit(found, name), match.group(3))

    xliff.write_text(FILE.sub(file, text), encoding="utf-8")
    print(f"polish.py: {filled} units translated, {left} left empty in {xliff}")


def open_store(menu_path: Path) -> None:
    menu = json.loads(menu_path.read_text(encoding="utf-8"))
    if not any(store["id"] == "store-pl-waw" for store in menu["stores"]):
        menu["stores"].append({
            "id": "store-pl-waw", "locale": "pl-PL", "currency": "PLN", "timeZone": "Europe/Warsaw",
            "taxRate": "0.08",
        })
    priced = 0
    for item in menu["items"]:
        for size, prices in item["prices"].items():
            if "EUR" in prices and "PLN" not in prices:
                prices["PLN"] = f"{round(float(prices['EUR']) * 4.3)}.00"
                priced += 1
    menu_path.write_text(json.dumps(menu, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"polish.py: store-pl-waw (pl-PL, PLN) and {priced} PLN prices in {menu_path}")


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ("translate", "revise", "open-store"):
        sys.exit(__doc__)
    command, path = sys.argv[1], Path(sys.argv[2])
    if command == "open-store":
        open_store(path)
    else:
        fill(path / "Localized Contents" / "pl.xliff" if path.is_dir() else path, draft=command == "translate")


if __name__ == "__main__":
    main()
