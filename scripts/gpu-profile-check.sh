#!/usr/bin/env bash
# Checks `overlapscope-cli profile` on a GPU machine, with binaries built
# elsewhere (it builds nothing):
#   scripts/gpu-profile-check.sh OUTDIR [BUILD_DIR]
# BUILD_DIR (default build) must hold app/cli/overlapscope-cli,
# app/cli/liboverlapscope-inject.so and examples/*. Each case writes its
# trace, raw record streams, stdout and stderr under OUTDIR; the log
# (OUTDIR/log.txt) has the summaries. Cases: every example with its pitfall
# and with --fix, a child process per example, a PyTorch loop (H2D copies and
# matmuls on two streams), a program killed mid-run, a cancel (SIGINT), a
# program without CUDA, torch.profiler fighting us for CUPTI, our own
# pipelines, and the examples' wall time with and without profile.
set -uo pipefail
out=${1:?usage: $0 OUTDIR [BUILD_DIR]}
build=${2:-build}
cli=$build/app/cli/overlapscope-cli
examples=$build/examples
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One profiled case: NAME, then the program and its arguments.
profile() {
  local name=$1
  shift
  echo "== $name: $*"
  "$cli" profile -o "$out/$name.json" --records "$out/records-$name" -- "$@" \
    >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo "profile exit status: $?"
  grep -v '^overlapscope\[' "$out/$name.stderr" | tail -n 25
  ls -la "$out/records-$name" | tail -n +2
}

cat >"$out/torch_loop.py" <<'EOF'
# H2D copies from pinned memory and matmuls on two streams, plus one pageable
# copy per iteration: what a training input pipeline does.
import torch
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
pinned = [torch.randn(1 << 20).pin_memory() for _ in range(8)]
pageable = torch.randn(1 << 20)
w = torch.randn(2048, 2048, device="cuda")
for it in range(20):
    for i, h in enumerate(pinned):
        s = s1 if i % 2 == 0 else s2
        with torch.cuda.stream(s):
            d = h.to("cuda", non_blocking=True)
            z = w @ w
    p = pageable.to("cuda")
torch.cuda.synchronize()
print("torch loop done,", torch.__version__, torch.version.cuda)
EOF
cat >"$out/torch_killed.py" <<'EOF'
# CUDA work, a pause so the periodic flush writes it, then SIGKILL: the trace
# must hold what was flushed and say the run is incomplete.
import os, signal, time, torch
x = torch.randn(1 << 22, device="cuda")
for _ in range(50):
    x = x * 1.0001
torch.cuda.synchronize()
time.sleep(1.0)
os.kill(os.getpid(), signal.SIGKILL)
EOF
cat >"$out/torch_profiler.py" <<'EOF'
# torch.profiler wants CUPTI too, while our injection holds it.
import torch
from torch.profiler import profile, ProfilerActivity
x = torch.randn(1 << 20, device="cuda")
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(10):
        x = x * 1.0001
    torch.cuda.synchronize()
print(prof.key_averages().table(row_limit=5))
EOF

{
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  echo "== binaries"
  ls -la "$cli" "$build/app/cli/liboverlapscope-inject.so" "$examples"
  ldd "$build/app/cli/liboverlapscope-inject.so"
  ldd "$examples/one_stream" | grep -i cuda || echo "examples: CUDA runtime linked statically"
  "$cli" profile --help | tail -n 12

  for ex in pageable_async legacy_default_stream one_stream sync_in_loop malloc_in_loop event_wait_per_chunk \
    memcpy_around_kernel; do
    profile "$ex" "$examples/$ex"
    profile "$ex-fix" "$examples/$ex" --fix
  done

  echo "== buffer deliveries (OVERLAPSCOPE_PROFILE_DEBUG=1): does the 100 ms flush hand over part-filled buffers?"
  OVERLAPSCOPE_PROFILE_DEBUG=1 "$cli" profile --quiet -o "$out/debug.json" -- "$examples/one_stream" --fix \
    --chunks 400 --chunk-mib 4 2>&1 | head -n 40

  profile children sh -c "$examples/one_stream && $examples/one_stream --fix"
  profile no-cuda /bin/true

  if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    profile torch python3 "$out/torch_loop.py"
    profile torch-killed python3 "$out/torch_killed.py"
    profile torch-profiler python3 "$out/torch_profiler.py"
  else
    echo "== torch: not installed or no GPU for it, PyTorch cases skipped"
  fi

  echo "== cancel: SIGINT to profile after 2 s (expect exit 130, a run marked cancelled)"
  timeout --preserve-status -s INT 2 "$cli" profile -o "$out/cancel.json" -- "$examples/one_stream" --chunks 20000 --chunk-mib 1 \
    >"$out/cancel.stdout" 2>"$out/cancel.stderr"
  echo "exit status: $?"
  tail -n 12 "$out/cancel.stderr"

  echo "== our own pipelines as a standalone program (its CUPTI collector off, so ours has CUPTI)"
  OVERLAPSCOPE_NO_CUPTI=1 profile pipelines "$cli" pipeline --device cuda --pipelines all --quiet

  echo "== wall time with and without profile (ms as each example reports it), 3 interleaved repetitions"
  for ex in one_stream pageable_async; do
    for rep in 1 2 3; do
      plain=$("$examples/$ex" --fix | sed -n 's/.* in \([0-9.]*\) ms.*/\1/p')
      traced=$("$cli" profile --quiet -o "$out/overhead.json" -- "$examples/$ex" --fix | sed -n 's/.* in \([0-9.]*\) ms.*/\1/p')
      echo "$ex --fix rep $rep: plain $plain ms, profiled $traced ms"
    done
  done

  if [ -x "$build/tests/tst_profile_examples" ]; then
    echo "== tests/tst_profile_examples"
    "$build/tests/tst_profile_examples" 2>&1 | tail -n 30
  fi
} 2>&1 | tee "$out/log.txt"
