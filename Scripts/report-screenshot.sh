#!/usr/bin/env bash
# Runs a short load against a real worker, writes its HTML report and renders it in headless
# Chromium to a PNG, so the report is checked in a real browser. Usage:
#   Scripts/report-screenshot.sh [output-folder]      (default: .build/report)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/report}
mkdir -p "$OUT"
SUDO=$([ "$(id -u)" = "0" ] || echo sudo)
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    echo "report-screenshot: installing chromium (apt-get)"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    BROWSER=$(command -v chromium)
fi
swift build -c release --product caffe >/dev/null
swift build -c release --product caffe-sim >/dev/null
BIN=.build/release
RUN=$(mktemp -d)
trap 'kill $WORKER 2>/dev/null || true; rm -rf "$RUN"' EXIT
$BIN/caffe worker --config-file config/worker.yaml --set input.kind=pull --set "input.endpoints=>ipc://$RUN/in" \
    --set output.kind=push --set "output.endpoints=>ipc://$RUN/out" --set rpc.endpoint= --set metrics.address= \
    --set "checkpoint.path=$RUN/checkpoint" --set log.level=warning 2>"$RUN/worker.log" &
WORKER=$!
$BIN/caffe-sim load --profile ramp:500-4000:20 --count 200000 --input "@ipc://$RUN/in" --input-kind push \
    --output "@ipc://$RUN/out" --output-kind pull --replay-endpoint '' --warmup 1 --watch-pid "$WORKER" \
    --format html --report-file "$OUT/load-report.html" 2>/dev/null
"$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1500,2200 \
    --screenshot="$OUT/load-report.png" "file://$(realpath "$OUT/load-report.html")" 2>/dev/null
echo "report-screenshot: $OUT/load-report.html and $OUT/load-report.png"
