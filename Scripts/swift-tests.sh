#!/usr/bin/env bash
# make test's Swift part: every test, one at a time, its whole output kept in
# .build/swift-tests.log; on a failure the failing tests and their issues are repeated at the end,
# where a CI log's tail shows them (the full output runs to thousands of lines).
set -uo pipefail
swift="${SWIFT:-swift}"
log=.build/swift-tests.log
mkdir -p .build
"$swift" test --skip-build --no-parallel 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "=== failing tests (from $log) ==="
    grep -E '✘|error: |: error|Fatal error|Crash|signal [0-9]+' "$log" | grep -v '^.*✘ Test run with' | head -60
    grep -E '✘ Test run with' "$log" | tail -1
fi
exit "$status"
