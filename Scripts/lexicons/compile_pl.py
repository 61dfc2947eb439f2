"""Polish lexicon: nouns, adjectives and past-tense verbs (whose form follows the reader's gender),
from SGJP (Grammatical Dictionary of Polish, BSD-2-Clause) through Morfeusz 2's generator
(PyPI morfeusz2 1.99.15, dictionary sgjp-2026.06.01).

Which lemmas: those of the commonest Polish words (wordfreq's list, used to choose, not
shipped) that SGJP lists as a common noun, an adjective (positive degree) or a verb's past tense.
Forms SGJP qualifies as archaic, rare, colloquial or dialectal are used only where no other form is
listed. Each word is written with its paradigm (Scripts/lexicons/slavic_format.py).
"""

from __future__ import annotations

import sys

import morfeusz2
import slavic_format as fmt
import wordfreq

TOP = 1_000_000
MINIMUM_ZIPF = 1.5
CASE = {"nom": "nom", "gen": "gen", "dat": "dat", "acc": "acc", "ins": "inst", "loc": "loc"}
PROPER = {"imię", "nazwisko", "nazwa_geograficzna", "nazwa_organizacji", "nazwa_własna", "nazwa_rzeczy"}
MARKED = {"daw.", "rzad.", "pot.", "gwar.", "książk.", "poet.", "środ.", "wulg.", "posp.", "żart.", "reg."}
LETTERS = set("aąbcćdeęfghijklłmnńoóprsśtuwyzźżqvx")


def lemma_of(text: str) -> str:
    return text.split(":")[0]


def pick(candidates: list[tuple[str, list[str]]]) -> str | None:
    """The unmarked form when there is one; of several (SGJP lists precelów and precli), the one
    written most often."""
    unmarked = [form for form, qualifiers in candidates if not MARKED & set(qualifiers)]
    forms = unmarked or [form for form, _ in candidates]
    if not forms:
        return None
    return max(forms, key=lambda form: (wordfreq.zipf_frequency(form, "pl"), -forms.index(form)))


def noun(generator, lemma: str, gender: str) -> fmt.Word | None:
    table: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    genders = []
    for form, _, tag, _, qualifiers in generator.generate(lemma):
        parts = tag.split(":")
        if parts[0] != "subst" or len(parts) < 4:
            continue
        if parts[3] not in genders:
            genders.append(parts[3])
        if parts[3] != gender:
            continue
        table.setdefault((parts[1], parts[2]), []).append((form, qualifiers))
    forms = [pick(table.get((number, CASE[case]), [])) for number in ("sg", "pl") for case in fmt.CASES]
    flags = []
    pt = gender == "n" and not any(forms[:6]) and all(forms[6:])
    tag_gender = gender
    if pt:
        flags.append("pt")
        forms[:6] = forms[6:]
        tag_gender = "p"
    if all(form is None for form in forms[6:]):
        flags.append("st")
    elif any(form is None for form in forms):
        return None
    if any(form is None for form in forms[:6]):
        return None
    base = lemma_of(lemma)
    if all(form == base for form in forms if form):
        flags.append("indecl")
    for other in genders:
        if other != gender and other in ("m1", "m2", "m3"):
            flags.append(f"also-{other}")
    return fmt.Word(lemma=base, kind="noun", gender=tag_gender, forms=forms, flags=flags)


def adjective(generator, lemma: str) -> fmt.Word | None:
    table: dict[tuple[str, str, str], list[tuple[str, list[str]]]] = {}
    lemma, _, participle = lemma.partition("#")
    for form, _, tag, _, qualifiers in generator.generate(lemma):
        parts = tag.split(":")
        if participle and parts[0] != participle:
            continue
        # Adjectives in the positive degree, and participles, which decline as adjectives (mrożony).
        if parts[0] == "adj" and len(parts) >= 5 and parts[4] == "pos":
            pass
        elif parts[0] in ("ppas", "pact") and len(parts) >= 6 and parts[5] == "aff":
            pass
        else:
            continue
        table.setdefault((parts[1], parts[2], parts[3]), []).append((form, qualifiers))
    slots = {
        "m.nom": ("sg", "nom", "m3"), "m.gen": ("sg", "gen", "m3"), "m.dat": ("sg", "dat", "m3"),
        "m.ins": ("sg", "inst", "m3"), "m.loc": ("sg", "loc", "m3"), "n.nom": ("sg", "nom", "n"),
        "f.nom": ("sg", "nom", "f"), "f.gen": ("sg", "gen", "f"), "f.dat": ("sg", "dat", "f"),
        "f.acc": ("sg", "acc", "f"), "f.ins": ("sg", "inst", "f"), "f.loc": ("sg", "loc", "f"),
        "pl.nom.personal": ("pl", "nom", "m1"), "pl.nom": ("pl", "nom", "f"), "pl.gen": ("pl", "gen", "f"),
        "pl.dat": ("pl", "dat", "f"), "pl.ins": ("pl", "inst", "f"), "pl.loc": ("pl", "loc", "f"),
    }
    forms = [pick(table.get(slots[slot], [])) for slot in fmt.ADJECTIVE_SLOTS]
    if any(form is None for form in forms):
        return None
    # A participle's lemma is its verb's: the adjective is named by its masculine nominative.
    return fmt.Word(lemma=forms[0], kind="adjective", gender="-", forms=forms)


def reader_pair(generator, lemma: str) -> fmt.Word | None:
    """A verb's past tense in the masculine singular (zamówił), with its feminine (zamówiła)."""
    masculine = feminine = None
    for form, _, tag, _, qualifiers in generator.generate(lemma):
        parts = tag.split(":")
        if parts[0] != "praet" or parts[1] != "sg" or MARKED & set(qualifiers):
            continue
        if parts[2] == "m1" and masculine is None:
            masculine = form
        if parts[2] == "f" and feminine is None:
            feminine = form
    if not masculine or not feminine:
        return None
    return fmt.Word(lemma=masculine, kind="reader", gender="-", feminine=feminine)


def main() -> None:
    analyser = morfeusz2.Morfeusz(expand_tags=True)
    generator = morfeusz2.Morfeusz(generate=True, expand_tags=True)
    words: dict[tuple[str, str], fmt.Word] = {}
    seen: set[tuple[str, str]] = set()
    for text in wordfreq.top_n_list("pl", TOP):
        if wordfreq.zipf_frequency(text, "pl") < MINIMUM_ZIPF:
            break
        if not set(text) <= LETTERS:
            continue
        for start, end, (form, lemma, tag, names, qualifiers) in analyser.analyse(text):
            if start != 0 or end != 1:
                continue
            parts = tag.split(":")
            if parts[0] in ("ppas", "pact"):
                # A participle: generated from its verb, keyed by the verb and the participle kind.
                lemma = lemma + "#" + parts[0]
            if parts[0] == "subst" and len(parts) >= 4 and not PROPER & set(names):
                key = (lemma, "noun")
                if key in seen:
                    continue
                seen.add(key)
                base = lemma_of(lemma)
                if not set(base) <= LETTERS:
                    continue
                # Homonyms (piernik: gingerbread m3, an old fogey m1): a menu names things, so a
                # personal reading gives way to another.
                previous = words.get((base, "noun"))
                if previous and (previous.gender != "m1" or parts[3] == "m1"):
                    continue
                # The gender of the lemma's own nominative singular reading first.
                genders = [a[2][2].split(":")[3] for a in analyser.analyse(base) if a[2][1] == lemma and a[2][2].startswith("subst:") and len(a[2][2].split(":")) >= 4]
                gender = genders[0] if genders else parts[3]
                found = noun(generator, lemma, gender)
                if found and previous and previous.gender == "m1":
                    # Both readings stay known: the words whose form depends on which one stay as
                    # written (2 pierniki, 2 pierników); pl.tsv settles café words (klient).
                    found.flags.append("also-m1")
                if found and not (previous and found.gender == "m1"):
                    words[(base, "noun")] = found
            elif parts[0] in ("adj", "ppas", "pact") and len(parts) >= 5:
                key = (lemma, "adjective")
                if key in seen:
                    continue
                seen.add(key)
                found = adjective(generator, lemma)
                if found and (found.lemma, "adjective") not in words:
                    words[(found.lemma, "adjective")] = found
            elif parts[0] == "praet":
                key = (lemma, "reader")
                if key in seen:
                    continue
                seen.add(key)
                found = reader_pair(generator, lemma)
                if found and (found.lemma, "reader") not in words:
                    words[(found.lemma, "reader")] = found
    header = [
        "Polish dictionary lexicon for GrammarAgreement — GENERATED by Scripts/lexicons/compile_pl.py; do not edit.",
        "Source: SGJP (Grammatical Dictionary of Polish) sgjp-2026.06.01 through Morfeusz 2 (PyPI morfeusz2 1.99.15),",
        "BSD-2-Clause, (c) 2007-2026 Woliński, Bronk, Gruszczyński, Kieraś, Saloni, Skowrońska, Wołosz; lemmas chosen",
        "by wordfreq 3.1.1's list of common words. See README-pl.md and README-slavic.md (format); pl.tsv overrides it.",
        "noun slots: " + " ".join(fmt.NOUN_SLOTS),
        "adjective slots: " + " ".join(fmt.ADJECTIVE_SLOTS),
    ]
    fmt.write(sys.stdout, header, list(words.values()))


if __name__ == "__main__":
    main()
