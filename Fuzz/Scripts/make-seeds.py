#!/usr/bin/env python3
"""Writes the seed corpora of the text and catalog fuzzers into Fuzz/Seeds/<fuzzer>/.

Sources: the repository's fixtures (config/Localizations, the CommonMark inline examples and the
agreement evaluation sets under Tests/) and, for catalog files Caffe did not write, the
permissively licensed files of the shared corpus of real catalogs (its SOURCES.md; pass its
folder as the first argument). Seeds stay small: large files are cut at an entry boundary or
reduced to a few keys. The wire seeds come from `swift run fuzz-seeds` (make fuzz-seeds).

Python 3 standard library only. Re-running rewrites every file it owns and nothing else.
"""
import json
import pathlib
import plistlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEEDS = ROOT / "Fuzz" / "Seeds"
CORPUS = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/catalogs")
LOCALIZATIONS = ROOT / "config" / "Localizations"
LIMIT = 4 * 1024

# The locales of fuzz-agreement, in the order of its first byte (locale + 8 × term of address).
AGREEMENT_LOCALES = ["en-US", "es-ES", "es-MX", "fr-FR", "de-DE", "it-IT", "pt-BR", "ja-JP"]
TERMS = {"-": 0, "feminine": 1, "masculine": 2, "neutral": 3}


def write(fuzzer, name, data):
    folder = SEEDS / fuzzer
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def cut(data, separator):
    """`data` up to LIMIT bytes, ending after the last `separator` before the limit."""
    if len(data) <= LIMIT:
        return data
    end = data.rfind(separator, 0, LIMIT)
    return data[: end + len(separator)] if end > 0 else data[:LIMIT]


def xcstrings(catalog, keys, localizations):
    """A String Catalog with only `keys` in `localizations`, formatted as Xcode writes it."""
    strings = {}
    for key in keys:
        entry = dict(catalog["strings"][key])
        if "localizations" in entry:
            entry["localizations"] = {
                name: value for name, value in entry["localizations"].items() if name in localizations
            }
        strings[key] = entry
    reduced = {"sourceLanguage": catalog["sourceLanguage"], "strings": strings, "version": catalog["version"]}
    return json.dumps(reduced, indent=2, ensure_ascii=False, separators=(",", " : ")) + "\n"


def strings_entries(path):
    """Key-value pairs of a simple `.strings` file of ours (one `"key" = "value";` a line)."""
    pairs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith('"') and line.endswith('";') and '" = "' in line:
            key, value = line[1:-2].split('" = "', 1)
            pairs[key] = value
    return pairs


# .strings: OpenStep text in every encoding, XML and binary property lists.
for lproj in sorted(LOCALIZATIONS.glob("*.lproj")):
    for table in sorted(lproj.glob("*.strings")):
        write("fuzz-strings", f"config-{lproj.stem}-{table.stem}.strings", table.read_bytes())
menu = (LOCALIZATIONS / "es.lproj" / "Menu.strings").read_bytes()
write("fuzz-strings", "config-es-Menu-utf16le.strings", b"\xff\xfe" + menu.decode("utf-8").encode("utf-16-le"))
write("fuzz-strings", "config-es-Menu-utf16be.strings", b"\xfe\xff" + menu.decode("utf-8").encode("utf-16-be"))
write("fuzz-strings", "config-es-Menu-bom.strings", b"\xef\xbb\xbf" + menu)
pairs = strings_entries(LOCALIZATIONS / "es.lproj" / "Menu.strings")
write("fuzz-strings", "config-es-Menu-xml.strings", plistlib.dumps(pairs, fmt=plistlib.FMT_XML))
write("fuzz-strings", "config-es-Menu-binary.strings", plistlib.dumps(pairs, fmt=plistlib.FMT_BINARY))
write(
    "fuzz-strings",
    "escapes.strings",
    '/* every escape */\n"tab\\tnew\\nline" = "\\U00e9\\u00E9 \\101 \\"q\\" \\\\ \\a\\b\\f\\v";\n'
    "// short form, unquoted and single-quoted strings\n\"short\";\nkey.unquoted = 'single';\n"
    '"%1$@ of %2$lld" = "%2$lld de %1$@ (%%)";\n',
)
for saved in [
    "food-truck/ar.lproj/Localizable.strings",
    "monitorcontrol/ru.lproj/Localizable.strings",
    "quicksilver/cs.lproj/QSAction.name.strings",
    "quicksilver/pl.lproj/QSAppearancePrefPane.strings",
    "sparkle/he.lproj/Sparkle.strings",
]:
    write("fuzz-strings", saved.replace("/", "-").replace(".lproj", ""), cut((CORPUS / saved).read_bytes(), b";\n"))
# The compiled (binary) Sparkle table, reduced to its first entries.
sparkle = plistlib.loads((CORPUS / "transmission/he.lproj/Sparkle.strings").read_bytes())
write(
    "fuzz-strings",
    "transmission-he-Sparkle-binary.strings",
    plistlib.dumps(dict(list(sparkle.items())[:12]), fmt=plistlib.FMT_BINARY, sort_keys=False),
)
quicksilver = (CORPUS / "quicksilver/cs.lproj/Localizable.strings").read_bytes()  # UTF-16LE, doubled BOM
write("fuzz-strings", "quicksilver-cs-Localizable-utf16le.strings", cut(quicksilver, ";\n".encode("utf-16-le")))

# .stringsdict: ours, and real files with device, width and Arabic plural rules.
for lproj in sorted(LOCALIZATIONS.glob("*.lproj")):
    for table in sorted(lproj.glob("*.stringsdict")):
        write("fuzz-stringsdict", f"config-{lproj.stem}-{table.stem}.stringsdict", table.read_bytes())
receipt = plistlib.loads((LOCALIZATIONS / "es.lproj" / "Receipt.stringsdict").read_bytes())
write("fuzz-stringsdict", "config-es-Receipt-binary.stringsdict", plistlib.dumps(receipt, fmt=plistlib.FMT_BINARY))
for saved in ["paragraph/ru.lproj/Account.stringsdict", "paragraph/ru.lproj/Main.stringsdict"]:
    write("fuzz-stringsdict", saved.replace("/", "-").replace(".lproj", ""), (CORPUS / saved).read_bytes())
# Nested positional variables (`%1$#@passwords@` inside `%2$#@accounts@`), reduced to three keys.
duckduckgo = plistlib.loads((CORPUS / "duckduckgo-ios/cs.lproj/Localizable.stringsdict").read_bytes())
write(
    "fuzz-stringsdict",
    "duckduckgo-ios-cs-Localizable.stringsdict",
    plistlib.dumps(dict(list(duckduckgo.items())[:3]), fmt=plistlib.FMT_XML, sort_keys=False),
)

# fuzz-import: the language's .stringsdict the import edits (after a NUL, optionally, the XLIFF):
# ours in French and German (an entry the fuzzer's source lacks, categories to insert), an empty
# rule and a comment, two-space indents, a Russian file with one entry already, and that file with
# an XLIFF whose targets need escaping.
for language in ["fr", "de"]:
    write("fuzz-import", f"config-{language}-Receipt.stringsdict", (LOCALIZATIONS / f"{language}.lproj/Receipt.stringsdict").read_bytes())
partial = """<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <!-- one entry, the rule empty -->
  <key>%lld free coffees</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key>
    <string><![CDATA[%#@coffees@]]></string>
    <key>coffees</key>
    <dict/>
  </dict>
</dict>
</plist>
"""
write("fuzz-import", "ru-partial.stringsdict", partial)
xliff = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
<file original="en.lproj/Receipt.stringsdict" source-language="en" target-language="ru" datatype="plaintext">
<body>
<trans-unit id="/%lld free coffees:dict/coffees:dict/few:dict/:string"><source>x</source><target>%lld кофе &lt;b&gt;</target></trans-unit>
<trans-unit id="/%lld free coffees:dict/NSStringLocalizedFormatKey:dict/:string"><source>x</source><target>%#@coffees@ &amp;</target></trans-unit>
<trans-unit id="/%1$@ added &amp; %2$lld:dict/items:dict/other:dict/:string"><source>x</source><target>%2$lld шт.</target></trans-unit>
</body>
</file>
</xliff>
"""
write("fuzz-import", "ru-partial-with-xliff", partial.encode("utf-8") + b"\0" + xliff.encode("utf-8"))

# .xcstrings: a few keys of ours at a time, and real catalogs.
ours = json.loads((LOCALIZATIONS / "Localizable.xcstrings").read_text(encoding="utf-8"))
groups = {
    "plurals": ["%lld items", "%@ ordered %lld coffees"],
    "devices": ["Open your receipt"],
    "agreement": ["Add %lld %@ %@ to your order", "%lld %@ %@", "Welcome, %@!"],
    "markdown": ["Fast & Delicious Food", "Order #%@", "Subtotal"],
}
for name, keys in groups.items():
    write("fuzz-xcstrings", f"config-{name}.xcstrings", xcstrings(ours, keys, {"en", "es", "ar"}))
for saved in ["xcstrings-tool/Substitution.xcstrings", "xcstrings-tool/Variations.xcstrings"]:
    write("fuzz-xcstrings", saved.replace("/", "-"), (CORPUS / saved).read_bytes())
birds = json.loads((CORPUS / "backyard-birds/Localizable.xcstrings").read_text(encoding="utf-8"))
write("fuzz-xcstrings", "backyard-birds-Localizable.xcstrings", xcstrings(birds, list(birds["strings"])[:6], {"ar", "he", "ru"}))
write("fuzz-xcstrings", "damaged.xcstrings", xcstrings(ours, groups["plurals"], {"en", "ar"})[:900])

# Markdown: the first two CommonMark inline examples of each section, and catalog values.
examples = json.loads((ROOT / "Tests/RichTextTests/Fixtures/commonmark-inline.json").read_text(encoding="utf-8"))
taken = {}
for example in examples:
    if taken.get(example["section"], 0) < 2:
        taken[example["section"]] = taken.get(example["section"], 0) + 1
        write("fuzz-markdown", f"commonmark-{example['example']}.md", example["markdown"])
values = []
for entry in ours["strings"].values():
    for localization in entry.get("localizations", {}).values():
        unit = localization.get("stringUnit")
        if unit and any(mark in unit["value"] for mark in ("^[", "*", "[", "`", "~~")):
            values.append(unit["value"])
for index, value in enumerate(sorted(set(values))):
    write("fuzz-markdown", f"catalog-{index}.md", value)
write("fuzz-markdown", "apple-nested.md", "^[a ^[b](k: 2) c](k: 1) [^[x](k: 1)](/u) *^[a*](k: 1) ~~gone~~ `code` &eacute;")

# JSON5 bodies: Apple's agreement keys and JSON5's own syntax.
bodies = [
    "inflect: true",
    "rainbow: 'fun'",
    "{rainbow: 'fun'}",
    "inflect: { number: 'plural', grammaticalGender: 'feminine' }",
    "morphology: { grammaticalCase: 'dative', partOfSpeech: 'noun' }",
    "inflect: true, inflectionAlternative: 'Te damos la bienvenida'",
    "agreeWithArgument: 2",
    "agreeWithConcept: 1",
    "referentConcept: 1",
    "inflect: {grammaticalCase: 'accusative'}",
    "// comment\nkey: [1, 0x1F, +2, .5, 5., Infinity, -NaN, null, true,], 'quoted key': \"a\\\nb\"",
    "k: '\\u0029\\u0028 \\x41 \\t'",
]
for index, body in enumerate(bodies):
    write("fuzz-json5", f"body-{index}", body)

# Agreement: evaluation rows in every language, and the catalog's templates.
for language in ["en", "es", "fr", "de", "it", "pt"]:
    rows = [
        line.split("\t")
        for line in (ROOT / f"Tests/GrammarAgreementTests/Evaluation/{language}.tsv").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    locale = next(index for index, name in enumerate(AGREEMENT_LOCALES) if name.startswith(language))
    for index, row in enumerate(rows[:: max(1, len(rows) // 5)][:5]):
        choice = locale + 8 * TERMS.get(row[0], 0)
        write("fuzz-agreement", f"evaluation-{language}-{index}", bytes([choice]) + row[1].encode("utf-8"))
templates = {}
for entry in ours["strings"].values():
    for name, localization in entry.get("localizations", {}).items():
        unit = localization.get("stringUnit")
        if unit and "inflect" in unit["value"]:
            templates[name] = unit["value"]
for name, template in sorted(templates.items()):
    locale = next((index for index, locale in enumerate(AGREEMENT_LOCALES) if locale.startswith(name)), 7)
    write("fuzz-agreement", f"catalog-{name}", bytes([locale + 8]) + template.encode("utf-8"))

print(f"wrote the text and catalog seeds to {SEEDS}")
