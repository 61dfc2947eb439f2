"""Russian lexicon: nouns, adjectives and the past tense / short forms that follow the reader's gender,
from OpenCorpora's dictionary as pymorphy3 packages it (pymorphy3-dicts-ru, data CC BY-SA 3.0).

Which lemmas: those of the commonest Russian words (wordfreq's list, used to choose, not
shipped) that OpenCorpora lists as a common noun or full adjective — the words a menu and its
templates use. Proper names, abbreviations and forms the dictionary marks archaic, informal or
variant are left out. Each word is written with its paradigm (Scripts/lexicons/slavic_format.py).
"""

from __future__ import annotations

import sys

import pymorphy3
import slavic_format as fmt
import wordfreq

TOP = 1_000_000
MINIMUM_ZIPF = 1.5
SKIP = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init", "Erro", "Dist", "Slng", "Arch", "Infr"}
VARIANT = {"V-oy", "V-ey", "V-ie", "V-bi", "V-en", "V-ej", "V-sh", "V-be", "V-ob", "Litr", "Arch", "Infr", "Dist"}
CASE = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt", "loc": "loct"}
GENDER = {"masc": "m", "femn": "f", "neut": "n"}


def first(forms, *grammemes: str) -> str | None:
    """The form with the grammemes the dictionary does not mark as a variant; of several, the one
    written most often."""
    matching = [form for form in forms if all(g in form.tag for g in grammemes)]
    plain = [form.word for form in matching if not (VARIANT & form.tag.grammemes)]
    words = plain or [form.word for form in matching]
    if not words:
        return None
    return max(words, key=lambda word: (wordfreq.zipf_frequency(word, "ru"), -words.index(word)))


def noun(parse) -> fmt.Word | None:
    tag = parse.tag
    lexeme = parse.lexeme
    forms: list[str | None] = []
    for number in ("sing", "plur"):
        for case in fmt.CASES:
            if case == "acc":
                # An animate noun's accusative is its genitive: the dictionary lists it under both.
                forms.append(first(lexeme, number, "accs"))
            else:
                forms.append(first(lexeme, number, CASE[case]))
    flags = []
    if "Fixd" in tag:
        flags.append("indecl")
    if "Pltm" in tag:
        flags.append("pt")
        forms[:6] = forms[6:]
    if "Sgtm" in tag:
        forms[6:] = [None] * 6
    elif any(form is None for form in forms):
        return None
    gender = GENDER.get(tag.gender or "", "p" if "Pltm" in tag else "-")
    if gender == "-":
        return None
    if "Ms-f" in tag or "GNdr" in tag:
        flags.append("gender-varies")
    if tag.animacy == "anim" and gender != "p":
        gender += "a"
    # A noun declined as an adjective (пирожное, мороженое): after 2–4 its genitive plural.
    if (forms[1] or "").endswith(("ого", "его")) or ((forms[0] or "").endswith(("ая", "яя")) and (forms[1] or "").endswith(("ой", "ей"))):
        flags.append("adjectival")
    return fmt.Word(lemma=parse.normal_form, kind="noun", gender=gender, forms=forms, flags=flags)


def adjective(parse) -> fmt.Word | None:
    tag = parse.tag
    if tag.POS == "PRTF":
        # A participle declines as an adjective (замороженный); the lexeme is its verb's.
        lexeme = [form for form in parse.lexeme if form.tag.POS == "PRTF" and form.tag.tense == tag.tense and form.tag.voice == tag.voice and form.tag.aspect == tag.aspect]
    else:
        lexeme = [form for form in parse.lexeme if form.tag.POS == "ADJF" and "Supr" not in form.tag and "Cmp2" not in form.tag]
    slots = {
        "m.nom": ("masc", "sing", "nomn"), "m.gen": ("masc", "sing", "gent"), "m.dat": ("masc", "sing", "datv"),
        "m.ins": ("masc", "sing", "ablt"), "m.loc": ("masc", "sing", "loct"), "n.nom": ("neut", "sing", "nomn"),
        "f.nom": ("femn", "sing", "nomn"), "f.gen": ("femn", "sing", "gent"), "f.dat": ("femn", "sing", "datv"),
        "f.acc": ("femn", "sing", "accs"), "f.ins": ("femn", "sing", "ablt"), "f.loc": ("femn", "sing", "loct"),
        "pl.nom.personal": ("plur", "nomn"), "pl.nom": ("plur", "nomn"), "pl.gen": ("plur", "gent"),
        "pl.dat": ("plur", "datv"), "pl.ins": ("plur", "ablt"), "pl.loc": ("plur", "loct"),
    }
    forms = [first(lexeme, *slots[slot]) for slot in fmt.ADJECTIVE_SLOTS]
    if any(form is None for form in forms):
        return None
    return fmt.Word(lemma=forms[0], kind="adjective", gender="-", forms=forms)


def feminines(parse) -> list[str]:
    """The feminine singular of a past-tense verb, short adjective or short participle."""
    return [
        form.word
        for form in parse.lexeme
        if {"femn", "sing"} <= form.tag.grammemes and form.tag.POS == parse.tag.POS
        and ("past" in form.tag or parse.tag.POS in ("ADJS", "PRTS")) and not (VARIANT & form.tag.grammemes)
        and (parse.tag.POS != "PRTS" or (form.tag.tense == parse.tag.tense and form.tag.aspect == parse.tag.aspect))
    ]


def is_governing(parse) -> bool:
    """A transitive verb form that opens an order sentence: infinitive, imperative, a second
    person or first-person plural, or the past."""
    tag = parse.tag
    if "tran" not in tag or tag.POS not in ("VERB", "INFN"):
        return False
    return tag.POS == "INFN" or tag.mood == "impr" or tag.tense == "past" or tag.person == "2per" or (tag.person == "1per" and tag.number == "plur")


def main() -> None:
    morph = pymorphy3.MorphAnalyzer()
    words: dict[tuple[str, str], fmt.Word] = {}
    for text in wordfreq.top_n_list("ru", TOP):
        if wordfreq.zipf_frequency(text, "ru") < MINIMUM_ZIPF:
            break
        if not text.isalpha() or not all("а" <= c <= "я" or c == "ё" for c in text):
            continue
        parses = morph.parse(text)
        for parse in parses:
            tag = parse.tag
            if SKIP & tag.grammemes or not morph.word_is_known(text):
                continue
            if tag.POS == "NOUN" and (parse.normal_form, "noun") not in words:
                found = noun(parse)
                if found and found.lemma == parse.normal_form:
                    words[(found.lemma, "noun")] = found
            elif (tag.POS == "ADJF" or tag.POS == "PRTF" and "pssv" in tag) and (text, "adjective-form") not in words:
                words[(text, "adjective-form")] = None
                found = adjective(parse)
                if found and (found.lemma, "adjective") not in words:
                    words[(found.lemma, "adjective")] = found
            elif tag.POS in ("VERB", "ADJS", "PRTS") and {"masc", "sing"} <= tag.grammemes:
                if tag.POS == "VERB" and "past" not in tag:
                    continue
                # Of the feminines every reading gives (уверен: уверена, уверенна), the commonest.
                candidates = [f for f in feminines(parse) if f != text]
                previous = words.get((text, "reader"))
                if previous:
                    candidates.append(previous.feminine)
                if candidates:
                    best = max(candidates, key=lambda w: wordfreq.zipf_frequency(w, "ru"))
                    words[(text, "reader")] = fmt.Word(lemma=text, kind="reader", gender="-", feminine=best)
            if parse is parses[0] and is_governing(parse) and (text, "governing") not in words:
                words[(text, "governing")] = fmt.Word(lemma=text, kind="governing", gender="-", feminine="acc")
    header = [
        "Russian dictionary lexicon for GrammarAgreement — GENERATED by Scripts/lexicons/compile_ru.py; do not edit.",
        "Source: OpenCorpora's dictionary (revision 417150) as packaged by pymorphy3-dicts-ru 2.4.417150.4580142,",
        "data licensed CC BY-SA 3.0; lemmas chosen by wordfreq 3.1.1's list of common words. See README-ru.md and",
        "README-slavic.md (format); ru.tsv (hand-written) overrides it.",
        "noun slots: " + " ".join(fmt.NOUN_SLOTS),
        "adjective slots: " + " ".join(fmt.ADJECTIVE_SLOTS),
    ]
    # Print writes е for ё; so does the lexicon (lookups fold ё to е).
    folded: dict[tuple[str, str], fmt.Word] = {}
    for word in words.values():
        if word is None:
            continue
        word.lemma = word.lemma.replace("ё", "е")
        word.forms = [form.replace("ё", "е") if form else form for form in word.forms]
        word.feminine = word.feminine.replace("ё", "е") if word.feminine else None
        folded.setdefault((word.lemma, word.kind), word)
    fmt.write(sys.stdout, header, list(folded.values()))


if __name__ == "__main__":
    main()
