"""overlapscope.torch.report on a stored cycle: a fake profiler whose
export_chrome_trace writes a stored Kineto trace, as torch.profiler's does
at the end of each cycle (torch itself is not needed)."""

import io
import json
import os
import re
import shutil

import pytest

import overlapscope
from conftest import data

KINETO = data("profiled", "what-if", "torch_sync_per_chunk-kineto.json")


class FakeProfiler:
    def __init__(self, source):
        self.source = source
        self.exported = []

    def export_chrome_trace(self, path):
        shutil.copyfile(self.source, path)
        self.exported.append(path)


def test_report_exports_judges_and_prints(tmp_path):
    out = io.StringIO()
    handler = overlapscope.torch.report(tmp_path / "traces", out=out)
    prof = FakeProfiler(KINETO)
    analysis = handler(prof)
    # Named as tensorboard_trace_handler names them: <host>_<pid>.<time_ns>.pt.trace.json
    (path,) = prof.exported
    assert os.path.dirname(path) == str(tmp_path / "traces")
    assert re.fullmatch(r".+_%d\.\d+\.pt\.trace\.json" % os.getpid(), os.path.basename(path))
    assert analysis.to_dict() == overlapscope.analyze(KINETO).to_dict()
    assert handler.last is analysis
    text = out.getvalue()
    assert path in text
    top = analysis.findings[0]
    assert f"{top.kind}: {top.cost_ms:.3f} ms ({top.cost_source})" in text
    assert len(text.splitlines()) <= 2 + 5 * len(analysis.runs)
    # A second cycle gets its own file.
    handler(prof)
    assert len(set(prof.exported)) == 2 and len(handler.analyses) == 2


def test_fail_over_ms_is_a_gate(tmp_path):
    analysis = overlapscope.analyze(KINETO)
    replayed = [f.cost_ms for f in analysis.findings if f.cost_source == "replay"]
    assert replayed, "the stored cycle needs a replayed finding"
    worst = max(replayed)
    # Under the worst replayed saving: raised, naming the finding.
    handler = overlapscope.torch.report(tmp_path, fail_over_ms=worst * 0.9, out=io.StringIO())
    with pytest.raises(overlapscope.FindingOverBudget) as caught:
        handler(FakeProfiler(KINETO))
    assert caught.value.finding.cost_ms == worst
    assert caught.value.finding.kind in str(caught.value)
    # Over it: passes.
    handler = overlapscope.torch.report(tmp_path, fail_over_ms=worst * 1.1, out=io.StringIO())
    assert handler(FakeProfiler(KINETO)).to_dict() == analysis.to_dict()


def test_a_cycle_that_is_no_trace_raises_trace_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"traceEvents": [')
    handler = overlapscope.torch.report(tmp_path / "traces", out=io.StringIO())
    with pytest.raises(overlapscope.TraceError):
        handler(FakeProfiler(broken))


def test_report_under_the_real_torch_profiler(tmp_path):
    """The handler as torch.profiler calls it, in a real profile with a
    schedule. Debian's python3-torch has no CUDA, so the cycle's trace (torch's
    own export, named as tensorboard_trace_handler names it) holds no GPU
    work: the core reads it and refuses it as the CLI does, and the error
    comes out of prof.step(), which is the path the fail_over_ms gate takes.
    The GPU run is docs/python.md's."""
    torch = pytest.importorskip("torch", reason="python3-torch is not installed (apt install python3-torch)")
    from torch.profiler import ProfilerActivity, profile, schedule

    out = io.StringIO()
    handler = overlapscope.torch.report(tmp_path / "traces", out=out, worker_name="worker0")
    x = torch.randn(256, 256)
    steps = 0
    with pytest.raises(overlapscope.TraceError, match="holds no GPU work") as caught:
        with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=2),
                     on_trace_ready=handler) as prof:
            for _ in range(6):
                with torch.profiler.record_function("train_step"):
                    (x @ x).relu().sum().item()
                steps += 1
                prof.step()
    # Raised by the first cycle's end: the fourth step, out of prof.step().
    assert steps == 4
    (name,) = os.listdir(tmp_path / "traces")
    assert re.fullmatch(r"worker0\.\d+\.pt\.trace\.json", name)
    assert name in str(caught.value)
    with open(tmp_path / "traces" / name) as f:
        exported = json.load(f)
    # torch 1.13 writes a bare event array, newer ones an object: both read.
    events = exported if isinstance(exported, list) else exported["traceEvents"]
    assert any(str(e.get("name", "")).startswith("ProfilerStep#") for e in events)
