#!/usr/bin/env bash
# The measurements behind docs/measurements.md, run on a GPU machine:
#   scripts/gpu-measurements.sh OUTDIR [path/to/overlapscope-cli]
# Records the seed's comparison and the bandwidth sweep on the CUDA device and
# the same on the simulated H200 preset, writing tables and traces to OUTDIR.
set -uo pipefail
out=${1:?usage: $0 OUTDIR [overlapscope-cli]}
cli=${2:-build/app/cli/overlapscope-cli}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1 | tee "$out/gpu.txt"
"$cli" devices | tee -a "$out/gpu.txt"
for device in cuda sim:h200; do
  tag=${device/:/-}
  "$cli" record --device "$device" -o "$out/trace-$tag.json" --quiet 2>&1 | tee "$out/record-$tag.txt"
  "$cli" pipeline --device "$device" --chunks 64 --quiet 2>&1 | tee -a "$out/record-$tag.txt"
done
