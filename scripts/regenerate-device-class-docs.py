#!/usr/bin/env python3
"""Writes the device class table (the pinned rates assumed where a trace
measured none) into docs/what-if.md from the build, so the doc's figures are
the code's (core/base/DeviceClassRates.cpp), never typed in.

    scripts/regenerate-device-class-docs.py [path/to/overlapscope-cli]

Replaces the block between <!-- device-classes:begin --> and
<!-- device-classes:end --> with what `overlapscope-cli device-classes` prints.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "what-if.md")
BLOCK = re.compile(r"(<!-- device-classes:begin -->\n).*?(<!-- device-classes:end -->)", re.S)


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "cli", "overlapscope-cli")
    table = subprocess.run([cli, "device-classes"], check=True, stdout=subprocess.PIPE, text=True).stdout
    with open(DOC) as f:
        text = f.read()
    if not BLOCK.search(text):
        sys.exit("regenerate-device-class-docs: docs/what-if.md has no <!-- device-classes:begin --> block")
    text = BLOCK.sub(lambda m: m.group(1) + table.rstrip() + "\n" + m.group(2), text)
    with open(DOC + ".tmp", "w") as f:
        f.write(text)
    os.replace(DOC + ".tmp", DOC)


if __name__ == "__main__":
    main()
