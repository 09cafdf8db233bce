#!/usr/bin/env bash
# The main job, on a fresh machine: install, build, then record the seed's
# comparison (serialized vs overlapped pipelines and the bandwidth sweep) on
# the CUDA GPU if there is one, else on the simulated H200 (labelled so), and
# write the trace to overlapscope-trace.json.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/app/cli/overlapscope-cli record --device "${OVERLAPSCOPE_DEVICE:-auto}" -o overlapscope-trace.json "$@"
