#!/usr/bin/env bash
# Rewrites the expected outputs that tests/tst_golden.cpp compares against
# (tests/data/golden/expected/): every stored trace's `analyze` and
# `analyze --json`, every stored before/after pair's `diff` and `diff --json`,
# and the simulated recordings of tests/data/golden/cases.txt. A deliberate
# change to what OverlapScope says is this command and a reviewed
# `git diff tests/data/golden` (docs/testing.md).
#   scripts/regenerate-golden.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" --target tst_golden overlapscope-cli
OVERLAPSCOPE_GOLDEN_UPDATE=1 QT_QPA_PLATFORM=offscreen "$build/tests/tst_golden" -silent
# The same test, reading what it wrote: the files are complete and stable.
QT_QPA_PLATFORM=offscreen "$build/tests/tst_golden" -silent
git status --short tests/data/golden
