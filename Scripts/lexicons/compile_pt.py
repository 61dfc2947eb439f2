"""Portuguese lexicon from two Hunspell dictionaries: the European Portuguese one (Debian's
hunspell-pt-pt, GPL-2/LGPL-2.1/MPL-1.1, from Natura at the Universidade do Minho) tags each stem
with its category and gender and each suffix with the number and gender it makes; the Brazilian
one (hunspell-pt-br, VERO, LGPL-3 or MPL) adds the words spelled only in Brazil and the plurals of
hyphenated compounds it lists (*cachorros-quentes*).

A word only the Brazilian dictionary has gets its plural from the forms its suffix flags make, and
no gender (written `?`) unless its flags make masculine and feminine forms (*-o/-a/-os/-as*).
"""

from __future__ import annotations

import re
import sys

import hunspell
import lexicon_format as fmt

try:
    from wordfreq import zipf_frequency
except ImportError:  # pragma: no cover
    sys.exit("compile_pt: pip install -r Scripts/lexicons/requirements.txt (wordfreq)")

PT = ("/usr/share/hunspell/pt_PT.aff", "/usr/share/hunspell/pt_PT.dic")
BR = ("/usr/share/hunspell/pt_BR.aff", "/usr/share/hunspell/pt_BR.dic")
VOWELS = ("a", "e", "i", "o", "u", "á", "é", "í", "ó", "ú", "â", "ê", "ô")
WORD = re.compile(r"[a-záàâãçéêíóôõúü]+(-[a-záàâãçéêíóôõúü]+)*")


def morph(text: str) -> dict[str, str]:
    body = text.strip().strip("[]").lstrip("+")
    return dict(part.split("=", 1) for part in body.split(",") if "=" in part)


def plural_candidates(word: str) -> list[str]:
    out = []
    if word.endswith("ão"):
        out += [word[:-2] + "ões", word[:-2] + "ães", word + "s"]
    elif word.endswith("el") and not word.endswith("vel"):
        out += [word[:-2] + "éis"]
    elif word.endswith("ol"):
        out += [word[:-2] + "óis"]
    elif word.endswith("il"):
        out += [word[:-1] + "s", word[:-2] + "eis"]
    elif word.endswith("l"):
        out += [word[:-1] + "is"]
    elif word.endswith("m"):
        out += [word[:-1] + "ns"]
    elif word.endswith(("r", "z", "s")):
        out += [word + "es", word]
    out += [word + "s"]
    return out


def compound_plural(word: str, listed: set[str]) -> str:
    """The plural of a hyphenated compound the Brazilian dictionary lists as a word of its own
    (*cachorros-quentes*), or the compound itself."""
    parts = word.split("-")
    if len(parts) != 2:
        return word
    heads = [plural_candidates(part) for part in parts]
    options = [a + "-" + b for a in heads[0] for b in heads[1]]
    options += [parts[0] + "-" + b for b in heads[1]] + [a + "-" + parts[1] for a in heads[0]]
    return next((option for option in options if option in listed), word)


def compile_entries() -> list[fmt.Entry]:
    european = hunspell.read(*PT)
    brazilian = hunspell.read(*BR)
    entries: dict[str, fmt.Entry] = {}
    participles: dict[str, dict] = {}
    diminutives: dict[str, str] = {}
    for stem in european.stems:
        word = stem.word
        if not WORD.fullmatch(word):
            continue
        tags = morph(stem.morphology)
        category = tags.get("CAT")
        if category == "v":
            # A verb's past participle is an adjective (café coado, pão recheado, frango assado).
            cells = {}
            for form, m in european.expand(stem)[1:]:
                t = morph(m)
                if t.get("T") == "ppa" and WORD.fullmatch(form):
                    cells.setdefault((t.get("G"), t.get("N")), form)
            lemma = cells.get(("m", "s"))
            if lemma and all(cells.get(cell) for cell in (("f", "s"), ("m", "p"), ("f", "p"))):
                participles.setdefault(lemma, {"f": cells[("f", "s")], "pl": cells[("m", "p")], "fpl": cells[("f", "p")]})
            continue
        if category == "nc":
            # Diminutives the dictionary makes (beijinho, casquinha): nouns of their suffix's gender.
            for form, m in european.expand(stem)[1:]:
                if morph(m).get("GR") == "dim" and form.endswith(("inho", "inha")) and WORD.fullmatch(form):
                    diminutives.setdefault(form, "m" if form.endswith("inho") else "f")
        if category not in ("nc", "adj", "a_nc"):
            continue
        if tags.get("N", "s") != "s":
            continue
        entry = entries.setdefault(word, fmt.Entry(lemma=word))
        # Inflections only: derivations (-íssimo, -idade, -inho) carry other fields.
        forms = [(form, t) for form, m in european.expand(stem)[1:] if set(t := morph(m)) <= {"G", "N"}]
        gender = tags.get("G", "_")
        if category in ("nc", "a_nc") and "noun" not in entry.parts:
            entry.parts.append("noun")
            entry.gender = {"m": "m", "f": "f", "2": "mf"}.get(gender, "?")
            own = "f" if gender == "f" else "m"
            plural = next((f for f, t in forms if t.get("N") == "p" and t.get("G", own) == own), None)
            entry.plural = plural or next((f for f, t in forms if t.get("N") == "p"), None)
        # A noun that changes with the person's gender (sírio, sírios, síria) is also an adjective.
        person_like = category == "nc" and "f" in stem.flags and any(t.get("G") == "f" for _, t in forms)
        if (category in ("adj", "a_nc") or person_like) and "adjective" not in entry.parts:
            entry.parts.append("adjective")
            feminine = next((f for f, t in forms if t.get("G") == "f" and t.get("N") != "p"), word)
            plural = next((f for f, t in forms if t.get("N") == "p" and t.get("G") != "f"), None)
            feminine_plural = next((f for f, t in forms if t.get("N") == "p" and t.get("G") == "f"), None)
            plural = plural or (entry.plural if entry.plural else fmt.PORTUGUESE.adjective(word)["pl"])
            entry.adjective = {"f": feminine, "pl": plural, "fpl": feminine_plural or plural}
        if entry.parts and "noun" not in entry.parts:
            entry.gender = "-"

    for lemma, forms in participles.items():
        entry = entries.setdefault(lemma, fmt.Entry(lemma=lemma))
        if "adjective" not in entry.parts:
            entry.parts.append("adjective")
            entry.adjective = forms
        if "noun" not in entry.parts:
            entry.gender = "-"
    for lemma, gender in diminutives.items():
        if lemma not in entries and zipf_frequency(lemma, "pt") > 0:
            entries[lemma] = fmt.Entry(lemma=lemma, parts=["noun"], gender=gender)

    # What only the Brazilian dictionary spells, and plurals the European one does not make.
    listed = {stem.word for stem in brazilian.stems}
    brazilian_forms: dict[str, set[str]] = {}
    for stem in brazilian.stems:
        brazilian_forms.setdefault(stem.word, set()).update(f for f, _ in brazilian.expand(stem)[1:])
    for word, entry in entries.items():
        if "noun" in entry.parts and entry.plural is None and not entry.plural_only:
            if "-" in word:
                entry.plural = compound_plural(word, listed)
            elif word.endswith(VOWELS) and not word.endswith("ão"):
                continue  # the default, -s: a noun ending in a vowel
            else:
                entry.plural = next((c for c in plural_candidates(word) if c in brazilian_forms.get(word, ())), word)
    for stem in brazilian.stems:
        word = stem.word
        if word in entries or not WORD.fullmatch(word) or len(word) < 3:
            continue
        # Brazil's dictionary is large and its words carry no gender: only those Brazilian text
        # actually uses (wordfreq has them at all) are listed.
        if zipf_frequency(word, "pt") <= 0:
            continue
        forms = {form for form, _ in brazilian.expand(stem)[1:]}
        if "-" in word and not stem.flags:
            plural = compound_plural(word, listed)
            if plural != word:
                entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="?", plural=plural)
            continue
        if not set(stem.flags) & {"B", "C", "D"}:
            continue
        plural = next((c for c in plural_candidates(word) if c in forms), None)
        if plural is None:
            continue
        if word.endswith("o") and word[:-1] + "a" in forms and word[:-1] + "as" in forms:
            entries[word] = fmt.Entry(
                lemma=word, parts=["noun", "adjective"], gender="m", plural=plural,
                adjective={"f": word[:-1] + "a", "pl": plural, "fpl": word[:-1] + "as"})
        else:
            entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="?", plural=plural)
    return list(entries.values())


HEADER = """Portuguese dictionary lexicon for GrammarAgreement — GENERATED by Scripts/lexicons/compile_pt.py; do not edit.
Sources: the European Portuguese Hunspell dictionary (Debian package hunspell-pt-pt; Natura,
Universidade do Minho; GPL-2, LGPL-2.1 or MPL-1.1) and the Brazilian one (hunspell-pt-br; VERO;
LGPL-3 or MPL). Gender ? = the sources do not say. See README-pt.md for the format and its
defaults; pt.tsv (hand-written, Brazilian usage) overrides it.
lemma<TAB>pos<TAB>gender<TAB>forms"""

if __name__ == "__main__":
    fmt.write(sys.stdout, "pt", compile_entries(), defaults=fmt.PORTUGUESE, header=HEADER)
