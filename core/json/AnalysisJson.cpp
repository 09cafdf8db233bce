#include "json/AnalysisJson.h"

#include "base/DurationText.h"
#include "base/Saturating.h"
#include "io/JsonWriter.h"

namespace ovs {

namespace {

void fixList(JsonWriter& w, FixSet fixes)
{
    w.beginArray();
    for (int i = 0; i < kFixCount; ++i)
        if (has(fixes, fixAt(i)))
            w.value(toString(fixAt(i)));
    w.endArray();
}

void finding(JsonWriter& w, const Finding& f)
{
    w.beginObject();
    w.key("kind");
    w.value(findingId(f));
    w.key("costMs");
    w.value(toMs(f.costNs));
    w.key("costSource");
    w.value(f.costSource == CostSource::Replay ? "replay" : "estimate");
    // Only where the cost rests on a pinned rate not measured on the device.
    if (!f.costRate.empty()) {
        w.key("costRate");
        w.value(f.costRate);
    }
    w.key("fixes");
    fixList(w, f.fixes);
    w.key("opCount");
    w.value(static_cast<std::uint64_t>(f.opCount));
    w.key("ops");
    w.beginArray();
    for (std::uint32_t i : f.ops)
        w.value(static_cast<std::uint64_t>(i));
    w.endArray();
    w.key("device");
    w.value(f.device);
    w.key("cause");
    w.value(f.cause);
    w.key("fix");
    w.value(f.fix);
    // Schema 3: where its calls came from (findings/FindingSources.h); the PyTorch
    // ops around them and the note only where there are any.
    w.key("sources");
    writeSourcesJson(w, f.sources);
    if (!f.torchOps.empty()) {
        w.key("torchOps");
        w.beginArray();
        for (const FindingTorchOp& t : f.torchOps) {
            w.beginObject();
            w.member("op", t.op);
            w.member("calls", static_cast<std::uint64_t>(t.calls));
            if (!t.cause.empty()) {
                w.member("cause", t.cause);
                w.member("fix", t.fix);
            }
            w.endObject();
        }
        w.endArray();
    }
    if (!f.sourcesNote.empty())
        w.member("sourcesNote", f.sourcesNote);
    w.endObject();
}

void whatIf(JsonWriter& w, const WhatIfSummary& s)
{
    w.beginObject();
    w.key("replayed");
    w.value(s.replayed);
    w.key("why");
    w.value(s.why);
    w.key("measuredMs");
    w.value(toMs(s.measuredSpanNs));
    w.key("replayMs");
    w.value(toMs(s.replaySpanNs));
    w.key("allFixesMs");
    w.value(toMs(s.allFixesSpanNs));
    w.key("allFixes");
    fixList(w, s.allFixes);
    w.key("assumptions");
    w.value(s.assumptions);
    w.key("contention");
    w.value(s.contention);
    w.key("floorMs");
    w.value(toMs(s.floorNs));
    w.key("floorBinds");
    w.value(s.floorBinds);
    w.key("clampedToFloor");
    w.value(s.allFixesClamped);
    w.key("droppedWaits");
    w.value(s.droppedWaits);
    w.key("fixDroppedWaits");
    w.value(s.fixDroppedWaits);
    w.key("replays");
    w.beginArray();
    for (const WhatIfSummary::FixReplay& r : s.replays) {
        w.beginObject();
        w.key("fixes");
        fixList(w, r.fixes);
        w.key("spanMs");
        w.value(toMs(r.spanNs));
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void judged(JsonWriter& w, const Run& run, const JudgedSpan& j)
{
    w.beginObject();
    w.key("basis");
    w.value(toString(j.basis));
    w.key("label");
    w.value(j.label);
    w.key("beginMs");
    w.value(toMs(saturatingSub(j.span.beginNs, run.timedBeginNs)));
    w.key("endMs");
    w.value(toMs(saturatingSub(j.span.endNs, run.timedBeginNs)));
    w.key("setupMs");
    w.value(toMs(spanNs(j.setup.beginNs, j.setup.endNs)));
    w.key("setup");
    w.value(j.setupText);
    w.key("why");
    w.value(j.whyWhole);
    w.endObject();
}

void regions(JsonWriter& w, const Run& run, const std::vector<RegionJudgement>& all)
{
    w.beginArray();
    for (const RegionJudgement& r : all) {
        w.beginObject();
        w.key("name");
        w.value(r.group.name);
        w.key("count");
        w.value(static_cast<std::uint64_t>(r.instancesFound));
        w.key("judged");
        w.value(static_cast<std::uint64_t>(r.group.regions.size()));
        w.key("medianMs");
        w.value(toMs(r.medianNs));
        w.key("slowestMs");
        w.value(toMs(r.slowestNs));
        w.key("slowest");
        w.value(run.regions[r.slowestRegion].name);
        w.key("allFixesSavingMs");
        w.value(r.medianAllFixesSavingNs < 0 ? -1.0 : toMs(r.medianAllFixesSavingNs));
        // The steps' shares of the whole span's replay, added up, beside the
        // whole's own saving (-1: not replayed with steps); why they differ.
        w.key("allFixesStepsSumMs");
        w.value(r.allFixesStepsSumNs < 0 ? -1.0 : toMs(r.allFixesStepsSumNs));
        w.key("wholeAllFixesSavingMs");
        w.value(r.wholeAllFixesSavingNs < 0 ? -1.0 : toMs(r.wholeAllFixesSavingNs));
        w.key("disagreement");
        w.value(r.disagreement);
        w.key("bound");
        w.value(toString(r.bound));
        w.key("findings");
        w.beginArray();
        for (const CommonFinding& c : r.common) {
            w.beginObject();
            w.key("kind");
            w.value(findingId(c.kind, c.alsoKinds));
            w.key("instances");
            w.value(c.instances);
            w.key("medianCostMs");
            w.value(toMs(c.medianCostNs));
            w.key("costSource");
            w.value(c.costSource == CostSource::Replay ? "replay" : "estimate");
            // "whole span": each step's share of the whole span's replay;
            // "steps alone": only the steps judged one by one name it.
            w.key("basis");
            w.value(c.fromWholeSpan ? "whole span" : "steps alone");
            if (c.fromWholeSpan) {
                w.key("stepsSumMs");
                w.value(toMs(c.stepsSumNs));
                w.key("wholeCostMs");
                w.value(toMs(c.wholeCostNs));
            }
            w.key("cause");
            w.value(c.cause);
            w.key("fix");
            w.value(c.fix);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
}

} // namespace

void writeSourcesJson(JsonWriter& w, const std::vector<FindingSource>& sources)
{
    w.beginArray();
    for (const FindingSource& s : sources) {
        w.beginObject();
        w.member("file", s.file);
        w.member("line", std::uint64_t{s.line});
        w.member("function", s.function);
        w.member("lineIs", toString(s.lineIs));
        w.member("calls", static_cast<std::uint64_t>(s.calls));
        if (!s.cause.empty())
            w.member("cause", s.cause);
        w.endObject();
    }
    w.endArray();
}

std::string analysisJson(const Trace& trace, const std::vector<RunAnalysis>& analyses)
{
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.key("schema");
    w.value(kAnalysisJsonSchema);
    w.key("runs");
    w.beginArray();
    for (std::size_t i = 0; i < trace.runs.size() && i < analyses.size(); ++i) {
        const Run& run = trace.runs[i];
        const RunFindings& f = analyses[i].findings;
        w.beginObject();
        w.key("name");
        w.value(run.name);
        w.key("status");
        w.value(toString(run.status));
        w.key("device");
        w.value(run.device.label());
        w.key("wallMs");
        w.value(toMs(f.wallNs));
        w.key("activeSpanMs");
        w.value(toMs(f.activeNs));
        w.key("judged");
        judged(w, run, analyses[i].judged);
        w.key("findings");
        w.beginArray();
        for (const Finding& x : f.findings)
            finding(w, x);
        w.endArray();
        w.key("whatIf");
        whatIf(w, f.whatIf);
        w.key("regions");
        regions(w, run, analyses[i].regions);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.flush();
    out += '\n';
    return out;
}

} // namespace ovs
