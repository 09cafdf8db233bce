#!/usr/bin/env python3
"""Regenerates docs/ranks.md's "Profiling a distributed job" block from the
log of scripts/gpu-ranks.sh on the lent H200 (docs/logs/h200-ranks-log.txt).

    scripts/regenerate-ranks-docs.py [path/to/ranks-log.txt]

The block between <!-- h200-ranks --> and <!-- /h200-ranks --> gets: each
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
LOG = os.path.join(ROOT, "docs", "logs", "h200-ranks-log.txt")
DOC = os.path.join(ROOT, "docs", "ranks.md")
BLOCK = re.compile(r"(<!-- h200-ranks -->\n).*?(<!-- /h200-ranks -->)", re.S)
# Ranks print at once: two lines may run together in the log.
STEP = re.compile(r"torch_ranks( --fix)?: rank (\d+) of \d+ \((pinned|pageable)\): .*?median of steps 1 and on "
                  r"([0-9.]+) ms, (verified|WRONG RESULTS)")


def table_after(text, marker):
    """The ranks table and its Clocks/Straggler lines after `marker`."""
    start = text.index(marker)
    begin = text.index("Ranks: ", start)
    end = text.index("\n", text.index("Straggler: ", begin))
    lines = [line for line in text[begin:end].splitlines()
             if not line.startswith(("steps:", "GPU busy:", "top finding:"))]
    return "\n".join(lines).strip()


def main():
    log = sys.argv[1] if len(sys.argv) > 1 else LOG
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
    straggler = max(rank for (mode, rank) in medians if mode == "plain")
    saving = medians[("plain", straggler)] - medians[("fix", straggler)]
    block = "\n".join(rows) + "\n\n"
    block += (f"The fix saves the straggler (rank {straggler}) {saving:.3f} ms per step "
              f"({medians[('plain', straggler)]:.3f} -> {medians[('fix', straggler)]:.3f} ms).\n\n")
    block += "`analyze` of the folder of torch.profiler traces (`--trace-dir`):\n\n"
    block += "```\n" + table_after(text, "--- Kineto") + "\n```\n\n"
    block += "`analyze` of the job recorded by `overlapscope-cli profile -- torchrun ...`:\n\n"
    block += "```\n" + table_after(text, "--- analyze of the profiled job") + "\n```\n"
    with open(DOC) as f:
        doc = f.read()
    if not BLOCK.search(doc):
        sys.exit("regenerate-ranks-docs: docs/ranks.md has no <!-- h200-ranks --> block")
    doc = BLOCK.sub(lambda m: m.group(1) + block + m.group(2), doc)
    with open(DOC + ".tmp", "w") as f:
        f.write(doc)
    os.replace(DOC + ".tmp", DOC)
    print(f"wrote docs/ranks.md's h200-ranks block from {os.path.relpath(log, ROOT)}")


if __name__ == "__main__":
    main()
