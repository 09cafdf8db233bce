#!/usr/bin/env python3
"""Measures overlapscope.ranks.analyze on a Dask LocalCluster of two workers
against `overlapscope-cli analyze --json DIR` on rank folders that
scripts/make-rank-folder.py makes, and prints (or writes into docs/ranks.md,
between its dask-ranks markers) the table: wall time, peak memory of the
CLI, of the Dask client and of each worker, and whether the two documents
are equal.

    scripts/measure-ranks-dask.py --ranks 32 128 [--mb-per-rank 125] [--work /tmp] [--write-docs]

Each measurement runs in a fresh process of this script (--one), so a peak
is that run's alone: the CLI's is its own maximum resident set; the
client's is the process that starts the LocalCluster (its scheduler runs
there too) and merges; a worker's is read on the worker after the job. The
CLI reads two files at a time (its default); the cluster has two workers
of one thread each, so both read two traces at a time.

Needs the build (build/app/cli/overlapscope-cli, build/python) and Debian's
python3-distributed. Folders are made once under --work and kept.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("OVERLAPSCOPE_BUILD", os.path.join(REPO, "build"))
CLI = os.path.join(BUILD, "app", "cli", "overlapscope-cli")
DOCS = os.path.join(REPO, "docs", "ranks.md")
BEGIN, END = "<!-- dask-ranks -->", "<!-- /dask-ranks -->"


def mb(kib):
    return kib / 1024.0


def one_cli(folder, output):
    started = time.perf_counter()
    with open(output, "wb") as out:
        done = subprocess.run([CLI, "analyze", "--json", folder], stdout=out, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"overlapscope-cli analyze --json {folder} exited {done.returncode}")
    return {"wall_s": wall, "peak_mb": mb(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)}


def one_dask(folder, output):
    sys.path.insert(0, os.path.join(BUILD, "python"))
    import distributed
    import overlapscope

    started = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        ready = time.perf_counter()
        ranks = overlapscope.ranks.analyze(folder, client=client)
        job = time.perf_counter() - ready
        workers = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    with open(output, "w") as out:
        json.dump(ranks.to_dict(), out)
    return {"wall_s": job, "cluster_start_s": ready - started,
            "client_peak_mb": mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
            "worker_peaks_mb": sorted(mb(v) for v in workers.values())}


def measure(kind, folder, output):
    done = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", kind, folder, output],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"measuring {kind} on {folder} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def folder_of(work, ranks, mb_per_rank):
    folder = os.path.join(work, f"ranks-{ranks}-{mb_per_rank}mb")
    if not os.path.isdir(folder) or len(os.listdir(folder)) != ranks:
        subprocess.run([sys.executable, os.path.join(REPO, "scripts", "make-rank-folder.py"), "--ranks", str(ranks),
                        "--size-mb", str(ranks * mb_per_rank), "-o", folder], check=True, stdout=subprocess.DEVNULL)
    size = sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder))
    return folder, size


def table(rows, command):
    lines = [
        "| ranks | folder | `analyze --json DIR` wall s | its peak MB | Dask job wall s | cluster start s "
        "| client peak MB | worker peaks MB | documents equal |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(f"| {r['ranks']} | {r['bytes'] / 1e9:.2f} GB | {r['cli']['wall_s']:.1f} | {r['cli']['peak_mb']:.0f} "
                     f"| {r['dask']['wall_s']:.1f} | {r['dask']['cluster_start_s']:.1f} "
                     f"| {r['dask']['client_peak_mb']:.0f} "
                     f"| {', '.join(f'{p:.0f}' for p in r['dask']['worker_peaks_mb'])} "
                     f"| {'yes' if r['equal'] else 'NO'} |")
    load = os.getloadavg()
    lines += ["", f"Made by `{command}` on {os.cpu_count()} cores (load average {load[0]:.1f} when it ended), "
              f"{time.strftime('%Y-%m-%d', time.gmtime())}."]
    return "\n".join(lines)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--one":
        kind, folder, output = sys.argv[2:]
        print(json.dumps((one_cli if kind == "cli" else one_dask)(folder, output)))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[32, 128])
    parser.add_argument("--mb-per-rank", type=int, default=125)
    parser.add_argument("--work", default="/tmp")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/ranks.md")
    args = parser.parse_args()
    if not os.access(CLI, os.X_OK):
        sys.exit(f"no CLI at {CLI}: build first")
    rows = []
    for ranks in args.ranks:
        folder, size = folder_of(args.work, ranks, args.mb_per_rank)
        cli_out, dask_out = folder + ".cli.json", folder + ".dask.json"
        cli = measure("cli", folder, cli_out)
        dask = measure("dask", folder, dask_out)
        equal = json.load(open(cli_out)) == json.load(open(dask_out))
        rows.append({"ranks": ranks, "bytes": size, "cli": cli, "dask": dask, "equal": equal})
        print(json.dumps(rows[-1]), file=sys.stderr)
    command = "scripts/measure-ranks-dask.py --ranks " + " ".join(map(str, args.ranks)) + \
              f" --mb-per-rank {args.mb_per_rank}" + (" --write-docs" if args.write_docs else "")
    text = table(rows, command)
    print(text)
    if args.write_docs:
        docs = open(DOCS).read()
        if BEGIN not in docs or END not in docs:
            sys.exit(f"{DOCS} has no {BEGIN} ... {END} markers")
        head, rest = docs.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        open(DOCS, "w").write(f"{head}{BEGIN}\n{text}\n{END}{tail}")
    if not all(r["equal"] for r in rows):
        sys.exit("the Dask document differs from analyze --json DIR")


if __name__ == "__main__":
    main()
