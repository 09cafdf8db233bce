#!/usr/bin/env python3
"""torch_sync_per_chunk: the PyTorch example of the overlap pitfalls (examples/).

Pitfall: chunks of pinned host tensors copied to the GPU (non_blocking), a
matmul, and the result copied back into pinned memory (non_blocking), all on
ONE side stream, with torch.cuda.synchronize() after every chunk. One stream
runs its work in order, and the synchronize keeps one chunk in flight: every
copy and matmul runs alone. Neither half of the fix helps alone: more streams
with a synchronize per chunk still run one chunk at a time, and one stream
without the synchronize still runs in order.

Fix (--fix): three side streams, the chunks round robin over them, and one
torch.cuda.synchronize() after the loop.

The loop is timed after a warm-up (cuBLAS, the caching allocator and every
stream used once on spare chunks) and prints one line in the format of the
CUDA examples; every result is then checked exactly: the matmul multiplies by
twice a permutation matrix, so each output is twice a permuted input, in
small integers that float32 (and TF32) hold exactly. --trace FILE also
records the timed loop with torch.profiler and writes its Chrome trace
(export_chrome_trace), which `overlapscope-cli analyze` opens.

--steps N runs it as a training loop does: N profiler steps (ProfilerStep#0
to #N-1), each the whole loop over the chunks with record_function ranges
h2d, compute and d2h per chunk; step 0 also pins the host memory (as a first
step pays its allocations), so only steps 1 and on are the steady state. It
prints each step's time and the median of steps 1 and on: what a fix saves per
step is the difference of two such medians (docs/profiling.md, "What is
judged"). With --trace, the profiler records every step.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch or no
CUDA GPU.
"""
import argparse
import sys
import time

COLUMNS = 1024  # a chunk is rows x 1024 float32
STREAMS_FIXED = 3


def parse_args():
    p = argparse.ArgumentParser(
        description="Pitfall: every chunk on one side stream and torch.cuda.synchronize() after each: one chunk in "
        "flight, copies and matmuls never overlap. Fix (--fix): three streams round robin, one synchronize after "
        "the loop (both halves are needed).")
    p.add_argument("--fix", action="store_true", help="three streams, one synchronize at the end")
    p.add_argument("--chunks", type=int, default=16, help="chunks (16)")
    p.add_argument("--chunk-mib", type=int, default=16, help="chunk size in MiB (16)")
    p.add_argument("--trace", metavar="FILE", help="write a torch.profiler Chrome trace of the timed loop")
    p.add_argument("--steps", type=int, default=0,
                   help="run as N profiler steps with record_function ranges; step 0 pins the memory (0: off)")
    a = p.parse_args()
    if a.chunks < 1 or a.chunk_mib < 1:
        p.error("chunks and chunk size must be positive")
    if a.steps < 0 or a.steps == 1:
        p.error("--steps needs at least 2 steps (step 0 pays the allocations)")
    return a


def main():
    a = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_sync_per_chunk: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print(f"torch_sync_per_chunk: needs a CUDA GPU: torch {torch.__version__} (CUDA {torch.version.cuda}) "
              "sees none (torch.cuda.is_available() is False)", file=sys.stderr)
        return 4
    if a.steps:
        return stepped(a, torch)
    dev = torch.device("cuda")
    chunk_bytes = a.chunk_mib << 20
    rows = chunk_bytes // (4 * COLUMNS)
    streams = [torch.cuda.Stream() for _ in range(STREAMS_FIXED if a.fix else 1)]
    # Spare chunks for the warm-up, one per fixed stream in both modes, so
    # plain and --fix do the same work before the loop.
    warm = STREAMS_FIXED
    # Host memory first: pinning is slow host work, which any GPU work before
    # it would put inside the GPU's active span (what scripts/gpu-what-if.sh
    # measures).
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    host = []
    out = []
    for c in range(a.chunks + warm):
        h = torch.empty((rows, COLUMNS), dtype=torch.float32, pin_memory=True)
        h.copy_((base + c) % 8)
        host.append(h)
        out.append(torch.full((rows, COLUMNS), float("nan"), dtype=torch.float32, pin_memory=True))
    # cuBLAS set up before the first GPU work too: its handle takes host
    # time that would otherwise sit inside the GPU's active span.
    for s in streams:
        with torch.cuda.stream(s):
            torch.cuda.current_blas_handle()
    # y[:, j] = 2 * x[:, perm[j]], perm[j] = (7j + 3) mod 1024 (7 is odd, so
    # perm is a permutation). w is made on the GPU: a copy from pageable
    # memory here would be a pitfall of its own in the trace.
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    torch.cuda.synchronize()  # the side streams use w

    def run(chunk_ids):
        for i in chunk_ids:
            with torch.cuda.stream(streams[i % len(streams)]):
                d = host[i].to(dev, non_blocking=True)
                y = d @ w
                out[i].copy_(y, non_blocking=True)
            if not a.fix:
                torch.cuda.synchronize()
        torch.cuda.synchronize()

    run(range(a.chunks, a.chunks + warm))
    if a.trace:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            start = time.perf_counter()
            run(range(a.chunks))
            ms = (time.perf_counter() - start) * 1e3
        prof.export_chrome_trace(a.trace)
    else:
        start = time.perf_counter()
        run(range(a.chunks))
        ms = (time.perf_counter() - start) * 1e3

    wrong = sum(not torch.equal(out[c], 2 * host[c][:, perm]) for c in range(a.chunks + warm))
    gb = a.chunks * chunk_bytes * 2 / 1e9
    print(f"torch_sync_per_chunk{' --fix' if a.fix else ''}: {a.chunks} chunks x {a.chunk_mib} MiB in {ms:.2f} ms "
          f"({gb / (ms / 1e3):.1f} GB/s of copies), {'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_sync_per_chunk: wrote {a.trace}")
    return 0 if wrong == 0 else 1


def stepped(a, torch):
    """--steps: the loop as profiler steps, step 0 pinning the memory."""
    import contextlib
    import statistics
    from torch.profiler import ProfilerActivity, profile, record_function, schedule
    dev = torch.device("cuda")
    rows = (a.chunk_mib << 20) // (4 * COLUMNS)
    streams = [torch.cuda.Stream() for _ in range(STREAMS_FIXED if a.fix else 1)]
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    for s in streams:
        with torch.cuda.stream(s):
            torch.cuda.current_blas_handle()
    torch.cuda.synchronize()
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    host, out = [], []
    times = []
    # A schedule makes the profiler name its steps (ProfilerStep#N); every
    # step is recorded, and the trace written when the last one ends. One
    # cycle (repeat=1): a second would start at the end and, cut short by the
    # profiler's exit, write its near-empty trace over the first.
    recording = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                        schedule=schedule(wait=0, warmup=0, active=a.steps, repeat=1),
                        on_trace_ready=lambda p: p.export_chrome_trace(a.trace)) if a.trace \
        else contextlib.nullcontext()
    with recording as prof:
        for step in range(a.steps):
            start = time.perf_counter()
            with record_function(f"ProfilerStep#{step}") if not a.trace else contextlib.nullcontext():
                if step == 0:  # the first step pays the allocations
                    for c in range(a.chunks):
                        h = torch.empty((rows, COLUMNS), dtype=torch.float32, pin_memory=True)
                        h.copy_((base + c) % 8)
                        host.append(h)
                        out.append(torch.full((rows, COLUMNS), float("nan"), dtype=torch.float32, pin_memory=True))
                for i in range(a.chunks):
                    with torch.cuda.stream(streams[i % len(streams)]):
                        with record_function("h2d"):
                            d = host[i].to(dev, non_blocking=True)
                        with record_function("compute"):
                            y = d @ w
                        with record_function("d2h"):
                            out[i].copy_(y, non_blocking=True)
                    if not a.fix:
                        torch.cuda.synchronize()
                torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1e3)
            if a.trace:
                prof.step()
    wrong = sum(not torch.equal(out[c], 2 * host[c][:, perm]) for c in range(a.chunks))
    steady = statistics.median(times[1:])
    print(f"torch_sync_per_chunk{' --fix' if a.fix else ''}: {a.steps} steps of {a.chunks} chunks x {a.chunk_mib} MiB; "
          f"steps " + ", ".join(f"{t:.2f}" for t in times) + f" ms; median of steps 1 and on {steady:.3f} ms, "
          f"{'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_sync_per_chunk: wrote {a.trace}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
