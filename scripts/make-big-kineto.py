#!/usr/bin/env python3
"""Builds big PyTorch profiler (Kineto) traces for measuring the reader.

A stored H200 trace is repeated, each copy shifted in time past the one
before and with its ids (correlation, External id, flow id, Ev Idx) moved to
a range of their own, so that the result reads as one long profile of many
steps: every copy becomes the same ops, GPU work still joins the API call
that launched it, and lanes do not overlap. Each copy also gets a
"ProfilerStep#k" user_annotation spanning its host work, as torch.profiler
writes for every step. The metadata events (process and thread names) are
written once. The events keep the stored file's own text and layout, so the
bytes per event are a real trace's.

    scripts/make-big-kineto.py --size-mb 450 -o /tmp/kineto-450mb.json
    scripts/make-big-kineto.py --size-mb 2000 -o /tmp/kineto-2gb.json

Write the files into /tmp or a build folder: they are never committed.
"""

import argparse
import json
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "..", "tests", "data", "pytorch-train-step.json")

# Values moved per copy: times in microseconds, ids by a stride.
NUMBER = re.compile(r'"(ts|id|External id|correlation|Ev Idx)"(\s*:\s*)(-?[0-9][0-9.eE+-]*)')
TIME_KEYS = {"ts"}


def event_texts(text):
    """The raw text of each element of "traceEvents", and the text around them."""
    start = text.index('"traceEvents"')
    start = text.index("[", start) + 1
    spans = []
    depth = 0
    in_string = False
    escaped = False
    begin = None
    i = start
    while True:
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            if depth == 0:
                begin = i
            depth += 1
        elif c in "}]":
            if depth == 0:  # the closing bracket of traceEvents
                return text[:start], spans, text[i:]
            depth -= 1
            if depth == 0:
                spans.append(text[begin : i + 1])
        i += 1


def to_ns(text):
    return int((Decimal(text) * 1000).to_integral_value())


def us_text(ns):
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return "%s%d.%03d" % (sign, ns // 1000, ns % 1000)


class Template:
    """An event's text split at the numbers that move per copy."""

    def __init__(self, text):
        self.parts = []  # literal text, then (key, value) pairs, alternating
        last = 0
        for m in NUMBER.finditer(text):
            self.parts.append(text[last : m.end(2)])
            key, value = m.group(1), m.group(3)
            if key in TIME_KEYS:
                self.parts.append(("ts", to_ns(value)))
            else:
                self.parts.append(("id", int(Decimal(value))))
            last = m.end(3)
        self.parts.append(text[last:])

    def render(self, shift_ns, id_shift):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif p[0] == "ts":
                out.append(us_text(p[1] + shift_ns))
            else:
                # 0 and negative ids mean "none": they stay.
                out.append(str(p[1] + id_shift if p[1] > 0 else p[1]))
        return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="stored Kineto trace to repeat")
    parser.add_argument("--size-mb", type=float, required=True, help="size to reach, in MB (10^6 bytes)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    text = open(args.source, encoding="utf-8").read()
    head, spans, tail = event_texts(text)
    events = [json.loads(s) for s in spans]
    metadata = [s for s, e in zip(spans, events) if e.get("ph") == "M"]
    repeated = [(s, e) for s, e in zip(spans, events) if e.get("ph") != "M"]

    # One copy's span, with a millisecond of quiet before the next.
    times = [(to_ns(str(e["ts"])), to_ns(str(e.get("dur", 0)))) for _, e in repeated if "ts" in e]
    first = min(t for t, _ in times)
    last = max(t + d for t, d in times)
    period = (last - first) + 1_000_000
    most_id = max([p[1] for s, _ in repeated for p in Template(s).parts if isinstance(p, tuple) and p[0] == "id"] + [1])
    id_stride = 10 ** len(str(most_id))

    # The step annotation goes on the thread that launched most CUDA calls.
    threads = {}
    for _, e in repeated:
        if e.get("cat") == "cuda_runtime":
            key = (e["pid"], e["tid"])
            threads[key] = threads.get(key, 0) + 1
    pid, tid = max(threads, key=threads.get)
    host = [(to_ns(str(e["ts"])), to_ns(str(e["dur"]))) for _, e in repeated
            if e.get("ph") == "X" and e.get("pid") == pid and e.get("tid") == tid]
    step_begin = min(t for t, _ in host)
    step_end = max(t + d for t, d in host)
    step = Template(
        '{\n    "ph": "X", "cat": "user_annotation", "name": "ProfilerStep#STEP", "pid": %s, "tid": %s,\n'
        '    "ts": %s, "dur": %s,\n    "args": {\n      "External id": 1,"Record function id": 0\n    }\n  }'
        % (json.dumps(pid), json.dumps(tid), us_text(step_begin), us_text(step_end - step_begin)))
    templates = [Template(s) for s, _ in repeated]

    target = int(args.size_mb * 1_000_000)
    separator = ",\n  "
    copies = 0
    events_written = 0
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(head)
        out.write("\n  ")
        out.write(separator.join(metadata))
        written = len(head.encode()) + sum(len(s) for s in metadata)
        while True:
            shift = copies * period
            ids = copies * id_stride
            if ids + most_id >= 2**32:
                sys.exit("make-big-kineto: the ids would pass 2^32; use a smaller size")
            chunk = [step.render(shift, ids).replace("STEP", str(copies), 1)]
            chunk.extend(t.render(shift, ids) for t in templates)
            block = separator + separator.join(chunk)
            out.write(block)
            copies += 1
            events_written += len(chunk)
            written += len(block.encode())
            if written + len(tail) >= target:
                break
        out.write("\n  ")
        out.write(tail)
    size = os.path.getsize(args.output)
    print("%s: %.1f MB, %d copies of %s, %d events (%d metadata)"
          % (args.output, size / 1e6, copies, os.path.basename(args.source), events_written + len(metadata),
             len(metadata)))


if __name__ == "__main__":
    main()
