#!/usr/bin/env bash
# Installs, builds and runs every test. CUDA tests skip where no GPU answers.
# Also proves the portability promises: the core and CLI build and run with
# neither CUDA nor Qt.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
(cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900)
scripts/test-skips.sh build

echo "== core + CLI without CUDA and without Qt =="
cmake -S . -B build-portable -G Ninja -DOVERLAPSCOPE_CUDA=OFF -DOVERLAPSCOPE_QT=OFF >/dev/null
cmake --build build-portable --parallel --target overlapscope-cli
build-portable/app/cli/overlapscope-cli pipeline --device sim --chunks 4 --chunk-mib 1 --quiet
echo "all tests passed"
