#!/usr/bin/env python3
"""torch_ranks: a distributed PyTorch job whose one rank is a straggler (examples/).

Run it with a launcher that sets RANK, LOCAL_RANK and WORLD_SIZE, e.g.

    torchrun --nproc_per_node 2 examples/torch_ranks.py [--trace-dir DIR] [--fix]

Every rank joins one gloo process group (so the ranks may share one GPU) and
runs --steps profiler steps (ProfilerStep#0 to #N-1). A step copies --chunks
host chunks to the GPU, multiplies each (matmul) and copies it back, on one
side stream, then synchronizes. Step 0 allocates the host memory, as a first
step pays its allocations.

Pitfall: the straggler (--straggler-rank, default the last rank) keeps its
host chunks in pageable memory, the others pin theirs: its copies are staged
by the driver, synchronous to the host, and its steps take longer. Fix
(--fix): every rank pins its chunks.

The ranks meet after the last step (the job's end), not in every step, so
each rank's step time is its own work's; with --allreduce-every-step they
also meet at an all_reduce at the end of every step, as DDP's gradient
all-reduce makes them: every rank's step then lasts as long as the
straggler's, and the other ranks wait for it inside the collective. Each step is an NVTX range "step
k" (what `overlapscope-cli profile` records as the run's steps), or, under
--trace-dir, torch.profiler's ProfilerStep#k. --trace-dir DIR
records every step with torch.profiler and writes DIR/rank<R>.json, a
Kineto trace whose distributedInfo names the rank: `overlapscope-cli
analyze DIR` reads the folder as the ranks of one job.

Each rank checks its results exactly (the matmul multiplies by twice a
permutation matrix, in small integers that float32 holds exactly) and
prints one line; the ranks' verdicts are combined with an all_reduce.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch, no
CUDA GPU or no launcher.
"""
import argparse
import os
import statistics
import sys
import time

COLUMNS = 1024  # a chunk is rows x 1024 float32


def parse_args():
    p = argparse.ArgumentParser(description="A distributed job (run under torchrun) whose straggler rank copies "
                                "from pageable memory. Fix (--fix): every rank pins its host chunks.")
    p.add_argument("--fix", action="store_true", help="every rank pins its host chunks")
    p.add_argument("--steps", type=int, default=6, help="profiler steps (6); step 0 allocates")
    p.add_argument("--chunks", type=int, default=8, help="chunks per step (8)")
    p.add_argument("--chunk-mib", type=int, default=16, help="chunk size in MiB (16)")
    p.add_argument("--straggler-rank", type=int, default=-1, help="the rank with pageable chunks (default: the last)")
    p.add_argument("--allreduce-every-step", action="store_true",
                   help="the ranks meet at an all_reduce at the end of every step (as DDP's ranks do)")
    p.add_argument("--trace-dir", metavar="DIR", help="write DIR/rank<R>.json, a torch.profiler trace of each rank")
    a = p.parse_args()
    if a.chunks < 1 or a.chunk_mib < 1 or a.steps < 2:
        p.error("chunks and chunk size must be positive, and --steps at least 2 (step 0 allocates)")
    return a


def main():
    a = parse_args()
    if "RANK" not in os.environ or "WORLD_SIZE" not in os.environ:
        print("torch_ranks: run it under a launcher that sets RANK and WORLD_SIZE, e.g. "
              "torchrun --nproc_per_node 2 examples/torch_ranks.py", file=sys.stderr)
        return 4
    try:
        import torch
        import torch.distributed as dist
    except ImportError as e:
        print(f"torch_ranks: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print("torch_ranks: needs a CUDA GPU (torch.cuda.is_available() is False)", file=sys.stderr)
        return 4
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    local = int(os.environ.get("LOCAL_RANK", rank))
    straggler = a.straggler_rank if a.straggler_rank >= 0 else world - 1
    # gloo: the ranks may share one GPU (NCCL refuses two ranks on a device).
    dist.init_process_group("gloo")
    torch.cuda.set_device(local % torch.cuda.device_count())
    dev = torch.device("cuda", torch.cuda.current_device())
    pinned = a.fix or rank != straggler
    rows = (a.chunk_mib << 20) // (4 * COLUMNS)
    stream = torch.cuda.Stream()
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    with torch.cuda.stream(stream):
        torch.cuda.current_blas_handle()
    torch.cuda.synchronize()
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    host, out, times = [], [], []

    from torch.profiler import ProfilerActivity, profile, schedule
    import contextlib
    trace = os.path.join(a.trace_dir, f"rank{rank}.json") if a.trace_dir else None
    if trace:
        os.makedirs(a.trace_dir, exist_ok=True)
    recording = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                        schedule=schedule(wait=0, warmup=0, active=a.steps, repeat=1),
                        on_trace_ready=lambda p: p.export_chrome_trace(trace)) if trace else contextlib.nullcontext()
    with recording as prof:
        for step in range(a.steps):
            start = time.perf_counter()
            # Under torch.profiler the steps are its ProfilerStep#k; else each
            # step is an NVTX range (what `overlapscope-cli profile` records).
            if not trace:
                torch.cuda.nvtx.range_push(f"step {step}")
            if step == 0:
                for c in range(a.chunks):
                    h = torch.empty((rows, COLUMNS), dtype=torch.float32, pin_memory=pinned)
                    h.copy_((base + c + rank) % 8)
                    host.append(h)
                    out.append(torch.full((rows, COLUMNS), float("nan"), dtype=torch.float32, pin_memory=pinned))
            for i in range(a.chunks):
                with torch.cuda.stream(stream):
                    d = host[i].to(dev, non_blocking=True)
                    y = d @ w
                    out[i].copy_(y, non_blocking=True)
            torch.cuda.synchronize()
            if a.allreduce_every_step:
                dist.all_reduce(torch.ones(1))  # the step's end, as DDP's gradients meet
            if not trace:
                torch.cuda.nvtx.range_pop()
            times.append((time.perf_counter() - start) * 1e3)
            if trace:
                prof.step()
    wrong = sum(not torch.equal(out[c], 2 * host[c][:, perm]) for c in range(a.chunks))
    total = torch.tensor([wrong], dtype=torch.int64)
    dist.all_reduce(total)  # the job's end: every rank's verdict
    steady = statistics.median(times[1:])
    print(f"torch_ranks{' --fix' if a.fix else ''}: rank {rank} of {world} ({'pinned' if pinned else 'pageable'}): "
          f"{a.steps} steps of {a.chunks} chunks x {a.chunk_mib} MiB; median of steps 1 and on {steady:.3f} ms, "
          f"{'verified' if wrong == 0 else 'WRONG RESULTS'}" + (f"; wrote {trace}" if trace else ""), flush=True)
    dist.destroy_process_group()
    return 0 if int(total.item()) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
