"""Formatting backends: what a locale needs formatted (money, percentages, integers, lists,
dates, plural categories), behind one interface, from PyICU or from Babel.

A backend makes one :class:`LocaleFormats` per locale and keeps it; every formatter inside is
built once (per currency, per time zone and skeleton) and reused for every order.
"""

from __future__ import annotations

import re
import zoneinfo
from abc import ABC, abstractmethod
from collections.abc import Callable

#: Pieces of a formatted list: literal text, or the index of an item.
ListPiece = str | int


class LocaleFormats(ABC):
    """The formatters of one locale."""

    #: Whether the locale's script runs right to left.
    is_right_to_left: bool

    @abstractmethod
    def integer(self, value: int) -> str:
        """An integer in the locale's digits with grouping (``%lld``)."""

    @abstractmethod
    def plural_category(self, value: int) -> str:
        """The CLDR plural category of an integer (``one``, ``few``, ``other``…)."""

    @abstractmethod
    def currency(self, code: str, fraction_digits: int) -> Callable[[str], str]:
        """A formatter of decimal amount text ("12.50") in ``code``, made once per currency."""

    @abstractmethod
    def percent(self, fraction_text: str) -> str:
        """A fraction ("0.0825") as a percentage with up to three fraction digits."""

    @abstractmethod
    def list(self, items: list[str]) -> str:
        """An "and" list of ``items``."""

    def list_pieces(self, items: list[str]) -> list[ListPiece]:
        """The list as literal text around each item (so styled items can be spliced back in).
        The locale's pattern may depend on the items; the items themselves are never changed."""
        text = self.list(items)
        pieces: list[ListPiece] = []
        offset = 0
        for index, item in enumerate(items):
            found = text.find(item, offset)
            if found < 0:  # not expected: fall back to commas, dropping nothing
                return [piece for index in range(len(items)) for piece in ((", ", index) if index else (index,))]
            if found > offset:
                pieces.append(text[offset:found])
            pieces.append(index)
            offset = found + len(item)
        if offset < len(text):
            pieces.append(text[offset:])
        return pieces

    @abstractmethod
    def date(self, time_zone: str, skeleton: str) -> Callable[[float], str]:
        """A formatter of POSIX seconds for an ICU skeleton ("yMdjm") in a time zone."""


class Backend(ABC):
    """A formatting backend: locale formats on demand, and what pricing asks about currencies
    and inputs."""

    name: str

    @abstractmethod
    def locale(self, tag: str) -> LocaleFormats:
        """The formats of a BCP 47 locale (made once, then cached by the caller)."""

    @abstractmethod
    def currency_digits(self, code: str) -> int | None:
        """Minor-unit digits of an ISO 4217 currency, or ``None`` when the code is unknown."""

    def is_well_formed_locale(self, tag: str) -> bool:
        return len(tag) < 128 and _LANGUAGE_TAG.fullmatch(tag) is not None

    def is_known_time_zone(self, identifier: str) -> bool:
        return identifier in _TIME_ZONES


# RFC 5646 language tags (the "langtag" production) and private-use / grandfathered forms.
_LANGUAGE_TAG = re.compile(
    r"(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})"
    r"(?:-[A-Za-z]{4})?"
    r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"
    r"(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*"
    r"(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*"
    r"(?:-[Xx](?:-[A-Za-z0-9]{1,8})+)?"
)
_TIME_ZONES = frozenset(zoneinfo.available_timezones()) | {"UTC", "GMT"}

#: Scripts written right to left.
RTL_SCRIPTS = frozenset({"Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr", "Mend", "Yezi"})


def make_backend(name: str, **options: object) -> Backend:
    """``pyicu`` or ``babel``."""
    if name == "pyicu":
        from .pyicu_backend import PyICUBackend

        return PyICUBackend(**options)  # type: ignore[arg-type]
    if name == "babel":
        from .babel_backend import BabelBackend

        return BabelBackend()
    raise ValueError(f"unknown backend '{name}' (pyicu or babel)")
