#!/usr/bin/env bash
# The HTML report of caffe-sim diff, checked in a real browser: two copies of config/ (the second
# with the French greeting reworded, the German juice renamed), a generated journal, the report
# rendered by headless Chromium to the DOM it parsed and to a PNG, both checked by
# Scripts/check-diff-report.py. Usage:
#   Scripts/diff-report.sh [output-folder]      (default: .build/report)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/report}
mkdir -p "$OUT"
. Scripts/chromium.sh diff-report
swift build --product caffe-sim >/dev/null
SIM=.build/debug/caffe-sim
RUN=$(mktemp -d)
trap 'rm -rf "$RUN"' EXIT
cp -r config "$RUN/before"
cp -r config "$RUN/after"
python3 - "$RUN/after" <<'PY'
import json, sys
root = sys.argv[1]
path = f"{root}/Localizations/Localizable.xcstrings"
document = json.load(open(path, encoding="utf-8"))
document["strings"]["Welcome, %@!"]["localizations"]["fr"]["stringUnit"]["value"] = "Bonjour, %@ !"
json.dump(document, open(path, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
path = f"{root}/Localizations/de.lproj/Menu.strings"
text = open(path, encoding="utf-8").read().replace('"juice" = "Saft";', '"juice" = "Fruchtsaft";')
open(path, "w", encoding="utf-8").write(text)
PY
"$SIM" generate -o "$RUN/orders.journal" --orders 5000 --seed 3 --config config >/dev/null
# Exit status 1: the gate trips on the greeting, as the report's headline says.
"$SIM" diff --journal "$RUN/orders.journal" --before "$RUN/before" --after "$RUN/after" --format html \
    --fail-on changed --allow Menu:juice > "$OUT/diff-report.html" || [ $? -eq 1 ]
"$BROWSER" --headless --no-sandbox --disable-gpu --dump-dom "file://$(realpath "$OUT/diff-report.html")" \
    > "$OUT/diff-report.dom.html" 2>/dev/null
"$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1200 \
    --screenshot="$OUT/diff-report.png" "file://$(realpath "$OUT/diff-report.html")" 2>/dev/null
python3 Scripts/check-diff-report.py "$OUT/diff-report.dom.html" "$OUT/diff-report.png"
