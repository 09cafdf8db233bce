#!/usr/bin/env bash
# Says which test cases skipped and why, after ctest. ctest reports a Qt Test
# binary that skipped 20 of its 22 cases as "Passed"; a reader of the CI log
# must see that the CUDA paths were not exercised here.
#   scripts/test-skips.sh [build dir]   (reads Testing/Temporary/LastTest.log)
set -euo pipefail
log="${1:-build}/Testing/Temporary/LastTest.log"
if [ ! -f "$log" ]; then
  echo "test-skips: no ctest log at $log" >&2
  exit 2
fi
awk '
  /^[0-9]+\/[0-9]+ Test: / { test = $3; next }
  /^PASS   : / { passed[test]++ }
  /^SKIP   : / {
    skipped[test]++; total++
    reason = $0; sub(/^SKIP   : [^ (]*\([^)]*\) */, "", reason)
    if (!(test in why)) why[test] = reason
  }
  END {
    if (total == 0) { print "== skipped test cases: none"; exit }
    print "== skipped test cases: " total " (ctest counts these binaries as passed)"
    for (t in skipped)
      printf "  %-28s %3d skipped, %3d passed: %s\n", t, skipped[t], passed[t], why[t] | "sort"
  }' "$log"
