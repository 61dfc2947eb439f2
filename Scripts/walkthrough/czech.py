#!/usr/bin/env python3
"""The README's "Adding a language" walkthrough, played by a script: a Czech translator filling the
.xcloc `caffe catalog export` wrote, and the team opening a store in Prague.

    czech.py translate EXPORT.xcloc     the first draft, as translators often hand one in: the
                                        order lines' agreement markup copied from English, and one
                                        plural category (few) left empty
    czech.py revise EXPORT.xcloc        the draft corrected after `caffe lint --strict` named both:
                                        order lines written so no word has to agree with the number
                                        ("pizza, velikost velká × 5"), every plural category filled
    czech.py open-store MENU.json       store-cz-prg (cs-CZ, CZK, Europe/Prague, 12 % VAT) and a CZK
                                        price for every item and size the menu sells in euros

Each writes the file in place and says what it did. The translations are the script's own.
"""

from __future__ import annotations

import html
import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

# What the translator writes, by (file, unit id). The first draft differs only where DRAFT says.
TRANSLATIONS: dict[tuple[str, str], str] = {}


def translate(file: str, entries: dict[str, str]) -> None:
    for unit, text in entries.items():
        TRANSLATIONS[(file, unit)] = text


# Czech plurals (CLDR): one (1), few (2-4), many (decimals: "1,5 položky"), other (0, 5 and up).
translate("Localizable.xcstrings", {
    "%1$@ (%2$@ each): %3$@": "%1$@ (%2$@ za kus): %3$@",
    "%1$@: %2$@": "%1$@: %2$@",
    "%@ ordered %lld coffees": "%1$@ objednává %#@coffees@",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.one": "%arg kávu",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.few": "%arg kávy",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.many": "%arg kávy",
    "%@ ordered %lld coffees|==|substitutions.coffees.plural.other": "%arg káv",
    # Czech has no agreement rules here: the size agrees with "velikost", never with the item.
    "%lld %@ %@": "%3$@, velikost %2$@ × %1$lld",
    "%lld items|==|plural.one": "%lld položka",
    "%lld items|==|plural.few": "%lld položky",
    "%lld items|==|plural.many": "%lld položky",
    "%lld items|==|plural.other": "%lld položek",
    "Add %lld %@ %@ to your order": "Přidat do objednávky: %3$@, velikost %2$@ × %1$lld",
    "Coffee with %lld %@": "Káva s přídavkem: %2$@ × %1$lld",
    "Fast & Delicious Food": "^[Rychlé](rainbow: 'fun') a ^[chutné](rainbow: 'extreme') jídlo",
    "Open your receipt|==|device.applewatch": "Otevřete účtenku v iPhonu",
    "Open your receipt|==|device.other": "Klepnutím otevřete účtenku",
    "Order #%@": "Objednávka č. %@",
    "Our %@ is made from: %@.": "Složení – %1$@: %2$@.",
    "Subtotal": "Mezisoučet",
    "Tax (%@)": "DPH (%@)",
    "Thank you": "**Děkujeme!** _Navštivte naše [stránky](https://caffe.example.com)._",
    "Tip": "Spropitné",
    "Total": "Celkem",
    "Welcome": "Vítejte",
    "Welcome, %@!": "Vítejte, %@!",
    "You ordered %@.": "Vaše objednávka: %@.",
    "Your order will be ready at %@": "Vaše objednávka bude připravena v %@",
})
translate("en.lproj/Menu.strings", {
    "bread": "chléb", "cafe_au_lait": "káva s mlékem", "cheese": "sýr", "coffee": "káva",
    "coffee_beans": "kávová zrna", "cucumber": "okurka", "flour": "mouka", "ham": "šunka", "juice": "džus",
    "large": "velká", "lettuce": "hlávkový salát", "milk": "mléko", "olive_oil": "olivový olej",
    "oranges": "pomeranče", "pizza": "pizza", "prosciutto": "prosciutto", "salad": "salát",
    "sandwich": "sendvič", "small": "malá", "store_name": "Caffé", "tomatoes": "rajčata", "water": "voda",
    "water_bottle": "láhev vody",
})
translate("en.lproj/Menu.stringsdict", {
    "/cortadito:dict/NSStringLocalizedFormatKey:dict/:string": "%#@name@",
    **{f"/cortadito:dict/name:dict/{category}:dict/:string": "cortadito" for category in ("one", "few", "many", "other")},
})
translate("en.lproj/Receipt.stringsdict", {
    "/%1$@ added %2$lld %3$@:dict/NSStringLocalizedFormatKey:dict/:string": "%1$@ přidává %2$#@items@",
    **{f"/%1$@ added %2$lld %3$@:dict/items:dict/{category}:dict/:string": "%2$lld × %3$@"
       for category in ("one", "few", "many", "other")},
    "/%1$lld lines, %2$lld items:dict/NSStringLocalizedFormatKey:dict/:string": "%1$#@lines@, %2$#@items@",
    "/%1$lld lines, %2$lld items:dict/items:dict/one:dict/:string": "%2$lld položka",
    "/%1$lld lines, %2$lld items:dict/items:dict/few:dict/:string": "%2$lld položky",
    "/%1$lld lines, %2$lld items:dict/items:dict/many:dict/:string": "%2$lld položky",
    "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string": "%2$lld položek",
    "/%1$lld lines, %2$lld items:dict/lines:dict/one:dict/:string": "%1$lld řádek",
    "/%1$lld lines, %2$lld items:dict/lines:dict/few:dict/:string": "%1$lld řádky",
    "/%1$lld lines, %2$lld items:dict/lines:dict/many:dict/:string": "%1$lld řádku",
    "/%1$lld lines, %2$lld items:dict/lines:dict/other:dict/:string": "%1$lld řádků",
    "/%lld free coffees:dict/NSStringLocalizedFormatKey:dict/:string": "%#@coffees@",
    "/%lld free coffees:dict/coffees:dict/zero:dict/:string": "Zatím nemáte žádnou kávu zdarma",
    "/%lld free coffees:dict/coffees:dict/one:dict/:string": "%lld káva zdarma",
    "/%lld free coffees:dict/coffees:dict/few:dict/:string": "%lld kávy zdarma",
    "/%lld free coffees:dict/coffees:dict/many:dict/:string": "%lld kávy zdarma",
    "/%lld free coffees:dict/coffees:dict/other:dict/:string": "%lld káv zdarma",
})

# The first draft: the order lines' markup copied from the English source, and "few" forgotten.
DRAFT: dict[tuple[str, str], str | None] = {
    ("Localizable.xcstrings", "%lld %@ %@"): "^[%1$lld %2$@ %3$@](inflect: true)",
    ("Localizable.xcstrings", "Add %lld %@ %@ to your order"): "Přidat ^[%1$lld %2$@ %3$@](inflect: true) do objednávky",
    ("Localizable.xcstrings", "Coffee with %lld %@"): "Káva ^[s %lld %@](inflect: true)",
    ("Localizable.xcstrings", "%lld items|==|plural.few"): None,
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
    print(f"czech.py: {filled} units translated, {left} left empty in {xliff}")


def open_store(menu_path: Path) -> None:
    menu = json.loads(menu_path.read_text(encoding="utf-8"))
    if not any(store["id"] == "store-cz-prg" for store in menu["stores"]):
        menu["stores"].append({
            "id": "store-cz-prg", "locale": "cs-CZ", "currency": "CZK", "timeZone": "Europe/Prague",
            "taxRate": "0.12",
        })
    priced = 0
    for item in menu["items"]:
        for size, prices in item["prices"].items():
            if "EUR" in prices and "CZK" not in prices:
                # The team's rule: 25 CZK a euro, rounded to 5 CZK.
                fives = (Decimal(prices["EUR"]) * 5).quantize(Decimal(1), rounding=ROUND_HALF_UP)
                prices["CZK"] = f"{fives * 5}.00"
                priced += 1
    menu_path.write_text(json.dumps(menu, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"czech.py: store-cz-prg (cs-CZ, CZK) and {priced} CZK prices in {menu_path}")


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ("translate", "revise", "open-store"):
        sys.exit(__doc__)
    command, path = sys.argv[1], Path(sys.argv[2])
    if command == "open-store":
        open_store(path)
    else:
        fill(path / "Localized Contents" / "cs.xliff" if path.is_dir() else path, draft=command == "translate")


if __name__ == "__main__":
    main()
