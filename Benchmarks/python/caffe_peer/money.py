"""Money on the wire: decimal strings parsed exactly, amounts kept as integer minor units.

The rules are the Swift core's (``DecimalAmount``, ``Money``): ``-?digits(.digits)?`` with at most
18 digits in all, prices and tips must fit the currency's minor units, and the tax is the only
amount that is rounded — once, half away from zero.
"""

from __future__ import annotations

from dataclasses import dataclass

MAXIMUM_DIGITS = 18


@dataclass(frozen=True, slots=True)
class ParsedDecimal:
    """A decimal string as its digits and scale: "12.50" is ``digits=1250, fraction_digits=2``."""

    digits: int
    fraction_digits: int

    @property
    def is_negative(self) -> bool:
        return self.digits < 0

    def compare_to_integer(self, value: int) -> int:
        """-1, 0 or 1 as this amount is below, equal to or above the integer ``value``."""
        scaled = value * 10**self.fraction_digits
        return (self.digits > scaled) - (self.digits < scaled)


def parse_decimal(text: str) -> ParsedDecimal | None:
    """Parses ``-?digits(.digits)?`` (ASCII only, no exponent, grouping or plus sign), or ``None``."""
    if not text:
        return None
    negative = text[0] == "-"
    body = text[1:] if negative else text
    integer, point, fraction = body.partition(".")
    if not integer or (point and not fraction):
        return None
    if not (integer.isascii() and integer.isdigit()) or (fraction and not (fraction.isascii() and fraction.isdigit())):
        return None
    if len(integer) + len(fraction) > MAXIMUM_DIGITS:
        return None
    digits = int(integer + fraction)
    return ParsedDecimal(-digits if negative else digits, len(fraction))


def to_minor_units(parsed: ParsedDecimal, fraction_digits: int) -> int | None:
    """The amount in minor units of a currency with ``fraction_digits`` digits, or ``None`` when it
    has more digits after the point than that."""
    if parsed.fraction_digits > fraction_digits:
        return None
    return parsed.digits * 10 ** (fraction_digits - parsed.fraction_digits)


def wire_text(minor_units: int, fraction_digits: int) -> str:
    """Minor units as the wire writes them: exactly ``fraction_digits`` digits after the point
    ("25.00", "1800", "3.140", "-0.50")."""
    if fraction_digits == 0:
        return str(minor_units)
    sign = "-" if minor_units < 0 else ""
    digits = str(abs(minor_units)).rjust(fraction_digits + 1, "0")
    return f"{sign}{digits[:-fraction_digits]}.{digits[-fraction_digits:]}"


def multiply_by_rate(minor_units: int, rate: ParsedDecimal) -> int:
    """``minor_units × rate`` rounded to minor units half away from zero (the tax)."""
    divisor = 10**rate.fraction_digits
    product = minor_units * rate.digits
    quotient, remainder = divmod(abs(product), divisor)
    if remainder * 2 >= divisor:
        quotient += 1
    return -quotient if product < 0 else quotient


INT64_MAX = 2**63 - 1


def fits_int64(value: int) -> bool:
    """Whether ``value`` fits the Swift core's 64-bit minor units."""
    return -INT64_MAX - 1 <= value <= INT64_MAX
