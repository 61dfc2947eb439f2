"""Reads a Hunspell dictionary (.aff + .dic) and expands each stem's suffixes.

Only what the lexicon compilers need: suffix rules (SFX) with their conditions and the
morphological fields some dictionaries put after them (French Dicollecte's `is:pl`, the
Portuguese dictionary's `+N=p`). Prefixes, compounding and continuation classes are ignored: the
lexicons hold nouns and adjectives, whose forms are suffixes of the stem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class SuffixRule:
    strip: str
    add: str
    condition: re.Pattern
    morphology: str


@dataclass
class Stem:
    word: str
    flags: list[str]
    morphology: str


@dataclass
class Dictionary:
    flag_type: str = "char"
    suffixes: dict[str, list[SuffixRule]] = field(default_factory=dict)
    stems: list[Stem] = field(default_factory=list)

    def split_flags(self, text: str) -> list[str]:
        if self.flag_type == "long":
            return [text[i : i + 2] for i in range(0, len(text), 2)]
        if self.flag_type == "num":
            return [part for part in text.split(",") if part]
        return list(text)

    def expand(self, stem: Stem) -> list[tuple[str, str]]:
        """Every (form, morphology) the stem's suffix flags make, the stem itself first."""
        forms = [(stem.word, "")]
        for flag in stem.flags:
            for rule in self.suffixes.get(flag, []):
                if not rule.condition.search(stem.word):
                    continue
                if rule.strip and not stem.word.endswith(rule.strip):
                    continue
                base = stem.word[: len(stem.word) - len(rule.strip)] if rule.strip else stem.word
                forms.append((base + rule.add, rule.morphology))
        return forms


def _condition(text: str) -> re.Pattern:
    if text == ".":
        return re.compile("")
    # Hunspell conditions are a sequence of characters and [classes], matched at the word's end.
    return re.compile(text.replace("^", "^", 1) + "$" if not text.startswith("[") else text + "$")


def read(aff_path: str, dic_path: str, encoding: str = "utf-8") -> Dictionary:
    dictionary = Dictionary()
    with open(aff_path, encoding=encoding, errors="replace") as aff:
        lines = aff.read().lstrip("\ufeff").splitlines()
    headers: set[str] = set()
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0] == "FLAG" and len(parts) > 1:
            dictionary.flag_type = {"long": "long", "num": "num"}.get(parts[1], "char")
        elif parts[0] == "SFX" and len(parts) >= 4:
            flag = parts[1]
            if flag not in headers and parts[2] in ("Y", "N") and len(parts) == 4:
                headers.add(flag)
                dictionary.suffixes.setdefault(flag, [])
                continue
            if len(parts) < 5:
                continue
            strip = "" if parts[2] == "0" else parts[2]
            add = parts[3].split("/")[0]
            add = "" if add == "0" else add
            morphology = " ".join(parts[5:])
            dictionary.suffixes.setdefault(flag, []).append(
                SuffixRule(strip, add, re.compile(_escape_condition(parts[4])), morphology)
            )
    with open(dic_path, encoding=encoding, errors="replace") as dic:
        for number, line in enumerate(dic.read().lstrip("\ufeff").splitlines()):
            if number == 0 and line.strip().isdigit():
                continue
            if not line.strip() or line.startswith("/") or line.startswith("#"):
                continue
            head, _, morphology = line.partition("\t") if "\t" in line else line.partition(" ")
            head = head.strip()
            word, slash, flags = head.partition("/")
            if not word:
                continue
            dictionary.stems.append(
                Stem(word, dictionary.split_flags(flags) if slash else [], morphology.strip())
            )
    return dictionary


def _escape_condition(condition: str) -> str:
    """A Hunspell condition as a regular expression anchored at the word's end."""
    if condition == ".":
        return ""
    out = []
    index = 0
    while index < len(condition):
        char = condition[index]
        if char == "[":
            end = condition.index("]", index)
            body = condition[index + 1 : end]
            negate = body.startswith("^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + re.escape(body) + "]")
            index = end + 1
        elif char == ".":
            out.append(".")
            index += 1
        else:
            out.append(re.escape(char))
            index += 1
    return "".join(out) + "$"
