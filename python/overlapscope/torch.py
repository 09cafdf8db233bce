"""overlapscope.torch: judge torch.profiler's traces as they are written.

    from torch.profiler import profile, schedule
    import overlapscope
    with profile(schedule=schedule(wait=1, warmup=1, active=3),
                 on_trace_ready=overlapscope.torch.report("traces/", fail_over_ms=2.0)) as prof:
        for batch in loader:
            train_step(batch)
            prof.step()

Each cycle's trace is exported into the folder as
``torch.profiler.tensorboard_trace_handler`` names it
(``<worker>.<time_ns>.pt.trace.json``, worker ``<host>_<pid>`` unless
given), judged by the core (overlapscope.analyze), and its findings printed
in a few lines. With ``fail_over_ms``, a finding whose replayed saving is
above it raises FindingOverBudget out of ``prof.step()``: the training job
(or its CI run) stops on an overlap regression. This module never imports
torch: the handler needs only the profiler's ``export_chrome_trace``.
"""

import os
import socket
import sys
import time

from . import FindingOverBudget
from ._analysis import analyze


class _Report:
    def __init__(self, dir_name, fail_over_ms, worker_name, region, pinned_rate, out, limit):
        self.dir_name = os.fspath(dir_name)
        self.fail_over_ms = fail_over_ms
        self.worker_name = worker_name
        self.region = region
        self.pinned_rate = pinned_rate
        self.out = out
        self.limit = limit
        self.analyses = []  # every cycle's Analysis, in order

    @property
    def last(self):
        """The latest cycle's Analysis, or None before the first."""
        return self.analyses[-1] if self.analyses else None

    def trace_path(self):
        if not self.worker_name:
            self.worker_name = f"{socket.gethostname()}_{os.getpid()}"
        # Nanoseconds, as tensorboard_trace_handler: two cycles never clash.
        return os.path.join(self.dir_name, f"{self.worker_name}.{time.time_ns()}.pt.trace.json")

    def __call__(self, prof):
        os.makedirs(self.dir_name, exist_ok=True)
        path = self.trace_path()
        prof.export_chrome_trace(path)
        analysis = analyze(path, region=self.region, pinned_rate=self.pinned_rate)
        self.analyses.append(analysis)
        out = self.out if self.out is not None else sys.stdout
        print(f"overlapscope: {path}", file=out)
        for line in analysis.summary_lines(self.limit):
            print(f"  {line}", file=out)
        out.flush()
        if self.fail_over_ms is not None:
            over = [f for f in analysis.findings
                    if f.replayed_saving_ms is not None and f.replayed_saving_ms > self.fail_over_ms]
            if over:
                worst = over[0]
                raise FindingOverBudget(
                    f"{path}: {worst.kind} costs {worst.cost_ms:.3f} ms (replay), over the budget of "
                    f"{self.fail_over_ms:g} ms: {worst.get('fix', '')}",
                    finding=worst, analysis=analysis, path=path)
        return analysis


def report(dir_name, fail_over_ms=None, worker_name=None, region=None, pinned_rate=None, out=None, limit=3):
    """An ``on_trace_ready`` handler for torch.profiler.profile.

    ``dir_name``: where each cycle's trace is written. ``fail_over_ms``:
    raise FindingOverBudget when a finding's replayed saving (its cost with
    cost_source "replay") exceeds it. ``region``, ``pinned_rate``: as
    overlapscope.analyze. ``out``: where the lines go (stdout); ``limit``:
    findings printed per run. The handler returns each cycle's Analysis and
    keeps them (``handler.analyses``, ``handler.last``)."""
    return _Report(dir_name, fail_over_ms, worker_name, region, pinned_rate, out, limit)
