"""overlapscope.torch.report on a stored cycle: a fake profiler whose
export_chrome_trace writes a stored Kineto trace, as torch.profiler's does
at the end of each cycle (torch itself is not needed)."""

import io
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
