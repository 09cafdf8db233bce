#!/usr/bin/env python3
"""torch_profiler_report: a training loop judged as it runs, and a CI gate (examples/).

A loop of steps, each copying --chunks host chunks to the GPU, multiplying
each (matmul) and copying the result back, on one side stream, profiled by
torch.profiler with a schedule of --cycles cycles (wait 1, warm-up 1, active
--active steps). Its on_trace_ready is overlapscope.torch.report: at the end
of each cycle the trace is written into --trace-dir (named as
tensorboard_trace_handler names it), judged by OverlapScope's core and its
findings printed in a few lines, with their replayed costs and fixes.

Pitfall: the host chunks are pageable, so every copy is staged by the
driver and blocks the host; the finding "pageable-memory" names it. Fix
(--fix): pinned chunks (pin_memory=True).

--fail-over-ms MS makes it a CI gate: a finding whose replayed saving is
above MS raises overlapscope.FindingOverBudget out of prof.step(), the loop
stops and the script exits 3 with the finding's line: a gate just below
the pitfall's pageable-memory cost stops it, and --fix (which takes that
finding away) runs on.

Needs the overlapscope module (scripts/setup.sh installs it) and PyTorch
with a CUDA GPU. Exit status: 0 done, 2 bad usage, 3 a finding over the
budget, 4 no PyTorch, no CUDA GPU or no overlapscope module.
"""
import argparse
import sys

COLUMNS = 1024


def parse_args():
    p = argparse.ArgumentParser(description="A profiled training loop judged by overlapscope.torch.report.")
    p.add_argument("--fix", action="store_true", help="pinned host chunks")
    p.add_argument("--chunks", type=int, default=8, help="chunks per step (8)")
    p.add_argument("--chunk-mib", type=int, default=16, help="chunk size in MiB (16)")
    p.add_argument("--active", type=int, default=3, help="profiled steps per cycle (3)")
    p.add_argument("--cycles", type=int, default=2, help="profiler cycles (2)")
    p.add_argument("--trace-dir", default="overlapscope-traces", help="where each cycle's trace goes")
    p.add_argument("--fail-over-ms", type=float, default=None,
                   help="stop when a finding's replayed saving is above this (a CI gate)")
    a = p.parse_args()
    if min(a.chunks, a.chunk_mib, a.active, a.cycles) < 1:
        p.error("counts and sizes must be positive")
    return a


def main():
    a = parse_args()
    try:
        import overlapscope
    except ImportError as e:
        print(f"torch_profiler_report: needs the overlapscope module (scripts/setup.sh installs it): {e}",
              file=sys.stderr)
        return 4
    try:
        import torch
        from torch.profiler import ProfilerActivity, profile, schedule
    except ImportError as e:
        print(f"torch_profiler_report: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print("torch_profiler_report: needs a CUDA GPU", file=sys.stderr)
        return 4
    dev = torch.device("cuda")
    rows = (a.chunk_mib << 20) // (4 * COLUMNS)
    host = [torch.full((rows, COLUMNS), float(c % 8), pin_memory=a.fix) for c in range(a.chunks)]
    out = [torch.empty((rows, COLUMNS), pin_memory=a.fix) for _ in range(a.chunks)]
    w = 2 * torch.eye(COLUMNS, device=dev)
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()

    def step():
        with torch.cuda.stream(stream):
            for c in range(a.chunks):
                d = host[c].to(dev, non_blocking=True)
                out[c].copy_(d @ w, non_blocking=True)
        torch.cuda.synchronize()

    handler = overlapscope.torch.report(a.trace_dir, fail_over_ms=a.fail_over_ms)
    steps = a.cycles * (2 + a.active)
    try:
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     schedule=schedule(wait=1, warmup=1, active=a.active, repeat=a.cycles),
                     on_trace_ready=handler) as prof:
            for _ in range(steps):
                step()
                prof.step()
    except overlapscope.FindingOverBudget as over:
        print(f"torch_profiler_report: over the budget: {over}", file=sys.stderr)
        return 3
    wrong = sum(not torch.equal(out[c], 2 * host[c]) for c in range(a.chunks))
    print(f"torch_profiler_report{' --fix' if a.fix else ''}: {steps} steps, {len(handler.analyses)} cycles judged, "
          f"{'verified' if wrong == 0 else 'WRONG RESULTS'}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
