#!/usr/bin/env python3
"""torch_train_steps: a training-like step loop on two side streams (examples/).

Pitfall: each profiler step (ProfilerStep#N) feeds chunks of a batch
through two side streams, chunk i on stream i mod 2: its pinned host tensor
copied to the GPU (non_blocking), two matmuls (a "forward"), the result
copied back into pinned memory (non_blocking); and torch.cuda.synchronize()
after every second chunk, as code that reads a loss or checks progress per
pair of chunks does. Each synchronize drains both streams: the next pair's
upload waits for this pair's download, and the copies of one pair never run
beside the matmuls of the next.

Fix (--fix): no synchronize in the loop. Each stream records an event after
its last chunk of the step; the step ends when the host has waited for both
events (the work the step's results need, and nothing enqueued after it).

Before the profiled steps the host memory is pinned and every stream, cuBLAS
and the caching allocator are warmed up, so the steps are the steady state.
Each step is timed; the line printed says the steps' total "in X ms", each
step's time and their median, and whether every result was checked exactly
(the matmuls multiply by twice a permutation matrix each, so every output is
four times a twice-permuted input, in small integers float32 holds exactly).
--trace FILE records the steps with torch.profiler (a schedule, so the steps
are named ProfilerStep#N) and writes its Chrome trace, which
`overlapscope-cli analyze` opens and judges by its steps.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch or no
CUDA GPU.
"""
import argparse
import contextlib
import statistics
import sys
import time

COLUMNS = 1024  # a chunk is rows x 1024 float32
STREAMS = 2


def parse_args():
    p = argparse.ArgumentParser(
        description="Pitfall: a step loop on two side streams with torch.cuda.synchronize() after every second "
        "chunk. Fix (--fix): no synchronize in the loop; events recorded per stream, waited for at the step's end.")
    p.add_argument("--fix", action="store_true", help="events per stream at the step's end, no synchronize per pair")
    p.add_argument("--steps", type=int, default=4, help="profiler steps (4)")
    p.add_argument("--chunks", type=int, default=8, help="chunks per step (8)")
    p.add_argument("--chunk-mib", type=int, default=16, help="chunk size in MiB (16)")
    p.add_argument("--trace", metavar="FILE", help="write a torch.profiler Chrome trace of the steps")
    a = p.parse_args()
    if a.steps < 1 or a.chunks < 2 or a.chunk_mib < 1:
        p.error("steps and chunk size must be positive, and a step needs at least 2 chunks")
    return a


def main():
    a = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_train_steps: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print(f"torch_train_steps: needs a CUDA GPU: torch {torch.__version__} (CUDA {torch.version.cuda}) sees none",
              file=sys.stderr)
        return 4
    from torch.profiler import ProfilerActivity, profile, schedule
    dev = torch.device("cuda")
    rows = (a.chunk_mib << 20) // (4 * COLUMNS)
    streams = [torch.cuda.Stream() for _ in range(STREAMS)]
    # Host memory first: pinning is slow host work, kept out of the GPU's
    # active span (what scripts/gpu-what-if.sh measures).
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    host, out = [], []
    for c in range(a.chunks):
        h = torch.empty((rows, COLUMNS), dtype=torch.float32, pin_memory=True)
        h.copy_((base + c) % 8)
        host.append(h)
        out.append(torch.full((rows, COLUMNS), float("nan"), dtype=torch.float32, pin_memory=True))
    # y[:, j] = 2 * x[:, perm[j]], perm[j] = (7j + 3) mod 1024; two of them: 4 * x[:, perm[perm[j]]].
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    for s in streams:
        with torch.cuda.stream(s):
            torch.cuda.current_blas_handle()
    torch.cuda.synchronize()  # the side streams use w

    def step():
        done = []
        for i in range(a.chunks):
            s = streams[i % STREAMS]
            with torch.cuda.stream(s):
                d = host[i].to(dev, non_blocking=True)
                y = (d @ w) @ w
                out[i].copy_(y, non_blocking=True)
            if not a.fix and i % 2 == 1:
                torch.cuda.synchronize()
        if a.fix:
            for s in streams:
                e = torch.cuda.Event()
                e.record(s)
                done.append(e)
            for e in done:
                e.synchronize()
        else:
            torch.cuda.synchronize()

    step()  # warm-up: every stream, cuBLAS and the allocator used once
    recording = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                        schedule=schedule(wait=0, warmup=0, active=a.steps, repeat=1),
                        on_trace_ready=lambda p: p.export_chrome_trace(a.trace)) if a.trace \
        else contextlib.nullcontext()
    times = []
    with recording as prof:
        for _ in range(a.steps):
            start = time.perf_counter()
            step()
            times.append((time.perf_counter() - start) * 1e3)
            if a.trace:
                prof.step()
    twice = perm[perm]
    wrong = sum(not torch.equal(out[c], 4 * host[c][:, twice]) for c in range(a.chunks))
    total = sum(times)
    print(f"torch_train_steps{' --fix' if a.fix else ''}: {a.steps} steps of {a.chunks} chunks x {a.chunk_mib} MiB "
          f"in {total:.2f} ms (steps " + ", ".join(f"{t:.2f}" for t in times)
          + f" ms, median {statistics.median(times):.3f} ms), {'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_train_steps: wrote {a.trace}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
