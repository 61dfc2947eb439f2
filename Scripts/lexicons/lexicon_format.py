"""The lexicon file format (Sources/GrammarAgreement/Lexicons/README.md) and each language's
default forms: a form equal to its default is not written, and the engine derives it the same way.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Callable, TextIO


@dataclass
class Entry:
    lemma: str
    parts: list[str] = field(default_factory=list)
    gender: str = "-"
    plural: str | None = None  # a noun's plural
    plural_only: bool = False
    adjective: dict | None = None  # f, pl, fpl (Romance) or stem (German)
    extra: dict = field(default_factory=dict)  # other key=value fields, written as given
    flags: list[str] = field(default_factory=list)


@dataclass
class Defaults:
    """A language's default forms. `adjective(lemma, feminine)` takes the adjective's actual
    feminine (listed or default), from which the default feminine plural is made."""

    noun_plural: Callable[[str, str], str]
    adjective: Callable[[str, str | None], dict]


def _fr_noun(lemma: str, gender: str) -> str:
    return lemma if lemma.endswith(("s", "x", "z")) else lemma + "s"


def _fr_adjective(lemma: str, feminine: str | None = None) -> dict:
    default_feminine = lemma if lemma.endswith("e") else lemma + "e"
    feminine = feminine or default_feminine
    plural = lemma if lemma.endswith(("s", "x")) else lemma + "s"
    return {"f": default_feminine, "pl": plural, "fpl": feminine if feminine.endswith("s") else feminine + "s"}


FRENCH = Defaults(_fr_noun, _fr_adjective)


def _it_noun(lemma: str, gender: str) -> str:
    if lemma.endswith("o"):
        return lemma[:-1] + "i"
    if lemma.endswith("a"):
        return lemma[:-1] + ("e" if gender.startswith("f") else "i")
    if lemma.endswith("e"):
        return lemma[:-1] + "i"
    return lemma


def _it_adjective(lemma: str, feminine: str | None = None) -> dict:
    if lemma.endswith("o"):
        default_feminine, plural = lemma[:-1] + "a", lemma[:-1] + "i"
    elif lemma.endswith("e"):
        default_feminine, plural = lemma, lemma[:-1] + "i"
    else:
        default_feminine, plural = lemma, lemma
    feminine = feminine or default_feminine
    if feminine.endswith("a"):
        feminine_plural = feminine[:-1] + "e"
    elif feminine.endswith("e"):
        feminine_plural = feminine[:-1] + "i"
    else:
        feminine_plural = feminine
    return {"f": default_feminine, "pl": plural, "fpl": feminine_plural}


ITALIAN = Defaults(_it_noun, _it_adjective)


def _pt_plural(word: str) -> str:
    return word if word.endswith(("s", "x")) else word + "s"


def _pt_noun(lemma: str, gender: str) -> str:
    return _pt_plural(lemma)


def _pt_adjective(lemma: str, feminine: str | None = None) -> dict:
    default_feminine = lemma[:-1] + "a" if lemma.endswith("o") else lemma
    feminine = feminine or default_feminine
    return {"f": default_feminine, "pl": _pt_plural(lemma), "fpl": _pt_plural(feminine)}


PORTUGUESE = Defaults(_pt_noun, _pt_adjective)


def german_dative_plural(plural: str) -> str:
    return plural + "n" if plural.endswith(("e", "l", "r")) else plural


def line(entry: Entry, defaults: Defaults | None) -> str:
    forms: list[str] = []
    if "noun" in entry.parts:
        if entry.plural_only:
            forms.append("number=plural")
        elif entry.plural is not None and (
            defaults is None or entry.plural != defaults.noun_plural(entry.lemma, entry.gender)
        ):
            forms.append("pl=" + entry.plural)
    if entry.adjective:
        default = defaults.adjective(entry.lemma, entry.adjective.get("f")) if defaults else {}
        for key in ("f", "pl", "fpl", "stem"):
            value = entry.adjective.get(key)
            if value is not None and value != default.get(key, entry.lemma if key == "stem" else None):
                # An adjective that is also a noun keeps the noun's plural in pl=; its own
                # masculine plural goes in apl= when the two differ.
                if key == "pl" and "noun" in entry.parts:
                    if value != (entry.plural or (defaults.noun_plural(entry.lemma, entry.gender) if defaults else None)):
                        forms.append("apl=" + value)
                    continue
                forms.append(f"{key}={value}")
    for key, value in entry.extra.items():
        forms.append(f"{key}={value}")
    if entry.flags:
        forms.append("flags=" + ",".join(entry.flags))
    columns = [entry.lemma, "|".join(entry.parts), entry.gender or "-"]
    if forms:
        columns.append(";".join(forms))
    return unicodedata.normalize("NFC", "\t".join(columns))


def write(out: TextIO, language: str, entries: list[Entry], defaults: Defaults | None, header: str = "") -> None:
    if header:
        for text in header.strip().splitlines():
            out.write("# " + text + "\n" if text else "#\n")
    for entry in sorted(entries, key=lambda e: (e.lemma.lower(), e.lemma)):
        out.write(line(entry, defaults) + "\n")
