#!/usr/bin/env bash
# The main job, on a fresh machine: install, build, then record the seed's
# comparison (serialized vs overlapped pipelines and the bandwidth sweep) on
# the CUDA GPU if there is one, else on the simulated H200 (labelled so),
# write the trace to overlapscope-trace.json, and, where there is a display,
# open it in the window.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/app/cli/overlapscope-cli record --device "${OVERLAPSCOPE_DEVICE:-auto}" -o overlapscope-trace.json "$@"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/app/gui/overlapscope ]; then
  build/app/gui/overlapscope overlapscope-trace.json
else
  build/app/gui/overlapscope export overlapscope-trace.json -o overlapscope-timeline.png
  echo "no display: the timeline is in overlapscope-timeline.png"
fi
