"""Splits an outside tester's evaluation set into a development part and a test part, before
anyone working on the engine reads it.

    python3 Scripts/evaluation/split.py LANG INCOMING_FOLDER [SET]

Each row goes by a hash of its id (SHA-256, so the split cannot be steered by reading rows): 35 %
to `LANG-dev.jsonl`, which engine work may look at, and 65 % to `LANG-test.jsonl`, which is only
scored. The tester's everyday phrases are test rows too (`LANG-everyday.jsonl`). Files go to
Tests/GrammarAgreementTests/Evaluation/Unseen/. A later set from another tester is named by SET
(`menu`: `LANG-menu-dev.jsonl`, `LANG-menu-test.jsonl`…), so the earlier parts stay as they were.
"""

import hashlib
import json
import os
import re
import shutil
import sys
import unicodedata

DEV_SHARE = 35

# Rows whose gold does not follow CLDR, left out of both parts: the Spanish tester was told that
# "1,0" takes the plural, but CLDR's Spanish rule (one: n = 1) makes 1.0 singular, as ICU does.
EXCLUDED = {"es": lambda row: any(isinstance(arg, float) and arg == 1.0 for arg in row["args"])}

SPECIFIER = re.compile(r"%(?:(\d+)\$)?(lld|ld|d|@)")


def integer_specifier_given_a_decimal(row) -> bool:
    """Rows that pass a decimal (1.5, 1.0) to %lld, left out of every set: an integer specifier
    cannot take one (Foundation reads another register; the engine refuses with
    argument-mismatch), so the row tests the tester's template, not agreement."""
    for position, (number, kind) in enumerate(SPECIFIER.findall(row["template"])):
        index = int(number) - 1 if number else position
        if kind != "@" and index < len(row["args"]) and isinstance(row["args"][index], float):
            return True
    return False


def bare_percent(row) -> bool:
    """Rows whose template has a % that is neither a specifier nor %% ("10% de descuento"): a format
    string reads "% d" as a conversion and asks for an argument the row does not give, so the row
    tests the tester's template, not agreement (a catalog would write 10%%)."""
    rest = SPECIFIER.sub("", row["template"].replace("%%", ""))
    rest = re.sub(r"%(?:\d+\$)?(?:lld|ld|d|@|\.\d+f|f)", "", rest)
    return "%" in rest


def excluded(language: str, row) -> bool:
    return (
        EXCLUDED.get(language, lambda _: False)(row)
        or integer_specifier_given_a_decimal(row)
        or bare_percent(row)
    )


def main() -> None:
    language, incoming = sys.argv[1], sys.argv[2]
    prefix = f"{language}-{sys.argv[3]}" if len(sys.argv) > 3 else language
    root = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "GrammarAgreementTests", "Evaluation", "Unseen")
    os.makedirs(root, exist_ok=True)
    parts = {"dev": [], "test": []}
    with open(os.path.join(incoming, "phrases.jsonl"), encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            if excluded(language, row):
                continue
            digest = hashlib.sha256(row["id"].encode()).digest()
            parts["dev" if digest[0] * 100 // 256 < DEV_SHARE else "test"].append(row)
    for name, rows in parts.items():
        with open(os.path.join(root, f"{prefix}-{name}.jsonl"), "w", encoding="utf-8") as out:
            for row in rows:
                out.write(unicodedata.normalize("NFC", json.dumps(row, ensure_ascii=False)) + "\n")
    with open(os.path.join(incoming, "everyday.jsonl"), encoding="utf-8") as handle, open(
        os.path.join(root, f"{prefix}-everyday.jsonl"), "w", encoding="utf-8"
    ) as out:
        for line in handle:
            if line.strip() and not excluded(language, json.loads(line)):
                out.write(unicodedata.normalize("NFC", line.strip()) + "\n")
    shutil.copy(os.path.join(incoming, "SOURCES.md"), os.path.join(root, f"{prefix}-SOURCES.md"))
    print(f"{prefix}: {len(parts['dev'])} development rows, {len(parts['test'])} test rows")


if __name__ == "__main__":
    main()
