#!/usr/bin/env bash
# A distributed job's ranks on a GPU machine (issue 21, part 3), with
# binaries built elsewhere (see scripts/gpu-what-if.sh for BUILD_DIR):
#   scripts/gpu-ranks.sh [OUTDIR] [BUILD_DIR]
#
# examples/torch_ranks.py under torchrun (RANKS processes, default 2, sharing
# the GPUs: gloo), its last rank a straggler copying from pageable memory:
#   1. unprofiled, plain and --fix, REPS times each (RANKS_REPS, default 3):
#      each rank's median step, as the example prints it;
#   2. with --trace-dir: each rank's torch.profiler (Kineto) trace, and
#      `overlapscope-cli analyze DIR` of the folder;
#   3. under `overlapscope-cli profile -- torchrun ...`: one run per rank,
#      labelled with the rank its launcher gave it, and the ranks table.
# Both paths must name the same straggler and the finding that differs on it.
#
# RANKS_FLAGS: more arguments for every run of the example (e.g.
# --allreduce-every-step: the ranks meet at an all_reduce every step, as
# DDP's do; the straggler is then found by its wait in collectives).
#
# OUTDIR gets: ranks-log.txt (what ran, every table), ranks-profile.json (the
# profiled job), ranks-kineto.tar.gz (the Kineto folder).
set -uo pipefail
out=${1:-${OUT:?usage: $0 OUTDIR [BUILD_DIR] (or set OUT)}}
build=${2:-build}
reps=${RANKS_REPS:-3}
ranks=${RANKS:-2}
read -r -a flags <<<"${RANKS_FLAGS:-}"
cli=$build/app/cli/overlapscope-cli
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH=$(cd "$build/app/cli" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/ranks.XXXXXX)
log=$out/ranks-log.txt
: >"$log"
say() { echo "$*" | tee -a "$log"; }
say "example flags: ${RANKS_FLAGS:-none}"

if ! python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  say "ranks: skipped (no python3 with torch and CUDA)"
  exit 0
fi
# torchrun as a module: the same launcher, whatever is on PATH.
launch() { python3 -m torch.distributed.run --nproc_per_node "$ranks" --master_port "${RANKS_PORT:-29531}" "$@"; }

for mode in plain fix; do
  flag=""
  [ "$mode" = fix ] && flag="--fix"
  for rep in $(seq 1 "$reps"); do
    launch "$here/examples/torch_ranks.py" $flag "${flags[@]}" >"$work/$mode-$rep.txt" 2>&1
    say "unprofiled $mode $rep (exit $?):"
    grep "^torch_ranks" "$work/$mode-$rep.txt" | sort | tee -a "$log"
  done
done

say "--- Kineto: torch.profiler's traces of the plain job, read as a folder of ranks"
launch "$here/examples/torch_ranks.py" "${flags[@]}" --trace-dir "$work/kineto" >"$work/kineto.txt" 2>&1
say "traced (exit $?):"
grep "^torch_ranks" "$work/kineto.txt" | sort | tee -a "$log"
ls -l "$work/kineto" >>"$log" 2>&1
"$cli" analyze "$work/kineto" >>"$log" 2>&1
say "analyze DIR exit $?"
"$cli" analyze --json "$work/kineto" >"$work/kineto-ranks.json" 2>>"$log"
tar -C "$work" -czf "$out/ranks-kineto.tar.gz" kineto kineto-ranks.json

say "--- profile: the plain job under overlapscope-cli profile"
"$cli" profile -o "$out/ranks-profile.json" -- python3 -m torch.distributed.run --nproc_per_node "$ranks" \
  --master_port "${RANKS_PORT:-29531}" "$here/examples/torch_ranks.py" "${flags[@]}" >"$work/profile.txt" 2>&1
say "profile exit $?"
cat "$work/profile.txt" >>"$log"
say "--- analyze of the profiled job"
"$cli" analyze "$out/ranks-profile.json" >>"$log" 2>&1
say "analyze exit $?"
