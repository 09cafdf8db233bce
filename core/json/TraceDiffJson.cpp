#include "json/TraceDiffJson.h"

#include "base/DurationText.h"
#include "io/JsonWriter.h"
#include "json/AnalysisJson.h"

namespace ovs {

namespace {

void device(JsonWriter& w, const DeviceActivity& d)
{
    w.beginObject();
    w.member("device", d.device);
    w.member("label", d.label);
    w.member("streams", d.streams);
    w.member("h2dMs", toMs(d.h2dNs));
    w.member("d2hMs", toMs(d.d2hNs));
    w.member("deviceCopyMs", toMs(d.deviceCopyNs));
    w.member("kernelMs", toMs(d.computeNs));
    w.member("memsetMs", toMs(d.memsetNs));
    w.member("busyMs", toMs(d.busyNs));
    w.member("copyWithKernelMs", toMs(d.copyWithComputeNs));
    w.member("h2dWithD2hMs", toMs(d.h2dWithD2hNs));
    w.member("idleMs", toMs(d.idleNs));
    w.endObject();
}

void side(JsonWriter& w, const RunSide& s)
{
    w.beginObject();
    w.member("run", static_cast<std::uint64_t>(s.index + 1));
    w.member("name", s.name);
    w.member("status", toString(s.status));
    w.member("device", s.device);
    w.member("wallMs", toMs(s.wallNs));
    w.member("activeSpanMs", toMs(s.activeNs));
    w.member("overlapMs", toMs(s.overlapNs));
    w.member("overlapPossibleMs", toMs(s.overlapPossibleNs));
    w.member("overlapOfPossiblePercent", s.overlapOfPossiblePercent);
    w.member("h2dWithD2hMs", toMs(s.h2dWithD2hNs));
    w.member("hostStagingMs", toMs(s.hostStagingNs));
    w.key("allFixesMs");
    if (s.allFixesSpanNs >= 0)
        w.value(toMs(s.allFixesSpanNs));
    else
        w.value(nullptr);
    w.key("devices");
    w.beginArray();
    for (const DeviceActivity& d : s.devices)
        device(w, d);
    w.endArray();
    w.endObject();
}

void findingSide(JsonWriter& w, const std::optional<FindingSide>& f)
{
    if (!f) {
        w.value(nullptr);
        return;
    }
    w.beginObject();
    w.member("kind", f->id);
    w.member("costMs", toMs(f->costNs));
    w.member("costSource", f->costSource == CostSource::Replay ? "replay" : "estimate");
    if (!f->costRate.empty())
        w.member("costRate", f->costRate);
    w.member("opCount", static_cast<std::uint64_t>(f->opCount));
    w.member("cause", f->cause);
    // Schema 2: as analyze --json's sources.
    w.key("sources");
    writeSourcesJson(w, f->sources);
    w.endObject();
}

void finding(JsonWriter& w, const FindingDiff& f)
{
    w.beginObject();
    w.member("change", toString(f.change));
    w.member("kind", f.before ? f.before->id : f.after->id);
    w.member("device", f.device);
    w.member("beforeMs", toMs(f.before ? f.before->costNs : 0));
    w.member("afterMs", toMs(f.after ? f.after->costNs : 0));
    w.key("before");
    findingSide(w, f.before);
    w.key("after");
    findingSide(w, f.after);
    // Schema 2: each line of either side, with its calls before and after.
    w.key("sites");
    w.beginArray();
    for (const SiteChange& c : f.sites) {
        w.beginObject();
        w.member("file", c.file);
        w.member("line", std::uint64_t{c.line});
        w.member("function", c.function);
        w.member("lineIs", toString(c.lineIs));
        if (!c.cause.empty())
            w.member("cause", c.cause);
        w.member("callsBefore", static_cast<std::uint64_t>(c.callsBefore));
        w.member("callsAfter", static_cast<std::uint64_t>(c.callsAfter));
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void names(JsonWriter& w, const std::vector<std::string>& list)
{
    w.beginArray();
    for (const std::string& name : list)
        w.value(name);
    w.endArray();
}

} // namespace

std::string traceDiffJson(const TraceDiff& diff, const std::string& beforePath, const std::string& afterPath)
{
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.member("schema", kTraceDiffJsonSchema);
    w.member("before", beforePath);
    w.member("after", afterPath);
    w.key("pairs");
    w.beginArray();
    for (const RunPairDiff& p : diff.pairs) {
        w.beginObject();
        w.member("matchedBy", p.matchedBy);
        w.key("before");
        side(w, p.before);
        w.key("after");
        side(w, p.after);
        w.member("savedMs", toMs(p.savedNs));
        w.member("savedPercent", p.savedPercent);
        w.member("overlapChangePercent", p.after.overlapOfPossiblePercent - p.before.overlapOfPossiblePercent);
        w.key("findings");
        w.beginArray();
        for (const FindingDiff& f : p.findings)
            finding(w, f);
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("onlyBefore");
    names(w, diff.onlyBefore);
    w.key("onlyAfter");
    names(w, diff.onlyAfter);
    w.endObject();
    w.flush();
    out += '\n';
    return out;
}

} // namespace ovs
