#include "ranks/RanksJson.h"

#include "base/DurationText.h"
#include "io/JsonWriter.h"

namespace ovs {

namespace {

void findingObject(JsonWriter& w, const RankFinding& f)
{
    w.beginObject();
    w.key("kind");
    w.value(findingId(f.kind, f.alsoKinds));
    w.key("costMs");
    w.value(toMs(f.costNs));
    w.key("costSource");
    w.value(f.costSource == CostSource::Replay ? "replay" : "estimate");
    w.key("fix");
    w.value(f.fix);
    w.endObject();
}

void rankObject(JsonWriter& w, const RankFolder& folder, std::size_t i)
{
    const RankSummary& r = folder.ranks[i];
    w.beginObject();
    w.key("label");
    w.value(r.label);
    w.key("rank");
    w.value(r.rank);
    w.key("rankSource");
    w.value(toString(r.rankSource));
    w.key("file");
    w.value(folder.files[r.file].path);
    w.key("run");
    w.value(r.runName);
    w.key("device");
    w.value(r.device);
    w.key("judged");
    w.value(r.judged);
    w.key("steps");
    w.value(r.hasSteps ? r.stepsJudged : 0);
    w.key("stepMedianMs");
    w.value(toMs(r.stepMedianNs));
    w.key("stepSlowestMs");
    w.value(toMs(r.stepSlowestNs));
    w.key("slowestStep");
    w.value(r.slowestStep);
    w.key("gpuBusyPercent");
    w.value(r.gpuBusyPercent);
    w.key("overlapPercent");
    w.value(r.overlapPercent);
    w.key("overlapOfPossiblePercent");
    w.value(r.overlapOfPossiblePercent);
    w.key("bound");
    w.value(r.bound);
    w.key("collectiveMs");
    if (r.collectiveMedianNs >= 0)
        w.value(toMs(r.collectiveMedianNs));
    else
        w.value(nullptr);
    w.key("findings");
    w.beginArray();
    for (const RankFinding& f : r.findings)
        findingObject(w, f);
    w.endArray();
    w.key("clockOffsetMs");
    if (folder.alignment.sharedClock)
        w.value(toMs(folder.alignment.offsetNs[i]));
    else
        w.value(nullptr);
    w.key("straggler");
    w.value(folder.straggler.row == i);
    w.endObject();
}

} // namespace

std::string ranksJson(const RankFolder& folder)
{
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.key("schema");
    w.value(kRanksJsonSchema);
    w.key("kind");
    w.value("ranks");
    w.key("files");
    w.beginArray();
    for (const RankFile& f : folder.files) {
        w.beginObject();
        w.key("path");
        w.value(f.path);
        w.key("error");
        w.value(f.error);
        w.key("notes");
        w.beginArray();
        for (const std::string& note : f.notes)
            w.value(note);
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("ranks");
    w.beginArray();
    for (std::size_t i = 0; i < folder.ranks.size(); ++i)
        rankObject(w, folder, i);
    w.endArray();
    const RankAlignment& a = folder.alignment;
    w.key("alignment");
    w.beginObject();
    w.key("sharedClock");
    w.value(a.sharedClock);
    w.key("why");
    w.value(a.why);
    w.key("stepsCompared");
    w.value(a.stepsCompared);
    w.key("medianSpreadMs");
    w.value(toMs(a.medianSpreadNs));
    w.key("worstSpreadMs");
    w.value(toMs(a.worstSpreadNs));
    w.key("worstStep");
    w.value(a.worstStep);
    w.endObject();
    const RankStraggler& s = folder.straggler;
    w.key("straggler");
    if (s.row) {
        w.beginObject();
        w.key("label");
        w.value(folder.ranks[*s.row].label);
        w.key("by");
        w.value(s.byCollectiveWait ? "collective wait" : "step time");
        w.key("slowerPercent");
        w.value(s.slowerPercent);
        if (s.byCollectiveWait) {
            w.key("waitMs");
            w.value(toMs(s.itsWaitNs));
            w.key("othersWaitMs");
            w.value(toMs(s.othersWaitNs));
            w.key("jobSavingMs");
            w.value(toMs(s.jobSavingNs));
        }
        w.key("finding");
        w.value(s.findingId);
        w.key("extraCostMs");
        w.value(toMs(s.findingExtraNs));
        w.key("fix");
        w.value(s.fix);
        w.endObject();
    } else {
        w.value(nullptr);
    }
    w.key("verdict");
    w.value(s.sentence);
    w.key("notes");
    w.beginArray();
    for (const std::string& note : folder.notes)
        w.value(note);
    w.endArray();
    w.endObject();
    w.flush();
    out += '\n';
    return out;
}

} // namespace ovs
