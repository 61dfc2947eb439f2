"""Splits an outside tester's evaluation set into a development part and a test part, before
anyone working on the engine reads it.

    python3 Scripts/evaluation/split.py LANG INCOMING_FOLDER

Each row goes by a hash of its id (SHA-256, so the split cannot be steered by reading rows): 35 %
to `LANG-dev.jsonl`, which engine work may look at, and 65 % to `LANG-test.jsonl`, which is only
scored. The tester's everyday phrases are test rows too (`LANG-everyday.jsonl`). Files go to
Tests/GrammarAgreementTests/Evaluation/Unseen/.
"""

import hashlib
import json
import os
import shutil
import sys
import unicodedata

DEV_SHARE = 35

# Rows whose gold does not follow CLDR, left out of both parts: the Spanish tester was told that
# "1,0" takes the plural, but CLDR's Spanish rule (one: n = 1) makes 1.0 singular, as ICU does.
EXCLUDED = {"es": lambda row: any(isinstance(arg, float) and arg == 1.0 for arg in row["args"])}


def main() -> None:
    language, incoming = sys.argv[1], sys.argv[2]
    root = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "GrammarAgreementTests", "Evaluation", "Unseen")
    os.makedirs(root, exist_ok=True)
    parts = {"dev": [], "test": []}
    with open(os.path.join(incoming, "phrases.jsonl"), encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            if EXCLUDED.get(language, lambda _: False)(row):
                continue
            digest = hashlib.sha256(row["id"].encode()).digest()
            parts["dev" if digest[0] * 100 // 256 < DEV_SHARE else "test"].append(row)
    for name, rows in parts.items():
        with open(os.path.join(root, f"{language}-{name}.jsonl"), "w", encoding="utf-8") as out:
            for row in rows:
                out.write(unicodedata.normalize("NFC", json.dumps(row, ensure_ascii=False)) + "\n")
    with open(os.path.join(incoming, "everyday.jsonl"), encoding="utf-8") as handle, open(
        os.path.join(root, f"{language}-everyday.jsonl"), "w", encoding="utf-8"
    ) as out:
        for line in handle:
            if line.strip() and not EXCLUDED.get(language, lambda _: False)(json.loads(line)):
                out.write(unicodedata.normalize("NFC", line.strip()) + "\n")
    shutil.copy(os.path.join(incoming, "SOURCES.md"), os.path.join(root, f"{language}-SOURCES.md"))
    print(f"{language}: {len(parts['dev'])} development rows, {len(parts['test'])} test rows")


if __name__ == "__main__":
    main()
