"""The PyICU backend: ICU's own formatters, each made once per (locale, currency, style or
skeleton) and kept — the same ICU calls the Swift core makes, through PyICU.

Debian's ICU is 72 (CLDR 42). The Swift worker formats with the toolchain's ICU 76
(swift-foundation-icu), whose data differs from it for three of the load generator's locales:
es-MX uses a 12-hour clock with "p.m." (newer CLDR, as in Babel 2.17), Japanese writes the yen
"\u00a5" rather than the fullwidth "\uffe5", and Egyptian Arabic has a no-break space before the
day period (these two are not in Babel 2.17's CLDR either). The ``SWIFT_ICU_*``
tables pin that data (on by default; ``match_swift_icu=False`` shows ICU 72's own). The pins change
what ICU is given (a pattern, a symbol), never the cost of a call. Behaviours of the Swift side
are kept the same way: ICU 76's number formats group by the locale's minimum grouping digits
("1430,00 €" in Spanish; ICU 72's DecimalFormat ignores them, so its formats go through
NumberFormatter with AUTO grouping), ICU 76 wraps list items that do not start right to left in
bidi isolates in right-to-left locales (ICU 72 does not), and Foundation asks for flexible day
periods (``C`` for ``j``) in 12-hour zh-TW.

ICU 72's time-zone rules are tz 2022e, older than Mexico's abolition of daylight saving time
(tz 2022f). With ``os_time_zones`` (the default) the offset of each date comes from the operating
system's tz database (``zoneinfo``) and ICU formats the local wall time — as a team would do
when its ICU lags its OS; skeletons that show a zone keep ICU's rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

import icu

from . import RTL_SCRIPTS, Backend, LocaleFormats

#: Date patterns of the Swift toolchain's ICU where ICU 72 chooses others, by ICU locale ID and
#: skeleton.
SWIFT_ICU_PATTERNS: dict[tuple[str, str], str] = {
    ("es_MX", "yMdjm"): "d/M/y, h:mm\u202fa",
    ("es_MX", "jm"): "h:mm\u202fa",
    ("ar_EG", "yMdjm"): "d\u200f/M\u200f/y\u060c h:mm\u00a0a",
    ("ar_EG", "jm"): "h:mm\u00a0a",
}
#: Day periods of the Swift toolchain's ICU where ICU 72 differs ("p.\u00a0m." → "p.m.").
SWIFT_ICU_DAY_PERIODS: dict[str, list[str]] = {"es_MX": ["a.m.", "p.m."]}
#: Currency symbols of the Swift toolchain's ICU where ICU 72 differs, by language and currency.
SWIFT_ICU_CURRENCY_SYMBOLS: dict[tuple[str, str], str] = {("ja", "JPY"): "\u00a5"}

FSI, PDI = "\u2068", "\u2069"
_SMALL_INTEGERS = 1024
_ZONE_FIELDS = re.compile(r"[zZOvVxX]")


def _base_direction(text: str) -> str:
    """ "L", "R" or "" (neutral): the direction of the first strong character (``ubidi_getBaseDirection``)."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            return "L"
        if kind in ("R", "AL"):
            return "R"
    return ""


def _unquoted(pattern: str) -> str:
    """A date pattern without its quoted literal text."""
    return re.sub(r"'[^']*'", "", pattern)


class PyICULocale(LocaleFormats):
    def __init__(self, tag: str, match_swift_icu: bool, os_time_zones: bool) -> None:
        self.tag = tag
        self.os_time_zones = os_time_zones
        self.locale = icu.Locale.forLanguageTag(tag)
        self.locale_id = self.locale.getName()
        self.match_swift_icu = match_swift_icu
        base = self.locale.getBaseName()
        self.gregorian = icu.Locale(base + "@calendar=gregorian" if "@" not in self.locale_id else self.locale_id)
        likely = icu.Locale(self.locale_id)
        likely.addLikelySubtags()
        self.is_right_to_left = likely.getScript() in RTL_SCRIPTS

        integers = icu.NumberFormat.createInstance(self.locale)
        integers.setMaximumFractionDigits(0)
        integers.setGroupingUsed(True)
        self._integer_format = self._grouped(integers)
        self._small = [self._integer_format.formatInt(value) for value in range(_SMALL_INTEGERS)]
        self._plurals = icu.PluralRules.forLocale(self.locale)
        percent = icu.NumberFormat.createPercentInstance(self.locale)
        percent.setMinimumFractionDigits(0)
        percent.setMaximumFractionDigits(3)
        self._percent = self._grouped(percent)
        self._list = icu.ListFormatter.createInstance(self.locale)
        self._generator = icu.DateTimePatternGenerator.createInstance(self.gregorian)

    def _grouped(self, format: icu.DecimalFormat) -> icu.LocalizedNumberFormatter:
        """The legacy format as a NumberFormatter, grouped as ICU 76 groups (see the module)."""
        formatter = format.toNumberFormatter()
        return formatter.grouping(icu.UNumberGroupingStrategy.AUTO) if self.match_swift_icu else formatter

    def integer(self, value: int) -> str:
        if 0 <= value < _SMALL_INTEGERS:
            return self._small[value]
        return self._integer_format.formatInt(value)

    def plural_category(self, value: int) -> str:
        return self._plurals.select(value)

    def currency(self, code: str, fraction_digits: int) -> Callable[[str], str]:
        format = icu.NumberFormat.createCurrencyInstance(self.locale)
        format.setCurrency(code)
        format.setMinimumFractionDigits(fraction_digits)
        format.setMaximumFractionDigits(fraction_digits)
        format.setRoundingMode(icu.DecimalFormat.kRoundHalfEven)
        symbol = SWIFT_ICU_CURRENCY_SYMBOLS.get((self.locale.getLanguage(), code)) if self.match_swift_icu else None
        if symbol is not None:
            symbols = format.getDecimalFormatSymbols()
            symbols.setSymbol(icu.DecimalFormatSymbols.kCurrencySymbol, symbol)
            format.setDecimalFormatSymbols(symbols)
        formatter = self._grouped(format)
        format_decimal = formatter.formatDecimal
        return lambda text: format_decimal(text.encode("ascii"))

    def percent(self, fraction_text: str) -> str:
        return self._percent.formatDecimal(fraction_text.encode("ascii"))

    def list(self, items: list[str]) -> str:
        if self.is_right_to_left and self.match_swift_icu:
            items = [item if _base_direction(item) == "R" else FSI + item + PDI for item in items]
        return self._list.format(items)

    def date(self, time_zone: str, skeleton: str) -> Callable[[float], str]:
        pattern = SWIFT_ICU_PATTERNS.get((self.locale_id, skeleton)) if self.match_swift_icu else None
        if pattern is None:
            if "j" in skeleton and self.locale.getLanguage() == "zh" and self.locale.getCountry() == "TW":
                hours = self._generator.getBestPattern("j", icu.UDateTimePatternMatchOptions.ALL_FIELDS_LENGTH)
                if "h" in _unquoted(hours) or "K" in _unquoted(hours):
                    skeleton = skeleton.replace("j", "C")
            pattern = self._generator.getBestPattern(skeleton, icu.UDateTimePatternMatchOptions.ALL_FIELDS_LENGTH)
        format = icu.SimpleDateFormat(pattern, self.gregorian)
        day_periods = SWIFT_ICU_DAY_PERIODS.get(self.locale_id) if self.match_swift_icu else None
        if day_periods is not None:
            symbols = format.getDateFormatSymbols()
            symbols.setAmPmStrings(day_periods)
            format.setDateFormatSymbols(symbols)
        if self.os_time_zones and not _ZONE_FIELDS.search(_unquoted(pattern)):
            zone = ZoneInfo(time_zone)
            format.setTimeZone(icu.TimeZone.createTimeZone("Etc/UTC"))
            format_utc = format.format
            from_timestamp = datetime.fromtimestamp

            def format_local(seconds: float) -> str:
                offset = from_timestamp(seconds, zone).utcoffset()
                return format_utc(seconds + offset.total_seconds() if offset else seconds)

            return format_local
        format.setTimeZone(icu.TimeZone.createTimeZone(time_zone))
        return format.format


class PyICUBackend(Backend):
    name = "pyicu"

    def __init__(self, match_swift_icu: bool = True, os_time_zones: bool = True) -> None:
        self.match_swift_icu = match_swift_icu
        self.os_time_zones = os_time_zones
        # Every ISO 4217 code ICU knows, current or withdrawn (old orders replay).
        self._iso_codes = frozenset(unit.getSubtype() for unit in icu.MeasureUnit.getAvailable("currency"))
        self._digits: dict[str, int | None] = {}
        self._digit_probe = icu.NumberFormat.createCurrencyInstance(icu.Locale.getRoot())

    def locale(self, tag: str) -> LocaleFormats:
        return PyICULocale(tag, self.match_swift_icu, self.os_time_zones)

    def currency_digits(self, code: str) -> int | None:
        if code not in self._digits:
            digits = None
            if code in self._iso_codes:
                self._digit_probe.setCurrency(code)
                digits = self._digit_probe.getMaximumFractionDigits()
            self._digits[code] = digits
        return self._digits[code]
