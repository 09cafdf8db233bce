#!/usr/bin/env bash
# The GPU measurements of issue 9 (measurement truth), for docs/measurements.md:
#   scripts/gpu-measure-truth.sh OUTDIR [BINDIR] [PART]
# BINDIR holds overlapscope-cli and overlapscope-observer-bench (default:
# build/app/cli and build/app/bench). PART (default all) runs one part, so
# each fits the device tool's 10 minutes a command:
#   observer8   what recording costs at the seed's defaults (8 x 32 MiB)
#   observer64  the same at 64 chunks
#   events      observer8 with CUPTI off (OVERLAPSCOPE_NO_CUPTI=1): what the
#               events around every op cost alone; the difference from
#               observer8 is what CUPTI's engine records cost
#   cupti       four steady strategies, 15 repetitions, with CUPTI and
#               without, in one session
#   traces      traces with the host memcpy sweep: every strategy; overlapped
#               with 8 staging threads; serialized, overlapped and pinned-data
#               with --kernel-repeats 200 (kernels on three streams at once:
#               the compute bound must hold); and --no-op-timing on the CLI
# Writes at most 8 files under OUTDIR: observer-8x32.log, observer-64x32.log,
# observer-8x32-events-only.log,
# traces.log, h200-truth-all.json, h200-truth-staging8.json,
# h200-truth-kernel-repeats-200.json.
set -uo pipefail
out=${1:?usage: $0 OUTDIR [BINDIR] [observer8|observer64|traces|all]}
bindir=${2:-}
part=${3:-all}
cli=${bindir:+$bindir/}overlapscope-cli
bench=${bindir:+$bindir/}overlapscope-observer-bench
[ -n "$bindir" ] || { cli=build/app/cli/overlapscope-cli; bench=build/app/bench/overlapscope-observer-bench; }
mkdir -p "$out"

machine() {
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1
  echo "host: $(nproc) hardware threads; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
}

if [ "$part" = all ] || [ "$part" = observer8 ]; then
  {
    machine
    echo "== observer effect, the seed's defaults"
    "$bench" --device cuda --staging-threads 1,8,12 --repetitions 21 --warmups 1 --quiet
    echo "exit status $?"
  } 2>&1 | tee "$out/observer-8x32.log"
fi

if [ "$part" = all ] || [ "$part" = events ]; then
  {
    machine
    echo "== observer effect, the seed's defaults, CUPTI off: events only"
    OVERLAPSCOPE_NO_CUPTI=1 "$bench" --device cuda --staging-threads 1,8,12 --repetitions 21 --warmups 1 --quiet
    echo "exit status $?"
  } 2>&1 | tee "$out/observer-8x32-events-only.log"
fi

if [ "$part" = all ] || [ "$part" = cupti ]; then
  {
    machine
    for mode in with-cupti no-cupti; do
      echo "== $mode"
      [ $mode = no-cupti ] && export OVERLAPSCOPE_NO_CUPTI=1
      "$bench" --device cuda --pipelines pinned-data,pinned-one-stream,overlapped,registered --staging-threads 1 \
        --repetitions 15 --quiet
      unset OVERLAPSCOPE_NO_CUPTI
    done
  } 2>&1 | tee "$out/observer-cupti.log"
fi

if [ "$part" = all ] || [ "$part" = observer64 ]; then
  {
    machine
    echo "== observer effect, 64 chunks x 32 MiB"
    "$bench" --device cuda --chunks 64 --staging-threads 1,8,12 --repetitions 5 --warmups 1 --quiet
    echo "exit status $?"
  } 2>&1 | tee "$out/observer-64x32.log"
fi

if [ "$part" = all ] || [ "$part" = traces ]; then
  {
    machine
    echo "== every strategy, seed's defaults, with the bandwidth and host memcpy sweep"
    "$cli" record --device cuda --pipelines all --quiet -o "$out/h200-truth-all.json"
    echo "== overlapped, 8 staging threads, with the sweep"
    "$cli" record --device cuda --pipelines serialized,overlapped --staging-threads 8 --quiet \
      -o "$out/h200-truth-staging8.json"
    echo "== kernels x200 on three streams (concurrent kernels), with the sweep"
    "$cli" record --device cuda --pipelines serialized,overlapped,pinned-data --kernel-repeats 200 --quiet \
      -o "$out/h200-truth-kernel-repeats-200.json"
    for trace in all staging8 kernel-repeats-200; do
      echo "== analyze h200-truth-$trace.json"
      "$cli" analyze "$out/h200-truth-$trace.json"
    done
    echo "== every strategy with --no-op-timing (wall time only)"
    "$cli" pipeline --device cuda --pipelines all --no-op-timing --quiet
  } 2>&1 | tee "$out/traces.log"
fi
