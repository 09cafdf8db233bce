#!/usr/bin/env python3
"""Writes the measured-against-predicted table of docs/what-if.md (between its
'what-if-table' markers) from the results file of scripts/gpu-what-if.sh:

    scripts/regenerate-what-if-docs.py RESULTS.json [RESULTS.json ...] [--doc docs/what-if.md] [--table NAME]

--table names the markers (default what-if-table: the H200 table the model
was made from; what-if-table-h100 is the fresh check on an H100).

Per example: the saving its --fix measured on the GPU (best plain active span
minus best --fix active span), the saving the replay predicts from the plain
trace alone (replay minus the replay with all fixes), their ratio, the top
finding, and the unchanged replay against the measured span. Every number
comes from RESULTS.json; nothing is typed in."""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = "what-if-table"


def markers(name):
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def ms(value):
    return "—" if value is None else f"{value:.2f} ms"


def times(value):
    return "—" if value is None else f"{value:.2f}x"


def program(case):
    command = case["command"]
    shown = os.path.basename(command[1] if command[0] == "python3" and len(command) > 1 else command[0])
    extra = [arg for arg in command[2 if command[0] == "python3" else 1:] if arg != "--trace"]
    name = "`" + " ".join([shown] + extra) + "`"
    return name + (" (its own Kineto trace)" if case["source"] == "kineto" else "")


def top_finding(case):
    top = case.get("topFinding")
    if not top:
        return "— (" + (case.get("analyzeError") or "no findings") + ")"
    source = f", {top['costSource']}" if top.get("costSource") else ""
    return f"{top['kind']} ({ms(top['costMs'])}{source})"


def replay(case):
    what_if = case.get("whatIf") or {}
    if what_if.get("replayMs") is None:
        why = what_if.get("why") or case.get("analyzeError") or "not replayed"
        return f"— ({why})"
    measured = what_if.get("measuredMs") or case.get("bestPlainMs")
    return f"{ms(what_if['replayMs'])} of {ms(measured)} ({times(case.get('replayOverMeasured'))})"


# Programs whose --fix is not the same work without the pitfall: their
# measured "saving" is no check of a prediction.
NOT_LIKE_FOR_LIKE = {
    "seed_pipelines": "its plain run is the seed's two pipelines (serialized, then overlapped) and its --fix the "
                      "overlapped one alone, from pinned data: different work, not the same work without a pitfall",
}
# The PyTorch example whose --fix rewrites the step: the loss and the count
# of large values stay on the GPU (torch.where and a sum for the masked
# select) and are read once after the loop, so its fixed steps run fewer
# copies and kernels (its stored Kineto traces: 70 GPU ops against 85). The
# replay prices the pitfalls of the same work (pinning, the waits); it does
# not rewrite a program.
for _name in ("torch_implicit_syncs", "torch_implicit_syncs-kineto"):
    NOT_LIKE_FOR_LIKE[_name] = ("its --fix keeps the loss and the count of large values on the GPU and reads them once "
                                "after the loop (torch.where and a sum for the masked select): fewer copies and kernels "
                                "a step, not the same work without its pitfalls; the replay "
                                "prices the pitfalls of the same work (pinning, the waits)")


# Controls: programs whose --fix runs the same kernels on more or fewer
# streams, which saves nothing where each kernel fills the GPU. The check is
# that the prediction is about 0 too; their runs' spread, however large
# beside a saving of about 0, does not void the row.
CONTROLS = {
    "kernels_fill_gpu": "a control: its kernels each fill the GPU, and --fix runs them on four streams instead of "
                        "two, which saves nothing; the prediction must be about 0 too (docs/what-if.md, \"The "
                        "engine model\": kernels beside kernels, by launch shape)",
    "torch_kernels_fill": "a control: its matmuls each fill the GPU, and --fix runs them on one stream instead of "
                          "three, which saves nothing; the prediction must be about 0 too",
}


def spread(values):
    return f"{min(values):.2f}–{max(values):.2f}" if values else "—"


def unresolved(case):
    """The runs of either mode spread over more than a quarter of the measured
    saving: its runs do not resolve it."""
    measured = case.get("measuredSavingMs")
    runs = [case.get("plainMs") or [], case.get("fixMs") or []]
    if measured is None or not all(runs):
        return False
    return any(max(r) - min(r) > 0.25 * abs(measured) for r in runs)


def measured_on(results, shown):
    reps = results.get("repetitions")
    return (f"`{shown}`: measured on {results.get('machine', 'an unknown machine')}, {results.get('created', '')}, "
            f"by `{results.get('command', 'scripts/gpu-what-if.sh')}` (best of {reps} runs each, GPU active span)."
            + (f" The predictions were {results['analyzed']}." if results.get("analyzed") else ""))


def table(files, name=TABLE):
    """files: (results, path as shown) in the order given; their rows in turn."""
    begin, end = markers(name)
    option = "" if name == TABLE else f" --table {name}"
    lines = [begin,
             "Table written by `scripts/regenerate-what-if-docs.py " + " ".join(shown for _, shown in files) + option
             + "`. "
             + " ".join(measured_on(results, shown) for results, shown in files)
             + " The predicted saving is the replay's span minus its span with the fixes the example's --fix makes "
             "(scripts/what-if-results.py, FIX_OF), from the plain trace alone.",
             "",
             "| program | measured saving (plain → fix) | runs, plain; fix (ms) | predicted saving | ratio | top finding "
             "| replay vs measured |",
             "|---|---:|---|---:|---:|---|---|"]
    notes = []
    for case in [case for results, _ in files for case in results["examples"]]:
        measured = case.get("measuredSavingMs")
        predicted = case.get("predictedSavingMs")
        flag = "" if case.get("verified") else " (unverified runs)"
        control = CONTROLS.get(case["name"].removesuffix("-kineto"))
        if unresolved(case) and not control:
            flag += " †"
        if control:
            flag += " §"
            note = f"§ `{case['name']}`: {control}."
            if note not in notes:
                notes.append(note)
        basis = case.get("predictedBasis") or ""
        if basis and not basis.startswith("the replay of its fix"):
            flag += " ¶"
            notes.append(f"¶ `{case['name']}`: {basis}.")
        if case["name"] in NOT_LIKE_FOR_LIKE:
            flag += " ‡"
            notes.append(f"‡ `{case['name']}`: {NOT_LIKE_FOR_LIKE[case['name']]}.")
        spans = f" ({case['bestPlainMs']:.2f} → {case['bestFixMs']:.2f})" if measured is not None else ""
        cells = [program(case) + flag, ms(measured) + spans,
                 spread(case.get("plainMs") or []) + "; " + spread(case.get("fixMs") or []), ms(predicted),
                 times(case.get("predictedOverMeasured")), top_finding(case), replay(case)]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    lines.append("")
    lines.append("† The runs of one mode spread over more than a quarter of the measured saving: so few runs do not "
                 "resolve the saving, so the row is no check of the prediction either way.")
    lines.extend([""] + notes if notes else [])
    lines.append(end)
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results", nargs="+")
    p.add_argument("--doc", default=os.path.join(ROOT, "docs", "what-if.md"))
    p.add_argument("--table", default=TABLE, help="the markers' name (default %(default)s)")
    a = p.parse_args()
    files = []
    for path in a.results:
        with open(path) as f:
            results = json.load(f)
        if results.get("format") != "overlapscope-what-if-results":
            sys.exit(f"{path}: not a results file of scripts/gpu-what-if.sh")
        inside = os.path.abspath(path).startswith(ROOT + os.sep)
        files.append((results, os.path.relpath(os.path.abspath(path), ROOT) if inside else path))
    with open(a.doc) as f:
        doc = f.read()
    BEGIN, END = markers(a.table)
    begin, end = doc.find(BEGIN), doc.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"{a.doc}: no {BEGIN} ... {END} markers")
    doc = doc[:begin] + table(files, a.table) + doc[end + len(END):]
    with open(a.doc, "w") as f:
        f.write(doc)
    print(f"{a.doc}: {sum(len(r['examples']) for r, _ in files)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
