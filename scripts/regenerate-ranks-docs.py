#!/usr/bin/env python3
"""Regenerates a block of docs/ranks.md from a log of scripts/gpu-ranks.sh
on a lent GPU:

    scripts/regenerate-ranks-docs.py [path/to/ranks-log.txt [BLOCK]]

BLOCK "h200-ranks" (the default, from docs/logs/h200-ranks-log.txt): the
ranks meet only at the job's end. BLOCK "allreduce-ranks" (from
docs/logs/h200-allreduce-ranks-log.txt, RANKS_FLAGS=--allreduce-every-step):
they meet at an all_reduce every step.

The block between <!-- BLOCK --> and <!-- /BLOCK --> gets: each
rank's median step unprofiled, plain and --fix (the median over the
repetitions of what examples/torch_ranks.py prints), the saving the fix
measured on the straggler, and the two ranks tables: torch.profiler's
traces read as a folder (`analyze DIR`) and the job under `overlapscope-cli
profile` (`analyze` of its trace), with their straggler lines.
"""
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "ranks.md")
LOGS = {"h200-ranks": os.path.join(ROOT, "docs", "logs", "h200-ranks-log.txt"),
        "allreduce-ranks": os.path.join(ROOT, "docs", "logs", "h200-allreduce-ranks-log.txt")}
# Ranks print at once: two lines may run together in the log.
STEP = re.compile(r"torch_ranks( --fix)?: rank (\d+) of \d+ \((pinned|pageable)\): .*?median of steps 1 and on "
                  r"([0-9.]+) ms, (verified|WRONG RESULTS)")


def table_after(text, marker):
    """The ranks table and its Clocks/Straggler lines after `marker`."""
    start = text.index(marker)
    begin = text.index("Ranks: ", start)
    end = text.index("\n", text.index("Straggler: ", begin))
    lines = [line for line in text[begin:end].splitlines()
             if not line.startswith(("steps:", "GPU busy:", "top finding:", "in collectives:"))]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def main():
    name = sys.argv[2] if len(sys.argv) > 2 else "h200-ranks"
    if name not in LOGS:
        sys.exit(f"regenerate-ranks-docs: no block {name} (one of {', '.join(LOGS)})")
    log = sys.argv[1] if len(sys.argv) > 1 else LOGS[name]
    block_re = re.compile(r"(<!-- " + name + r" -->\n).*?(<!-- /" + name + r" -->)", re.S)
    with open(log) as f:
        text = f.read()
    unprofiled = text[:text.index("--- Kineto")]
    steps = {}
    for fix, rank, memory, ms, verdict in STEP.findall(unprofiled):
        if verdict != "verified":
            sys.exit(f"regenerate-ranks-docs: a run in {log} has wrong results")
        steps.setdefault(("fix" if fix else "plain", int(rank), memory), []).append(float(ms))
    if not steps:
        sys.exit(f"regenerate-ranks-docs: no unprofiled runs in {log}")
    rows = ["| mode | rank | host memory | runs | median step ms (median over runs) |", "|---|---:|---|---:|---:|"]
    medians = {}
    for (mode, rank, memory), values in sorted(steps.items()):
        medians[(mode, rank)] = statistics.median(values)
        rows.append(f"| {mode} | {rank} | {memory} | {len(values)} | {statistics.median(values):.3f} |")
    # The straggler is the rank whose host chunks are pageable.
    straggler = [rank for (mode, rank, memory) in steps if mode == "plain" and memory == "pageable"][0]
    saving = medians[("plain", straggler)] - medians[("fix", straggler)]
    block = "\n".join(rows) + "\n\n"
    block += (f"The fix saves the straggler (rank {straggler}) {saving:.3f} ms per step "
              f"({medians[('plain', straggler)]:.3f} -> {medians[('fix', straggler)]:.3f} ms).\n\n")
    # The Kineto path's prediction against the measured saving, and the
    # traced straggler's step against its unprofiled one (the profiler's own
    # cost is in the first).
    kineto = table_after(text, "--- Kineto")
    cost = re.search(r"Straggler: .*?costs it ([0-9.]+) ms more per step", kineto)
    job = re.search(r"the job's step would save about ([0-9.]+) ms", kineto)
    traced = re.search(r"\| rank " + str(straggler) + r" \*\*straggler\*\* \| [^|]*\| [^|]*\| \d+ \| ([0-9.]+) \|", kineto)
    if cost:
        block += (f"Against that saving, the Kineto folder's finding on the straggler costs {float(cost.group(1)):.3f} ms "
                  f"per step ({float(cost.group(1)) / saving:.2f}x)")
        if job:
            block += (f", and its estimate of what the fix saves the job, {float(job.group(1)):.3f} ms "
                      f"({float(job.group(1)) / saving:.2f}x)")
        if traced:
            block += (f"; traced, the straggler's median step was {float(traced.group(1)):.3f} ms against "
                      f"{medians[('plain', straggler)]:.3f} ms unprofiled")
        block += ".\n\n"
    block += "`analyze` of the folder of torch.profiler traces (`--trace-dir`):\n\n"
    block += "```\n" + table_after(text, "--- Kineto") + "\n```\n\n"
    block += "`analyze` of the job recorded by `overlapscope-cli profile -- torchrun ...`:\n\n"
    block += "```\n" + table_after(text, "--- analyze of the profiled job") + "\n```\n"
    with open(DOC) as f:
        doc = f.read()
    if not block_re.search(doc):
        sys.exit(f"regenerate-ranks-docs: docs/ranks.md has no <!-- {name} --> block")
    doc = block_re.sub(lambda m: m.group(1) + block + m.group(2), doc)
    with open(DOC + ".tmp", "w") as f:
        f.write(doc)
    os.replace(DOC + ".tmp", DOC)
    print(f"wrote docs/ranks.md's {name} block from {os.path.relpath(log, ROOT)}")


if __name__ == "__main__":
    main()
