#include "findings/FindingSources.h"

#include "base/Thresholds.h"
#include "facts/RunIndex.h"
#include "findings/TorchSyncCauses.h"
#include "trace/ApiNames.h"
#include "trace/CorrelationMap.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ovs {

namespace {

using thresholds::kMaxFindingSources;
using thresholds::kSameOpCallsBack;

// The run's host calls and GPU ops by correlation: the index's, found once
// for every analysis (facts/RunIndex.h).
struct Calls {
    explicit Calls(const RunIndex& index) : callOf(index.callOf()), gpuOf(index.gpuOpOf()) {}
    const CorrelationMap& callOf;
    const CorrelationMap& gpuOf;
};

// Which way the copy of the aten op around `call` went: the call itself or
// one of the calls just before it in the same aten op (a synchronize after
// its copy) is a copy whose GPU op says.
void copyDirection(const Run& run, const Calls& calls, std::uint32_t call, TorchCallFacts& facts)
{
    const OpSource* source = run.sourceOf(call);
    for (std::size_t back = 0; back <= kSameOpCallsBack && back <= call; ++back) {
        const std::uint32_t i = call - static_cast<std::uint32_t>(back);
        const Op& op = run.ops[i];
        const OpSource* other = run.sourceOf(i);
        if (op.lane != run.ops[call].lane || !other || !source || other->op != source->op)
            return;
        if (apiRole(apiDisplayName(run.nameOf(op))) != ApiRole::Copy)
            continue;
        const std::uint32_t gpu = calls.gpuOf.find(op.correlation);
        if (gpu == CorrelationMap::kNone)
            continue;
        const Op& copy = run.ops[gpu];
        facts.download = copy.kind == OpKind::Download;
        facts.upload = copy.kind == OpKind::Upload;
        facts.pageableHost = copy.memory == HostMemoryKind::Pageable;
        return;
    }
}


void attachTo(const Run& run, const Calls& calls, bool torch, Finding& f)
{
    // The host calls of the finding's ops, each once.
    std::vector<std::uint32_t> hostCalls;
    for (std::uint32_t i : f.ops) {
        if (i >= run.ops.size())
            continue;
        const Op& op = run.ops[i];
        // A host op is a call itself (ApiCall from Kineto; Sync, Alloc, ... from a profile).
        std::uint32_t call = !isStreamLaneOp(op.kind) ? i : calls.callOf.find(op.correlation);
        // A GPU op recorded in process (our pipelines: Recorder::at) has no
        // call op: it carries its call's line itself.
        if (call == CorrelationMap::kNone && run.sourceOf(i))
            call = i;
        if (call != CorrelationMap::kNone)
            hostCalls.push_back(call);
    }
    std::sort(hostCalls.begin(), hostCalls.end());
    hostCalls.erase(std::unique(hostCalls.begin(), hostCalls.end()), hostCalls.end());

    // By line and PyTorch cause: a function's .item() and its .tolist() are
    // two lines to change, even where the trace names only the function.
    std::map<std::pair<std::uint32_t, TorchSyncCause>, std::vector<std::uint32_t>> bySite; // the calls
    std::map<std::pair<std::uint32_t, TorchSyncCause>, std::size_t> byOp;
    for (std::uint32_t call : hostCalls) {
        // A call with nothing around it still has a cause in a PyTorch run
        // (a device synchronize outside any aten op).
        const OpSource none;
        const OpSource* known = run.sourceOf(call);
        const OpSource* source = known ? known : &none;
        TorchSyncCause cause = TorchSyncCause::None;
        if (torch) {
            TorchCallFacts facts;
            facts.atenOp = source->op < run.names.size() ? std::string_view(run.names[source->op]) : "";
            facts.called = source->called < run.names.size() ? std::string_view(run.names[source->called]) : "";
            facts.apiCall = apiDisplayName(run.nameOf(run.ops[call]));
            copyDirection(run, calls, call, facts);
            cause = torchSyncCause(facts);
        }
        if (run.siteAt(source->site))
            bySite[{source->site, cause}].push_back(call);
        if (source->op != 0 || cause != TorchSyncCause::None)
            ++byOp[{source->op, cause}];
    }

    for (const auto& [key, siteCalls] : bySite) {
        const SourceSite& site = *run.siteAt(key.first);
        std::vector<std::uint32_t> ops = siteCalls;
        for (std::uint32_t call : siteCalls)
            if (const std::uint32_t gpu = calls.gpuOf.find(run.ops[call].correlation); gpu != CorrelationMap::kNone)
                ops.push_back(gpu);
        std::sort(ops.begin(), ops.end());
        ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
        f.sources.push_back({site.file, site.line, site.function, site.lineIs, siteCalls.size(),
                             torchCauseWords(key.second), std::move(ops)});
    }
    std::stable_sort(f.sources.begin(), f.sources.end(), [](const FindingSource& x, const FindingSource& y) {
        return std::tie(y.calls, x.file, x.line, x.cause) < std::tie(x.calls, y.file, y.line, y.cause);
    });
    if (f.sources.size() > kMaxFindingSources)
        f.sources.resize(kMaxFindingSources);

    // The aten ops of named causes; where none is named, the ops themselves
    // (a trace without stacks still says which aten op made the calls).
    const bool named = std::any_of(byOp.begin(), byOp.end(),
                                   [](const auto& entry) { return entry.first.second != TorchSyncCause::None; });
    for (const auto& [key, count] : byOp) {
        const auto& [op, cause] = key;
        if (named && cause == TorchSyncCause::None)
            continue;
        f.torchOps.push_back({op < run.names.size() ? run.names[op] : std::string(), torchCauseWords(cause),
                              torchCauseFix(cause), count});
    }
    // Most calls first.
    std::stable_sort(f.torchOps.begin(), f.torchOps.end(), [](const FindingTorchOp& x, const FindingTorchOp& y) {
        return std::tuple(x.cause.empty(), y.calls, x.op) < std::tuple(y.cause.empty(), x.calls, y.op);
    });
    if (f.torchOps.size() > kMaxFindingSources)
        f.torchOps.resize(kMaxFindingSources);

    if (torch && !run.stacksRecorded && !f.torchOps.empty())
        f.sourcesNote = "the trace has no call stacks: record them with torch.profiler.profile(with_stack=True) "
                        "to see the lines";
    else if (run.stacksRecorded && !hostCalls.empty() && f.sources.empty())
        f.sourcesNote = "none of its calls has the program's own code on its stack";
}

} // namespace

void attachSources(const RunIndex& index, std::vector<Finding>& findings)
{
    const Run& run = index.run();
    if (run.opSources.empty() && !run.stacksRecorded)
        return;
    const Calls calls(index);
    // Kineto traces: their aten ops name PyTorch's calls.
    const bool torch = run.pipeline == "pytorch";
    for (Finding& f : findings)
        if (!f.ops.empty())
            attachTo(run, calls, torch, f);
}

} // namespace ovs
