#!/usr/bin/env python3
"""Writes docs/profiling.md's measured call-stack cost (between its
<!-- stack-overhead:begin --> and <!-- stack-overhead:end --> markers) from
the log of scripts/measure-stack-overhead.sh:

    scripts/regenerate-stack-overhead-docs.py [docs/logs/h100-stack-overhead.txt]

The table and the call sites are copied as the script printed them, with the
machine, date and commit it names; nothing is typed in."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "profiling.md")
BEGIN, END = "<!-- stack-overhead:begin -->", "<!-- stack-overhead:end -->"


def main():
    log = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "logs", "h100-stack-overhead.txt")
    with open(log) as f:
        lines = f.read().splitlines()
    date = lines[0].strip() if lines else ""
    gpu = next((l for l in lines if l.startswith("NVIDIA") or "GPU" in l and "," in l), "an unknown GPU")
    commit = next((l.split()[1][:10] for l in lines if l.startswith("commit ")), "unknown")
    table = [l for l in lines if l.startswith("|")]
    if len(table) < 3:
        sys.exit(f"{log}: no table rows (a run whose rows went missing is no measurement)")
    rows = table[2:]
    over = [r.split("|")[1].strip() for r in rows
            if (m := re.search(r"([+-]?\d+(?:\.\d+)?)%", r.split("|")[4])) and float(m.group(1)) > 5]
    sites_at = next((i for i, l in enumerate(lines) if l.startswith("Call sites")), len(lines))
    sites = lines[sites_at + 1:]
    rel = os.path.relpath(os.path.abspath(log), ROOT)
    block = [BEGIN,
             f"Measured by `scripts/measure-stack-overhead.sh` on {gpu.split(',')[0]} ({date}, commit {commit}); "
             f"written by `scripts/regenerate-stack-overhead-docs.py {rel}`. Whole `profile` wall times (the "
             "program, then reading and symbolizing), best of 3 each, the two modes interleaved.",
             "", *table, "",
             f"Rows over 5%: {len(over)} of {len(rows)}" + (f" ({', '.join(over)})." if over else "."),
             "", "The call sites each example's `sync` run named (its costliest findings' lines):", "", "```",
             *sites, "```", END]
    with open(DOC) as f:
        doc = f.read()
    begin, end = doc.find(BEGIN), doc.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"{DOC}: no {BEGIN} ... {END} markers")
    doc = doc[:begin] + "\n".join(block) + doc[end + len(END):]
    with open(DOC, "w") as f:
        f.write(doc)
    print(f"{DOC}: {len(rows)} rows, {len(over)} over 5%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
