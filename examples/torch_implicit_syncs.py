#!/usr/bin/env python3
"""torch_implicit_syncs: the synchronizations PyTorch does for you (examples/).

Pitfall: a training-like step loop whose every line looks harmless but
makes the host wait for the GPU: each step uploads a batch from a pageable
host tensor with non_blocking=True (which blocks anyway: the copy is staged
through pinned memory by the host), multiplies it, then reads the loss with
.item(), keeps the large values with boolean-mask indexing (y[y > 6], whose
shape the host must learn from the GPU: aten::nonzero), reads a few values
with .cpu() and .tolist(), and ends with torch.cuda.synchronize(). Each read
drains the stream, so the next step's upload never overlaps this step's
work.

Fix (--fix): the batches in pinned memory (as DataLoader(pin_memory=True)
gives them), the loss and the count of large values kept on the GPU
(torch.where and a sum in place of the masked select) and read once after
the loop, the probe values copied non_blocking into a pinned tensor and
read after an event, and no synchronize in the loop.

Each step's results are checked exactly: the matmul multiplies by twice a
permutation matrix, so every output is twice a permuted input, small
integers summed in float64, which holds their sums exactly. --trace FILE records the steps
with torch.profiler (ProfilerStep#N) and writes its Chrome trace; --stack
records Python call stacks and shapes too (with_stack=True,
record_shapes=True), which `overlapscope-cli analyze` reads to name the
line behind each finding.

Exit status: 0 verified, 1 wrong results, 2 bad usage, 4 no PyTorch or no
CUDA GPU.
"""
import argparse
import contextlib
import statistics
import sys
import time

COLUMNS = 1024  # a batch is rows x 1024 float32


def parse_args():
    p = argparse.ArgumentParser(
        description="Pitfall: .item(), boolean-mask indexing, .cpu(), .tolist(), a pageable non_blocking upload and "
        "torch.cuda.synchronize() in every step. Fix (--fix): pinned batches, results kept on the GPU and read "
        "once after the loop.")
    p.add_argument("--fix", action="store_true", help="pinned batches, no host reads in the loop")
    p.add_argument("--steps", type=int, default=6, help="profiler steps (6)")
    p.add_argument("--batch-mib", type=int, default=8, help="batch size in MiB (8)")
    p.add_argument("--trace", metavar="FILE", help="write a torch.profiler Chrome trace of the steps")
    p.add_argument("--stack", action="store_true", help="with --trace: record Python stacks and shapes")
    a = p.parse_args()
    if a.steps < 1 or a.batch_mib < 1:
        p.error("steps and batch size must be positive")
    if a.stack and not a.trace:
        p.error("--stack records into the --trace file: give --trace FILE")
    return a


def train_step(torch, batch, w, dev, fix, probe, results):
    """One step; what a plain step reads on the host goes to results."""
    x = batch.to(dev, non_blocking=True)
    y = x @ w
    if fix:
        results["loss"] += y.sum(dtype=torch.float64)
        results["large"] += torch.where(y > 6, 1, 0).sum()
        probe.copy_(y[0, :4], non_blocking=True)
        return
    results["loss"].append(y.sum(dtype=torch.float64).item())
    results["large"].append(y[y > 6].numel())
    results["first"].append(y[:, 0].cpu()[0].item())
    results["probe"].append(y[0, :4].tolist())
    torch.cuda.synchronize()


def main():
    a = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_implicit_syncs: needs PyTorch with CUDA ({e})", file=sys.stderr)
        return 4
    if not torch.cuda.is_available():
        print(f"torch_implicit_syncs: needs a CUDA GPU: torch {torch.__version__} (CUDA {torch.version.cuda}) "
              "sees none", file=sys.stderr)
        return 4
    from torch.profiler import ProfilerActivity, profile, schedule
    dev = torch.device("cuda")
    rows = (a.batch_mib << 20) // (4 * COLUMNS)
    base = torch.arange(rows * COLUMNS, dtype=torch.int64).view(rows, COLUMNS)
    batches = []
    for s in range(a.steps + 1):  # one more for the warm-up
        b = ((base + s) % 8).to(torch.float32)
        batches.append(b.pin_memory() if a.fix else b)
    # y[:, j] = 2 * x[:, perm[j]], perm[j] = (7j + 3) mod 1024.
    perm = (torch.arange(COLUMNS) * 7 + 3) % COLUMNS
    cols = torch.arange(COLUMNS, device=dev)
    w = torch.zeros((COLUMNS, COLUMNS), dtype=torch.float32, device=dev)
    w.index_put_(((cols * 7 + 3) % COLUMNS, cols), torch.full((COLUMNS,), 2.0, device=dev))
    probe = torch.empty(4, dtype=torch.float32, pin_memory=True)

    def fresh():
        if a.fix:
            return {"loss": torch.zeros((), dtype=torch.float64, device=dev), "large": torch.zeros((), dtype=torch.int64, device=dev)}
        return {"loss": [], "large": [], "first": [], "probe": []}

    warm = fresh()
    train_step(torch, batches[a.steps], w, dev, a.fix, probe, warm)  # cuBLAS, the allocator
    torch.cuda.synchronize()
    results = fresh()
    recording = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                        schedule=schedule(wait=0, warmup=0, active=a.steps, repeat=1),
                        record_shapes=a.stack, with_stack=a.stack,
                        on_trace_ready=lambda p: p.export_chrome_trace(a.trace)) if a.trace \
        else contextlib.nullcontext()
    times = []
    with recording as prof:
        for s in range(a.steps):
            start = time.perf_counter()
            train_step(torch, batches[s], w, dev, a.fix, probe, results)
            times.append((time.perf_counter() - start) * 1e3)
            if a.trace:
                prof.step()
        if a.fix:
            done = torch.cuda.Event()
            done.record()
            done.synchronize()
    # Exact checks against the host's own sums: the permutation moves
    # values, it neither adds nor drops any.
    want_loss = [2 * float(batches[s].double().sum()) for s in range(a.steps)]
    want_large = [int((batches[s] > 3).sum()) for s in range(a.steps)]
    if a.fix:
        wrong = (float(results["loss"]) != sum(want_loss)) + (int(results["large"]) != sum(want_large))
        wrong += probe.tolist() != [2 * float(batches[a.steps - 1][0, perm[j]]) for j in range(4)]
    else:
        wrong = sum(results["loss"][s] != want_loss[s] or results["large"][s] != want_large[s]
                    or results["first"][s] != 2 * float(batches[s][0, perm[0]])
                    or results["probe"][s] != [2 * float(batches[s][0, perm[j]]) for j in range(4)]
                    for s in range(a.steps))
    print(f"torch_implicit_syncs{' --fix' if a.fix else ''}: {a.steps} steps of {a.batch_mib} MiB "
          f"in {sum(times):.2f} ms (steps " + ", ".join(f"{t:.2f}" for t in times)
          + f" ms, median {statistics.median(times):.3f} ms), {'verified' if wrong == 0 else 'WRONG RESULTS'}")
    if a.trace:
        print(f"torch_implicit_syncs: wrote {a.trace}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
