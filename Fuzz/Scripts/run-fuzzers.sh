#!/usr/bin/env bash
# Builds Caffe's fuzzers with -sanitize=fuzzer,address and runs them one after another.
#
#   Fuzz/Scripts/run-fuzzers.sh --seconds 20 --fresh            # CI (make fuzz-smoke)
#   Fuzz/Scripts/run-fuzzers.sh --seconds 3600 fuzz-markdown    # a long run (make fuzz)
#   Fuzz/Scripts/run-fuzzers.sh --build-only
#   FUZZ_FLAGS="-len_control=0" Fuzz/Scripts/run-fuzzers.sh --seconds 600 fuzz-markdown
#
# Each fuzzer starts from its committed seeds (Fuzz/Seeds/<fuzzer>) and its dictionary
# (Fuzz/Dictionaries/<fuzzer>.dict) and writes what it finds under Fuzz/.build/fuzz/long/, or,
# with --fresh, under Fuzz/.build/fuzz/smoke/, emptied first (a long run's corpus stays):
#   corpus/<fuzzer>/      inputs it added (a long run continues from them)
#   artifacts/<fuzzer>/   crash-*, leak-*, timeout-*, oom-* inputs
#   logs/<fuzzer>.log     libFuzzer's output
#   summary.txt           runs, executions per second, coverage and corpus size per fuzzer
# One fuzzer runs at a time (the machine is shared). Exits 1 if any fuzzer crashed, leaked,
# hung (an input over --timeout seconds), ran out of memory or printed a sanitizer report.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
ALL=(fuzz-strings fuzz-stringsdict fuzz-xcstrings fuzz-import fuzz-markdown fuzz-json5 fuzz-agreement fuzz-events fuzz-requests fuzz-render)

seconds=20
timeout=10
fresh=false
build_only=false
fuzzers=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --timeout) timeout=$2; shift 2 ;;
        --fresh) fresh=true; shift ;;
        --build-only) build_only=true; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        fuzz-*) fuzzers+=("$1"); shift ;;
        *) echo "run-fuzzers: unknown argument '$1' (fuzzers: ${ALL[*]})" >&2; exit 2 ;;
    esac
done
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=("${ALL[@]}")

started=$(date +%s)
echo "fuzz: building (release, -sanitize=fuzzer,address)"
"$SWIFT" build -c release -Xswiftc -sanitize=fuzzer,address
binaries=$("$SWIFT" build -c release -Xswiftc -sanitize=fuzzer,address --show-bin-path)
echo "fuzz: built in $(($(date +%s) - started)) s"
$build_only && exit 0

if $fresh; then
    work=.build/fuzz/smoke
    rm -rf "$work"
else
    work=.build/fuzz/long
fi
mkdir -p "$work/logs"
failed=()
printf '\n%-18s %10s %10s %8s %8s  %s\n' fuzzer runs "exec/s" cov corpus result > "$work/summary.txt"
for fuzzer in "${fuzzers[@]}"; do
    [ -x "$binaries/$fuzzer" ] || { echo "run-fuzzers: no fuzzer named $fuzzer" >&2; exit 2; }
    corpus="$work/corpus/$fuzzer"
    artifacts="$work/artifacts/$fuzzer"
    log="$work/logs/$fuzzer.log"
    mkdir -p "$corpus" "$artifacts"
    options=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2560 -print_final_stats=1
        -artifact_prefix="$artifacts/")
    [ -f "Dictionaries/$fuzzer.dict" ] && options+=(-dict="Dictionaries/$fuzzer.dict")
    # More libFuzzer flags, such as -len_control=0 (long inputs from the start) or -seed=N.
    read -r -a extra <<< "${FUZZ_FLAGS:-}"
    options+=("${extra[@]}")
    case "$fuzzer" in
        fuzz-strings | fuzz-stringsdict | fuzz-xcstrings | fuzz-import) options+=(-max_len=8192) ;;
    esac
    echo "fuzz: $fuzzer for $seconds s"
    status=0
    "$binaries/$fuzzer" "${options[@]}" "$corpus" "Seeds/$fuzzer" > "$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
    units=$(find "$corpus" -type f | wc -l)
    result=ok
    if [ "$status" -ne 0 ] || grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'ERROR: libFuzzer' \
        -e 'invariant broken' -e 'SUMMARY: ' -e 'ParseDictionaryFile: error' "$log"; then
        result="FAILED (exit $status): $log"
        failed+=("$fuzzer")
        echo "fuzz: $fuzzer failed; the end of its log:" >&2
        grep -v -e '^#[0-9]' "$log" | tail -40 >&2
        ls "$artifacts" >&2
    fi
    printf '%-18s %10s %10s %8s %8s  %s\n' "$fuzzer" "${runs:-?}" "${speed:-?}" "${coverage:-?}" "$units" "$result" \
        >> "$work/summary.txt"
done
cat "$work/summary.txt"
echo "fuzz: done in $(($(date +%s) - started)) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${failed[*]} failed; reproduce with: Fuzz/.build/release/<fuzzer> <artifact> (CONTRIBUTING.md)" >&2
    exit 1
fi
