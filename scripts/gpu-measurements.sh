#!/usr/bin/env bash
# The measurements behind docs/measurements.md:
#   scripts/gpu-measurements.sh OUTDIR [path/to/overlapscope-cli] [DEVICE]
# DEVICE defaults to cuda; run it again with sim:h200 for the simulated
# columns. Tables go to OUTDIR/log-DEVICE.txt; traces to OUTDIR (the seed's
# comparison with the bandwidth sweep, and every strategy at 8 and 64 chunks).
set -uo pipefail
out=${1:?usage: $0 OUTDIR [overlapscope-cli] [DEVICE]}
cli=${2:-build/app/cli/overlapscope-cli}
device=${3:-cuda}
tag=${device/:/-}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1
  "$cli" devices
  echo "== record: the seed's defaults and the bandwidth sweep"
  "$cli" record --device "$device" -o "$out/trace-$tag.json" --quiet
  for chunks in 8 64; do
    echo "== every strategy, $chunks chunks x 32 MiB, 3 slots"
    "$cli" pipeline --device "$device" --pipelines all --chunks "$chunks" --quiet -o "$out/strategies-$tag-$chunks.json"
    for threads in 2 4 8 16; do
      echo "== overlapped, $threads staging threads, $chunks chunks"
      "$cli" pipeline --device "$device" --pipelines overlapped --staging-threads "$threads" --chunks "$chunks" --quiet
    done
  done
  if [ "$device" = cuda ]; then
    echo "== the seed's pipelines without CUPTI (what tracing costs)"
    OVERLAPSCOPE_NO_CUPTI=1 "$cli" pipeline --device cuda --quiet
  fi
} 2>&1 | tee "$out/log-$tag.txt"
