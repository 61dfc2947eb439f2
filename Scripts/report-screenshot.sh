#!/usr/bin/env bash
# Runs two loads against a real worker — a 20 s ramp with a threshold, and a 1 s run whose
# threshold fails — writes their HTML reports and renders each in headless Chromium to a PNG, so
# the report is checked in a real browser. Usage:
#   Scripts/report-screenshot.sh [output-folder]      (default: .build/report)
# BIN=folder uses the caffe and caffe-sim already there instead of building them (for example
# to render a report from another revision beside this one).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/report}
mkdir -p "$OUT"
. Scripts/chromium.sh report-screenshot
if [ -z "${BIN:-}" ]; then
    swift build -c release --product caffe >/dev/null
    swift build -c release --product caffe-sim >/dev/null
    BIN=.build/release
fi
RUN=$(mktemp -d)
trap 'kill $WORKER 2>/dev/null || true; rm -rf "$RUN"' EXIT
"$BIN/caffe" worker --config-file config/worker.yaml --set input.kind=pull --set "input.endpoints=>ipc://$RUN/in" \
    --set output.kind=push --set "output.endpoints=>ipc://$RUN/out" --set rpc.endpoint= --set metrics.address= \
    --set "checkpoint.path=$RUN/checkpoint" --set log.level=warning 2>"$RUN/worker.log" &
WORKER=$!
load() {
    # Exit status 2 (a threshold failed) is part of what the report shows.
    "$BIN/caffe-sim" load --input "@ipc://$RUN/in" --input-kind push --output "@ipc://$RUN/out" --output-kind pull \
        --replay-endpoint '' --watch-pid "$WORKER" --format html "$@" 2>/dev/null || [ $? -eq 2 ]
}
load --profile ramp:500-4000:20 --warmup 1 --threshold 'p99<5ms,lost==0' --report-file "$OUT/load-report.html"
# A 1 s run whose threshold fails: the headline is red and says why.
load --rate 1000 --count 1000 --threshold 'p99<0.5ms' --report-file "$OUT/short-report.html"
for name in load-report short-report; do
    "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1500,3400 \
        --screenshot="$OUT/$name.png" "file://$(realpath "$OUT/$name.html")" 2>/dev/null
done
echo "report-screenshot: $OUT/{load-report,short-report}.{html,png}"
