#include "lessons/Lesson.h"

#include <algorithm>

namespace ovs {

const LessonRunResult* LessonMeasurements::run(const std::string& stepId) const
{
    for (const auto& r : runs)
        if (r.stepId == stepId)
            return &r;
    return nullptr;
}

const BandwidthSweep* LessonMeasurements::sweep(const std::string& stepId) const
{
    for (const auto& s : sweeps)
        if (s.stepId == stepId)
            return &s.sweep;
    return nullptr;
}

const Lesson* findLesson(const std::string& id)
{
    for (const auto& lesson : lessons())
        if (lesson.id == id)
            return &lesson;
    return nullptr;
}

std::string lessonIds()
{
    std::string ids;
    for (const auto& lesson : lessons())
        ids += (ids.empty() ? "" : ", ") + lesson.id;
    return ids;
}

std::string fillTakeaway(const std::string& text, const std::map<std::string, std::string>& values)
{
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t open = text.find('{', at);
        if (open == std::string::npos) {
            out += text.substr(at);
            break;
        }
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) {
            out += text.substr(at);
            break;
        }
        out += text.substr(at, open - at);
        const auto value = values.find(text.substr(open + 1, close - open - 1));
        out += value != values.end() ? value->second : text.substr(open, close - open + 1);
        at = close + 1;
    }
    return out;
}

namespace {
bool picks(const OpSelector& s, const Run& run, const Op& op)
{
    if (s.kind && op.kind != *s.kind)
        return false;
    if (s.memory && op.memory != *s.memory)
        return false;
    if (s.firstChunk >= 0 && op.chunk < s.firstChunk)
        return false;
    if (s.lastChunk >= 0 && op.chunk > s.lastChunk)
        return false;
    if (!s.laneName.empty()) {
        if (op.lane >= run.lanes.size())
            return false;
        if (run.lanes[op.lane].name.rfind(s.laneName, 0) != 0)
            return false;
    }
    return true;
}
} // namespace

std::vector<ResolvedFocus> resolveFocus(const std::vector<LessonFocus>& focus, const LessonMeasurements& measured)
{
    std::vector<ResolvedFocus> resolved;
    for (const auto& f : focus) {
        ResolvedFocus r;
        r.stepId = f.stepId;
        r.callout = f.callout;
        for (std::size_t i = 0; i < measured.runs.size(); ++i) {
            if (measured.runs[i].stepId != f.stepId)
                continue;
            r.runIndex = static_cast<int>(i);
            const Run& run = measured.runs[i].run;
            for (std::size_t k = 0; k < run.ops.size(); ++k) {
                const Op& op = run.ops[k];
                if (!picks(f.select, run, op))
                    continue;
                r.startNs = r.ops.empty() ? op.startNs : std::min(r.startNs, op.startNs);
                r.endNs = r.ops.empty() ? op.endNs : std::max(r.endNs, op.endNs);
                r.ops.push_back(k);
            }
            break;
        }
        resolved.push_back(std::move(r));
    }
    return resolved;
}

} // namespace ovs
