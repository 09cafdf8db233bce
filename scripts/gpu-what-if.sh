#!/usr/bin/env bash
# Checks the what-if predictions (issue 18, part 6) on a GPU machine, with
# binaries built elsewhere (it builds nothing), from the repository root:
#   scripts/gpu-what-if.sh [OUTDIR] [BUILD_DIR]
# OUTDIR defaults to $OUT (the device tool's folder); BUILD_DIR (default
# build) must hold app/cli/overlapscope-cli, app/cli/liboverlapscope-inject.so
# and examples/*; app/cli is put on LD_LIBRARY_PATH, so a libsimdjson.so.14
# copied there is found on a server without it. The PyTorch cases need a
# python3 with torch and CUDA (they are skipped, and say so, without).
# A build folder small enough to carry to the lent GPU (a RelWithDebInfo CLI
# is 45 MB; stripped, 2.4 MB):
#   mkdir -p build-gpu/app/cli build-gpu/examples
#   strip -o build-gpu/app/cli/overlapscope-cli build/app/cli/overlapscope-cli
#   cp build/app/cli/liboverlapscope-inject.so /lib/x86_64-linux-gnu/libsimdjson.so.14 build-gpu/app/cli/
#   find build/examples -maxdepth 1 -type f -perm -u+x -exec cp {} build-gpu/examples/ \;
#
# Every example runs plain and with --fix, REPS times each (WHAT_IF_REPS,
# default 3), interleaved, under `overlapscope-cli profile`; each run's GPU
# active span (first GPU op to last, engine times) is measured from its
# trace, the best of each kept; `analyze --json` on the best plain trace
# gives the predicted saving (replay minus all fixes), the top finding and the
# unchanged replay against the measured span. Each PyTorch example is also
# run unprofiled with --trace (its own torch.profiler trace), and that
# Kineto trace analyzed the same way. WHAT_IF_ONLY="name ..." runs some cases.
# WHAT_IF_ARGS="..." is appended to every case's program arguments (with
# WHAT_IF_ONLY, e.g. WHAT_IF_ONLY=torch_train_steps WHAT_IF_ARGS="--steps 12"
# measures more steps, so that the runs resolve a small saving).
# No case starts after WHAT_IF_BUDGET_S seconds (default 450), so that the
# results are still collected inside the device tool's 600 s a command.
#
# OUTDIR gets four files (the device tool brings back at most eight):
#   log.txt         what ran, each program's report line, analyze's text
#   results.json    per example: spans, savings, prediction, top finding
#                   (scripts/what-if-results.py; docs/what-if.md's table is
#                   made from it by scripts/regenerate-what-if-docs.py)
#   traces.tar.gz   per example the best plain and best --fix trace
#                   (NAME.json, NAME-fix.json) and analyze's output
#   runs.tar.gz     every run's trace, stdout and stderr (left out above 15 MiB)
set -uo pipefail
out=${1:-${OUT:?usage: $0 OUTDIR [BUILD_DIR] (or set OUT)}}
build=${2:-build}
reps=${WHAT_IF_REPS:-3}
budget=${WHAT_IF_BUDGET_S:-450}
cli=$build/app/cli/overlapscope-cli
examples=$build/examples
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH=$(cd "$build/app/cli" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/what-if.XXXXXX)

# NAME|PROGRAM ARGS (plain; --fix is appended for the fixed runs). The new
# and reworked examples first: past the time budget the last ones are skipped.
cases=(
  "kernels_fill_gpu|$examples/kernels_fill_gpu"
  "copies_both_ways|$examples/copies_both_ways"
  "torch_kernels_fill|python3 $here/examples/torch_kernels_fill.py"
  "torch_train_steps|python3 $here/examples/torch_train_steps.py"
  "torch_pageable_copies|python3 $here/examples/torch_pageable_copies.py"
  "torch_implicit_syncs|python3 $here/examples/torch_implicit_syncs.py"
  "managed_memory|$examples/managed_memory"
  "sync_in_loop|$examples/sync_in_loop"
  "sync_in_loop-host-bound|$examples/sync_in_loop --host-bound"
  "event_wait_per_chunk|$examples/event_wait_per_chunk"
  "memcpy_around_kernel|$examples/memcpy_around_kernel"
  "torch_sync_per_chunk|python3 $here/examples/torch_sync_per_chunk.py"
  "pageable_async|$examples/pageable_async"
  "legacy_default_stream|$examples/legacy_default_stream"
  "one_stream|$examples/one_stream"
  "malloc_in_loop|$examples/malloc_in_loop"
  "seed_pipelines|$examples/seed_pipelines"
)

wanted() {
  [ -z "${WHAT_IF_ONLY:-}" ] && return 0
  case " $WHAT_IF_ONLY " in *" $1 "*) return 0 ;; esac
  return 1
}

# One profiled run: NAME MODE REP PROGRAM ARGS...
profiled() {
  local name=$1 mode=$2 rep=$3
  shift 3
  local base=$work/$name/$mode-$rep
  "$cli" profile --quiet -o "$base.json" -- "$@" >"$base.stdout" 2>"$base.stderr"
  report "$name $mode $rep" $? "$base"
}

# The program's report line; its error output too when it failed.
report() {
  echo "$1: exit $2 | $(tail -n 1 "$3.stdout")"
  [ "$2" = 0 ] || grep -v '^overlapscope\[' "$3.stderr" | tail -n 3
}

# One unprofiled run of the PyTorch example writing its own Kineto trace.
kineto() {
  local name=$1 mode=$2 rep=$3
  shift 3
  local base=$work/$name/$mode-$rep
  "$@" --trace "$base.json" >"$base.stdout" 2>"$base.stderr"
  report "$name $mode $rep" $? "$base"
}

{
  date -u
  start=$SECONDS
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1
  git -C "$here" log -1 --format='commit %H %s' 2>/dev/null
  ls -la "$cli" "$build/app/cli/liboverlapscope-inject.so" || exit 1
  torch=0
  if python3 -c "import torch; assert torch.cuda.is_available(); print('torch', torch.__version__, torch.version.cuda)"; then
    torch=1
  else
    echo "== torch: not installed or no GPU for it; the PyTorch cases are skipped"
  fi
  for entry in "${cases[@]}"; do
    name=${entry%%|*}
    read -r -a cmd <<<"${entry#*|} ${WHAT_IF_ARGS:-}"
    wanted "$name" || continue
    if [ "${cmd[0]}" = python3 ] && [ $torch = 0 ]; then
      continue
    fi
    if [ $((SECONDS - start)) -ge "$budget" ]; then
      echo "== $name skipped: past the time budget of $budget s (WHAT_IF_BUDGET_S)"
      continue
    fi
    echo "== $name: ${cmd[*]} [--fix], $reps times each, under profile ($((SECONDS - start)) s)"
    mkdir -p "$work/$name"
    echo "$name" >>"$work/cases.txt"
    printf '%s\n' "${cmd[@]}" >"$work/$name/command.txt"
    for rep in $(seq 1 "$reps"); do
      profiled "$name" plain "$rep" "${cmd[@]}"
      profiled "$name" fix "$rep" "${cmd[@]}" --fix
    done
    if [ "${cmd[0]}" = python3 ]; then
      echo "== $name-kineto: ${cmd[*]} [--fix] --trace, $reps times each, unprofiled ($((SECONDS - start)) s)"
      mkdir -p "$work/$name-kineto"
      echo "$name-kineto" >>"$work/cases.txt"
      printf '%s\n' "${cmd[@]}" --trace >"$work/$name-kineto/command.txt"
      for rep in $(seq 1 "$reps"); do
        kineto "$name-kineto" plain "$rep" "${cmd[@]}"
        kineto "$name-kineto" fix "$rep" "${cmd[@]}" --fix
      done
    fi
  done
  echo "== spans, best of $reps, analyze --json on the best plain traces ($((SECONDS - start)) s)"
  mkdir -p "$work/best"
  python3 "$here/scripts/what-if-results.py" --cli "$cli" --runs "$work" --best "$work/best" \
    --command "scripts/gpu-what-if.sh${2:+ OUTDIR $2}" -o "$out/results.json"
  echo "results.json: exit $?"
  tar czf "$out/traces.tar.gz" -C "$work/best" .
  tar czf "$work.runs.tar.gz" --exclude ./best -C "$work" .
  if [ "$(stat -c %s "$work.runs.tar.gz")" -le $((15 << 20)) ]; then
    mv "$work.runs.tar.gz" "$out/runs.tar.gz"
  else
    echo "runs.tar.gz left out: $(stat -c %s "$work.runs.tar.gz") bytes"
  fi
  ls -la "$out"
  echo "done in $((SECONDS - start)) s"
  date -u
} 2>&1 | tee "$out/log.txt"
rm -rf "$work" "$work.runs.tar.gz"
