"""The paradigm lexicon format of the Slavic languages (Polish, Russian): see
Sources/GrammarAgreement/Lexicons/README-slavic.md.

A noun has 12 case forms, an adjective 18; each word names a paradigm (how many letters to cut from
its lemma and the endings to add, one per slot), so 30,000 words take a few thousand paradigm lines.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TextIO

CASES = ["nom", "gen", "dat", "acc", "ins", "loc"]
NOUN_SLOTS = [f"{number}.{case}" for number in ("sg", "pl") for case in CASES]
ADJECTIVE_SLOTS = [
    "m.nom", "m.gen", "m.dat", "m.ins", "m.loc", "n.nom",
    "f.nom", "f.gen", "f.dat", "f.acc", "f.ins", "f.loc",
    "pl.nom.personal", "pl.nom", "pl.gen", "pl.dat", "pl.ins", "pl.loc",
]


@dataclass
class Word:
    lemma: str
    kind: str  # noun, adjective, reader, governing
    gender: str  # m, f, n (Polish m1, m2, m3), a suffix 'a' for Russian animate; p plural-only; - none
    forms: list[str | None] = field(default_factory=list)  # by slot; None: the word has no such form
    flags: list[str] = field(default_factory=list)
    feminine: str | None = None  # reader words: the feminine form; governing words: the case


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def paradigm(lemma: str, forms: list[str | None]) -> tuple[int, tuple[str, ...]]:
    """The cut and endings that make `forms` from `lemma`: cut the letters after the longest prefix
    every form shares with the lemma."""
    present = [form for form in forms if form is not None]
    prefix = len(lemma)
    for form in present:
        shared = 0
        while shared < min(prefix, len(form)) and form[shared] == lemma[shared]:
            shared += 1
        prefix = shared
    cut = len(lemma) - prefix
    return cut, tuple("-" if form is None else form[prefix:] for form in forms)


def write(out: TextIO, header: list[str], words: list[Word]) -> None:
    """Writes the header comments, the paradigms in first-use order, then the words sorted."""
    for line in header:
        out.write(f"# {line}\n" if line else "#\n")
    out.write("# =id<TAB>cut<TAB>endings (comma-separated, one per slot; - no form)\n")
    out.write("# lemma<TAB>kind<TAB>gender<TAB>paradigm id | indecl | feminine (reader words)[<TAB>flags]\n")
    ids: dict[tuple[int, tuple[str, ...]], int] = {}
    lines: list[str] = []
    for word in sorted(words, key=lambda w: (w.lemma, w.kind)):
        if word.kind in ("reader", "governing"):
            column = word.feminine or ""
        elif "indecl" in word.flags:
            column = "indecl"
        else:
            key = paradigm(word.lemma, word.forms)
            if key not in ids:
                ids[key] = len(ids) + 1
                out.write(f"={ids[key]}\t{key[0]}\t{','.join(key[1])}\n")
            column = str(ids[key])
        flags = [flag for flag in word.flags if flag != "indecl"]
        line = f"{word.lemma}\t{word.kind}\t{word.gender}\t{column}"
        lines.append(line + (f"\t{','.join(flags)}" if flags else ""))
    for line in lines:
        out.write(nfc(line) + "\n")


def forms_of(word: Word) -> list[str]:
    """Every form a paradigm gives (for tests of the format)."""
    return [form for form in word.forms if form is not None]
