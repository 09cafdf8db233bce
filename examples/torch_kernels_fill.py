#!/usr/bin/env python3
"""torch_kernels_fill: matmuls that each fill the GPU, on three streams (examples/).

The contention control of the PyTorch examples: every chunk is one large
float32 matmul (4096 x 4096 by default: some thousand thread blocks, more
than the SMs hold at once), made on the GPU, no copies in the loop; the
chunks alternate over three side streams. A kernel that fills the GPU gains
nothing from company: side by side, a pair takes the sum of its parts, so
the three streams save nothing over one. The replay must say the same: its
launch-shape basis (docs/what-if.md, "The engine model") reproduces this
run, whose matmuls start beside one another, and predicts no saving.

"Fix" (--fix): the same on one stream. The measured saving is about 0, and
so must the prediction be.

The loop is timed after a warm-up (cuBLAS, the allocator, every stream),
prints one line in the format of the CUDA examples ("in X ms"), and every
result is checked exactly (the matmul multiplies by twice a permutation
matrix). --trace FILE records the timed loop with torch.profiler and writes
its Chrome trace, which `overlapscope-cli analyze` opens.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch or no
CUDA GPU.
"""
import argparse
import sys
import time

STREAMS = 3


def parse_args():
    p = argparse.ArgumentParser(
        description="Matmuls that each fill the GPU on three streams: more streams save nothing. "
        "'Fix' (--fix): one stream; the saving is about 0.")
    p.add_argument("--fix", action="store_true", help="one stream")
    p.add_argument("--chunks", type=int, default=12, help="matmuls (12)")
    p.add_argument("--size", type=int, default=4096, help="the square matrices' side (4096)")
    p.add_argument("--trace", metavar="FILE", help="write a torch.profiler Chrome trace of the timed loop")
    a = p.parse_args()
    if a.chunks < 1 or a.size < 1:
        p.error("chunks and size must be positive")
    if a.size % 7 == 0:
        p.error("size must not be a multiple of 7 (the check's permutation steps by 7)")
    return a


def main():
    a = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_kernels_fill: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print(f"torch_kernels_fill: needs a CUDA GPU: torch {torch.__version__} (CUDA {torch.version.cuda}) sees none",
              file=sys.stderr)
        return 4
    dev = torch.device("cuda")
    n = a.size
    streams = [torch.cuda.Stream() for _ in range(1 if a.fix else STREAMS)]
    warm = STREAMS  # spare matmuls for the warm-up, as many in both modes
    # Inputs made on the GPU, small integers that float32 holds exactly.
    base = torch.arange(n * n, device=dev, dtype=torch.int64).view(n, n)
    x = [((base + c) % 8).to(torch.float32) for c in range(a.chunks + warm)]
    out = [torch.empty((n, n), device=dev, dtype=torch.float32) for _ in range(a.chunks + warm)]
    # y[:, j] = 2 * x[:, perm[j]], perm[j] = (7j + 3) mod n: a permutation, 7 and n being coprime.
    perm = (torch.arange(n, device=dev) * 7 + 3) % n
    cols = torch.arange(n, device=dev)
    w = torch.zeros((n, n), dtype=torch.float32, device=dev)
    w.index_put_((perm, cols), torch.full((n,), 2.0, device=dev))
    for s in streams:
        with torch.cuda.stream(s):
            torch.cuda.current_blas_handle()
    torch.cuda.synchronize()  # the side streams use x, w and out

    def run(chunk_ids):
        for k, i in enumerate(chunk_ids):
            with torch.cuda.stream(streams[k % len(streams)]):
                torch.matmul(x[i], w, out=out[i])
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

    wrong = sum(not torch.equal(out[c], 2 * x[c][:, perm]) for c in range(a.chunks + warm))
    tflops = a.chunks * 2 * n ** 3 / 1e12
    print(f"torch_kernels_fill{' --fix' if a.fix else ''}: {a.chunks} matmuls of {n} x {n} in {ms:.2f} ms "
          f"({tflops / (ms / 1e3):.1f} TFLOP/s, {len(streams)} streams), {'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_kernels_fill: wrote {a.trace}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
