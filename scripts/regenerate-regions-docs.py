#!/usr/bin/env python3
"""Writes the per-step check of docs/profiling.md ("What is judged") from the
results scripts/gpu-regions.sh brought back from the H200:

    scripts/regenerate-regions-docs.py [docs/logs/h200-regions-results.json] [--cli build/app/cli/overlapscope-cli]

It replaces the block between <!-- regions-table:begin --> and
<!-- regions-table:end --> with the measured and predicted per-step savings.
With --cli, the prediction and the steps' judgement are made anew by this
build's `analyze --json` of the plain trace stored in tests/data (the
measurements stay the H200's): a change to the analysis is one command here.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "profiling.md")
# The plain trace each case recorded, as stored for the tests.
STORED = {"torch_sync_per_chunk --steps": "tests/data/profiled/regions/torch_steps.json"}
BLOCK = re.compile(r"(<!-- regions-table:begin -->\n).*?(<!-- regions-table:end -->)", re.S)


def main():
    args = sys.argv[1:]
    cli = None
    if "--cli" in args:
        at = args.index("--cli")
        cli = args[at + 1]
        del args[at:at + 2]
    path = args[0] if args else os.path.join(ROOT, "docs", "logs", "h200-regions-results.json")
    results = json.load(open(path))
    if cli:
        for name, r in results.items():
            if name not in STORED:
                continue
            out = subprocess.run([cli, "analyze", "--quiet", "--json", STORED[name]], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout
            run = max(json.loads(out)["runs"], key=lambda run: len(run.get("regions", [])))
            r["steps"] = run["regions"][0]
            r["predictedSavingMs"] = r["steps"]["allFixesSavingMs"]
    lines = ["| case | step, plain (unprofiled, best of 3) | step, fixed | measured saving a step | "
             "step, plain (traced) | step, fixed (traced) | measured saving a step (traced) | "
             "predicted a step (replay, all fixes) | predicted / measured (unprofiled; traced) | "
             "finding in most steps |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, r in results.items():
        steps = r.get("steps")
        if not steps:
            continue
        plain, fix = min(r["plainStepMs"]), min(r["fixStepMs"])
        measured = plain - fix
        fixed_traced = r.get("fixTracedStepMs")
        traced = steps["medianMs"] - fixed_traced if fixed_traced is not None else None
        predicted = r["predictedSavingMs"]
        top = steps["findings"][0] if steps["findings"] else None
        lines.append(
            f"| `{name}` | {plain:.2f} ms | {fix:.2f} ms | {measured:.2f} ms | {steps['medianMs']:.2f} ms | "
            + (f"{fixed_traced:.2f} ms | {traced:.2f} ms | " if traced is not None else "- | - | ")
            + f"{predicted:.2f} ms | {predicted / measured:.2f}x"
            + (f"; {predicted / traced:.2f}x" if traced else "")
            + " | " + (f"{top['kind']} in {top['instances']} of {steps['judged']}" if top else "none") + " |")
    text = open(DOC).read()
    if not BLOCK.search(text):
        sys.exit("regenerate-regions-docs: docs/profiling.md has no regions-table block")
    text = BLOCK.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text)
    with open(DOC + ".tmp", "w") as f:
        f.write(text)
    os.replace(DOC + ".tmp", DOC)
    print(f"wrote {len(lines) - 2} rows into docs/profiling.md")


if __name__ == "__main__":
    main()
