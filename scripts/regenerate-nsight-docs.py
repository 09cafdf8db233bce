#!/usr/bin/env python3
"""Regenerates the README's "Open a Nsight Systems report" picture and findings
from a real Nsight Systems 2024.5 export in the tests' data: CloverLeaf on
Perlmutter's A100 (tests/data/nsight/, the pipit project's; LICENSE there).

    scripts/regenerate-nsight-docs.py [path/to/overlapscope-cli] [path/to/overlapscope]

Replaces the README block between <!-- nsight-findings --> and
<!-- /nsight-findings --> with the findings `overlapscope-cli analyze` prints
for the report, and exports docs/images/nsight-cloverleaf.png with the
window's headless export: the first iterations of the judged span, with the
what-if of the report's first finding drawn under them as a ghost.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join("tests", "data", "nsight", "cloverleaf-cuda_nsys_perlmutter-reduced.sqlite")
IMAGE = os.path.join(ROOT, "docs", "images", "nsight-cloverleaf.png")
README = os.path.join(ROOT, "README.md")
BLOCK = re.compile(r"(<!-- nsight-findings -->\n).*?(<!-- /nsight-findings -->)", re.S)
SHOWN_MS = 12.0  # of the judged span: a few of its iterations


def run(args, **kwargs):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True, cwd=ROOT, **kwargs).stdout


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "cli", "overlapscope-cli")
    gui = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "app", "gui", "overlapscope")
    out = run([cli, "analyze", REPORT])
    start = out.find("\n## ")
    if start < 0:
        sys.exit("regenerate-nsight-docs: analyze printed no findings section")
    with open(README) as f:
        text = f.read()
    if not BLOCK.search(text):
        sys.exit("regenerate-nsight-docs: README.md has no <!-- nsight-findings --> block")
    text = BLOCK.sub(lambda m: m.group(1) + "```\n" + out[start + 1:].rstrip() + "\n```\n" + m.group(2), text)
    with open(README + ".tmp", "w") as f:
        f.write(text)
    os.replace(README + ".tmp", README)

    # Where the judged span begins on the export's axis (the run's own time
    # base): the timed begin, which the native form states, plus the judged
    # begin, which analyze --json gives from it.
    analysis = json.loads(run([cli, "analyze", "--json", REPORT]))["runs"][0]
    first = next(f["kind"] for f in analysis["findings"] if f["costSource"] == "replay")
    with tempfile.TemporaryDirectory() as tmp:
        native = os.path.join(tmp, "report.json")
        run([cli, "convert", REPORT, "--to", "native", "-o", native], stderr=subprocess.DEVNULL)
        with open(native) as f:
            timed_begin_ms = json.load(f)["runs"][0]["timedBeginNs"] / 1e6
    begin = timed_begin_ms + analysis["judged"]["beginMs"]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run([gui, "export", REPORT, "-o", IMAGE, "--width", "1600", "--what-if", first, "--from-ms", f"{begin:.3f}",
         "--to-ms", f"{begin + SHOWN_MS:.3f}"], env=env)
    print(f"wrote {os.path.relpath(IMAGE, ROOT)} (what-if: {first}) and the README's nsight-findings block")


if __name__ == "__main__":
    main()
