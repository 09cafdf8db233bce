"""overlapscope.ranks: the ranks of a distributed job, read where the traces are.

    import overlapscope
    from dask.distributed import Client
    job = overlapscope.ranks.analyze("traces/", client=Client("scheduler:8786"))
    job.verdict            # "rank 17 is the straggler: ..."
    job.to_dict()          # exactly `overlapscope-cli analyze --json traces/`

Each trace is read, judged and summarised by the core on a worker (a Dask
worker given ``client``, else a local process); only its rank summary, a few
KB, travels back, and the core merges the summaries into the ranks
document: the same rows, clock alignment and straggler as ``analyze DIR``
(docs/ranks.md, "Ranks past one machine"). The paths are read by the
workers, so on a cluster they must name the traces where the workers see
them (a shared filesystem).
"""

import json
import os
from concurrent.futures import ProcessPoolExecutor

from . import _overlapscope as _core
from ._analysis import _pinned_rate_text
from ._records import Record, html_table


def summarize(path, region="", pinned_rate="", max_trace_mib=None):
    """One trace's rank summary (what ``overlapscope-cli analyze
    --rank-summary`` writes), as UTF-8 JSON bytes. Runs wherever it is
    called: it is what the workers run. A file that is no trace gives a
    summary that says so; the merge lists it as skipped."""
    return _core.rank_summary_json(os.fspath(path), region, pinned_rate,
                                   max_trace_mib or _core.DEFAULT_MAX_TRACE_MIB)


def merge(summaries):
    """Rank summaries (bytes or str, as summarize gives them or as the CLI
    wrote them) merged by the core into a Ranks. TraceError where one is no
    summary or none holds a readable rank."""
    texts = [s.decode("utf-8") if isinstance(s, (bytes, bytearray)) else s for s in summaries]
    return Ranks(json.loads(_core.merge_rank_summaries(texts).decode("utf-8", errors="replace")))


def paths_of(paths_or_folder):
    """The files a folder holds as `analyze DIR` reads them (core's rule:
    regular files, hidden ones left out, by name), or the paths given."""
    if isinstance(paths_or_folder, (str, bytes, os.PathLike)):
        path = os.fspath(paths_or_folder)
        return _core.rank_files_in(path) if os.path.isdir(path) else [path]
    return [os.fspath(p) for p in paths_or_folder]


class Rank(Record):
    """One row of the ranks table: ``label``, ``rank``, ``file``, ``steps``,
    ``step_median_ms``, ``step_slowest_ms``, ``gpu_busy_percent``,
    ``overlap_percent``, ``bound``, ``collective_ms``, ``findings``,
    ``clock_offset_ms``, ``straggler``."""


class Ranks(Record):
    """The ranks of one job: ``ranks``, ``files``, ``alignment``,
    ``straggler`` (a dict, or None), ``verdict``, ``notes``. ``to_dict()`` is
    exactly the document of ``overlapscope-cli analyze --json DIR``."""

    _nested = {"ranks": Rank}

    def frame(self):
        """A pandas DataFrame, a row per rank."""
        import pandas
        rows = [{"label": r.label, "rank": r.rank, "file": r.file, "steps": r.steps,
                 "step_median_ms": r.step_median_ms, "step_slowest_ms": r.step_slowest_ms,
                 "gpu_busy_percent": r.gpu_busy_percent, "overlap_percent": r.overlap_percent,
                 "top_finding": r.findings[0]["kind"] if r.findings else None,
                 "top_cost_ms": r.findings[0]["costMs"] if r.findings else None,
                 "bound": r.bound, "straggler": r.straggler} for r in self.ranks]
        return pandas.DataFrame(rows)

    def _repr_html_(self):
        rows = [[r.label + (" (straggler)" if r.straggler else ""), r.steps, r.step_median_ms,
                 r.step_slowest_ms, r.gpu_busy_percent, r.findings[0]["kind"] if r.findings else None,
                 r.findings[0]["costMs"] if r.findings else None, r.bound] for r in self.ranks]
        import html
        return (html_table(["rank", "steps", "median step ms", "slowest step ms", "GPU busy %", "top finding",
                            "its cost ms", "bound"], rows)
                + f"<p>{html.escape(self.verdict)}</p>")

    def __repr__(self):
        return f"<Ranks: {len(self.ranks)} ranks; {self.verdict}>"


def analyze(paths_or_folder, client=None, region=None, pinned_rate=None, max_trace_mib=None, max_workers=None):
    """The ranks of one job, as ``overlapscope-cli analyze --json DIR`` (or
    ``A B ...``) gives them.

    ``client``: a dask.distributed Client; each trace is summarised on a
    worker (``client.map``) and only the summaries come back. Without one,
    local processes do it (``max_workers`` of them, default the CPU count,
    at most one per file). ``region``, ``pinned_rate``: as overlapscope.analyze."""
    paths = paths_of(paths_or_folder)
    options = dict(region=region or "", pinned_rate=_pinned_rate_text(pinned_rate),
                   max_trace_mib=max_trace_mib or _core.DEFAULT_MAX_TRACE_MIB)
    if not paths:
        raise ValueError("no traces to read as ranks")
    if client is not None:
        # pure=False: a file may change between two calls with one path.
        futures = client.map(summarize, paths, pure=False, **options)
        summaries = client.gather(futures)
    else:
        workers = max(1, min(len(paths), max_workers or os.cpu_count() or 1))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            summaries = list(pool.map(_summarize_with, [(p, options) for p in paths]))
    return merge(summaries)


def _summarize_with(args):
    path, options = args
    return summarize(path, **options)
