#!/usr/bin/env python3
"""Collects scripts/gpu-what-if.sh's runs into one results file.

  scripts/what-if-results.py --cli CLI --runs WORKDIR --best BESTDIR -o RESULTS.json [--command TEXT]
  scripts/what-if-results.py --cli CLI --reanalyze RESULTS.json --traces BESTDIR

WORKDIR holds cases.txt (the cases' names in the order they ran, a name a
line; without it, every folder by name) and a folder per case (NAME/), each
with command.txt (the plain command, one argument a line) and the runs
MODE-REP.{json,stdout,stderr}, MODE plain or fix: traces written by
`overlapscope-cli profile`, or, for a folder named *-kineto, PyTorch profiler
(Kineto) traces, converted to the native format here to be measured the
same way.

Per case: each run's GPU active span, from the first GPU op's start to the
last GPU op's end (engine times where the trace has them), of the run of the
trace with the most GPU ops (the program's process; a PyTorch program may
start helpers); the best (shortest) of each mode; the measured saving (best
plain minus best fix); then `analyze --json` on the best plain trace (the
original Kineto file for a Kineto case): its predicted saving (whatIf
replayMs minus the span of the replay of the fixes the example's --fix
makes: FIX_OF below), its top finding (the costliest one that is not
the bound, else the bound), and the unchanged replay against the measured
span. The best plain and fix traces are copied to BESTDIR as NAME.json and
NAME-fix.json with analyze's outputs beside them. A case whose analysis
fails keeps its measurements and says why.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# What each example's --fix does, in the replay's words (core/replay/Fix.cpp):
# the prediction it is compared with is the replay of exactly these fixes
# (analyze --json whatIf.replays). The controls change the number of streams
# of kernels that each fill the GPU: the tool's claim about more streams is
# what they check (none: a predicted saving of 0). An example missing here is
# compared with the replay of all fixes.
FIX_OF = {
    "kernels_fill_gpu": {"a stream per chunk"},
    "torch_kernels_fill": {"a stream per chunk"},
    "copies_both_ways": {"a stream per chunk"},
    "event_wait_per_chunk": {"no host wait per chunk", "a stream per chunk"},
    "legacy_default_stream": {"non-blocking streams"},
    "malloc_in_loop": {"allocations out of the loop"},
    "managed_memory": {"prefetch managed memory"},
    "memcpy_around_kernel": {"async copies", "no host wait per chunk", "a stream per chunk"},
    "one_stream": {"a stream per chunk"},
    "pageable_async": {"pin host memory"},
    "sync_in_loop": {"no host wait per chunk"},
    "sync_in_loop-host-bound": {"no host wait per chunk"},
    "torch_sync_per_chunk": {"no host wait per chunk", "a stream per chunk"},
    "torch_train_steps": {"no host wait per chunk"},
    "torch_pageable_copies": {"pin host memory"},
    "torch_implicit_syncs": {"pin host memory", "no host wait per chunk"},
}

GPU_KINDS = {"upload", "download", "kernel", "memset", "device_copy", "peer_copy"}
LOOP_MS = re.compile(r" in ([0-9.]+) ms ")


def run_span_ns(run):
    """(GPU op count, active span in ns) of one run of a native trace."""
    first = last = None
    count = 0
    for op in run.get("ops", []):
        if op[0] not in GPU_KINDS:
            continue
        start, end = op[3], op[4]
        if len(op) > 8 and op[7] is not None and op[8] is not None:
            start, end = op[7], op[8]
        first = start if first is None else min(first, start)
        last = end if last is None else max(last, end)
        count += 1
    return count, (last - first) if count else 0


def main_run(trace):
    """Index and span (ns) of the run with the most GPU ops, or (None, 0)."""
    best = (None, 0, 0)
    for i, run in enumerate(trace.get("runs", [])):
        count, span = run_span_ns(run)
        if count > best[1]:
            best = (i, count, span)
    return best[0], best[2]


def native(cli, path, kineto):
    """The trace at `path` as native JSON (converted first when it is Kineto's)."""
    if kineto:
        converted = path[:-len(".json")] + ".native.json"
        if not os.path.exists(converted):
            subprocess.run([cli, "convert", path, "-o", converted, "--to", "native"], check=True,
                           stdout=subprocess.DEVNULL)
        path = converted
    with open(path) as f:
        return json.load(f)


def measure(cli, folder, mode, kineto):
    """Per run of `mode`: {rep, trace, spanMs, loopMs, verified, error}, in rep order."""
    runs = []
    rep = 1
    while os.path.exists(os.path.join(folder, f"{mode}-{rep}.stdout")):
        base = os.path.join(folder, f"{mode}-{rep}")
        entry = {"rep": rep, "trace": base + ".json", "spanMs": None, "loopMs": None, "verified": False,
                 "error": None}
        with open(base + ".stdout", errors="replace") as f:
            stdout = f.read()
        entry["verified"] = "verified" in stdout and "WRONG" not in stdout
        # The loop time the program printed; seed_pipelines prints one per pipeline it ran: their sum.
        loops = [float(m) for m in LOOP_MS.findall(stdout)]
        entry["loopMs"] = sum(loops) if loops else None
        try:
            index, span = main_run(native(cli, base + ".json", kineto))
            if index is None:
                entry["error"] = "no GPU ops in the trace"
            else:
                entry["spanMs"] = span / 1e6
        except (OSError, ValueError, subprocess.CalledProcessError) as e:
            entry["error"] = f"cannot read the trace: {e}"
        runs.append(entry)
        rep += 1
    return runs


def best_of(runs):
    measured = [r for r in runs if r["spanMs"] is not None and r["verified"]]
    return min(measured, key=lambda r: r["spanMs"]) if measured else None


def analyze(cli, trace, best_dir, name):
    """analyze's text (into BESTDIR, for people) and its --json, parsed, or (None, why)."""
    text = subprocess.run([cli, "analyze", trace], capture_output=True, text=True)
    with open(os.path.join(best_dir, name + ".analyze.txt"), "w") as f:
        f.write(text.stdout + text.stderr)
    print(text.stdout + text.stderr)
    done = subprocess.run([cli, "analyze", "--json", trace], capture_output=True, text=True)
    with open(os.path.join(best_dir, name + ".analyze.json"), "w") as f:
        f.write(done.stdout)
    if done.returncode != 0:
        return None, f"analyze --json exit {done.returncode}: {done.stderr.strip()[-300:]}"
    try:
        return json.loads(done.stdout), None
    except ValueError as e:
        return None, f"analyze --json printed no JSON: {e}"


def pick_run(analysis, trace):
    """analyze's run for the trace's main run: the same index when the run counts agree, else the longest."""
    runs = analysis.get("runs", [])
    index, _ = main_run(trace)
    if index is not None and len(runs) == len(trace.get("runs", [])):
        return runs[index]
    return max(runs, key=lambda r: r.get("activeSpanMs") or 0) if runs else None


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def collect_case(cli, runs_dir, best_dir, name):
    folder = os.path.join(runs_dir, name)
    kineto = name.endswith("-kineto")
    with open(os.path.join(folder, "command.txt")) as f:
        command = [line.rstrip("\n") for line in f if line.strip()]
    plain = measure(cli, folder, "plain", kineto)
    fix = measure(cli, folder, "fix", kineto)
    bp, bf = best_of(plain), best_of(fix)
    case = {
        "name": name,
        "source": "kineto" if kineto else "profile",
        "command": command,
        "plainMs": [r["spanMs"] for r in plain],
        "fixMs": [r["spanMs"] for r in fix],
        "plainLoopMs": [r["loopMs"] for r in plain],
        "fixLoopMs": [r["loopMs"] for r in fix],
        "verified": all(r["verified"] for r in plain + fix) and bool(plain) and bool(fix),
        "runErrors": [f"{m} {r['rep']}: {r['error']}" for m, rs in (("plain", plain), ("fix", fix)) for r in rs
                      if r["error"]],
        "bestPlainMs": bp["spanMs"] if bp else None,
        "bestFixMs": bf["spanMs"] if bf else None,
        "measuredSavingMs": bp["spanMs"] - bf["spanMs"] if bp and bf else None,
        "plainTrace": None,
        "analyzeError": None,
        "activeSpanMs": None,
        "whatIf": None,
        "predictedSavingMs": None,
        "predictedOverMeasured": None,
        "replayOverMeasured": None,
        "topFinding": None,
        "findings": [],
    }
    if bf:
        shutil.copyfile(bf["trace"], os.path.join(best_dir, name + "-fix.json"))
    if not bp:
        case["analyzeError"] = "no verified plain run with GPU ops"
        return case
    shutil.copyfile(bp["trace"], os.path.join(best_dir, name + ".json"))
    case["plainTrace"] = name + ".json"
    return predict(case, cli, bp["trace"], best_dir, kineto)


def predict(case, cli, trace, best_dir, kineto):
    """The case's prediction from `analyze --json` of its best plain trace."""
    name = case["name"]
    analysis, why = analyze(cli, trace, best_dir, name)
    run = pick_run(analysis, native(cli, trace, kineto)) if analysis else None
    if run is None:
        case["analyzeError"] = why or "analyze --json gave no runs"
        return case
    case["analyzeError"] = None
    case["activeSpanMs"] = run.get("activeSpanMs")
    findings = [{"kind": f.get("kind"), "costMs": f.get("costMs"), "costSource": f.get("costSource"),
                 "opCount": f.get("opCount")}
                for f in run.get("findings", [])]
    case["findings"] = findings
    pitfalls = [f for f in findings if f["kind"] != "bound" and f["costMs"] is not None]
    top = max(pitfalls, key=lambda f: f["costMs"]) if pitfalls else next(iter(findings), None)
    case["topFinding"] = top
    what_if = run.get("whatIf")
    case["whatIf"] = what_if
    if what_if and what_if.get("replayMs") is not None and what_if.get("allFixesMs") is not None:
        span, basis = fixed_span(case["name"], what_if)
        case["predictedSavingMs"] = what_if["replayMs"] - span
        case["predictedBasis"] = basis
        case["predictedOverMeasured"] = ratio(case["predictedSavingMs"], case["measuredSavingMs"])
    if what_if and what_if.get("replayMs") is not None:
        case["replayOverMeasured"] = ratio(what_if["replayMs"], what_if.get("measuredMs") or case["bestPlainMs"])
    return case


def fixed_span(name, what_if):
    """The replayed span the example's --fix is compared with, and its basis:
    the replay of exactly the fixes it makes where one ran; else of the part
    of them the findings asked for; else no saving (no finding asks for its
    fix: the tool claims nothing). A control with no FIX_OF entry: all fixes."""
    wanted = FIX_OF.get(name[:-len("-kineto")] if name.endswith("-kineto") else name)
    replays = {frozenset(r["fixes"]): r["spanMs"] for r in what_if.get("replays", [])}
    if wanted is None:
        return what_if["allFixesMs"], "predicted from all fixes (its --fix is no fix the tool makes)"
    if frozenset(wanted) in replays:
        return replays[frozenset(wanted)], "the replay of its fix (" + ", ".join(sorted(wanted)) + ")"
    found = frozenset(wanted & set(what_if.get("allFixes", [])))
    if found and found in replays:
        return replays[found], ("predicted from the replay of the part of its fix the findings ask for ("
                                + ", ".join(sorted(found)) + ")")
    if not found:
        return what_if["replayMs"], ("no finding asks for its fix (" + ", ".join(sorted(wanted))
                                     + "), so the tool predicts no saving")
    return what_if["allFixesMs"], "predicted from all fixes (its own set was not replayed)"


def reanalyze(cli, results_path, traces):
    """The measurements are the GPU's; the predictions are the analysis',
    which can be made again from the stored best traces without a GPU: after
    a change to the model, `--reanalyze RESULTS.json --traces DIR` rewrites
    every prediction and says which analysis made them."""
    with open(results_path) as f:
        results = json.load(f)
    for case in results["examples"]:
        trace = os.path.join(traces, case.get("plainTrace") or "")
        if case.get("plainTrace") and os.path.exists(trace):
            # A copy in a scratch folder: a Kineto trace is converted beside it.
            scratch = tempfile.mkdtemp()
            copy = shutil.copy(trace, scratch)
            predict(case, cli, copy, scratch, case["source"] == "kineto")
            shutil.rmtree(scratch)
    version = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.strip()
    results["analyzed"] = (f"made again from {traces} by {version} on "
                           + datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    with open(results_path, "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    return 0


def machine():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown (no nvidia-smi)"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--runs")
    p.add_argument("--best")
    p.add_argument("-o", "--output")
    p.add_argument("--command", default="scripts/gpu-what-if.sh")
    p.add_argument("--reanalyze", metavar="RESULTS", help="make the predictions of RESULTS again from --traces")
    p.add_argument("--traces", metavar="DIR", help="with --reanalyze: the best traces (NAME.json)")
    a = p.parse_args()
    if a.reanalyze:
        if not a.traces:
            p.error("--reanalyze needs --traces DIR")
        return reanalyze(a.cli, a.reanalyze, a.traces)
    if not (a.runs and a.best and a.output):
        p.error("--runs, --best and -o are needed (or --reanalyze)")
    os.makedirs(a.best, exist_ok=True)
    cases = []
    # The cases in the order they ran (cases.txt, a name a line), else by name.
    order = os.path.join(a.runs, "cases.txt")
    if os.path.exists(order):
        with open(order) as f:
            names = [line.strip() for line in f if line.strip()]
    else:
        names = sorted(os.listdir(a.runs))
    for name in names:
        if os.path.exists(os.path.join(a.runs, name, "command.txt")):
            print(f"== {name}")
            case = collect_case(a.cli, a.runs, a.best, name)
            print(f"{name}: plain {case['plainMs']} ms, fix {case['fixMs']} ms, measured saving "
                  f"{case['measuredSavingMs']}, predicted {case['predictedSavingMs']}, top {case['topFinding']}, "
                  f"replay/measured {case['replayOverMeasured']}"
                  + (f", analyze: {case['analyzeError']}" if case["analyzeError"] else ""))
            cases.append(case)
    results = {
        "format": "overlapscope-what-if-results",
        "version": 1,
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
        "command": a.command,
        "repetitions": max((len(c["plainMs"]) for c in cases), default=0),
        "examples": cases,
    }
    with open(a.output, "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    return 0 if cases and all(c["verified"] for c in cases) else 1


if __name__ == "__main__":
    sys.exit(main())
