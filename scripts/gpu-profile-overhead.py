#!/usr/bin/env python3
"""What `overlapscope-cli profile` costs a program (issue 7, part 6), on a GPU.

    scripts/gpu-profile-overhead.py [--build build] [--repetitions 7] [--out DIR] [--programs seed,fix,torch]

Runs each program plain and under `overlapscope-cli profile`, interleaved
(the order flips every repetition, after one warm-up round), and prints, per
timed region the program reports itself and for the whole process:
the medians, and the paired ratio (each repetition's profiled over plain
time, back to back, so drift between repetitions divides out) with its middle
half. Programs:
  - examples/seed_pipelines: the seed's serialized and overlapped pipelines,
    a standalone CUDA program (and --fix: overlapped from pinned data);
  - a PyTorch loop of many small copies and kernels (skipped, saying so,
    where torch or a GPU is missing).
The table goes in docs/profiling.md ("What profiling costs").
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

TORCH_LOOP = r"""
# Many small ops: 64 KiB pinned uploads and small element-wise kernels on two
# streams, as a data loader feeding a small model does. One warm-up pass of
# the loop, then the best of three: the loop's own spread inside a process
# (allocator, caching, clocks) is not what this measures.
import time, torch
s = [torch.cuda.Stream(), torch.cuda.Stream()]
host = [torch.randn(16384).pin_memory() for _ in range(8)]
dev = [torch.empty(16384, device="cuda") for _ in range(8)]
torch.cuda.synchronize()
iterations = 500
best = None
for rep in range(4):
    t0 = time.perf_counter()
    for it in range(iterations):
        for i in range(8):
            with torch.cuda.stream(s[i % 2]):
                dev[i].copy_(host[i], non_blocking=True)
                dev[i].mul_(1.0001).add_(1.0)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1e3
    if rep > 0:
        best = ms if best is None else min(best, ms)
print(f"torch small ops: {iterations * 8 * 3} ops in {best:.2f} ms")
"""

REGION = re.compile(r"^(.*?): (?:\d+ chunks x \d+ MiB|\d+ ops) in ([0-9.]+) ms", re.M)


def run(argv, env=None):
    started = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - started
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {p.returncode}: {p.stderr.strip()[-400:]}")
    regions = {name.strip(): float(ms) for name, ms in REGION.findall(p.stdout)}
    if not regions:
        raise RuntimeError(f"{' '.join(argv)} printed no timed region: {p.stdout.strip()[-400:]}")
    return regions, wall


def quartiles(values):
    v = sorted(values)
    if len(v) == 1:
        return v[0], v[0]
    def at(q):
        pos = q * (len(v) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(v) - 1)
        return v[lo] + (v[hi] - v[lo]) * (pos - lo)
    return at(0.25), at(0.75)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--repetitions", type=int, default=7)
    ap.add_argument("--out", default=None, help="where the profiled traces go (default: a temporary folder)")
    ap.add_argument("--programs", default="seed,fix,torch",
                    help="which of seed (seed_pipelines), fix (seed_pipelines --fix), torch to run (default: all)")
    args = ap.parse_args()
    cli = os.path.join(args.build, "app/cli/overlapscope-cli")
    seed = os.path.join(args.build, "examples/seed_pipelines")
    for path in (cli, seed):
        if not os.access(path, os.X_OK):
            sys.exit(f"gpu-profile-overhead: {path} is missing (build with the CUDA toolkit)")
    out = args.out or tempfile.mkdtemp(prefix="profile-overhead-")
    os.makedirs(out, exist_ok=True)

    chosen = set(args.programs.split(","))
    programs = [p for key, p in (("seed", ("seed_pipelines", [seed])), ("fix", ("seed_pipelines --fix", [seed, "--fix"])))
                if key in chosen]
    if "torch" in chosen:
        try:
            import torch  # noqa: F401  (only to know whether the loop can run)
            script = os.path.join(out, "torch_small_ops.py")
            with open(script, "w") as f:
                f.write(TORCH_LOOP)
            programs.append(("torch small ops", [sys.executable, script]))
        except ImportError:
            print("PyTorch loop: skipped (no torch in this python)")

    samples = {}  # (program, region) -> {"plain": [...], "profiled": [...]}
    for name, argv in programs:
        for rep in range(args.repetitions + 1):  # round 0 is a warm-up, dropped
            order = ["plain", "profiled"] if rep % 2 == 0 else ["profiled", "plain"]
            for mode in order:
                cmd = argv if mode == "plain" else [cli, "profile", "--quiet", "-o",
                                                    os.path.join(out, f"{name.replace(' ', '_')}-{rep}.json"),
                                                    "--"] + argv
                regions, wall = run(cmd)
                if rep == 0:
                    continue
                regions["whole process (s)"] = wall
                for region, value in regions.items():
                    samples.setdefault((name, region), {"plain": [], "profiled": []})[mode].append(value)
            print(f"[{name}] repetition {rep}/{args.repetitions} done", file=sys.stderr)

    print(f"\nProfile overhead: median of {args.repetitions} interleaved repetitions after one warm-up; "
          f"paired ratio: median of each repetition's profiled / plain, with its middle half")
    print("| program | timed region | plain | profiled | profiled / plain (medians) | paired ratio (middle half) |")
    print("|---|---|---:|---:|---:|---:|")
    for (name, region), modes in samples.items():
        plain, prof = modes["plain"], modes["profiled"]
        pairs = [b / a for a, b in zip(plain, prof) if a > 0]
        q1, q3 = quartiles(pairs)
        unit = "" if region.endswith("(s)") else " ms"
        fmt = "{:.2f}" if region.endswith("(s)") else "{:.3f}"
        print(f"| {name} | {region} | {fmt.format(statistics.median(plain))}{unit} | "
              f"{fmt.format(statistics.median(prof))}{unit} | {statistics.median(prof) / statistics.median(plain):.3f} | "
              f"{statistics.median(pairs):.3f} ({q1:.3f}..{q3:.3f}) |")
    print(f"traces: {out}")


if __name__ == "__main__":
    main()
