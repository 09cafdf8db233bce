#!/usr/bin/env python3
"""Measures the window's timeline on synthetic native traces and rewrites the
block of docs/timeline-performance.md between <!-- timeline-bench --> and
<!-- /timeline-bench --> with what it measured (the log goes to
docs/logs/timeline-bench-log.txt).

    scripts/measure-timeline.py [--build build] [--runs 3] [--tmp /tmp/bench]

It runs `overlapscope-timeline-bench --sizes 10000,100000,1000000 --width
1600 --keep TMP` (load, to view, replots and resident bytes per op, as the
benchmark prints them), then the headless export of the kept 1,000,000-op
trace under /usr/bin/time --runs times: its peak resident memory (the median
is reported) and wall time. Independent check, once: the file's size and its
op count as Python's json module reads them.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "timeline-performance.md")
LOG = os.path.join(ROOT, "docs", "logs", "timeline-bench-log.txt")
BLOCK = re.compile(r"(<!-- timeline-bench -->\n).*?(<!-- /timeline-bench -->)", re.S)


def run(cmd, env=None):
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-2000:]}")
    return done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default="/tmp/bench")
    args = ap.parse_args()
    bench = os.path.join(args.build, "app", "bench", "overlapscope-timeline-bench")
    gui = os.path.join(args.build, "app", "gui", "overlapscope")
    os.makedirs(args.tmp, exist_ok=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    log = []
    cmd = [bench, "--sizes", "10000,100000,1000000", "--width", "1600", "--keep", args.tmp]
    table = run(cmd, env).stdout.strip()
    log += ["$ " + " ".join(cmd), table, ""]
    trace = os.path.join(args.tmp, "t1000000.json")
    with open(trace) as f:
        doc = json.load(f)
    ops = sum(len(r.get("ops", [])) for r in doc.get("runs", []))
    peaks, walls = [], []
    out = os.path.join(args.tmp, "export.png")
    for _ in range(args.runs):
        cmd = ["/usr/bin/time", "-f", "%M %e", gui, "export", trace, "-o", out]
        done = run(cmd, env)
        kb, wall = done.stderr.strip().splitlines()[-1].split()
        peaks.append(int(kb))
        walls.append(float(wall))
        log += ["$ " + " ".join(cmd), done.stderr.strip(), ""]
    load = os.getloadavg()
    with open("/proc/cpuinfo") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), platform.machine())
    block = (
        f"Measured {datetime.date.today()} by `scripts/measure-timeline.py` on {os.cpu_count()} cores ({cpu}), "
        f"load average {load[0]:.1f} when it ended, {os.path.basename(os.path.normpath(args.build))} build:\n\n"
        f"    {' '.join(['overlapscope-timeline-bench', '--sizes', '10000,100000,1000000', '--width', '1600', '--keep', args.tmp])}\n\n"
        f"{table}\n\n"
        f"The headless export of the kept 1,000,000-op trace ({os.path.getsize(trace) / 1e6:.1f} MB; Python's json "
        f"module counts {ops} ops in it), `overlapscope export {os.path.basename(trace)} -o x.png` under "
        f"/usr/bin/time, median of {args.runs}: peak resident **{statistics.median(peaks) / 1024:.0f} MiB** "
        f"(runs: {', '.join(f'{p / 1024:.0f}' for p in peaks)} MiB), {statistics.median(walls):.2f} s wall.\n")
    text = open(DOC).read()
    if not BLOCK.search(text):
        sys.exit(f"{DOC} has no <!-- timeline-bench --> block")
    open(DOC, "w").write(BLOCK.sub(lambda m: m.group(1) + block + m.group(2), text))
    os.makedirs(os.path.dirname(LOG), exist_ok=True)
    open(LOG, "w").write("\n".join(log) + "\n")
    print(block)


if __name__ == "__main__":
    main()
