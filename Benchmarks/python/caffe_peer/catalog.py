"""The string catalogs of ``config/Localizations`` and which localization serves a locale.

Reads what the shipped catalog uses: ``Localizable.xcstrings`` (string units and plural
variations; device variations take their ``other`` case), ``<lang>.lproj/*.strings`` (OpenStep
property lists) and ``*.stringsdict`` (plural rules of ``%#@var@`` substitutions). Lookup follows
the Swift ``Localizer``: the locale's CLDR ancestry (es-MX → es-419 → es), each element matched
by identifier or by maximal form, then the development language. A key no localization has
renders as the key itself.
"""

from __future__ import annotations

import json
import plistlib
import re
from dataclasses import dataclass
from pathlib import Path

from babel.core import get_global

DEFAULT_TABLE = "Localizable"

#: CLDR plural categories in the order the catalogs list them.
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


@dataclass(frozen=True, slots=True)
class Plural:
    """A string whose text depends on a number's CLDR plural category."""

    variants: dict[str, str]
    #: The 0-based argument that chooses the variant.
    argument: int = 0

    def select(self, category: str) -> str:
        return self.variants.get(category) or self.variants.get("other") or ""


Value = str | Plural


class Catalog:
    """Every table of a catalog folder: ``tables[table][localization][key]``."""

    def __init__(self, directory: Path) -> None:
        self.tables: dict[str, dict[str, dict[str, Value]]] = {}
        self.development_language = "en"
        # Lowest precedence first: .strings, then .xcstrings, then .stringsdict (plural rules win).
        for path in sorted(directory.glob("*.lproj/*.strings")):
            self._add(path.stem, path.parent.stem, _read_strings(path))
        for path in sorted(directory.glob("*.xcstrings")):
            source_language, by_localization = _read_xcstrings(path)
            self.development_language = source_language
            for localization, entries in by_localization.items():
                self._add(path.stem, localization, entries)
        for path in sorted(directory.glob("*.lproj/*.stringsdict")):
            self._add(path.stem, path.parent.stem, _read_stringsdict(path))
        available = sorted({localization for table in self.tables.values() for localization in table})
        self.matcher = LocalizationMatcher(available, self.development_language)

    def _add(self, table: str, localization: str, entries: dict[str, Value]) -> None:
        self.tables.setdefault(table, {}).setdefault(localization, {}).update(entries)

    def value(self, key: str, table: str, localizations: list[str]) -> tuple[Value, str] | None:
        """The value of ``key`` in the first of ``localizations`` that has it, and that localization."""
        by_localization = self.tables.get(table, {})
        for localization in localizations:
            found = by_localization.get(localization, {}).get(key)
            if found is not None:
                return found, localization
        return None


# MARK: Localization matching


class LocalizationMatcher:
    """Picks the localizations that serve a locale, best first (the Swift ``LocalizationMatcher``),
    from CLDR's parent locales and likely subtags as Babel ships them."""

    def __init__(self, available: list[str], development_language: str) -> None:
        self.available = available
        self.development_language = development_language
        self._by_key: dict[str, str] = {}
        for localization in available:
            self._by_key.setdefault(_normalized(localization), localization)
        for localization in available:
            self._by_key.setdefault(maximal(localization), localization)

    def _match(self, element: str) -> str | None:
        return self._by_key.get(_normalized(element)) or self._by_key.get(maximal(element))

    def localizations(self, locale: str) -> list[str]:
        """The localizations to try for ``locale``, ending with the development language."""
        result: list[str] = []
        for element in ancestry(locale):
            found = self._match(element)
            if found and found not in result:
                result.append(found)
        development = self._by_key.get(_normalized(self.development_language), self.development_language)
        if development not in result:
            result.append(development)
        return result

    def is_supported(self, locale: str) -> bool:
        """Whether some localization serves ``locale`` (else only the development language does)."""
        return any(self._match(element) for element in ancestry(locale))


def _normalized(identifier: str) -> str:
    return identifier.lower().replace("_", "-")


def _subtags(tag: str) -> tuple[str, str, str]:
    """Language, script and region of a tag (extensions and variants ignored)."""
    parts = re.split(r"[-_]", tag)
    language, script, region = parts[0].lower(), "", ""
    for part in parts[1:]:
        if len(part) == 1:
            break
        if len(part) == 4 and part.isalpha() and not script and not region:
            script = part.title()
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            if not region:
                region = part.upper()
    return language, script, region


def maximal(tag: str) -> str:
    """The tag with likely script and region added (``es`` → ``es-latn-es``), normalized."""
    language, script, region = _subtags(tag)
    likely: dict[str, str] = get_global("likely_subtags")
    for probe in (f"{language}_{script}_{region}", f"{language}_{region}", f"{language}_{script}", language):
        filled = likely.get(probe.replace("__", "_").strip("_"))
        if filled:
            other = filled.split("_")
            script = script or next((p for p in other[1:] if len(p) == 4), "")
            region = region or next((p for p in other[1:] if len(p) in (2, 3) and p != script), "")
            break
    return _normalized("-".join(part for part in (language, script, region) if part))


def ancestry(locale: str) -> list[str]:
    """The locale and its CLDR parents, without the root (``es-MX``, ``es-419``, ``es``)."""
    parents: dict[str, str] = get_global("parent_exceptions")
    chain = [locale]
    seen = {_normalized(locale)}
    language, script, region = _subtags(locale)
    current = "_".join(part for part in (language, script, region) if part)
    while len(chain) < 8:
        parent = parents.get(current)
        if parent is None:
            parent = current.rsplit("_", 1)[0] if "_" in current else "root"
        if parent == "root" or not parent:
            break
        identifier = parent.replace("_", "-")
        if _normalized(identifier) not in seen:
            seen.add(_normalized(identifier))
            chain.append(identifier)
        current = parent
    return chain


# MARK: Readers


def _read_xcstrings(path: Path) -> tuple[str, dict[str, dict[str, Value]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    source_language = data.get("sourceLanguage", "en")
    result: dict[str, dict[str, Value]] = {}
    for key, entry in data.get("strings", {}).items():
        localizations = entry.get("localizations", {})
        if source_language not in localizations:
            result.setdefault(source_language, {})[key] = key
        for language, localization in localizations.items():
            if not entry.get("shouldTranslate", True) and language != source_language:
                continue
            value = _xcstrings_value(localization)
            if value is not None:
                result.setdefault(language, {})[key] = value
    return source_language, result


def _xcstrings_value(node: dict) -> Value | None:
    unit = node.get("stringUnit")
    if unit is not None:
        return unit.get("value", "")
    variations = node.get("variations", {})
    if "plural" in variations:
        variants = {
            category: case["stringUnit"]["value"]
            for category, case in variations["plural"].items()
            if "stringUnit" in case
        }
        return Plural(variants)
    if "device" in variations:
        cases = variations["device"]
        chosen = cases.get("other") or next(iter(cases.values()), None)
        return _xcstrings_value(chosen) if chosen else None
    return None


_STRINGS_TOKEN = re.compile(
    r"""\s*(?:/\*.*?\*/|//[^\n]*)|\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_.$:/-]+)|\s*([=;])""",
    re.S,
)


def _read_strings(path: Path) -> dict[str, Value]:
    """``"key" = "value";`` pairs of an OpenStep ``.strings`` file (UTF-8 or UTF-16)."""
    raw = path.read_bytes()
    text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw.decode("utf-8-sig")
    tokens: list[str] = []
    position = 0
    while position < len(text):
        match = _STRINGS_TOKEN.match(text, position)
        if match is None:
            if text[position:].strip():
                raise ValueError(f"{path}: cannot read at offset {position}")
            break
        position = match.end()
        if match.group(1) is not None:
            word = match.group(1)
            tokens.append(_unescape(word[1:-1]) if word.startswith('"') else word)
        elif match.group(2) is not None:
            tokens.append("\0" + match.group(2))
    entries: dict[str, Value] = {}
    index = 0
    while index < len(tokens):
        # "key" = "value";   or   "key";  (the key is its own value)
        if tokens[index + 1 : index + 2] == ["\0;"]:
            entries[tokens[index]] = tokens[index]
            index += 2
        elif tokens[index + 1 : index + 2] == ["\0="] and tokens[index + 3 : index + 4] == ["\0;"]:
            entries[tokens[index]] = tokens[index + 2]
            index += 4
        else:
            raise ValueError(f'{path}: expected \'"key" = "value";\' near {tokens[index]!r}')
    return entries


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _unescape(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape[0] in "Uu":
            return chr(int(escape[1:], 16))
        return _ESCAPES.get(escape, escape)

    return re.sub(r"\\(U[0-9A-Fa-f]{4}|u[0-9A-Fa-f]{4}|.)", replace, text, flags=re.S)


def _read_stringsdict(path: Path) -> dict[str, Value]:
    """Entries whose format is one ``%#@var@`` plural substitution (what plural rules need);
    others keep their format key's text."""
    data = plistlib.loads(path.read_bytes())
    entries: dict[str, Value] = {}
    for key, entry in data.items():
        if not isinstance(entry, dict):
            continue
        format_key = entry.get("NSStringLocalizedFormatKey", "")
        match = re.fullmatch(r"%(?:(\d+)\$)?#@(\w+)@", format_key)
        rule = entry.get(match.group(2)) if match else None
        if isinstance(rule, dict) and rule.get("NSStringFormatSpecTypeKey") == "NSStringPluralRuleType":
            variants = {category: rule[category] for category in PLURAL_CATEGORIES if category in rule}
            entries[key] = Plural(variants, int(match.group(1) or 1) - 1)
        else:
            entries[key] = format_key
    return entries
