"""Grammatical agreement for what the shipped catalogs ask of it, with a small table of the menu's
terms per language instead of a full lexicon.

Spans the catalogs use:

- ``^[%1$lld %2$@ %3$@](inflect: true)`` (English) and ``^[%1$lld %3$@ %2$@](inflect: true)``
  (Spanish): the noun takes the number of the count, Spanish adjectives its gender and number;
- ``^[Nuestro %1$@](inflect: true)`` and ``^[hecho](agreeWithArgument: 1)``: determiners and
  participles agree with a noun;
- ``^[Bienvenido](inflect: true, inflectionAlternative: '…')``: agreement with the reader's term
  of address, the alternative when it is unknown or neutral.

Words outside the table follow the regular rules of each language (``-s``/``-es``, ``-o``/``-a``).
Languages without rules (German, French, Japanese, Arabic catalogs) leave spans as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from caffe_client.proto.caffe.v1 import order_pb2

FEMININE = order_pb2.TERM_OF_ADDRESS_FEMININE
MASCULINE = order_pb2.TERM_OF_ADDRESS_MASCULINE


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of a span's text: a literal from the template or an argument with its raw value."""

    text: str
    argument: int | None = None  # 1-based argument number, None for literal text
    value: object = None  # the raw argument (int for counts, str for names)


@dataclass(frozen=True, slots=True)
class Noun:
    plural: str
    gender: str = "m"  # "m" or "f" (Spanish)


@dataclass(frozen=True, slots=True)
class Adjective:
    """Forms by gender and number: masculine/feminine singular, masculine/feminine plural."""

    ms: str
    fs: str
    mp: str
    fp: str

    def form(self, gender: str, plural: bool) -> str:
        if plural:
            return self.fp if gender == "f" else self.mp
        return self.fs if gender == "f" else self.ms


class Grammar:
    """Agreement rules of one language; the base class leaves every span as written."""

    language = ""
    supported = False

    def __init__(self, plural_category: Callable[[int], str]) -> None:
        self.plural_category = plural_category

    def agree(
        self,
        pieces: list[Piece],
        attributes: dict[str, object],
        arguments: dict[int, object],
        term_of_address: int,
    ) -> list[str] | str:
        """The span's pieces after agreement (one text per piece), or a whole replacement text."""
        return [piece.text for piece in pieces]

    def _is_plural(self, pieces: list[Piece]) -> bool | None:
        for piece in pieces:
            if isinstance(piece.value, int) and not isinstance(piece.value, bool):
                return self.plural_category(piece.value) != "one"
        return None


_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _keep_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


class English(Grammar):
    language = "en"
    supported = True
    NOUNS = {
        "pizza": Noun("pizzas"),
        "salad": Noun("salads"),
        "sandwich": Noun("sandwiches"),
        "juice": Noun("juices"),
        "coffee": Noun("coffees"),
        "café au lait": Noun("cafés au lait"),
        "item": Noun("items"),
    }
    ADJECTIVES = frozenset({"small", "large"})

    def pluralize(self, noun: str) -> str:
        known = self.NOUNS.get(noun.lower())
        if known:
            return _keep_case(noun, known.plural)
        head, space, rest = noun.partition(" ")
        if rest and head.lower() in ("café", "cup", "glass"):
            return self.pluralize(head) + space + rest
        if re.search(r"(s|x|z|ch|sh)$", noun):
            return noun + "es"
        if re.search(r"[^aeiou]y$", noun):
            return noun[:-1] + "ies"
        return noun + "s"

    def agree(self, pieces, attributes, arguments, term_of_address):
        texts = [piece.text for piece in pieces]
        if attributes.get("inflect") is not True:
            return texts
        plural = self._is_plural(pieces)
        if not plural:
            return texts
        # The head noun is the last word of the phrase that is not a known adjective.
        for index in range(len(pieces) - 1, -1, -1):
            piece = pieces[index]
            if piece.argument is not None and isinstance(piece.value, str):
                if piece.value.lower() not in self.ADJECTIVES:
                    texts[index] = texts[index].replace(piece.value, self.pluralize(piece.value))
                    return texts
            elif piece.argument is None:
                words = list(_WORD.finditer(piece.text))
                for match in reversed(words):
                    if match.group().lower() not in self.ADJECTIVES:
                        word = match.group()
                        texts[index] = piece.text[: match.start()] + self.pluralize(word) + piece.text[match.end() :]
                        return texts
        return texts


class Spanish(Grammar):
    language = "es"
    supported = True
    NOUNS = {
        "pizza": Noun("pizzas", "f"),
        "ensalada": Noun("ensaladas", "f"),
        "sándwich": Noun("sándwiches", "m"),
        "zumo": Noun("zumos", "m"),
        "jugo": Noun("jugos", "m"),
        "café": Noun("cafés", "m"),
        "café con leche": Noun("cafés con leche", "m"),
        "artículo": Noun("artículos", "m"),
    }
    ADJECTIVES = {
        "pequeño": Adjective("pequeño", "pequeña", "pequeños", "pequeñas"),
        "grande": Adjective("grande", "grande", "grandes", "grandes"),
        "hecho": Adjective("hecho", "hecha", "hechos", "hechas"),
        "nuestro": Adjective("nuestro", "nuestra", "nuestros", "nuestras"),
        "bienvenido": Adjective("bienvenido", "bienvenida", "bienvenidos", "bienvenidas"),
    }

    def noun(self, text: str) -> Noun | None:
        known = self.NOUNS.get(text.lower())
        if known:
            return known
        head, _, rest = text.partition(" ")
        if rest and head.lower() in self.NOUNS:
            found = self.NOUNS[head.lower()]
            return Noun(found.plural + " " + rest, found.gender)
        return None

    def adjective(self, word: str) -> Adjective | None:
        known = self.ADJECTIVES.get(word.lower())
        if known:
            return known
        lower = word.lower()
        if lower.endswith("o"):
            return Adjective(lower, lower[:-1] + "a", lower + "s", lower[:-1] + "as")
        return None

    def _inflect_adjective(self, word: str, gender: str, plural: bool) -> str:
        adjective = self.adjective(word)
        return _keep_case(word, adjective.form(gender, plural)) if adjective else word

    def agree(self, pieces, attributes, arguments, term_of_address):
        texts = [piece.text for piece in pieces]
        if "agreeWithArgument" in attributes:
            target = arguments.get(int(attributes["agreeWithArgument"]))  # type: ignore[arg-type]
            noun = self.noun(target) if isinstance(target, str) else None
            if noun is None:
                return texts
            return [self._rewrite_words(piece, noun.gender, False) for piece in pieces]
        if attributes.get("inflect") is not True:
            return texts
        plural = self._is_plural(pieces)
        head = next(
            (
                (index, found)
                for index, piece in enumerate(pieces)
                if piece.argument is not None
                and isinstance(piece.value, str)
                and (found := self.noun(piece.value)) is not None
            ),
            None,
        )
        if head is None:
            # No noun: the words agree with the reader.
            if term_of_address == FEMININE:
                return [self._rewrite_words(piece, "f", False) for piece in pieces]
            if term_of_address == MASCULINE:
                return texts
            alternative = attributes.get("inflectionAlternative")
            return alternative if isinstance(alternative, str) else texts
        head_index, noun = head
        plural = bool(plural)
        for index, piece in enumerate(pieces):
            if index == head_index:
                if plural:
                    texts[index] = texts[index].replace(piece.value, _keep_case(piece.value, noun.plural))
            elif piece.argument is not None and isinstance(piece.value, str):
                texts[index] = texts[index].replace(
                    piece.value, self._inflect_adjective(piece.value, noun.gender, plural)
                )
            elif piece.argument is None:
                texts[index] = self._rewrite_words(piece, noun.gender, plural)
        return texts

    def _rewrite_words(self, piece: Piece, gender: str, plural: bool) -> str:
        """Literal words of the table (determiners, participles) take ``gender`` and number."""
        if piece.argument is not None:
            return piece.text

        def inflect(match: re.Match[str]) -> str:
            known = self.ADJECTIVES.get(match.group().lower())
            return _keep_case(match.group(), known.form(gender, plural)) if known else match.group()

        return _WORD.sub(inflect, piece.text)


def grammar_for(language: str, plural_category: Callable[[int], str]) -> Grammar:
    """The rules of a localization's language (``es`` for ``es-419``)."""
    base = language.split("-")[0].lower()
    for kind in (English, Spanish):
        if kind.language == base:
            return kind(plural_category)
    return Grammar(plural_category)
