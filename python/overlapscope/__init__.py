"""OverlapScope from Python: the same C++ core as ``overlapscope-cli``.

    import overlapscope
    a = overlapscope.analyze("trace.json")     # analyze --json, as objects
    a.findings[0].kind, a.findings[0].cost_ms  # "pageable-memory", 3.9
    a.to_dict()                                 # exactly `analyze --json`
    a.findings_frame()                          # a pandas DataFrame
    overlapscope.diff("before.json", "after.json").to_dict()  # `diff --json`

    overlapscope.torch.report("traces/")  # torch.profiler's on_trace_ready
    overlapscope.ranks.analyze("traces/", client=dask_client)  # `analyze DIR`

Nothing is judged in Python: every figure comes from the core's own JSON
documents (docs/python.md).
"""

from ._overlapscope import TraceError, __version__
from ._analysis import Analysis, Diff, Finding, Region, Run, WhatIf, analyze, diff


class FindingOverBudget(Exception):
    """A finding whose replayed saving exceeds the budget that
    ``overlapscope.torch.report(fail_over_ms=...)`` was given: the CI gate.
    ``finding``, ``analysis`` and ``path`` say which."""

    def __init__(self, message, finding=None, analysis=None, path=None):
        super().__init__(message)
        self.finding = finding
        self.analysis = analysis
        self.path = path


from . import ranks, torch  # noqa: E402  (they use the names above)

__all__ = ["Analysis", "Diff", "Finding", "FindingOverBudget", "Region", "Run", "TraceError", "WhatIf",
           "analyze", "diff", "ranks", "torch", "__version__"]
