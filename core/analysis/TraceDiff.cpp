#include "analysis/TraceDiff.h"

#include "analysis/RunAnalysis.h"
#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Saturating.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>

namespace ovs {

namespace {

// "app --fix (pid 42)" -> "app --fix": a profiled process is named after its
// command line and its pid, which differs on every run.
std::string withoutPid(const std::string& name)
{
    const std::size_t open = name.rfind(" (pid ");
    if (open == std::string::npos || name.back() != ')')
        return name;
    const std::string_view digits(name.data() + open + 6, name.size() - open - 7);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return name;
    return name.substr(0, open);
}

// "app --fix (pid 42)" -> "app": the program, whatever its arguments.
std::string programOf(const std::string& name)
{
    const std::string command = withoutPid(name);
    const auto space = std::find_if(command.begin(), command.end(), [](unsigned char c) { return std::isspace(c); });
    return std::string(command.begin(), space);
}

RunSide sideOf(const Run& run, std::size_t index, const RunAnalysis& a)
{
    RunSide s;
    s.index = index;
    s.name = run.name;
    s.device = run.device.label();
    s.status = run.status;
    s.wallNs = spanNs(a.judged.span.beginNs, a.judged.span.endNs); // what analyze judged (JudgedSpan.h)
    s.judgedBeginNs = a.judged.span.beginNs;
    s.activeNs = a.findings.activeNs;
    s.overlapNs = a.metrics.copyWithKernelNs;
    s.overlapPossibleNs = a.metrics.overlapPossibleNs;
    s.overlapOfPossiblePercent = a.metrics.overlapOfPossiblePercent;
    s.h2dWithD2hNs = a.metrics.h2dWithD2hNs;
    s.hostStagingNs = a.metrics.staging.busyNs;
    s.devices = a.findings.devices;
    if (a.findings.whatIf.replayed)
        s.allFixesSpanNs = a.findings.whatIf.allFixesSpanNs;
    return s;
}

FindingSide findingSide(const Finding& f)
{
    return {findingId(f), findingWords(f), f.costNs, f.costSource, f.opCount, f.cause, f.costRate, f.sources};
}

bool sameSite(const FindingSource& x, const FindingSource& y)
{
    return x.file == y.file && x.line == y.line && x.function == y.function;
}

bool sharesASite(const Finding& a, const Finding& b)
{
    return std::any_of(a.sources.begin(), a.sources.end(), [&](const FindingSource& s) {
        return std::any_of(b.sources.begin(), b.sources.end(), [&](const FindingSource& t) { return sameSite(s, t); });
    });
}

// Each line of either side with its calls before and after.
std::vector<SiteChange> siteChanges(const std::optional<FindingSide>& before, const std::optional<FindingSide>& after)
{
    std::vector<SiteChange> sites;
    const auto add = [&](const FindingSource& s, bool isBefore) {
        auto it = std::find_if(sites.begin(), sites.end(), [&](const SiteChange& c) {
            return c.file == s.file && c.line == s.line && c.function == s.function && c.cause == s.cause;
        });
        if (it == sites.end())
            it = sites.insert(sites.end(), SiteChange{s.file, s.line, s.function, s.lineIs, s.cause, 0, 0});
        (isBefore ? it->callsBefore : it->callsAfter) = s.calls;
    };
    if (before)
        for (const FindingSource& s : before->sources)
            add(s, true);
    if (after)
        for (const FindingSource& s : after->sources)
            add(s, false);
    return sites;
}

bool sharesAKind(const Finding& a, const Finding& b)
{
    const auto has = [](const Finding& f, FindingKind k) {
        return f.kind == k || std::find(f.alsoKinds.begin(), f.alsoKinds.end(), k) != f.alsoKinds.end();
    };
    if (has(b, a.kind))
        return true;
    return std::any_of(a.alsoKinds.begin(), a.alsoKinds.end(), [&](FindingKind k) { return has(b, k); });
}

// Before's and after's findings paired: the same kinds on the same device
// first, then any that share a kind there (a combined finding that lost or
// gained a part is the same cause, changed); the rest resolved or new.
std::vector<FindingDiff> pairFindings(const std::vector<Finding>& before, const std::vector<Finding>& after)
{
    std::vector<FindingDiff> out;
    std::vector<bool> usedBefore(before.size()), usedAfter(after.size());
    const auto pass = [&](const std::function<bool(const Finding&, const Finding&)>& same) {
        for (std::size_t b = 0; b < before.size(); ++b)
            for (std::size_t a = 0; a < after.size() && !usedBefore[b]; ++a)
                if (!usedAfter[a] && before[b].device == after[a].device && same(before[b], after[a])) {
                    usedBefore[b] = usedAfter[a] = true;
                    out.push_back({FindingChange::Changed, before[b].device, findingSide(before[b]),
                                   findingSide(after[a]), {}});
                }
    };
    // The same kind at the same line first: where a kind is found more than
    // once, its findings pair by where their calls came from.
    pass([](const Finding& b, const Finding& a) { return findingId(b) == findingId(a) && sharesASite(b, a); });
    pass([](const Finding& b, const Finding& a) { return findingId(b) == findingId(a); });
    pass(sharesAKind);
    for (std::size_t b = 0; b < before.size(); ++b)
        if (!usedBefore[b])
            out.push_back({FindingChange::Resolved, before[b].device, findingSide(before[b]), std::nullopt, {}});
    for (std::size_t a = 0; a < after.size(); ++a)
        if (!usedAfter[a])
            out.push_back({FindingChange::New, after[a].device, std::nullopt, findingSide(after[a]), {}});

    for (FindingDiff& d : out)
        d.sites = siteChanges(d.before, d.after);

    const auto isBound = [](const FindingDiff& d) {
        const FindingSide& s = d.before ? *d.before : *d.after;
        return s.id == kindId(FindingKind::Bound);
    };
    const auto largest = [](const FindingDiff& d) {
        return std::max(d.before ? d.before->costNs : 0, d.after ? d.after->costNs : 0);
    };
    std::stable_sort(out.begin(), out.end(), [&](const FindingDiff& x, const FindingDiff& y) {
        if (isBound(x) != isBound(y))
            return isBound(y);
        return largest(x) > largest(y);
    });
    return out;
}

} // namespace

const char* toString(FindingChange change)
{
    switch (change) {
    case FindingChange::Resolved: return "resolved";
    case FindingChange::New: return "new";
    case FindingChange::Changed: return "changed";
    }
    return "?";
}

RunMatching matchRuns(const Trace& before, const Trace& after)
{
    RunMatching m;
    std::vector<bool> pairedBefore(before.runs.size()), pairedAfter(after.runs.size());
    const auto pass = [&](const std::function<std::string(const std::string&)>& key, const char* by) {
        for (std::size_t b = 0; b < before.runs.size(); ++b)
            for (std::size_t a = 0; a < after.runs.size() && !pairedBefore[b]; ++a)
                if (!pairedAfter[a] && key(before.runs[b].name) == key(after.runs[a].name)) {
                    pairedBefore[b] = pairedAfter[a] = true;
                    m.pairs.push_back({b, a, by});
                }
    };
    pass([](const std::string& name) { return name; }, "name");
    pass(withoutPid, "name without pid");
    pass(programOf, "program");
    if (m.pairs.empty() && before.runs.size() == 1 && after.runs.size() == 1) {
        m.pairs.push_back({0, 0, "only runs"});
        pairedBefore[0] = pairedAfter[0] = true;
    }
    std::sort(m.pairs.begin(), m.pairs.end(), [](const RunMatch& x, const RunMatch& y) { return x.before < y.before; });
    for (std::size_t b = 0; b < pairedBefore.size(); ++b)
        if (!pairedBefore[b])
            m.onlyBefore.push_back(b);
    for (std::size_t a = 0; a < pairedAfter.size(); ++a)
        if (!pairedAfter[a])
            m.onlyAfter.push_back(a);
    return m;
}

std::optional<std::size_t> selectRun(const Trace& trace, const std::string& selector, std::string* why)
{
    const auto fail = [&](const std::string& reason) -> std::optional<std::size_t> {
        if (why)
            *why = reason;
        return std::nullopt;
    };
    const auto named = [&](const std::function<std::string(const std::string&)>& key) {
        std::vector<std::size_t> found;
        for (std::size_t i = 0; i < trace.runs.size(); ++i)
            if (key(trace.runs[i].name) == selector)
                found.push_back(i);
        return found;
    };
    // A name first: a run may be called "2".
    for (const auto& key : {std::function<std::string(const std::string&)>([](const std::string& n) { return n; }),
                            std::function<std::string(const std::string&)>(withoutPid)}) {
        const std::vector<std::size_t> found = named(key);
        if (found.size() == 1)
            return found.front();
        if (found.size() > 1)
            return fail(std::to_string(found.size()) + " runs are named so: give its position (1 to "
                        + std::to_string(trace.runs.size()) + ")");
    }
    std::size_t position = 0;
    const char* end = selector.data() + selector.size();
    const auto [ptr, ec] = std::from_chars(selector.data(), end, position);
    if (ec == std::errc() && ptr == end && !selector.empty()) {
        if (position >= 1 && position <= trace.runs.size())
            return position - 1;
        return fail("there is no run " + selector + ": the trace holds " + std::to_string(trace.runs.size()) + " run"
                    + (trace.runs.size() == 1 ? "" : "s"));
    }
    return fail("no run is named so (give a name, or a position from 1 to " + std::to_string(trace.runs.size()) + ")");
}

TraceDiff diffTraces(const Trace& before, const Trace& after, const RunMatching& matching,
                     const AnalysisOptions& options)
{
    TraceDiff diff;
    // Each run against its own trace's baseline and sweeps, as `analyze` of
    // that trace alone judges it.
    const auto analyse = [&](const Trace& trace, std::size_t i) {
        const Run& run = trace.runs[i];
        return analyzeRun(run, trace.sweeps, findSerializedBaseline(trace.runs, run), options);
    };
    for (const RunMatch& match : matching.pairs) {
        if (match.before >= before.runs.size() || match.after >= after.runs.size())
            continue;
        const RunAnalysis b = analyse(before, match.before);
        const RunAnalysis a = analyse(after, match.after);
        RunPairDiff pair;
        pair.before = sideOf(before.runs[match.before], match.before, b);
        pair.after = sideOf(after.runs[match.after], match.after, a);
        pair.matchedBy = match.by;
        pair.findings = pairFindings(b.findings.findings, a.findings.findings);
        pair.savedNs = saturatingSub(pair.before.activeNs, pair.after.activeNs);
        pair.savedPercent = pair.before.activeNs > 0
                                ? 100.0 * static_cast<double>(pair.savedNs) / static_cast<double>(pair.before.activeNs)
                                : 0.0;
        diff.pairs.push_back(std::move(pair));
    }
    for (std::size_t i : matching.onlyBefore)
        if (i < before.runs.size())
            diff.onlyBefore.push_back(before.runs[i].name);
    for (std::size_t i : matching.onlyAfter)
        if (i < after.runs.size())
            diff.onlyAfter.push_back(after.runs[i].name);
    return diff;
}

std::string savedSentence(const RunPairDiff& pair)
{
    const double ms = toMs(pair.savedNs);
    if (pair.savedNs >= 0)
        return "saved " + millisecondsText(ms, 3) + formatted(" (%.1f%%) of the active span", pair.savedPercent);
    return "lost " + millisecondsText(-ms, 3) + formatted(" (%.1f%%) of the active span", -pair.savedPercent);
}

} // namespace ovs
