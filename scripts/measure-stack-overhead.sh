#!/usr/bin/env bash
# What call stacks cost `profile` on the examples, on the GPU machine
# (docs/profiling.md, "What call stacks cost"): each example profiled with
# --stacks off and --stacks sync, interleaved, best of 3 wall times of the
# whole `profile` (program, reading and writing; --no-link-rate), and the
# overhead of sync over off. --stacks is on by default only while every
# row stays within 5%. Also prints, per example, the call sites the sync
# run found (analyze of its trace), so the table says what the cost bought.
#   scripts/measure-stack-overhead.sh OUTDIR [BUILD_DIR]
# BUILD_DIR (default build-gpu; scripts/pack-gpu-build.sh makes it) holds
# the CLI, the injection library, libunwind.so.8 and libdw in app/cli, and
# the examples in examples/. PyTorch examples run where torch sees a GPU
# (STACK_OVERHEAD_NO_TORCH=1 leaves them out, for a short call).
set -uo pipefail
out=${1:?usage: $0 OUTDIR [BUILD_DIR]}
build=$(cd "${2:-build-gpu}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
cli=$build/app/cli/overlapscope-cli
examples=$build/examples
export LD_LIBRARY_PATH=$build/app/cli${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
work=$(mktemp -d /tmp/stack-overhead.XXXXXX)
reps=${STACK_OVERHEAD_REPS:-3}

cases=(
  "sync_in_loop|$examples/sync_in_loop"
  "malloc_in_loop|$examples/malloc_in_loop"
  "pageable_async|$examples/pageable_async"
  "memcpy_around_kernel|$examples/memcpy_around_kernel"
  "event_wait_per_chunk|$examples/event_wait_per_chunk"
  "legacy_default_stream|$examples/legacy_default_stream"
  "one_stream|$examples/one_stream"
  "copies_both_ways|$examples/copies_both_ways"
  "kernels_fill_gpu|$examples/kernels_fill_gpu"
  "seed_pipelines|$examples/seed_pipelines"
)
if [ "${STACK_OVERHEAD_NO_TORCH:-0}" = 1 ]; then
  echo "STACK_OVERHEAD_NO_TORCH=1: the PyTorch examples are left out" >&2
elif python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  cases+=(
    "torch_implicit_syncs|python3 $here/examples/torch_implicit_syncs.py"
    "torch_sync_per_chunk|python3 $here/examples/torch_sync_per_chunk.py"
    "torch_train_steps|python3 $here/examples/torch_train_steps.py"
  )
else
  echo "no PyTorch with a GPU here: the PyTorch examples are left out" >&2
fi

# Seconds one profile run took: NAME MODE REP PROGRAM ARGS...
timed() {
  local name=$1 mode=$2 rep=$3
  shift 3
  local base=$work/$name-$mode-$rep
  local t0 t1
  t0=$(date +%s.%N)
  "$cli" profile --quiet --no-link-rate --stacks "$mode" -o "$base.json" -- "$@" >"$base.stdout" 2>"$base.stderr"
  local status=$?
  t1=$(date +%s.%N)
  [ $status = 0 ] || { echo "$name $mode $rep: exit $status" >&2; tail -n 3 "$base.stderr" >&2; }
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  git -C "$here" log -1 --format='commit %H %s' 2>/dev/null
  echo
  echo "| example | --stacks off (s, best of $reps) | --stacks sync (s, best of $reps) | overhead |"
  echo "|---|---|---|---|"
  for c in "${cases[@]}"; do
    name=${c%%|*}
    read -r -a program <<<"${c#*|}"
    best_off=""; best_sync=""
    for rep in $(seq 1 "$reps"); do
      # The order flips every repetition, so drift divides out.
      if [ $((rep % 2)) = 1 ]; then order="off sync"; else order="sync off"; fi
      for mode in $order; do
        t=$(timed "$name" "$mode" "$rep" "${program[@]}")
        if [ "$mode" = off ]; then
          best_off=$(echo "$t" | awk -v b="$best_off" '{ print (b == "" || $1 < b) ? $1 : b }')
        else
          best_sync=$(echo "$t" | awk -v b="$best_sync" '{ print (b == "" || $1 < b) ? $1 : b }')
        fi
      done
    done
    awk -v n="$name" -v a="$best_off" -v b="$best_sync" \
      'BEGIN { printf "| %s | %.3f | %.3f | %+.1f%% |\n", n, a, b, (a > 0 ? 100 * (b - a) / a : 0) }'
  done
  echo
  echo "Call sites the sync runs found:"
  for c in "${cases[@]}"; do
    name=${c%%|*}
    echo "== $name"
    "$cli" analyze "$work/$name-sync-1.json" 2>&1 | grep -E "^   (at|in) |call sites:" | head -n 8
  done
} 2>&1 | tee "$out/stack-overhead.txt"
