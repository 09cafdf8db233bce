#!/usr/bin/env python3
"""Regenerates every simulated figure in docs/measurements.md and the stored
simulated trace, from the build's overlapscope-cli.

    scripts/regenerate-sim-docs.py [path/to/overlapscope-cli] [path/to/overlapscope]

A simulated figure lives in a marked block of docs/measurements.md:

    <!-- sim:NAME overlapscope-cli ARGS | SECTION -->
    | the table the CLI printed ... |
    <!-- /sim:NAME -->

The block holds the table ('|' lines) that `overlapscope-cli ARGS` prints
after the first line starting with SECTION. tests/tst_sim_docs.cpp reads the
same markers and fails when a block no longer matches what the build prints.
The trace docs/traces/sim-h200-seed-defaults.json is recorded again, and with
the GUI binary given, docs/images/sim-h200-seed-defaults.png exported from it.
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "measurements.md")
TRACE = os.path.join(ROOT, "docs", "traces", "sim-h200-seed-defaults.json")
IMAGE = os.path.join(ROOT, "docs", "images", "sim-h200-seed-defaults.png")
BLOCK = re.compile(r"^<!-- sim:(?P<name>[\w-]+) overlapscope-cli (?P<args>.*?) \| (?P<section>.*?) -->\n"
                   r"(?P<body>.*?)"
                   r"^<!-- /sim:(?P=name) -->$", re.S | re.M)


def table(output, section):
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(section):
            rows = []
            for row in lines[i + 1:]:
                if not row.startswith("|"):
                    if rows:
                        break
                    continue
                rows.append(row)
            return rows
    raise SystemExit(f"no section starting with {section!r} in the output")


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "cli", "overlapscope-cli")
    gui = sys.argv[2] if len(sys.argv) > 2 else None
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    outputs = {}

    def replace(match):
        args = match.group("args")
        if "--device sim" not in args:
            raise SystemExit(f"block {match.group('name')}: not a simulated command: {args}")
        if args not in outputs:
            print(f"overlapscope-cli {args}", file=sys.stderr)
            outputs[args] = subprocess.run([cli] + shlex.split(args) + ["--quiet"], check=True,
                                           capture_output=True, text=True).stdout
        rows = table(outputs[args], match.group("section"))
        head = match.group(0).split("\n", 1)[0]
        return head + "\n" + "\n".join(rows) + "\n<!-- /sim:" + match.group("name") + " -->"

    new, count = BLOCK.subn(replace, doc)
    if count == 0:
        raise SystemExit("no sim blocks found in docs/measurements.md")
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)
    print(f"{count} blocks in docs/measurements.md", file=sys.stderr)

    subprocess.run([cli, "record", "--device", "sim:h200", "--quiet", "-o", TRACE], check=True,
                   stdout=subprocess.DEVNULL)
    if gui:
        subprocess.run([gui, "export", TRACE, "-o", IMAGE], check=True,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))


if __name__ == "__main__":
    main()
