"""Italian lexicon from two dictionaries: the Italian Hunspell dictionary (Debian's hunspell-it,
GPL-3) gives the words and their plurals; Apertium's Italian analyser (Debian's apertium-cat-ita,
GPL-3, read with lttoolbox's lt-proc) gives parts of speech and genders where it knows them.

Where Apertium does not know a word, its Hunspell suffix class tells what the dictionary says of
it: *-o/-i* only (flag O) a masculine noun, *-a/-e* (Q) a feminine noun, *-a/-i* (R) a masculine
noun, four forms *-o/-a/-i/-e* an adjective (or a noun whose form shows its gender), *-e/-i* (S) a
noun or adjective whose gender it does not say (written `?`). Words without suffix flags are not
listed unless Apertium has them: a loan such as *brownie* stays as written until a lexicon or the
catalog declares it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict

import hunspell
import lexicon_format as fmt

AFF = "/usr/share/hunspell/it_IT.aff"
DIC = "/usr/share/hunspell/it_IT.dic"
ANALYSER = "/usr/share/apertium/apertium-cat-ita/ita-cat.automorf.bin"
WORD = re.compile(r"[a-zàèéìíòóùú]+")
FOUR_FORMS = {"o", "p", "a", "g", "n", "u"}
ADJECTIVE_SIGNS = {"W", "y", "Y"}  # superlatives and adverbs in -mente


def analyse(words: list[str], analyser: str) -> dict[str, list[tuple]]:
    """Apertium's analyses of each word: (lemma, part of speech, gender, number) for nouns and adjectives."""
    output = subprocess.run(
        ["lt-proc", analyser], input="\n".join(words) + "\n", capture_output=True, text=True, check=True
    ).stdout
    analyses: dict[str, list[tuple]] = {}
    for match in re.finditer(r"\^([^/$]*)/([^$]*)\$", output):
        surface, readings = match.group(1), match.group(2)
        found = []
        for reading in readings.split("/"):
            tags = re.findall(r"<([^>]+)>", reading)
            lemma = reading.split("<", 1)[0]
            if tags and tags[0] in ("n", "adj"):
                gender = next((t for t in tags if t in ("m", "f", "mf")), "")
                number = next((t for t in tags if t in ("sg", "pl", "sp")), "")
                found.append((lemma, tags[0], gender, number, tags))
        if found:
            analyses[surface] = found
    return analyses


def compile_entries(analyser: str = ANALYSER) -> list[fmt.Entry]:
    dictionary = hunspell.read(AFF, DIC)
    stems = [s for s in dictionary.stems if WORD.fullmatch(s.word)]
    words = sorted({form for s in stems for form, _ in dictionary.expand(s) if WORD.fullmatch(form)})
    known = analyse(words, analyser)

    # Apertium's nouns and adjectives: lemma → genders, plural forms, adjective cells.
    noun_gender: dict[str, list[str]] = defaultdict(list)
    noun_plural: dict[tuple[str, str], list[str]] = defaultdict(list)
    invariable: set[str] = set()
    adjective_cells: dict[str, dict] = defaultdict(dict)
    for surface, readings in known.items():
        for lemma, part, gender, number, tags in readings:
            if part == "n":
                for g in (["m", "f"] if gender == "mf" else [gender] if gender else []):
                    if surface == lemma and g not in noun_gender[lemma]:
                        noun_gender[lemma].append(g)
                if number == "pl" and surface not in noun_plural[(lemma, gender)]:
                    noun_plural[(lemma, gender)].append(surface)
                if number == "sp" and surface == lemma:
                    invariable.add(lemma)
            elif set(tags[1:]) <= {"m", "f", "mf", "sg", "pl", "sp"}:
                genders = ["m", "f"] if gender in ("mf", "") else [gender]
                numbers = ["sg", "pl"] if number in ("sp", "") else [number]
                for g in genders:
                    for n in numbers:
                        adjective_cells[lemma].setdefault((g, n), surface)

    entries: dict[str, fmt.Entry] = {}
    # 1. What Apertium knows.
    for lemma, genders in noun_gender.items():
        if not WORD.fullmatch(lemma):
            continue
        entry = entries.setdefault(lemma, fmt.Entry(lemma=lemma))
        entry.parts.append("noun")
        entry.gender = "".join(genders)
        plurals = noun_plural[(lemma, genders[0])] or noun_plural[(lemma, "mf")]
        entry.plural = lemma if lemma in invariable else (plurals[0] if plurals else None)
        if entry.plural is None:
            entry.plural = lemma
    for lemma, cells in adjective_cells.items():
        if not WORD.fullmatch(lemma) or cells.get(("m", "sg")) != lemma:
            continue
        entry = entries.setdefault(lemma, fmt.Entry(lemma=lemma))
        entry.parts.append("adjective")
        entry.adjective = {
            "f": cells.get(("f", "sg"), lemma),
            "pl": cells.get(("m", "pl"), lemma),
            "fpl": cells.get(("f", "pl"), cells.get(("m", "pl"), lemma)),
        }

    # 2. What only Hunspell says: the forms its dictionary accepts beside each stem.
    accepted = set(words)
    def first(*candidates: str) -> str | None:
        return next((c for c in candidates if c in accepted), None)

    for stem in stems:
        word, flags = stem.word, set(stem.flags)
        if word in entries or len(word) < 3:
            continue
        base = word[:-1]
        adjective_like = bool(flags & ADJECTIVE_SIGNS)
        if word.endswith("o") and flags:
            masculine_plural = first(base + "i", base + "hi") or (base if word.endswith("io") and base in accepted else None)
            feminine, feminine_plural = first(base + "a"), first(base + "e", base + "he")
            if masculine_plural and feminine and feminine_plural:
                entries[word] = fmt.Entry(
                    lemma=word, parts=["adjective", "noun"] if adjective_like else ["noun", "adjective"],
                    gender="m", plural=masculine_plural,
                    adjective={"f": feminine, "pl": masculine_plural, "fpl": feminine_plural})
            elif masculine_plural:
                entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="m", plural=masculine_plural)
        elif word.endswith("a") and flags:
            if plural := first(base + "e", base + "he"):
                entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="f", plural=plural)
            elif plural := first(base + "i"):
                entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="m", plural=plural)
        elif word.endswith("e") and flags:
            if plural := first(base + "i"):
                if adjective_like:
                    entries[word] = fmt.Entry(lemma=word, parts=["adjective"],
                                              adjective={"f": word, "pl": plural, "fpl": plural})
                else:
                    entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender="?", plural=plural)
        elif word.endswith("i") and not flags:
            # A plural listed without its singular's stem (tramezzini → tramezzino).
            singular = base + "o"
            if singular in accepted and singular not in entries:
                entries[singular] = fmt.Entry(lemma=singular, parts=["noun"], gender="m", plural=word)
    # 3. Adjectives and participles the dictionary makes through other flags (fatto, iscritto,
    # glassato): every word whose four forms -o, -a, -i, -e the dictionary accepts, but for clitic
    # combinations (-lo), superlatives (-issimo) and verbs in -isco.
    full = unmunched()
    stem_flags = {stem.word: set(stem.flags) for stem in stems}
    for word in sorted(full):
        if len(word) < 4 or not word.endswith("o") or not WORD.fullmatch(word):
            continue
        if word.endswith(("lo", "issimo", "isco")) or "adjective" in (entries[word].parts if word in entries else []):
            continue
        # A noun of Apertium's takes an adjective reading only with a participle's ending (fatto,
        # iscritto), not by chance (tonno, tonna, tonni, tonne).
        if word in entries and not (stem_flags.get(word, set()) & ADJECTIVE_SIGNS) and not word.endswith(
            ("ato", "ito", "uto", "tto", "sto", "so")
        ):
            continue
        base = word[:-1]
        feminine = base + "a"
        plural = next((p for p in (base + "i", base + "hi", word[:-2] + "i" if word.endswith("io") else "") if p in full), None)
        feminine_plural = next((p for p in (base + "e", base + "he", base[:-1] + "e" if word.endswith(("cio", "gio")) else "") if p in full), None)
        if feminine in full and plural and feminine_plural and plural != word:
            forms = {"f": feminine, "pl": plural, "fpl": feminine_plural}
            if word in entries:
                entries[word].parts.append("adjective")
                entries[word].adjective = forms
            else:
                entries[word] = fmt.Entry(lemma=word, parts=["adjective"], adjective=forms)
    # 4. Diminutives and augmentatives of listed nouns (cestino, crostatina, bombolone): nouns
    # whose suffix gives their gender, with the plural the dictionary accepts.
    nouns = {word for word, entry in entries.items() if "noun" in entry.parts}
    suffixes = {"ino": "m", "etto": "m", "ello": "m", "otto": "m", "one": "m", "ina": "f", "etta": "f", "ella": "f"}
    for word in sorted(full):
        if word in entries or not WORD.fullmatch(word):
            continue
        for suffix, gender in suffixes.items():
            root = word[: -len(suffix)]
            if not word.endswith(suffix) or len(root) < 3:
                continue
            if not any(root + ending in nouns for ending in ("o", "a", "e")):
                continue
            plural = word[:-1] + ("e" if gender == "f" else "i")
            if plural in full:
                entries[word] = fmt.Entry(lemma=word, parts=["noun"], gender=gender, plural=plural)
            break
    return list(entries.values())


def unmunched() -> set[str]:
    """Every lowercase word the Italian dictionary accepts, by hunspell-tools' unmunch."""
    output = subprocess.run(["unmunch", DIC, AFF], capture_output=True, check=True).stdout
    words = set()
    for line in output.decode("utf-8", "replace").splitlines():
        if line and WORD.fullmatch(line):
            words.add(line)
    return words


HEADER = """Italian dictionary lexicon for GrammarAgreement — GENERATED by Scripts/lexicons/compile_it.py; do not edit.
Sources: the Italian Hunspell dictionary (Debian package hunspell-it, GPL-3) and Apertium's Italian
analyser (Debian package apertium-cat-ita, GPL-3). Gender ? = the sources do not say. See
README-it.md for the format and its defaults; it.tsv (hand-written) overrides it.
lemma<TAB>pos<TAB>gender<TAB>forms"""

if __name__ == "__main__":
    analyser = sys.argv[1] if len(sys.argv) > 1 else ANALYSER
    fmt.write(sys.stdout, "it", compile_entries(analyser), defaults=fmt.ITALIAN, header=HEADER)
