#!/usr/bin/env bash
# Installs, builds and runs every test. CUDA tests skip where no GPU answers.
# Also proves the portability promises: the core and CLI build and run with
# neither CUDA nor Qt.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# One test per core at a time: most of a test is waiting on threads and child
# processes, so this cuts the wall time without changing what is tested.
(cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 --parallel "$(nproc)")
scripts/test-skips.sh build

echo "== core + CLI without CUDA and without Qt =="
# A folder of this script's own, so a unity build (sources compiled 16 to a
# file, as in scripts/sanitize.sh) costs no one an incremental rebuild; the
# `build` folder above is the one people work in, and stays one source per
# compile, which also keeps every source's own includes checked.
cmake -S . -B build-portable -G Ninja -DOVERLAPSCOPE_CUDA=OFF -DOVERLAPSCOPE_QT=OFF \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 >/dev/null
cmake --build build-portable --parallel --target overlapscope-cli
build-portable/app/cli/overlapscope-cli pipeline --device sim --chunks 4 --chunk-mib 1 --quiet
echo "all tests passed"
