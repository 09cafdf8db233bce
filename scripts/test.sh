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

echo "== Python module (pytest: python/tests) =="
# Against the CLI of the same build; skipped, saying why, only where the
# module was not built (no pybind11 or Python headers at configure).
if grep -q '^OVERLAPSCOPE_PYTHON_BUILT:INTERNAL=ON' build/CMakeCache.txt; then
  python=$(sed -n 's/^OVERLAPSCOPE_PYTHON_EXECUTABLE:INTERNAL=//p' build/CMakeCache.txt)
  PYTHONPATH="$PWD/build/python" OVERLAPSCOPE_CLI="$PWD/build/app/cli/overlapscope-cli" \
    OVERLAPSCOPE_GUI="$PWD/build/app/gui/overlapscope" QT_QPA_PLATFORM=offscreen \
    "$python" -m pytest -q -rs -p no:cacheprovider --durations=5 python/tests
else
  echo "SKIPPED: the Python module was not built: CMake found no pybind11 or no Python headers (apt-get install pybind11-dev python3-dev; see 'OverlapScope: Python module' in the configure output)"
fi

echo "== core + CLI without CUDA and without Qt =="
# A folder of this script's own, so a unity build (sources compiled 16 to a
# file, as in scripts/sanitize.sh) costs no one an incremental rebuild; the
# `build` folder above is the one people work in, and stays one source per
# compile, which also keeps every source's own includes checked.
# The Python module is left out: this build proves the core and the CLI.
cmake -S . -B build-portable -G Ninja -DOVERLAPSCOPE_CUDA=OFF -DOVERLAPSCOPE_QT=OFF -DOVERLAPSCOPE_PYTHON=OFF \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 >/dev/null
cmake --build build-portable --parallel --target overlapscope-cli
build-portable/app/cli/overlapscope-cli pipeline --device sim --chunks 4 --chunk-mib 1 --quiet
echo "all tests passed"
