#pragma once

#include "cupti/Library.h"

#include <cupti_activity.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::cupti {

// The two users of CUPTI, each wanting its own records.
enum class Client : std::uint8_t {
    EngineTiming, // core/cuda: when the engines ran the CUDA device's ops
    Profile,      // inject/: everything a profile of another program shows
};

// How much a client needs a kind of record.
enum class Need : std::uint8_t {
    No,
    // Refused: the client does not start, and nothing it turned on stays on.
    Essential,
    // Refused: said in words, and the client goes on without.
    Optional,
    // Optional, and on only when the client asks for it (an option or
    // environment variable of its own).
    OnRequest,
};

// One kind of activity record: what it is called in words, its token in the
// skip variables (OVERLAPSCOPE_CUPTI_SKIP, OVERLAPSCOPE_PROFILE_SKIP), and
// how much each client needs it.
struct ActivityKind {
    CUpti_ActivityKind kind;
    const char* name;
    const char* token;
    Need engineTiming;
    Need profile;
};

// Every kind either client enables, in the order enabled (and disabled in
// reverse). Never CUPTI_ACTIVITY_KIND_KERNEL: it serializes kernels,
// destroying the overlap being measured; CONCURRENT_KERNEL is the one.
//
// The CUDA device joins a copy or kernel record to its op through the
// runtime call that launched it: CUPTI emits external correlation records
// (our op ids) only for API calls whose records it collects with the RUNTIME
// kind on (switching on single calls without the kind gave none on the
// H200), so the kind is on and the session's client switches the calls that
// enqueue no work off again (CuptiActivityCollector). Driver-API records are
// never needed there (the runtime call carries the correlation); measured on
// the H200 with 1,984 launches in a run (docs/measurements.md) they cost 6
// to 8% of it, so only OVERLAPSCOPE_CUPTI_ALL_API=1 asks for them.
//
// A profile needs kernels and copies; without the rest it is still worth
// having (said in a note). It enables API records call by call instead of
// by kind (the calls that matter for overlap), and its synchronization
// records only with `profile --sync-records` (measured: about 20% on a
// PyTorch loop of 12,000 small ops, docs/profiling.md).
inline constexpr ActivityKind kActivityKinds[] = {
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "external correlation", "correlation", Need::Essential, Need::No},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime API", "runtime", Need::Essential, Need::No},
    {CUPTI_ACTIVITY_KIND_DRIVER, "driver API", "driver", Need::OnRequest, Need::No},
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent kernel", "kernel", Need::Essential, Need::Essential},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy", "memcpy", Need::Essential, Need::Essential},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, "peer-to-peer memcpy", "memcpy2", Need::No, Need::Optional},
    {CUPTI_ACTIVITY_KIND_MEMSET, "memset", "memset", Need::No, Need::Optional},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization", "sync", Need::No, Need::OnRequest},
    {CUPTI_ACTIVITY_KIND_DEVICE, "device", "device", Need::No, Need::Optional},
    {CUPTI_ACTIVITY_KIND_CONTEXT, "context", "context", Need::No, Need::Optional},
    {CUPTI_ACTIVITY_KIND_STREAM, "stream", "stream", Need::No, Need::Optional},
};

// Switches the records of single API calls on or off, beside the kinds:
// each call of `domain` (CUPTI_CB_DOMAIN_RUNTIME_API or _DRIVER_API) whose
// name `chosen` picks. The profile turns on the calls that matter for
// overlap; the CUDA device turns off the runtime calls that enqueue no work.
// Returns how many calls were switched; `failure` gets CUPTI's words for the
// first refusal (a refused call costs tracing overhead or one call's
// records, never the rest).
int switchApiRecords(const Library::Api& api, CUpti_CallbackDomain domain, bool (*chosen)(std::string_view name),
                     bool on, std::string* failure);

// The kinds one client has on, turned on with rollback and off in reverse.
class EnabledKinds {
public:
    // Turns on `client`'s kinds in table order: its OnRequest kinds only
    // when their token is in `requested`, and none whose token is in the
    // environment list `skipVariable` (to measure what each costs; such a
    // kind is said in `warnings`, since a client without it loses records).
    // An essential kind refused turns off, in reverse, every kind turned on
    // here and returns false with CUPTI's words in `whyNot`; an optional one
    // refused is said in `warnings` and the rest go on.
    // `api`: the library's entry points (tests hand in their own).
    bool enable(const Library::Api& api, Client client, const std::vector<std::string_view>& requested,
                const char* skipVariable, std::string* whyNot, std::vector<std::string>* warnings);
    // Best effort, in reverse order: a kind that would not turn off costs
    // only tracing overhead, and callers (destructors, exit) cannot report.
    void disable(const Library::Api& api);
    bool empty() const { return m_on.empty(); }

private:
    std::vector<CUpti_ActivityKind> m_on;
};

} // namespace ovs::cupti
