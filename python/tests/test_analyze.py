"""overlapscope.analyze and .diff against the CLI's JSON on stored traces,
the objects read from it, and the errors."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest

import overlapscope
from conftest import REPO, cli, cli_json, data

# A native trace of each kind of run we store (profiled CUDA programs),
# PyTorch profiler (Kineto) traces and an Nsight Systems export.
TRACES = [
    data("profiled", "one_stream.json"),
    data("profiled", "what-if", "pageable_async.json"),
    data("profiled", "what-if", "torch_sync_per_chunk-kineto.json"),
    data("pytorch-train-step.json"),
    data("pytorch-pageable-sync.json"),
    data("pytorch-implicit-syncs-stack.json"),
]


def test_findings_carry_their_call_sites():
    """A Kineto trace recorded with Python stacks: the findings' call sites
    are the JSON's sources, the example's own file among them."""
    path = data("pytorch-implicit-syncs-stack.json")
    runs = cli_json("analyze", "--json", path)["runs"]
    analysis = overlapscope.analyze(path)
    sites = [s for run in analysis.runs for f in run.findings for s in f.call_sites]
    assert sites == [s for run in runs for f in run["findings"] for s in f.get("sources", [])]
    assert any(s["file"].endswith("torch_implicit_syncs.py") for s in sites)


@pytest.mark.parametrize("path", TRACES, ids=os.path.basename)
def test_to_dict_is_analyze_json(path):
    analysis = overlapscope.analyze(path)
    assert analysis.to_dict() == cli_json("analyze", "--json", path)


def test_region_and_pinned_rate_are_the_clis():
    path = data("pytorch-train-step.json")
    assert (overlapscope.analyze(path, region="ProfilerStep#.*").to_dict()
            == cli_json("analyze", "--json", "--region", "ProfilerStep#.*", path))
    path = data("profiled", "what-if", "pageable_async.json")
    assert (overlapscope.analyze(path, pinned_rate=(20, 21)).to_dict()
            == cli_json("analyze", "--json", "--pinned-rate", "20,21", path))
    with pytest.raises(ValueError, match="pinned_rate"):
        overlapscope.analyze(path, pinned_rate="fast")


def test_objects_read_the_document():
    path = data("profiled", "what-if", "pageable_async.json")
    analysis = overlapscope.analyze(path)
    document = analysis.to_dict()
    assert len(analysis.runs) == len(document["runs"]) > 0
    for run, raw in zip(analysis.runs, document["runs"]):
        assert run.name == raw["name"]
        assert run.wall_ms == raw["wallMs"]
        assert [f.kind for f in run.findings] == [f["kind"] for f in raw["findings"]]
        assert [f.cost_ms for f in run.findings] == [f["costMs"] for f in raw["findings"]]
        assert [f.cost_source for f in run.findings] == [f["costSource"] for f in raw["findings"]]
        assert [f.op_count for f in run.findings] == [f["opCount"] for f in raw["findings"]]
        assert run.what_if.to_dict() == raw["whatIf"]
        assert [r.to_dict() for r in run.regions] == raw["regions"]
        assert run.bound is not None and run.bound.kind == "bound"
    kinds = [f.kind for f in analysis.findings]
    assert "pageable-memory" in kinds
    assert all(a.cost_ms >= b.cost_ms for a, b in zip(analysis.findings, analysis.findings[1:]))


def test_findings_frame_and_html(monkeypatch):
    monkeypatch.setattr(overlapscope.Analysis, "show_timeline", False)
    pandas = pytest.importorskip("pandas")
    analysis = overlapscope.analyze(data("profiled", "what-if", "pageable_async.json"))
    frame = analysis.findings_frame()
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == sum(len(r.findings) for r in analysis.runs)
    assert list(frame["kind"]) == [f.kind for r in analysis.runs for f in r.findings]
    html = analysis._repr_html_()
    assert "<table>" in html and "pageable-memory" in html


def test_diff_is_diff_json():
    before = data("profiled", "pageable_async.json")
    after = data("profiled", "pageable_async-fix.json")
    assert overlapscope.diff(before, after).to_dict() == cli_json("diff", "--json", before, after)


def test_diff_of_chosen_runs_is_the_clis(tmp_path):
    # Two simulated pipelines against a profiled program: no run pairs by name.
    before = str(tmp_path / "pipelines.json")
    cli("record", "--device", "sim", "--pipelines", "serialized,overlapped", "--chunks", "2", "--chunk-mib", "1",
        "--no-bench", "--quiet", "-o", before)
    after = data("profiled", "one_stream.json")
    assert cli("diff", "--json", before, after, check=False)[0] != 0
    with pytest.raises(ValueError, match="pairs by name"):
        overlapscope.diff(before, after)
    assert (overlapscope.diff(before, after, runs=("2", 1)).to_dict()
            == cli_json("diff", "--json", "--run", "2", "--run", "1", before, after))
    with pytest.raises(ValueError, match="run '9'"):
        overlapscope.diff(before, after, runs=(9, 1))


def test_missing_file_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        overlapscope.analyze(tmp_path / "no-such-trace.json")
    with pytest.raises(IsADirectoryError):
        overlapscope.analyze(tmp_path)
    with pytest.raises(FileNotFoundError):
        overlapscope.diff(tmp_path / "a.json", data("profiled", "one_stream.json"))


def hostile_inputs(folder):
    """Inputs the CLI refuses (exit status 3): each must be a TraceError with
    the CLI's message, and none may take the interpreter down."""
    kineto = open(data("pytorch-train-step.json"), "rb").read()
    native = json.load(open(data("profiled", "one_stream.json")))
    cases = {
        "empty.json": b"",
        "not-json.json": b"\x7fELF\x02\x01\x01 not a trace",
        "truncated-kineto.json": kineto[: len(kineto) // 2],
        "deep.json": b"[" * 100000 + b"]" * 100000,
        "bad-utf8.json": b'{"traceEvents": [{"name": "\xff\xfe", "ph": "X", "ts": 1, "dur": 1}]}',
        "huge-number.json": b'{"traceEvents": [{"name": "k", "ph": "X", "ts": 1e400, "dur": 1}]}',
        "duplicate-key.json": b'{"traceEvents": [], "traceEvents": []}',
    }
    bad_version = dict(native, version=10**6)
    cases["future-version.json"] = json.dumps(bad_version).encode()
    paths = []
    for name, content in cases.items():
        path = folder / name
        path.write_bytes(content)
        paths.append(path)
    return paths


def test_hostile_traces_are_trace_errors_with_the_clis_message(tmp_path):
    for path in hostile_inputs(tmp_path):
        status, _, stderr = cli("analyze", "--json", str(path), check=False)
        if status != 3:
            continue  # read (an import may take what it can): analyze must then agree with the CLI
        with pytest.raises(overlapscope.TraceError) as caught:
            overlapscope.analyze(path)
        assert f"overlapscope-cli: {caught.value}" == stderr.strip().splitlines()[-1], path.name
    refused = [p for p in hostile_inputs(tmp_path) if cli("analyze", "--json", str(p), check=False)[0] == 3]
    assert len(refused) >= 6


def test_gil_is_released_while_the_core_works(tmp_path):
    """A Python thread keeps running while another is inside the core: the
    longest pause between its ticks stays far below one call's length."""
    # A trace long enough to take a while: the stored Kineto step repeated
    # to 12 MB (as the big-trace measurements make theirs).
    path = str(tmp_path / "big.json")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "make-big-kineto.py"), "--size-mb", "12",
                    "-o", path], check=True, stdout=subprocess.DEVNULL)
    overlapscope.analyze(path)  # warm: the file in the page cache
    started = time.perf_counter()
    overlapscope.analyze(path)
    one_call = time.perf_counter() - started
    stop = threading.Event()
    gaps = []

    def ticker():
        last = time.perf_counter()
        longest = 0.0
        while not stop.is_set():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
        gaps.append(longest)

    thread = threading.Thread(target=ticker)
    thread.start()
    calls = 0
    started = time.perf_counter()
    while calls < 3 or time.perf_counter() - started < 0.3:
        overlapscope.analyze(path)
        calls += 1
    stop.set()
    thread.join()
    # Held, the GIL would stop the ticker for a whole call (the C++ part of
    # it is most of it).
    assert one_call > 0.03, f"the trace analyses in {one_call * 1000:.1f} ms: too short to tell"
    assert gaps[0] < one_call * 0.6, (gaps[0], one_call)


def test_timeline_picture_from_the_windows_export(monkeypatch):
    """Where the window's export is built, a notebook's Analysis shows the
    timeline with its top finding's ghost, drawn by `overlapscope export`."""
    gui = os.environ.get("OVERLAPSCOPE_GUI")
    if not gui or not os.access(gui, os.X_OK):
        pytest.skip("the window's export is not built here (OVERLAPSCOPE_GUI)")
    analysis = overlapscope.analyze(data("profiled", "what-if", "pageable_async.json"))
    png = analysis.timeline_png(width=800)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    assert '<img src="data:image/png;base64,' in analysis._repr_html_()
    monkeypatch.setattr(overlapscope.Analysis, "show_timeline", False)
    assert "<img" not in analysis._repr_html_()
    monkeypatch.delenv("OVERLAPSCOPE_GUI")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert analysis.timeline_png() is None
