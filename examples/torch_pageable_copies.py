#!/usr/bin/env python3
"""torch_pageable_copies: non_blocking copies from pageable memory (examples/).

Pitfall: chunks of ordinary (pageable) host tensors copied to the GPU with
non_blocking=True, a matmul, and the result copied back into a pageable
tensor with non_blocking=True, on one side stream. non_blocking asks for an
asynchronous copy, but from pageable memory the driver stages it through a
pinned buffer of its own: the upload returns only when the copy is done, at
the staging rate, and the download into pageable memory is synchronous too.
The copies never overlap the matmuls, and each runs at a fraction of the
link's rate.

Fix (--fix): the same loop from pinned host tensors (pin_memory=True): the
copies run at the pinned rate and asynchronously.

The loop is timed after a warm-up (cuBLAS, the caching allocator, the
stream), prints one line in the format of the CUDA examples ("in X ms"), and
every result is checked exactly (the matmul multiplies by twice a
permutation matrix). --trace FILE records the timed loop with torch.profiler
and writes its Chrome trace, which `overlapscope-cli analyze` opens.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch or no
CUDA GPU.
"""
import argparse
import sys
import time

COLUMNS = 1024  # a chunk is rows x 1024 float32


def parse_args():
    p = argparse.ArgumentParser(
        description="Pitfall: non_blocking copies from and to pageable host tensors (staged, synchronous, slow). "
        "Fix (--fix): the same from pinned tensors.")
    p.add_argument("--fix", action="store_true", help="pinned host tensors")
    p.add_argument("--chunks", type=int, default=16, help="chunks (16)")
    p.add_argument("--chunk-mib", type=int, default=16, help="chunk size in MiB (16)")
    p.add_argument("--trace", metavar="FILE", help="write a torch.profiler Chrome trace of the timed loop")
    a = p.parse_args()
    if a.chunks < 1 or a.chunk_mib < 1:
        p.error("chunks and chunk size must be positive")
    return a


def main():
    a = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_pageable_copies: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print(f"torch_pageable_copies: needs a CUDA GPU: torch {torch.__version__} (CUDA {torch.version.cuda}) "
              "sees none", file=sys.stderr)
        return 4
    dev = torch.device("cuda")
    chunk_bytes = a.chunk_mib << 20
    rows = chunk_bytes // (4 * COLUMNS)
    stream = torch.cuda.Stream()
    warm = 1  # a spare chunk for the warm-up, in both modes
    # Host memory first, pinned or not: allocating it is host work that any
    # GPU work before it would put inside the GPU's active span.
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    host, out = [], []
    for c in range(a.chunks + warm):
        h = torch.empty((rows, COLUMNS), dtype=torch.float32, pin_memory=a.fix)
        h.copy_((base + c) % 8)
        host.append(h)
        out.append(torch.full((rows, COLUMNS), float("nan"), dtype=torch.float32, pin_memory=a.fix))
    with torch.cuda.stream(stream):
        torch.cuda.current_blas_handle()
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    torch.cuda.synchronize()  # the side stream uses w

    def run(chunk_ids):
        for i in chunk_ids:
            with torch.cuda.stream(stream):
                d = host[i].to(dev, non_blocking=True)
                y = d @ w
                out[i].copy_(y, non_blocking=True)
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
    print(f"torch_pageable_copies{' --fix' if a.fix else ''}: {a.chunks} chunks x {a.chunk_mib} MiB in {ms:.2f} ms "
          f"({gb / (ms / 1e3):.1f} GB/s of copies, {'pinned' if a.fix else 'pageable'}), "
          f"{'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_pageable_copies: wrote {a.trace}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
