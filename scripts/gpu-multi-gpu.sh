#!/usr/bin/env bash
# Several GPUs of one host (docs/multi-gpu.md) on a GPU machine, with
# binaries built elsewhere (it builds nothing):
#   scripts/gpu-multi-gpu.sh OUTDIR [BUILD_DIR]
# BUILD_DIR (default build) must hold app/cli/overlapscope-cli and
# tests/tst_multi_gpu. On one GPU it checks that cuda:all is a one-device
# set that says so, that cuda:0,1 is refused as unavailable, that the peer
# matrix says it needs two GPUs, and that the single-GPU paths are unchanged.
# On two or more GPUs it records one GPU against two for the seed's
# strategies and the peer matrix, beside the simulator's prediction.
# Everything goes under OUTDIR (log.txt has the summaries).
set -uo pipefail
out=${1:?usage: $0 OUTDIR [BUILD_DIR]}
build=${2:-build}
cli=$build/app/cli/overlapscope-cli
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee "$out/log.txt") 2>&1

step() {
  local name=$1
  shift
  echo "== $name: $*"
  "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo "exit status: $?"
  tail -n 40 "$out/$name.stdout"
  tail -n 5 "$out/$name.stderr"
}

nvidia-smi -L
nvidia-smi topo -m || true
gpus=$(nvidia-smi -L | grep -c '^GPU')
step devices "$cli" devices
QT_QPA_PLATFORM=offscreen step tst_multi_gpu "$build/tests/tst_multi_gpu"
step pipeline-cuda-all "$cli" pipeline --device cuda:all --chunks 8 --chunk-mib 32 \
  --pipelines serialized,overlapped,pinned-data -o "$out/cuda-all.json"
step bench-cuda-all "$cli" bench --device cuda:all --sizes 256 --quiet
step pipeline-cuda0 "$cli" pipeline --device cuda:0 --chunks 4 --chunk-mib 32 \
  --pipelines serialized,overlapped,pinned-data -o "$out/cuda0.json"
if [ "$gpus" -ge 2 ]; then
  step record-cuda01 "$cli" record --device cuda:0,1 --chunks 8 --chunk-mib 32 \
    --pipelines serialized,overlapped,pinned-data --sizes 256 -o "$out/cuda01.json"
else
  step refuse-cuda01 "$cli" pipeline --device cuda:0,1 --chunks 8
fi
step sim-h200x2 "$cli" record --device sim:h200x2 --chunks 8 --chunk-mib 32 \
  --pipelines serialized,overlapped,pinned-data --sizes 256 -o "$out/sim-h200x2.json"
