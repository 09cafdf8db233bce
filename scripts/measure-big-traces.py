#!/usr/bin/env python3
"""Measures OverlapScope on big PyTorch (Kineto) traces against issue 21's
targets, and rewrites the block of docs/timeline-performance.md between
<!-- big-traces --> and <!-- /big-traces --> with what it measured (the log
goes to docs/logs/big-traces-log.txt).

    scripts/measure-big-traces.py [--build build] [--runs 3] [--tmp /tmp] [--baseline BUILD]

It makes the 450 MB and 2 GB traces with scripts/make-big-kineto.py where
they are missing, then, each --runs times (the median is reported):
  - `overlapscope-cli analyze FILE` under /usr/bin/time: wall and CPU
    seconds, peak resident memory (what a user waits for);
  - `overlapscope-reader-bench FILE`: the same split into the read and the
    analysis;
  - `overlapscope-timeline-bench --open FILE` (450 MB): the window opening
    the file as File > Open does, to the timeline drawn and to the analyses in;
  - `overlapscope-cli analyze DIR` of a 32-rank, 4 GB folder (made by
    scripts/make-rank-folder.py where missing): wall, CPU, peak memory.
With --baseline (another build folder, say of the last landed commit), each
`analyze` run of the other build's CLI alternates with this one's, and a
before/after table on this machine is written under the first.
Each file's `analyze` is also timed --runs times after --pause seconds
idle ("cold"): on a virtual machine whose balloon device reports freed
memory to the host (free page reporting, read from /sys and stated in the
block), the memory the last program freed goes back to the host within
seconds, and every page a program then touches first is faulted in by the
host too. Runs back to back ("warm", the table's first columns) find most
of their pages still backed. A user's first `analyze` after a pause is a
cold one.
Independent checks, once per file: `cat FILE > /dev/null` (the speed of
reading the bytes at all), and for 450 MB Python's json.load counting the
events (the reader must count as many).
"""
import argparse
import collections
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "timeline-performance.md")
LOG = os.path.join(ROOT, "docs", "logs", "big-traces-log.txt")
BLOCK = re.compile(r"(<!-- big-traces -->\n).*?(<!-- /big-traces -->)", re.S)
FILES = [("450 MB", 450, "kineto-450mb.json", 3.0, 600), ("2 GB", 2000, "kineto-2gb.json", 15.0, 2000)]


def run(cmd, env=None):
    started = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p, time.monotonic() - started


def huge_page_faults():
    """The system's count of anonymous huge pages faulted in so far
    (/proc/vmstat's thp_fault_alloc); None where the kernel gives none."""
    try:
        with open("/proc/vmstat") as f:
            for line in f:
                if line.startswith("thp_fault_alloc "):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


Timed = collections.namedtuple("Timed", "wall cpu peak faulted stdout")


def timed(cmd):
    """`cmd` under /usr/bin/time: wall s, CPU s (user + sys), peak MB, the MB
    of memory it faulted in (its minor faults, each 4 KiB but for the huge
    pages the system faulted in meanwhile, 2 MiB each: the machine is
    otherwise idle, so they are the program's; None where the kernel does
    not count huge pages), and its stdout."""
    before = huge_page_faults()
    p, _ = run(["/usr/bin/time", "-f", "TIME %e %U %S %M %R"] + cmd)
    after = huge_page_faults()
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    m = re.search(r"TIME ([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9]+) ([0-9]+)", p.stderr)
    faulted = None
    if before is not None and after is not None:
        huge = min(after - before, int(m.group(5)))
        faulted = round(2 * huge + (int(m.group(5)) - huge) * 4 / 1024)
    return Timed(float(m.group(1)), float(m.group(2)) + float(m.group(3)), int(m.group(4)) / 1024, faulted, p.stdout)


def analyze_logged(cli, path, what, log):
    """`cli analyze path`, timed, with a line in `log` that begins with `what`."""
    t = timed([cli, "analyze", path])
    log.append(f"{what}: wall {t.wall:.2f} s, CPU {t.cpu:.2f} s, peak {t.peak:.0f} MB, "
               f"memory faulted in {t.faulted} MB")
    return t


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def source_commit(build):
    """The commit a build folder was built from, "-dirty" where its tree had changes outside docs/."""
    home = ""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:INTERNAL="):
                home = line.split("=", 1)[1].strip()
    commit = subprocess.run(["git", "-C", home, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    # Changes under docs/ build into no program (this script rewrites one).
    dirty = subprocess.run(["git", "-C", home, "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs"],
                           capture_output=True, text=True).stdout.strip()
    return (commit or "?") + ("-dirty" if dirty else "")


def free_page_reporting():
    """Whether a virtio balloon device reports freed guest memory to the host
    (feature bit 5, VIRTIO_BALLOON_F_REPORTING): "on", "off", or "no balloon"."""
    base = "/sys/bus/virtio/devices"
    try:
        devices = os.listdir(base)
    except OSError:
        return "no balloon"
    for d in devices:
        driver = os.path.join(base, d, "driver")
        if os.path.islink(driver) and os.path.basename(os.readlink(driver)) == "virtio_balloon":
            with open(os.path.join(base, d, "features")) as f:
                bits = f.read().strip()
            return "on" if len(bits) > 5 and bits[5] == "1" else "off"
    return "no balloon"


def median_mb(values):
    """The median of the MB values known, as table text ("?" where none)."""
    known = [mb for mb in values if mb is not None]
    return f"{statistics.median(known):.0f}" if known else "?"


def median_row(rows):
    return [statistics.median(column) for column in zip(*rows)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default="/tmp")
    ap.add_argument("--baseline", help="another build folder whose `analyze` is measured beside this one's")
    ap.add_argument("--pause", type=float, default=8.0,
                    help="seconds idle before each cold `analyze` (0: no cold runs)")
    args = ap.parse_args()
    baseline_cli = os.path.join(args.baseline, "app", "cli", "overlapscope-cli") if args.baseline else None
    compared = []
    cli = os.path.join(args.build, "app", "cli", "overlapscope-cli")
    reader = os.path.join(args.build, "app", "bench", "overlapscope-reader-bench")
    window = os.path.join(args.build, "app", "bench", "overlapscope-timeline-bench")
    log = []
    out = []
    loads = [load_average()]
    cold_head = f" wall s after {args.pause:g} s idle | CPU s |" if args.pause > 0 else ""
    out.append("| trace | events | `analyze` wall s | target | CPU s | peak MB | target | memory faulted in, MB "
               "| read s | analysis s |" + cold_head)
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if args.pause > 0 else ""))
    checks = []
    allocator = "?"
    window_row = None
    for label, size_mb, name, wall_target, peak_target in FILES:
        path = os.path.join(args.tmp, name)
        if not os.path.exists(path):
            p, _ = run([sys.executable, os.path.join(ROOT, "scripts", "make-big-kineto.py"), "--size-mb", str(size_mb),
                        "-o", path])
            if p.returncode != 0:
                sys.exit(p.stderr)
        subprocess.run(["cat", path], stdout=subprocess.DEVNULL)  # into the page cache, as after a copy
        analyze, split, before = [], [], []  # each a list of Timed
        events = None
        for _ in range(args.runs):
            loads.append(load_average())
            if baseline_cli:
                before.append(analyze_logged(baseline_cli, path, f"baseline analyze {label}", log))
            analyze.append(analyze_logged(cli, path, f"analyze {label}", log))
            p, _ = run([reader, path])
            log.append(p.stdout.strip())
            allocator = p.stdout.splitlines()[0].replace("allocator: ", "")
            row = [line for line in p.stdout.splitlines() if line.startswith("| ") and "windows" in line][0]
            cells = [c.strip() for c in row.strip("|").split("|")]
            events = int(cells[2])
            split.append((float(cells[5].split()[0]), float(cells[9].split()[0])))
        # Cold: each run after a pause, the baseline's alternating where given.
        cold, cold_before = [], []
        for _ in range(args.runs if args.pause > 0 else 0):
            if baseline_cli:
                time.sleep(args.pause)
                cold_before.append(analyze_logged(baseline_cli, path,
                                                  f"baseline analyze {label} after {args.pause:g} s idle", log))
            time.sleep(args.pause)
            cold.append(analyze_logged(cli, path, f"analyze {label} after {args.pause:g} s idle", log))
        wall, cpu, peak = median_row([t[:3] for t in analyze])
        read_s, analysis_s = median_row(split)
        cold_cells = ""
        if cold:
            cold_wall, cold_cpu, _ = median_row([t[:3] for t in cold])
            cold_cells = f" {cold_wall:.2f} | {cold_cpu:.2f} |"
        faulted_cell = median_mb([t.faulted for t in analyze])
        if before:
            compared.append((label, median_row([t[:3] for t in before]), (wall, cpu, peak),
                             median_row([t[:3] for t in cold_before]) if cold_before else None,
                             median_row([t[:3] for t in cold]) if cold else None,
                             median_mb([t.faulted for t in before]), faulted_cell))
        out.append(f"| {label} | {events} | **{wall:.2f}** | {wall_target:.0f} | {cpu:.2f} | **{peak:.0f}** | "
                   f"{peak_target} | {faulted_cell} | {read_s:.2f} | {analysis_s:.2f} |" + cold_cells)
        # Its output discarded, not captured: a parent that held the text
        # would hand its peak memory down to the programs measured after.
        started = time.monotonic()
        subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)
        cat_s = time.monotonic() - started
        cat = f"`cat` of the {label} file (from the page cache) took {cat_s:.2f} s"
        log.append(cat)
        checks.append(cat)
        if size_mb <= 500:
            p, py_s = run([sys.executable, "-c", "import json,sys; print(len(json.load(open(sys.argv[1]))['traceEvents']))",
                           path])
            py_events = int(p.stdout.strip())
            line = (f"Python's `json.load` of the {label} file took {py_s:.1f} s and counts {py_events} events; "
                    f"the reader counts {events}")
            log.append(line)
            checks.append(line + (" (the same)" if py_events == events else " (DIFFERENT)"))
            opened = []
            for _ in range(args.runs):
                p, _ = run([window, "--open", path])
                if p.returncode != 0:
                    sys.exit(p.stderr)
                log.append(p.stdout.strip())
                row = [line for line in p.stdout.splitlines() if line.startswith("| ") and line[2].isdigit()][0]
                cells = [float(c) for c in row.strip("|").split("|")]
                opened.append((cells[3], cells[4], cells[5], cells[6]))
            drawn, analysed, cpu_s, rss = median_row(opened)
            window_row = (label, drawn, analysed, cpu_s, rss)
    folder = os.path.join(args.tmp, "ranks-32")
    if not os.path.isdir(folder):
        p, _ = run([sys.executable, os.path.join(ROOT, "scripts", "make-rank-folder.py"), "--ranks", "32",
                    "--size-mb", "4000", "-o", folder])
        if p.returncode != 0:
            sys.exit(p.stderr)
    folder_gb = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) / 1e9
    ranked = []
    straggler = ""
    for _ in range(args.runs):
        loads.append(load_average())
        wall, cpu, peak, _, stdout = timed([cli, "analyze", folder])
        ranked.append((wall, cpu, peak))
        log.append(f"analyze of the 32-rank folder: wall {wall:.2f} s, CPU {cpu:.2f} s, peak {peak:.0f} MB")
        straggler = next((line for line in stdout.splitlines() if line.startswith("Straggler: ")), "")
    log.append(straggler)
    folder_row = median_row(ranked)
    loads.append(load_average())
    day = datetime.date.today().isoformat()
    text = [f"Measured {day} by `scripts/measure-big-traces.py` on {os.cpu_count()} cores ({cpu_model()}), "
            f"load average {min(loads):.1f} to {max(loads):.1f}, RelWithDebInfo, allocator: {allocator}; "
            f"the median of {args.runs} runs each; free page reporting to the host: {free_page_reporting()}.", ""]
    text += out
    text.append("")
    if compared:
        text.append(f"Before and after on this machine, each `analyze` of the baseline build alternating with this "
                    f"one's (`--baseline`; medians): before {source_commit(args.baseline)}, after "
                    f"{source_commit(args.build)}.")
        text.append("")
        cold = compared[0][3] is not None
        text.append("| trace | wall s before | after | CPU s before | after | peak MB before | after "
                    "| memory faulted in, MB, before | after |"
                    + (" wall s after idle, before | after | CPU s after idle, before | after |" if cold else ""))
        text.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|---:|" if cold else ""))
        for label, b, a, cb, ca, fb, fa in compared:
            text.append(f"| {label} | {b[0]:.2f} | **{a[0]:.2f}** | {b[1]:.2f} | {a[1]:.2f} | {b[2]:.0f} | **{a[2]:.0f}** "
                        f"| {fb} | **{fa}** |"
                        + (f" {cb[0]:.2f} | **{ca[0]:.2f}** | {cb[1]:.2f} | {ca[1]:.2f} |" if cb and ca else ""))
        text.append("")
    if window_row:
        label, drawn, analysed, cpu_s, rss = window_row
        text.append(f"The window (`overlapscope-timeline-bench --open`, MainWindow offscreen) opened the {label} "
                    f"trace with its timeline drawn in **{drawn:.2f} s** (target 4 s), and had the run's "
                    f"analysis in at {analysed:.2f} s ({cpu_s:.2f} CPU s, peak {rss:.0f} MB).")
        text.append("")
    wall, cpu, peak = folder_row
    text.append(f"`analyze` of a folder of 32 ranks ({folder_gb:.2f} GB, `scripts/make-rank-folder.py --ranks 32 "
                f"--size-mb 4000`): **{wall:.1f} s** wall, {cpu:.1f} CPU s, peak **{peak:.0f} MB**; "
                f"{straggler.replace('Straggler: ', '')}.")
    text.append("")
    text.append("Independent checks:")
    text += [f"- {c}." for c in checks]
    block = "\n".join(text) + "\n"
    os.makedirs(os.path.dirname(LOG), exist_ok=True)
    with open(LOG, "w") as f:
        f.write(block + "\n" + "\n".join(log) + "\n")
    with open(DOC) as f:
        doc = f.read()
    if not BLOCK.search(doc):
        sys.exit(f"{DOC}: no <!-- big-traces --> block")
    with open(DOC, "w") as f:
        f.write(BLOCK.sub(lambda m: m.group(1) + block + m.group(2), doc))
    print(block)


if __name__ == "__main__":
    main()
