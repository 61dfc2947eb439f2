"""The Babel backend: Babel's CLDR data with its formatting objects made once and kept — number
patterns per style (with the precision the output needs), list patterns, date patterns per
(time zone, skeleton) with the zone object — for reference against PyICU.

What Babel does not do, this backend adds as a strong team would, from Babel's own data:
the locale's native digits (Babel formats with Latin digits and native symbols), date skeletons
that join a date and a time (Babel matches one skeleton at a time), and list patterns applied
without re-reading them per call.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from babel import Locale
from babel.core import get_global
from babel.dates import DateTimePattern
from babel.dates import parse_pattern as parse_date_pattern
from babel.numbers import NumberPattern
from babel.numbers import parse_pattern as parse_number_pattern

from . import Backend, LocaleFormats

#: Digits of the numbering systems Babel's locales name as their default (CLDR numberingSystems).
NATIVE_DIGITS = {
    "arab": "٠١٢٣٤٥٦٧٨٩",
    "arabext": "۰۱۲۳۴۵۶۷۸۹",
    "beng": "০১২৩৪৫৬৭৮৯",
    "deva": "०१२३४५६७८९",
    "mymr": "၀၁၂၃၄၅၆၇၈၉",
}


class BabelLocale(LocaleFormats):
    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.locale = Locale.parse(tag, sep="-")
        self.is_right_to_left = self.locale.character_order == "right-to-left"
        system = getattr(self.locale, "default_numbering_system", "latn")
        self.numbering_system = system if system in self.locale.number_symbols else "latn"
        digits = NATIVE_DIGITS.get(system)
        self._digits = str.maketrans("0123456789", digits) if digits else None
        self._integer = self._number_pattern(self.locale.decimal_formats[None], (0, 0))
        self._percent = self._number_pattern(self.locale.percent_formats[None], (0, 3))
        self._small = [self._format_number(self._integer, Decimal(value)) for value in range(1024)]
        patterns = self.locale.list_patterns["standard"]
        self._list_two = patterns["2"]
        self._list_start, self._list_middle, self._list_end = patterns["start"], patterns["middle"], patterns["end"]

    @staticmethod
    def _number_pattern(pattern: NumberPattern, fraction: tuple[int, int]) -> NumberPattern:
        made = copy.copy(parse_number_pattern(pattern))
        made.frac_prec = fraction
        return made

    def _format_number(self, pattern: NumberPattern, value: Decimal, **options: object) -> str:
        text = pattern.apply(value, self.locale, numbering_system=self.numbering_system, **options)
        return text.translate(self._digits) if self._digits else text

    def integer(self, value: int) -> str:
        if 0 <= value < 1024:
            return self._small[value]
        return self._format_number(self._integer, Decimal(value))

    def plural_category(self, value: int) -> str:
        return self.locale.plural_form(value)

    def currency(self, code: str, fraction_digits: int) -> Callable[[str], str]:
        pattern = self._number_pattern(self.locale.currency_formats["standard"], (fraction_digits, fraction_digits))
        apply = pattern.apply
        locale, system, digits = self.locale, self.numbering_system, self._digits

        def format(text: str) -> str:
            formatted = apply(Decimal(text), locale, currency=code, currency_digits=False, numbering_system=system)
            return formatted.translate(digits) if digits else formatted

        return format

    def percent(self, fraction_text: str) -> str:
        return self._format_number(self._percent, Decimal(fraction_text))

    def list(self, items: list[str]) -> str:
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        if len(items) == 2:
            return self._list_two.format(items[0], items[1])
        text = self._list_start.format(items[0], items[1])
        for item in items[2:-1]:
            text = self._list_middle.format(text, item)
        return self._list_end.format(text, items[-1])

    def date(self, time_zone: str, skeleton: str) -> Callable[[float], str]:
        pattern: DateTimePattern = parse_date_pattern(self._pattern(skeleton))
        zone = ZoneInfo(time_zone)
        locale, digits = self.locale, self._digits

        def format(seconds: float) -> str:
            text = pattern.apply(datetime.fromtimestamp(seconds, zone), locale)
            return text.translate(digits) if digits else text

        return format

    def _pattern(self, skeleton: str) -> str:
        """A pattern for a skeleton: ``j`` as the locale's hour, a date part and a time part each
        matched in CLDR's available formats, joined with the locale's short date-time glue."""
        time_short = str(self.locale.time_formats["short"].pattern)
        date_part = "".join(char for char in skeleton if char in "GyYuQqMLwWdDFgEec")
        time_part = "".join(char for char in skeleton if char not in date_part)
        time_pattern = ""
        if time_part:
            if time_part.replace("j", "") == "m":
                time_pattern = time_short
            else:
                hour = "h" if "h" in time_short else "H"
                time_pattern = str(self.locale.datetime_skeletons.get(time_part.replace("j", hour), time_short))
        date_pattern = str(self.locale.datetime_skeletons[date_part].pattern) if date_part else ""
        if date_pattern and time_pattern:
            glue = self.locale.datetime_formats.get("short") or "{1} {0}"
            return str(glue).replace("{1}", date_pattern).replace("{0}", time_pattern)
        return date_pattern or time_pattern


class BabelBackend(Backend):
    name = "babel"

    def __init__(self) -> None:
        self._currencies = frozenset(get_global("all_currencies"))
        self._fractions = get_global("currency_fractions")

    def locale(self, tag: str) -> LocaleFormats:
        return BabelLocale(tag)

    def currency_digits(self, code: str) -> int | None:
        if code not in self._currencies:
            return None
        return (self._fractions.get(code) or self._fractions["DEFAULT"])[0]
