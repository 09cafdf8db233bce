#!/usr/bin/env bash
# Runs the tests that need a CUDA GPU, on the lent GPU machine, from a small
# build folder carried there (scripts/pack-gpu-build.sh makes it):
#   scripts/gpu-tests.sh OUTDIR [BUILD_DIR]
# BUILD_DIR (default build-gpu) holds the stripped CLI, the injection library
# and libsimdjson in app/cli, the examples in examples/, the CUDA test
# programs in tests/ and the packed Qt runtime (qt-runtime.tar.xz). The test
# programs were built with the CLI's absolute path of the build machine
# compiled in: that path is made to exist here when it does not. Each
# test's output goes to OUTDIR/tests.log; the CUPTI library override is
# checked both ways at the end.
set -uo pipefail
out=${1:?usage: $0 OUTDIR [BUILD_DIR]}
build=$(cd "${2:-build-gpu}" && pwd)
mkdir -p "$out" /tmp/rt
tar xJf "$build/qt-runtime.tar.xz" -C /tmp/rt
. /tmp/rt/env.sh
export LD_LIBRARY_PATH=$build/app/cli:$LD_LIBRARY_PATH
built_cli=$(cat "$build/cli-path.txt")
if [ ! -e "$built_cli" ]; then
  mkdir -p "$(dirname "$built_cli")"
  cp "$build"/app/cli/* "$(dirname "$built_cli")/"
fi
export OVERLAPSCOPE_EXAMPLES_DIR=$build/examples
{
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv
  for t in "$build"/tests/tst_*; do
    echo "== $(basename "$t")"
    (cd /tmp && timeout 300 "$t" 2>&1 | grep -Ev '^PASS|^QDEBUG|^QINFO' | tail -n 40)
    echo "exit status: ${PIPESTATUS[0]}"
  done
  echo "== OVERLAPSCOPE_CUPTI_LIBRARY=/nonexistent: the CUDA device falls back to events and says why"
  OVERLAPSCOPE_CUPTI_LIBRARY=/nonexistent "$build/app/cli/overlapscope-cli" pipeline --device cuda --chunks 4 \
    --chunk-mib 8 --pipelines overlapped 2>&1 | grep -Ei 'cupti|timing|verified' | head -n 5
  echo "== OVERLAPSCOPE_CUPTI_LIBRARY=the toolkit's libcupti: engine times"
  lib=$(ls /usr/local/cuda/lib64/libcupti.so* /usr/local/cuda/extras/CUPTI/lib64/libcupti.so* 2>/dev/null | head -n 1)
  OVERLAPSCOPE_CUPTI_LIBRARY=$lib "$build/app/cli/overlapscope-cli" pipeline --device cuda --chunks 4 \
    --chunk-mib 8 --pipelines overlapped 2>&1 | grep -Ei 'cupti|timing|verified' | head -n 5
} >"$out/tests.log" 2>&1
grep -E '^== |^Totals|^FAIL|exit status' "$out/tests.log"
