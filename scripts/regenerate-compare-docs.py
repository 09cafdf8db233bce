#!/usr/bin/env python3
"""Regenerates the README's "Before and after" picture and comparison from the
stored H200 profiles of examples/memcpy_around_kernel, plain and with --fix.

    scripts/regenerate-compare-docs.py [path/to/overlapscope-cli] [path/to/overlapscope]

Replaces the README block between <!-- before-after --> and <!-- /before-after -->
with what `overlapscope-cli diff` prints for the pair, and exports
docs/images/before-after.png with `overlapscope export --compare`, zoomed to
the GPU's active spans of the two runs as the export aligns them (where their
judged spans start, as `analyze --json` gives them); outside them the
processes start up and tear down.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEFORE = os.path.join("tests", "data", "profiled", "what-if", "memcpy_around_kernel.json")
AFTER = os.path.join("tests", "data", "profiled", "what-if", "memcpy_around_kernel-fix.json")
IMAGE = os.path.join(ROOT, "docs", "images", "before-after.png")
README = os.path.join(ROOT, "README.md")
BLOCK = re.compile(r"(<!-- before-after -->\n).*?(<!-- /before-after -->)", re.S)


def gpu_span(run):
    """First GPU op's start and last GPU op's end, in the run's time base."""
    streams = {i for i, lane in enumerate(run["lanes"]) if lane["kind"] == "stream"}
    gpu = [op for op in run["ops"] if op[1] in streams]
    return min(op[3] for op in gpu), max(op[4] for op in gpu)


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "cli", "overlapscope-cli")
    gui = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "app", "gui", "overlapscope")
    out = subprocess.run([cli, "diff", BEFORE, AFTER], check=True, stdout=subprocess.PIPE, text=True, cwd=ROOT).stdout
    with open(README) as f:
        text = f.read()
    if not BLOCK.search(text):
        sys.exit("regenerate-compare-docs: README.md has no <!-- before-after --> block")
    text = BLOCK.sub(lambda m: m.group(1) + "```\n" + out.rstrip() + "\n```\n" + m.group(2), text)
    with open(README + ".tmp", "w") as f:
        f.write(text)
    os.replace(README + ".tmp", README)

    # The export shifts each run so that the judged spans start together, at
    # the latest judged begin: the active spans on that axis, with a margin.
    runs = []
    judged_begins = []
    for path in (BEFORE, AFTER):
        with open(os.path.join(ROOT, path)) as f:
            run = json.load(f)["runs"][0]
        runs.append(run)
        analysis = json.loads(subprocess.run([cli, "analyze", "--json", path], check=True, stdout=subprocess.PIPE,
                                             text=True, cwd=ROOT).stdout)
        judged_begins.append(run["timedBeginNs"] + analysis["runs"][0]["judged"]["beginMs"] * 1e6)
    aligned = max(judged_begins)
    spans = []
    for run, judged_begin in zip(runs, judged_begins):
        begin, end = gpu_span(run)
        offset = aligned - judged_begin
        spans.append((begin + offset, end + offset))
    begin, end = min(s[0] for s in spans) / 1e6, max(s[1] for s in spans) / 1e6
    margin = (end - begin) * 0.03
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([gui, "export", "--compare", BEFORE, AFTER, "-o", IMAGE, "--width", "1600", "--from-ms",
                    f"{begin - margin:.3f}", "--to-ms", f"{end + margin:.3f}"], check=True, env=env, cwd=ROOT)
    print(f"wrote {os.path.relpath(IMAGE, ROOT)} and the README's before-after block")


if __name__ == "__main__":
    main()
