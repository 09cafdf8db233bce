#!/usr/bin/env python3
"""Builds a folder of per-rank PyTorch profiler (Kineto) traces, as a
distributed job writes them, for `overlapscope-cli analyze DIR`.

Every rank is a stored H200 trace repeated as make-big-kineto.py repeats it
(one "ProfilerStep#k" per copy), with torch.profiler's top-level
"distributedInfo" ({"backend": "nccl", "rank": r, "world_size": N}) and its
own small clock skew (ranks share the wall clock, as Kineto's timestamps do;
a real job's ranks start a step within microseconds of each other after a
collective). Step k starts at the same time on every rank, as after a
barrier, so the straggler holds the others: one rank (--straggler) has a
real different cause, its large pageable copies each taking --slow-copy-us
longer (the host memory of that rank contended, as when another process
pages), with everything after them on its threads and streams moved later;
its pageable-memory finding then costs more than on the others.

    scripts/make-rank-folder.py --ranks 4 --size-mb 20 -o /tmp/ranks-small
    scripts/make-rank-folder.py --ranks 32 --size-mb 4000 -o /tmp/ranks-32

The files are named as torch.profiler names them
(HOST_PID.TIMESTAMP.pt.trace.json), so the rank comes from the trace, not
the name. Write them into /tmp or a build folder: they are never committed.
"""

import argparse
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_big_kineto", os.path.join(HERE, "make-big-kineto.py"))
big = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(big)

DUR = re.compile(r'("dur"\s*:\s*)(-?[0-9][0-9.eE+-]*)')
TS = re.compile(r'("ts"\s*:\s*)(-?[0-9][0-9.eE+-]*)')


def slowed(spans, events, slow_ns):
    """The events with every large pageable copy slowed by slow_ns: the copy
    lasts longer, whatever spans it (its cudaMemcpy call, the annotations
    around it) lasts longer, and whatever starts after it starts later."""
    points = sorted(big.to_ns(str(e["ts"])) for e in events
                    if e.get("cat") == "gpu_memcpy" and "Pageable" in e.get("name", "")
                    and e.get("args", {}).get("bytes", 0) >= 256 * 1024)

    def moved(t):
        return t + slow_ns * sum(1 for p in points if p < t)

    out = []
    for s, e in zip(spans, events):
        if "ts" not in e or e.get("ph") == "M":
            out.append(s)
            continue
        ts = big.to_ns(str(e["ts"]))
        text = TS.sub(lambda m: m.group(1) + big.us_text(moved(ts)), s, count=1)
        if "dur" in e:
            end = ts + big.to_ns(str(e["dur"]))
            text = DUR.sub(lambda m: m.group(1) + big.us_text(moved(end) - moved(ts)), text, count=1)
        out.append(text)
    return out, len(points)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", default=big.DEFAULT_SOURCE, help="stored Kineto trace to repeat")
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--size-mb", type=float, required=True, help="the folder's size, in MB (10^6 bytes)")
    parser.add_argument("--straggler", type=int, default=None, help="the slow rank (default: ranks // 2 + 1)")
    parser.add_argument("--slow-copy-us", type=float, default=1000.0,
                        help="how much longer each large pageable copy of the straggler takes")
    parser.add_argument("--skew-us", type=float, default=3.0, help="clock skew between neighbouring ranks")
    parser.add_argument("-o", "--output", required=True, help="the folder (made if missing)")
    args = parser.parse_args()
    if args.ranks < 1:
        sys.exit("make-rank-folder: --ranks must be at least 1")
    straggler = args.straggler if args.straggler is not None else min(args.ranks - 1, args.ranks // 2 + 1)

    text = open(args.source, encoding="utf-8").read()
    head, spans, tail = big.event_texts(text)
    events = [json.loads(s) for s in spans]
    if not head.lstrip().startswith("{"):
        sys.exit("make-rank-folder: the source must be a JSON object with traceEvents")
    metadata = [s for s, e in zip(spans, events) if e.get("ph") == "M"]
    repeated = [(s, e) for s, e in zip(spans, events) if e.get("ph") != "M"]
    slow_spans, slow_copies = slowed([s for s, _ in repeated], [e for _, e in repeated], int(args.slow_copy_us * 1000))
    slow_events = [json.loads(s) for s in slow_spans]

    def extent(evs):
        times = [(big.to_ns(str(e["ts"])), big.to_ns(str(e.get("dur", 0)))) for e in evs if "ts" in e]
        return min(t for t, _ in times), max(t + d for t, d in times)

    first, last = extent([e for _, e in repeated])
    _, slow_last = extent(slow_events)
    # Every rank starts step k together, after the slowest rank's step k-1.
    period = (max(last, slow_last) - first) + 1_000_000
    most_id = max([p[1] for s, _ in repeated for p in big.Template(s).parts if isinstance(p, tuple) and p[0] == "id"]
                  + [1])
    id_stride = 10 ** len(str(most_id))

    threads = {}
    for _, e in repeated:
        if e.get("cat") == "cuda_runtime":
            key = (e["pid"], e["tid"])
            threads[key] = threads.get(key, 0) + 1
    pid, tid = max(threads, key=threads.get)

    def step_template(evs):
        host = [(big.to_ns(str(e["ts"])), big.to_ns(str(e["dur"]))) for e in evs
                if e.get("ph") == "X" and e.get("pid") == pid and e.get("tid") == tid]
        begin = min(t for t, _ in host)
        end = max(t + d for t, d in host)
        return big.Template(
            '{\n    "ph": "X", "cat": "user_annotation", "name": "ProfilerStep#STEP", "pid": %s, "tid": %s,\n'
            '    "ts": %s, "dur": %s,\n    "args": {\n      "External id": 1,"Record function id": 0\n    }\n  }'
            % (json.dumps(pid), json.dumps(tid), big.us_text(begin), big.us_text(end - begin)))

    plain = (step_template([e for _, e in repeated]), [big.Template(s) for s, _ in repeated])
    slow = (step_template(slow_events), [big.Template(s) for s in slow_spans])

    # As many steps in every rank as fill its share of the folder.
    separator = ",\n  "
    one_step = len((separator + separator.join(t.render(0, 0) for t in plain[1])).encode())
    per_rank = args.size_mb * 1_000_000 / args.ranks
    fixed = len(head.encode()) + sum(len(s) for s in metadata) + len(tail)
    steps = max(1, int((per_rank - fixed) // one_step))
    if (steps - 1) * id_stride + most_id >= 2**32:
        sys.exit("make-rank-folder: the ids would pass 2^32; use a smaller size or more ranks")

    os.makedirs(args.output, exist_ok=True)
    brace = head.index("{") + 1
    total = 0
    for rank in range(args.ranks):
        step, templates = slow if rank == straggler else plain
        info = '\n  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d},' % (rank, args.ranks)
        rank_head = head[:brace] + info + head[brace:]
        skew = int(rank * args.skew_us * 1000)
        path = os.path.join(args.output, "node%d_%d.1790857026%03d.pt.trace.json" % (rank // 8, 41000 + rank, rank))
        with open(path, "w", encoding="utf-8") as out:
            out.write(rank_head)
            out.write("\n  ")
            out.write(separator.join(metadata))
            for k in range(steps):
                shift = k * period + skew
                ids = k * id_stride
                chunk = [step.render(shift, ids).replace("STEP", str(k), 1)]
                chunk.extend(t.render(shift, ids) for t in templates)
                out.write(separator + separator.join(chunk))
            out.write("\n  ")
            out.write(tail)
        total += os.path.getsize(path)
    print("%s: %d ranks, %.1f MB, %d steps each; rank %d is the straggler (%d pageable copies per step, each %.0f us "
          "slower)" % (args.output, args.ranks, total / 1e6, steps, straggler, slow_copies, args.slow_copy_us))


if __name__ == "__main__":
    main()
