"""overlapscope.analyze and overlapscope.diff: the core's judgement of a
trace (``overlapscope-cli analyze --json``) and of two traces (``diff
--json``), as objects."""

import base64
import html
import json
import os
import shutil
import subprocess
import tempfile

from . import _overlapscope as _core
from ._records import Record, html_table


def _document(data):
    # Core writes valid UTF-8 (names are made so on import); a stray byte
    # still must not cost the user their analysis.
    return json.loads(data.decode("utf-8", errors="replace"))


def _pinned_rate_text(pinned_rate):
    """The CLI's --pinned-rate text: "H2D,D2H" or one figure, in GB/s."""
    if pinned_rate is None:
        return ""
    if isinstance(pinned_rate, (int, float)):
        return repr(float(pinned_rate))
    if isinstance(pinned_rate, (tuple, list)):
        return ",".join(repr(float(r)) for r in pinned_rate)
    return str(pinned_rate)


class Finding(Record):
    """One finding of a run: ``kind`` ("pageable-memory", "one-stream+host-sync",
    "bound"), ``cost_ms`` with ``cost_source`` ("replay" or "estimate"),
    ``cause``, ``fix``, ``fixes``, ``op_count`` and ``ops`` (indices into the
    run's ops), ``device``; ``call_sites`` where the trace carries them."""

    @property
    def is_bound(self):
        return self.kind == "bound"

    @property
    def replayed_saving_ms(self):
        """What its fix saves in the replay; None where its cost is an estimate."""
        return self.cost_ms if self.cost_source == "replay" else None

    @property
    def call_sites(self):
        """The user's lines behind the finding's calls, most calls first
        (``analyze --json``'s ``sources``): dicts of file, line, function,
        lineIs, calls and cause; empty where the trace has no call stacks."""
        return self._fields.get("sources", [])


class RegionFinding(Record):
    """A finding of a region group (the steps): ``median_cost_ms``, ``instances``,
    ``basis`` ("whole span" or "steps alone"), ``cost_source``, ``fix``."""


class Region(Record):
    """A judged region group (the profiler steps by default, or what ``region=``
    matched): ``name``, ``count``, ``judged``, ``median_ms``, ``slowest_ms``,
    ``slowest``, ``bound``, ``findings``."""

    _nested = {"findings": RegionFinding}


class WhatIf(Record):
    """The replay of the run without its findings: ``replayed``, ``why``,
    ``measured_ms``, ``replay_ms``, ``all_fixes_ms``, ``all_fixes``, ``floor_ms``, ..."""


class Judged(Record):
    """What was judged: ``basis``, ``label``, ``begin_ms``, ``end_ms``, ``setup``, ``why``."""


class Run(Record):
    """One run of the trace: ``name``, ``status``, ``device``, ``wall_ms`` (the
    judged span), ``active_span_ms``, ``judged``, ``findings`` (costliest
    first, the bound last), ``what_if``, ``regions``."""

    _nested = {"findings": Finding, "whatIf": WhatIf, "regions": Region, "judged": Judged}

    @property
    def bound(self):
        """The bound finding (what bounds the run), or None."""
        return next((f for f in self.findings if f.is_bound), None)

    @property
    def problems(self):
        """The findings but the bound, costliest first."""
        return [f for f in self.findings if not f.is_bound]


class Analysis(Record):
    """``overlapscope.analyze(path)``: every run of the trace, judged as
    ``overlapscope-cli analyze`` judges it. ``to_dict()`` is exactly the
    document of ``analyze --json``; ``notes`` are the lines the CLI prints on
    stderr (what an import read and skipped, a region that matched nothing)."""

    _nested = {"runs": Run}
    # Whether Jupyter's view includes the timeline picture, where the
    # window's export is installed (timeline_png); False: the table alone.
    show_timeline = True

    def __init__(self, document, path, notes=()):
        super().__init__(document)
        self.path = path
        self.notes = list(notes)

    @property
    def findings(self):
        """Every run's findings but the bound, costliest first."""
        return sorted((f for r in self.runs for f in r.problems), key=lambda f: -f.cost_ms)

    def findings_frame(self):
        """A pandas DataFrame, a row per finding of every run (the bound too)."""
        try:
            import pandas
        except ImportError as error:
            raise ImportError("findings_frame() needs pandas (Debian: apt-get install python3-pandas)") from error
        rows = []
        for index, run in enumerate(self.runs):
            for f in run.findings:
                rows.append({"run": index, "run_name": run.name, "kind": f.kind, "cost_ms": f.cost_ms,
                             "cost_source": f.cost_source, "op_count": f.get("opCount"),
                             "device": f.get("device"), "fix": f.get("fix"), "cause": f.get("cause")})
        columns = ["run", "run_name", "kind", "cost_ms", "cost_source", "op_count", "device", "fix", "cause"]
        return pandas.DataFrame(rows, columns=columns)

    def summary_lines(self, limit=3):
        """A few lines as a training log shows them: per run, its judged span
        and its costliest findings with their fixes."""
        lines = []
        for run in self.runs:
            judged = run.judged.label if run.judged else ""
            lines.append(f"{run.name}: {run.wall_ms:.3f} ms judged ({judged})"
                         + (f", {run.bound.cause}" if run.bound is not None and run.bound.get("cause") else ""))
            problems = run.problems
            for f in problems[:limit]:
                lines.append(f"  {f.kind}: {f.cost_ms:.3f} ms ({f.cost_source}): {f.get('fix', '')}")
            if len(problems) > limit:
                lines.append(f"  ... and {len(problems) - limit} more findings")
            if not problems:
                lines.append("  no findings")
        return lines

    def timeline_png(self, what_if="top", width=1600, height=None, program=None):
        """The timeline as the window draws it, as PNG bytes, rendered by the
        window's headless export (``overlapscope export``, the same renderer)
        with ``what_if``'s ghost: "top" (the costliest finding's kind), a
        finding id, "all", or None for none. None where the export is not
        installed (``program``, else $OVERLAPSCOPE_GUI, else ``overlapscope``
        on PATH)."""
        program = program or os.environ.get("OVERLAPSCOPE_GUI") or shutil.which("overlapscope")
        if not program or not os.access(program, os.X_OK):
            return None
        if what_if == "top":
            what_if = self.findings[0].kind.split("+")[0] if self.findings else None
        with tempfile.TemporaryDirectory(prefix="overlapscope-") as folder:
            out = os.path.join(folder, "timeline.png")
            args = [program, "export", os.fspath(self.path), "-o", out, "--width", str(width)]
            if height:
                args += ["--height", str(height)]
            if what_if:
                args += ["--what-if", what_if]
            env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
            done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
            with open(out, "rb") as f:
                return f.read()

    def _repr_html_(self):
        parts = [f"<p><b>{html.escape(os.fspath(self.path))}</b></p>"]
        if self.show_timeline:
            try:
                png = self.timeline_png()
            except (OSError, RuntimeError, subprocess.SubprocessError) as error:
                parts.append(f"<p>(no timeline: {html.escape(str(error))})</p>")
                png = None
            if png:
                parts.append(f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}" '
                             f'style="max-width:100%" alt="timeline"/>')
        for run in self.runs:
            parts.append(f"<p>{html.escape(run.name)}: {run.wall_ms:.3f} ms judged</p>")
            parts.append(html_table(["finding", "cost ms", "cost source", "ops", "fix"],
                                    [[f.kind, f.cost_ms, f.cost_source, f.get("opCount"), f.get("fix")]
                                     for f in run.findings]))
        return "".join(parts)

    def __repr__(self):
        return f"<Analysis of {os.fspath(self.path)!s}: {len(self.runs)} runs, {len(self.findings)} findings>"


def analyze(path, region=None, pinned_rate=None, max_trace_mib=None):
    """Reads and judges the trace at ``path`` (native, Chrome, PyTorch/Kineto
    or an Nsight Systems SQLite export), as ``overlapscope-cli analyze``.

    ``region``: judge the regions of that name or regular expression
    (``--region``); ``pinned_rate``: GB/s, one figure or (H2D, D2H)
    (``--pinned-rate``). Raises FileNotFoundError (an OSError) where the file
    cannot be opened and TraceError, with the CLI's message, where it is no
    trace. The GIL is released while the core reads and judges."""
    path = os.fspath(path)
    data, notes = _core.analyze_json(path, region or "", _pinned_rate_text(pinned_rate),
                                     max_trace_mib or _core.DEFAULT_MAX_TRACE_MIB)
    return Analysis(_document(data), path, notes)


class PairFinding(Record):
    """A finding of a run pair: ``change`` with its ``before`` and ``after`` sides."""


class Pair(Record):
    """Two runs paired: ``before``, ``after``, ``matched_by``, ``findings``, ..."""

    _nested = {"findings": PairFinding}


class Diff(Record):
    """``overlapscope.diff(before, after)``: ``to_dict()`` is exactly the
    document of ``overlapscope-cli diff --json``."""

    _nested = {"pairs": Pair}

    def __repr__(self):
        return f"<Diff: {len(self._fields.get('pairs', []))} run pairs>"


def diff(before, after, region=None, pinned_rate=None, max_trace_mib=None, runs=None):
    """Compares two traces run by run (runs paired by name), as
    ``overlapscope-cli diff``; ``runs=(A, B)`` chooses the pair as ``--run A
    --run B`` does (a run's name, or its position counted from 1). Errors as
    ``analyze``; ValueError where no run of the two pairs by name or a chosen
    run is not there."""
    before, after = os.fspath(before), os.fspath(after)
    before_run, after_run = ("", "") if runs is None else (str(runs[0]), str(runs[1]))
    data = _core.diff_json(before, after, region or "", _pinned_rate_text(pinned_rate),
                           max_trace_mib or _core.DEFAULT_MAX_TRACE_MIB, before_run, after_run)
    return Diff(_document(data))
