#include "CliCommon.h"
#include "Commands.h"
#include "ConsoleReport.h"
#include "ExitStatus.h"

#include "base/DurationText.h"
#include "analysis/TraceDiff.h"
#include "json/TraceDiffJson.h"
#include "base/Printable.h"
#include "base/ShortenedText.h"
#include "formats/TraceJson.h"
#include "trace/SourceSite.h"

#include <cstdio>
#include <functional>
#include <set>

namespace ovs::cli {

namespace {

// Text from a trace as the terminal shows it (see makePrintable).
std::string shown(const std::string& text)
{
    return printable(shortenedText(text));
}

std::string percent(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.0f%%", value);
    return text;
}

void row(const std::string& what, std::int64_t before, std::int64_t after)
{
    std::printf("| %s | %s | %s | %s |\n", what.c_str(), msNumber(before).c_str(), msNumber(after).c_str(),
                signedMsNumber(after - before).c_str());
}

const DeviceActivity* deviceOf(const RunSide& side, int device)
{
    for (const DeviceActivity& d : side.devices)
        if (d.device == device)
            return &d;
    return nullptr;
}

std::string costText(const std::optional<FindingSide>& f)
{
    if (!f)
        return "-";
    return msNumber(f->costNs) + " ms (" + (f->costSource == CostSource::Replay ? "replay" : "estimate")
           + (f->costRate.empty() ? "" : ", " + f->costRate) + ")";
}

// "  at train.py:42 in train_step, .item() ...: 8 calls -> none (gone)": each line the
// finding's calls came from, on either side.
void printSites(const FindingDiff& f)
{
    const auto calls = [](std::size_t n) { return n == 0 ? std::string("none") : std::to_string(n) + (n == 1 ? " call" : " calls"); };
    for (const SiteChange& c : f.sites) {
        const char* change = c.callsAfter == 0 ? " (gone)" : c.callsBefore == 0 ? " (new)" : "";
        // As analyze says it.
        const std::string place = sitePlaceText(c.file, c.line, c.function, c.lineIs);
        std::printf("  %s%s%s: %s -> %s%s\n", shown(place).c_str(), c.cause.empty() ? "" : ", ", shown(c.cause).c_str(),
                    calls(c.callsBefore).c_str(), calls(c.callsAfter).c_str(), change);
    }
}

void printPair(const RunPairDiff& p)
{
    std::printf("\n## %s -> %s (%s)\n", shown(p.before.name).c_str(), shown(p.after.name).c_str(),
                p.matchedBy == "chosen" ? "chosen with --run" : ("paired by " + p.matchedBy).c_str());
    std::printf("%s: %s ms -> %s ms\n", savedSentence(p).c_str(), msNumber(p.before.activeNs).c_str(),
                msNumber(p.after.activeNs).c_str());
    std::printf("| ms | before | after | change |\n|---|---:|---:|---:|\n");
    row("wall (judged span)", p.before.wallNs, p.after.wallNs);
    row("active span (first GPU work to last)", p.before.activeNs, p.after.activeNs);
    row("copies with kernels (overlap achieved)", p.before.overlapNs, p.after.overlapNs);
    row("overlap possible (shorter of copy and kernel busy)", p.before.overlapPossibleNs, p.after.overlapPossibleNs);
    std::printf("| overlap achieved of possible | %s | %s | %+.0f points |\n",
                percent(p.before.overlapOfPossiblePercent).c_str(), percent(p.after.overlapOfPossiblePercent).c_str(),
                p.after.overlapOfPossiblePercent - p.before.overlapOfPossiblePercent);
    row("H2D with D2H", p.before.h2dWithD2hNs, p.after.h2dWithD2hNs);
    if (p.before.hostStagingNs > 0 || p.after.hostStagingNs > 0)
        row("host staging", p.before.hostStagingNs, p.after.hostStagingNs);
    // Each device's engines, by ordinal: either run may lack one.
    std::set<int> devices;
    for (const RunSide* s : {&p.before, &p.after})
        for (const DeviceActivity& d : s->devices)
            devices.insert(d.device);
    const DeviceActivity none;
    for (int device : devices) {
        const DeviceActivity* b = deviceOf(p.before, device);
        const DeviceActivity* a = deviceOf(p.after, device);
        const std::string label = shown((b ? b : a)->label) + ": ";
        const DeviceActivity& bb = b ? *b : none;
        const DeviceActivity& aa = a ? *a : none;
        for (const auto& [what, field] :
             {std::pair<const char*, std::int64_t DeviceActivity::*>{"H2D busy", &DeviceActivity::h2dNs},
              {"D2H busy", &DeviceActivity::d2hNs},
              {"device copies busy", &DeviceActivity::deviceCopyNs},
              {"kernels busy", &DeviceActivity::computeNs},
              {"memsets busy", &DeviceActivity::memsetNs},
              {"GPU idle", &DeviceActivity::idleNs}})
            if (bb.*field > 0 || aa.*field > 0 || field == &DeviceActivity::idleNs) // engines unused on both sides: no row
                row(label + what, bb.*field, aa.*field);
    }
    if (p.before.allFixesSpanNs >= 0 || p.after.allFixesSpanNs >= 0)
        std::printf("| active span with every fix (replay) | %s | %s | |\n",
                    p.before.allFixesSpanNs >= 0 ? msNumber(p.before.allFixesSpanNs).c_str() : "-",
                    p.after.allFixesSpanNs >= 0 ? msNumber(p.after.allFixesSpanNs).c_str() : "-");
    std::printf("Findings (cost before -> after; docs/profiling.md explains each):\n");
    for (const FindingDiff& f : p.findings) {
        const FindingSide& named = f.before ? *f.before : *f.after;
        std::string words = named.words;
        if (f.before && f.after && f.before->id != f.after->id)
            words += " (now " + f.after->words + ")";
        std::printf("- %s: %s: %s -> %s\n", toString(f.change), words.c_str(), costText(f.before).c_str(),
                    costText(f.after).c_str());
        printSites(f);
    }
}

// `--run A --run B`: the one option given twice (before's, then after's),
// so it is taken out before the others are read.
std::vector<std::string> takeRunOptions(std::vector<std::string>& args)
{
    std::vector<std::string> runs;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--run") {
            if (i + 1 >= args.size())
                throw UsageError("option --run needs a value");
            runs.push_back(args[++i]);
        } else if (args[i].starts_with("--run=")) {
            runs.push_back(args[i].substr(6));
        } else {
            rest.push_back(args[i]);
        }
    }
    args = std::move(rest);
    return runs;
}

std::string runList(const Trace& trace)
{
    std::string list;
    for (std::size_t i = 0; i < trace.runs.size() && i < 8; ++i)
        list += (i ? ", " : "") + std::to_string(i + 1) + " '" + echoed(trace.runs[i].name, 60) + "'";
    if (trace.runs.size() > 8)
        list += ", ...";
    return list.empty() ? "none" : list;
}

} // namespace

int commandDiff(std::vector<std::string> rawArgs, const CancelFlag& cancel)
{
    const std::vector<std::string> runs = takeRunOptions(rawArgs);
    const CliArgs args(rawArgs, kValueOptions, kFlagOptions);
    if (args.has("--help") || args.has("-h")) {
        std::fputs(usage().c_str(), stdout);
        return kExitOk;
    }
    if (args.positionals().size() != 2)
        throw UsageError("diff needs two traces: BEFORE AFTER");
    if (!runs.empty() && runs.size() != 2)
        throw UsageError("--run is given twice or not at all: --run A (of BEFORE) --run B (of AFTER)");
    const std::string& beforePath = args.positionals()[0];
    const std::string& afterPath = args.positionals()[1];
    const AnalysisOptions options = analysisOptions(args);
    Trace beforeTrace = readTrace(beforePath, args, cancel);
    Trace afterTrace = readTrace(afterPath, args, cancel);

    RunMatching matching;
    if (!runs.empty()) {
        std::string why;
        const auto b = selectRun(beforeTrace, runs[0], &why);
        if (!b)
            throw UsageError("--run " + echoed(runs[0]) + " in " + echoed(beforePath) + ": " + why);
        const auto a = selectRun(afterTrace, runs[1], &why);
        if (!a)
            throw UsageError("--run " + echoed(runs[1]) + " in " + echoed(afterPath) + ": " + why);
        matching.pairs.push_back({*b, *a, "chosen"});
    } else {
        matching = matchRuns(beforeTrace, afterTrace);
        if (matching.pairs.empty())
            throw UsageError("no run of the two traces pairs by name: choose them with --run A --run B (before: "
                             + runList(beforeTrace) + "; after: " + runList(afterTrace) + ")");
    }
    const TraceDiff diff = diffTraces(beforeTrace, afterTrace, matching, options);
    if (args.has("--json")) {
        const std::string json = traceDiffJson(diff, beforePath, afterPath);
        std::fwrite(json.data(), 1, json.size(), stdout);
        return kExitOk;
    }
    std::printf("Before: %s\nAfter:  %s\n", echoed(beforePath).c_str(), echoed(afterPath).c_str());
    for (const RunPairDiff& p : diff.pairs)
        printPair(p);
    for (const auto& [which, names] : {std::pair{"before", &diff.onlyBefore}, std::pair{"after", &diff.onlyAfter}})
        for (const std::string& name : *names)
            std::printf("\nOnly in %s: %s (no run of the other trace pairs with it)\n", which, shown(name).c_str());
    return kExitOk;
}

} // namespace ovs::cli
