#!/usr/bin/env python3
"""Regenerates the README's "Profile your own program" picture and findings
from the stored H200 profile of examples/seed_pipelines.

    scripts/regenerate-profile-docs.py [path/to/overlapscope-cli] [path/to/overlapscope]

Reads docs/traces/h200-profile-seed.json (recorded on the lent H200 with
`overlapscope-cli profile -o h200-profile-seed.json -- build/examples/seed_pipelines`),
exports docs/images/h200-profile-seed.png with the window's headless export
(the timed region of the run: the serialized path, then the overlapped one),
and replaces the README block between <!-- profile-findings --> and
<!-- /profile-findings --> with the findings `overlapscope-cli analyze` prints.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACE = os.path.join(ROOT, "docs", "traces", "h200-profile-seed.json")
IMAGE = os.path.join(ROOT, "docs", "images", "h200-profile-seed.png")
README = os.path.join(ROOT, "README.md")
BLOCK = re.compile(r"(<!-- profile-findings -->\n).*?(<!-- /profile-findings -->)", re.S)


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "cli", "overlapscope-cli")
    gui = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "app", "gui", "overlapscope")
    out = subprocess.run([cli, "analyze", TRACE], check=True, stdout=subprocess.PIPE, text=True).stdout
    start = out.find("\n## ")
    if start < 0:
        sys.exit("regenerate-profile-docs: analyze printed no findings section")
    findings = out[start + 1:].rstrip() + "\n"
    with open(README) as f:
        text = f.read()
    if not BLOCK.search(text):
        sys.exit("regenerate-profile-docs: README.md has no <!-- profile-findings --> block")
    text = BLOCK.sub(lambda m: m.group(1) + "```\n" + findings + "```\n" + m.group(2), text)
    with open(README + ".tmp", "w") as f:
        f.write(text)
    os.replace(README + ".tmp", README)
    # The timed region (the process's life from its first CUDA call), with a
    # margin: before it the process was starting, and nothing is drawn.
    with open(TRACE) as f:
        run = json.load(f)["runs"][0]
    begin, end = run["timedBeginNs"] / 1e6, run["timedEndNs"] / 1e6
    margin = (end - begin) * 0.02
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([gui, "export", TRACE, "-o", IMAGE, "--width", "1600", "--from-ms", f"{begin - margin:.3f}",
                    "--to-ms", f"{end + margin:.3f}"], check=True, env=env)
    print(f"wrote {os.path.relpath(IMAGE, ROOT)} and the README's findings block")


if __name__ == "__main__":
    main()
