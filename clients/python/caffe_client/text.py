"""What the worker's texts contain besides letters, and how to compare them loosely.

The worker's texts are ICU's and the catalogs' output as they are: they keep no-break spaces
(U+00A0 "12,50 €"), narrow no-break spaces (U+202F "10:30 p.m." in es-MX, French thousands),
and bidirectional marks and isolates (U+061C, U+200F, U+2068…U+2069 around list items in
right-to-left locales). Display them as they are; these helpers are for logs, searches and tests
that want to ignore the difference (docs/WIRE.md, "Text").
"""

from __future__ import annotations

import unicodedata

#: Spaces that do not break a line, as ICU uses them.
NO_BREAK_SPACES = "\u00a0\u202f\u2007"
#: Bidirectional formatting characters: marks, embeddings, overrides and isolates.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

_SPACES = str.maketrans({space: " " for space in NO_BREAK_SPACES})
_BIDI = str.maketrans({control: None for control in BIDI_CONTROLS})


def strip_bidi(text: str) -> str:
    """``text`` without bidirectional formatting characters."""
    return text.translate(_BIDI)


def plain_spaces(text: str) -> str:
    """``text`` with every no-break space as an ordinary space."""
    return text.translate(_SPACES)


def loose(text: str) -> str:
    """``text`` for comparison: bidi controls removed, spaces plain, NFC."""
    return unicodedata.normalize("NFC", plain_spaces(strip_bidi(text)))
