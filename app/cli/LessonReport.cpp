#include "LessonReport.h"

#include "ConsoleReport.h"

#include "base/DurationText.h"
#include "base/Printable.h"

#include <string>

namespace ovs::cli {

namespace {


std::string pctText(double p)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", p);
    return text;
}

// Words wrapped at `width` columns, each line indented.
void printWrapped(std::FILE* out, const std::string& text, std::size_t width, const char* indent)
{
    std::string line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(at, end - at);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            std::fprintf(out, "%s%s\n", indent, line.c_str());
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        at = end + 1;
    }
    if (!line.empty())
        std::fprintf(out, "%s%s\n", indent, line.c_str());
}

std::string choiceText(const Lesson& lesson, const std::string& id)
{
    for (const auto& c : lesson.question.choices)
        if (c.id == id)
            return c.id + ") " + c.text;
    return id;
}

struct RunRow {
    std::string wall, overlap, both, bound, distance, verified;
};

RunRow rowOf(const LessonRunResult& r)
{
    RunRow row;
    const bool done = r.run.status == RunStatus::Completed;
    row.wall = done ? msNumber(r.run.wallNs(), 2) : toString(r.run.status);
    row.overlap = done ? pctText(r.analysis.metrics.overlapPercent) : "-";
    row.both = done ? pctText(r.analysis.metrics.h2dWithD2hPercent) : "-";
    // The pipeline model's bound (a lesson runs our pipelines).
    const Verdict& v = r.analysis.findings.verdict;
    row.bound = done && v.pipeline && v.boundNs > 0 ? msNumber(v.boundNs, 2) + " " + toString(v.binding()) : "-";
    char distance[32];
    std::snprintf(distance, sizeof distance, "%.2fx", v.distance);
    row.distance = done && v.pipeline && v.distance > 0 ? distance : "-";
    row.verified = r.run.verification.passed ? "yes" : "NO";
    return row;
}

} // namespace

void printLessonList(std::FILE* out)
{
    for (const auto& lesson : lessons())
        std::fprintf(out, "%2d  %-24s %s\n", lesson.number, lesson.id.c_str(), lesson.title.c_str());
}

void printLessonIntro(std::FILE* out, const Lesson& lesson, const DeviceInfo& device)
{
    std::fprintf(out, "Lesson %d of %zu: %s (%s)\n", lesson.number, lessons().size(), lesson.title.c_str(),
                 lesson.id.c_str());
    std::fprintf(out, "Device: %s%s\n\n", printable(device.label()).c_str(),
                 device.simulated ? " (no CUDA GPU here, or asked for: every figure below is SIMULATED)" : "");
    printWrapped(out, lesson.explanation, 96, "  ");
    std::fprintf(out, "\nPredict: %s\n", lesson.question.text.c_str());
    for (const auto& c : lesson.question.choices)
        std::fprintf(out, "  %s) %s\n", c.id.c_str(), c.text.c_str());
    std::fputc('\n', out);
}

void printLessonResult(std::FILE* out, const Lesson& lesson, const LessonResult& result)
{
    if (!result.calibration.empty()) {
        const Run& c = result.calibration.front();
        std::fprintf(out, "Calibration: %d chunks of %s, one kernel pass: sized the lesson's kernels for this device\n\n",
                     c.params.chunks, std::to_string(c.params.chunkBytes >> 20).append(" MiB").c_str());
    }
    if (!result.measured.runs.empty()) {
        std::fprintf(out, "%-14s %-58s %10s %8s %8s %20s %8s %6s\n", "step", "run", "wall ms", "overlap", "H2D+D2H",
                     "bound ms", "of bound", "verif.");
        for (const auto& r : result.measured.runs) {
            const RunRow row = rowOf(r);
            const std::string& caption = r.caption;
            std::fprintf(out, "%-14s %-58s %10s %8s %8s %20s %8s %6s\n", r.stepId.c_str(), caption.c_str(),
                         row.wall.c_str(), row.overlap.c_str(), row.both.c_str(), row.bound.c_str(),
                         row.distance.c_str(), row.verified.c_str());
        }
        std::fprintf(out, "(overlap: copy time during which a kernel ran; H2D+D2H: copy time with both directions "
                          "at once; bound: the fastest the run could go at the measured rates)\n\n");
    }
    for (const auto& s : result.measured.sweeps) {
        std::fprintf(out, "%s:\n", s.caption.c_str());
        printBandwidthTable(out, s.sweep);
        std::fputc('\n', out);
    }
    if (!result.focus.empty()) {
        std::fprintf(out, "What to look at:\n");
        for (const auto& f : result.focus) {
            if (f.runIndex < 0 || f.ops.empty()) {
                std::fprintf(out, "  - %s: %s (not in this recording)\n", f.stepId.c_str(), f.callout.c_str());
                continue;
            }
            std::fprintf(out, "  - %s, %s .. %s ms, %zu ops: %s\n", f.stepId.c_str(), msNumber(f.startNs, 2).c_str(),
                         msNumber(f.endNs, 2).c_str(), f.ops.size(), f.callout.c_str());
        }
        std::fputc('\n', out);
    }
    if (!result.judged) {
        std::fprintf(out, "%s\n", printable(result.notJudged).c_str());
        return;
    }
    std::fprintf(out, "Answer: %s\n  because %s\n", choiceText(lesson, result.verdict.answer).c_str(),
                 result.verdict.why.c_str());
    std::fprintf(out, "Checks (%d of %zu held%s):\n", result.checksHeld(), result.verdict.checks.size(),
                 result.device.simulated ? ", simulated" : "");
    for (const auto& c : result.verdict.checks)
        std::fprintf(out, "  [%s] %s: %s\n", c.held ? "held" : "NOT HELD", c.expectation.c_str(), c.measured.c_str());
    std::fprintf(out, "\nTakeaway:\n");
    printWrapped(out, printable(result.takeaway), 96, "  ");
}

void printLessonMarkdown(std::FILE* out, const Lesson& lesson, const LessonResult& result)
{
    std::fprintf(out, "<!-- lesson %s on %s -->\n", lesson.id.c_str(), printable(result.device.label()).c_str());
    std::fprintf(out, "| step | run | wall ms (sweeps: GB/s) | overlap | bound ms | of bound |\n|---|---|---:|---:|---:|---:|\n");
    for (const auto& r : result.measured.runs) {
        const RunRow row = rowOf(r);
        const std::string& caption = r.caption;
        std::fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", r.stepId.c_str(), caption.c_str(), row.wall.c_str(),
                     row.overlap.c_str(), row.bound.c_str(), row.distance.c_str());
    }
    for (const auto& s : result.measured.sweeps)
        for (const auto& p : s.sweep.points) {
            char rate[32];
            std::snprintf(rate, sizeof rate, "%.2f GB/s", p.gbps);
            std::fprintf(out, "| %s | %s %s %s MiB | %s | | | |\n", s.stepId.c_str(), toString(p.memory),
                         printable(p.direction).c_str(), std::to_string(p.bytes >> 20).c_str(), rate);
        }
    if (result.judged) {
        std::fprintf(out, "\nAnswer: %s (%s). Checks held: %d of %zu.\n\n", choiceText(lesson, result.verdict.answer).c_str(),
                     result.verdict.why.c_str(), result.checksHeld(), result.verdict.checks.size());
        for (const auto& c : result.verdict.checks)
            std::fprintf(out, "- %s %s: %s\n", c.held ? "held:" : "NOT HELD:", c.expectation.c_str(), c.measured.c_str());
        std::fprintf(out, "\nTakeaway: %s\n", printable(result.takeaway).c_str());
    } else {
        std::fprintf(out, "\n%s\n", printable(result.notJudged).c_str());
    }
}

} // namespace ovs::cli
