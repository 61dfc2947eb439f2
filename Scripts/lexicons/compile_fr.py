"""French lexicon from Dicollecte's Hunspell dictionary (MPL-2.0), Debian's hunspell-fr-comprehensive.

Every common noun and adjective with its gender and the forms its suffix rules make; a form is
written only where it differs from the format's default (README-fr.md). Hyphenated compounds take
the plural the dictionary lists as a word of its own (*petits-déjeuners*).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

import hunspell
import lexicon_format as fmt

AFF = "/usr/share/hunspell/fr.aff"
DIC = "/usr/share/hunspell/fr.dic"
WORD = re.compile(r"[a-zàâäæçéèêëîïôöœùûüÿ'’-]+")


def tagset(text: str) -> set[str]:
    return set(text.split())


def cells(tags: set[str]) -> list[tuple[str, str]]:
    """The (gender, number) cells a form's tags name; no tag means every cell."""
    genders = ["m", "f"] if ("is:epi" in tags or not tags & {"is:mas", "is:fem"}) else (
        ["m"] if "is:mas" in tags else ["f"])
    numbers = ["sg", "pl"] if ("is:inv" in tags or not tags & {"is:sg", "is:pl"}) else (
        ["sg"] if "is:sg" in tags else ["pl"])
    return [(g, n) for g in genders for n in numbers]


def singular_of_compound(word: str, singulars: set[str]) -> str | None:
    """The listed singular of a hyphenated plural: each part as written or without its plural
    ending (*choux-fleurs* → *chou-fleur*, *chevaux-vapeur* → *cheval-vapeur*)."""
    if "-" not in word:
        return None
    options = []
    for part in word.split("-"):
        candidates = [part]
        if part.endswith("aux"):
            candidates.append(part[:-3] + "al")
        if part.endswith(("s", "x")):
            candidates.append(part[:-1])
        options.append(candidates)
    found = [""]
    for candidates in options:
        found = [prefix + ("-" if prefix else "") + candidate for prefix in found for candidate in candidates]
    return next((candidate for candidate in found if candidate != word and candidate in singulars), None)


def compile_entries() -> list[fmt.Entry]:
    dictionary = hunspell.read(AFF, DIC)
    noun_forms: dict[str, dict] = defaultdict(dict)  # word → {(gender, number): form}
    noun_fixed: dict[str, bool] = {}  # word → has a noun reading with one gender of its own
    adjective_forms: dict[str, dict] = defaultdict(dict)
    plural_words: dict[str, list[str]] = defaultdict(list)  # a plural-only entry's lemma (st:) → forms
    plural_only: set[str] = set()
    genders_of: dict[str, list[str]] = defaultdict(list)
    order: list[str] = []
    seen: set[str] = set()
    participles: dict[str, dict] = {}
    singular_nouns = {
        stem.word for stem in dictionary.stems
        if "po:nom" in stem.morphology.split() and "is:pl" not in stem.morphology.split()
    }
    for stem in dictionary.stems:
        word = stem.word
        if not WORD.fullmatch(word) or word[0] in "-'’" or word[-1] in "-'’":
            continue
        tags = tagset(stem.morphology)
        is_noun, is_adjective = "po:nom" in tags, "po:adj" in tags
        if any(tag.startswith("po:v") for tag in tags):
            # A verb's past participle is an adjective (café frappé, poulet rôti, pain perdu).
            participle: dict = {}
            for form, morphology in dictionary.expand(stem):
                rule = tagset(morphology)
                if "po:ppas" in rule and WORD.fullmatch(form):
                    for cell in cells(rule & {"is:mas", "is:fem", "is:epi", "is:sg", "is:pl", "is:inv"}):
                        participle.setdefault(cell, form)
            lemma = participle.get(("m", "sg"))
            if lemma and lemma not in participles:
                participles[lemma] = participle
            continue
        if not (is_noun or is_adjective):
            continue
        lemma = next((t[3:] for t in tags if t.startswith("st:")), None)
        if is_noun and "is:pl" in tags and "is:sg" not in tags and "is:inv" not in tags:
            # A plural listed as a word: *petits-déjeuners*, or a plural-only noun (*rillettes*).
            lemma = lemma or singular_of_compound(word, singular_nouns)
            plural_words[lemma or word].append(word)
            if lemma is None:
                plural_only.add(word)
                for gender in ("m", "f"):
                    if ("is:mas" if gender == "m" else "is:fem") in tags or "is:epi" in tags:
                        if gender not in genders_of[word]:
                            genders_of[word].append(gender)
                if word not in seen:
                    seen.add(word)
                    order.append(word)
            continue
        if word not in seen:
            seen.add(word)
            order.append(word)
        forms = dictionary.expand(stem)
        for index, (form, morphology) in enumerate(forms):
            if index == 0 and len(forms) > 1:
                continue  # the stem's own cells come from its rules
            rule = tagset(morphology) | (tags if index == 0 else set())
            for cell in cells(rule & {"is:mas", "is:fem", "is:epi", "is:sg", "is:pl", "is:inv"}):
                if is_noun:
                    noun_forms[word].setdefault(cell, form)
                if is_adjective:
                    adjective_forms[word].setdefault(cell, form)
        if is_noun:
            explicit = [g for g, t in (("m", "is:mas"), ("f", "is:fem")) if t in tags]
            if "is:epi" in tags:
                explicit = ["m", "f"]
            if explicit:
                noun_fixed[word] = noun_fixed.get(word, False) or not is_adjective
                for gender in explicit:
                    if gender not in genders_of[word]:
                        genders_of[word].append(gender)
            else:
                # The gender comes with the form (gourmand, gourmande): a noun for people.
                for gender in ("m", "f"):
                    if any(g == gender for g, _ in noun_forms[word]) and gender not in genders_of[word]:
                        genders_of[word].append(gender)
                noun_fixed.setdefault(word, False)

    for lemma, participle in participles.items():
        if lemma not in adjective_forms:
            adjective_forms[lemma] = participle
            if lemma not in seen:
                seen.add(lemma)
                order.append(lemma)
    entries: list[fmt.Entry] = []
    for word in order:
        entry = fmt.Entry(lemma=word)
        parts: list[str] = []
        if word in plural_only and word not in noun_forms:
            entry.parts = ["noun"]
            entry.gender = "".join(genders_of[word]) or "m"
            entry.plural_only = True
            entries.append(entry)
            continue
        noun = noun_forms.get(word)
        if noun is not None and genders_of[word]:
            entry.gender = "".join(genders_of[word])
            gender = entry.gender[0]
            singular = noun.get((gender, "sg"), word)
            if singular == word:
                parts.append("noun")
                listed = plural_words.get(word, [])
                plural = noun.get((gender, "pl"))
                if plural is None or (plural == word and listed):
                    plural = listed[0] if listed else word
                entry.plural = plural
        adjective = adjective_forms.get(word)
        if adjective and adjective.get(("m", "sg"), word) == word:
            entry.adjective = {
                "f": adjective.get(("f", "sg"), word),
                "pl": adjective.get(("m", "pl"), word),
                "fpl": adjective.get(("f", "pl"), adjective.get(("f", "sg"), word)),
            }
            # A noun whose gender follows the person (gourmand, grand) is read as an adjective
            # first; a noun of its own gender (café) as a noun first.
            if parts and not noun_fixed.get(word, False):
                parts.insert(0, "adjective")
            else:
                parts.append("adjective")
        if not parts:
            continue
        entry.parts = parts
        if "noun" not in parts:
            entry.gender = "-"
        entries.append(entry)
    return entries


HEADER = """French dictionary lexicon for GrammarAgreement — GENERATED by Scripts/lexicons/compile_fr.py; do not edit.
Source: Dicollecte's French dictionary for Hunspell (Debian package hunspell-fr-comprehensive),
MPL-2.0. See README-fr.md for the format and its defaults; fr.tsv (hand-written) overrides it.
lemma<TAB>pos<TAB>gender<TAB>forms"""

if __name__ == "__main__":
    fmt.write(sys.stdout, "fr", compile_entries(), defaults=fmt.FRENCH, header=HEADER)
