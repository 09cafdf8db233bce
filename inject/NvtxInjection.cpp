// The NVTX side of liboverlapscope-inject.so. NVTX (the NVTX3 headers
// compiled into a program, and libnvToolsExt alike) loads the library that
// NVTX_INJECTION64_PATH names at the program's first NVTX call and calls its
// InitializeInjectionNvtx2, which fills NVTX's function tables with the
// calls below. `overlapscope-cli profile` points that variable at this
// library, as it points CUDA_INJECTION64_PATH at it (docs/profiling.md,
// "NVTX ranges"). Unhandled NVTX calls (marks, categories, payloads,
// resources) stay no-ops, as without a tool.

#define NVTX_NO_IMPL // the types and ids only: this is the tool, not a user
#include <nvtx3/nvToolsExt.h>

#include "CuptiTracer.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

// The handles NVTX hands back to the program are ours to define.
struct nvtxDomainRegistration_st {
    std::uint32_t id = 0;
};
struct nvtxStringRegistration_st {
    std::string text;
};

namespace {

using ovs::profile::RangeRecord;

std::int64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::uint32_t threadId()
{
    thread_local const auto id = static_cast<std::uint32_t>(::syscall(SYS_gettid));
    return id;
}

// Wide messages (UTF-32 on Linux) as UTF-8; what is no code point becomes '?'.
std::string utf8(const wchar_t* text)
{
    std::string out;
    for (; text && *text; ++text) {
        const auto c = static_cast<std::uint32_t>(*text);
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000 && (c < 0xD800 || c > 0xDFFF)) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c >= 0x10000 && c < 0x110000) {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += '?';
        }
    }
    return out;
}

std::string messageOf(const nvtxEventAttributes_t* attributes)
{
    if (!attributes)
        return {};
    switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return attributes->message.ascii ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE: return utf8(attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
        return attributes->message.registered ? attributes->message.registered->text : std::string();
    default: return {};
    }
}

std::uint32_t domainIdOf(nvtxDomainHandle_t domain) { return domain ? domain->id : 0; }

void record(ovs::profile::RangeAction action, std::uint32_t domain, std::uint64_t rangeId, std::string_view text)
{
    RangeRecord r;
    r.monotonicNs = monotonicNs();
    r.rangeId = rangeId;
    r.threadId = threadId();
    r.domainId = domain;
    r.action = action;
    ovs::inject::CuptiTracer::instance().addRange(r, text);
}

// NVTX hands out range ids; ours are unique in the process, whatever the domain.
std::uint64_t nextRangeId()
{
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// NVTX's return value for a push or pop is the nesting level, or a negative
// number for an error. We keep no stack here (the reader pairs them), and
// no program we know of reads it.
int NVTX_API rangePushA(const char* message)
{
    record(ovs::profile::kRangePush, 0, 0, message ? message : "");
    return 0;
}
int NVTX_API rangePushW(const wchar_t* message)
{
    record(ovs::profile::kRangePush, 0, 0, utf8(message));
    return 0;
}
int NVTX_API rangePushEx(const nvtxEventAttributes_t* attributes)
{
    record(ovs::profile::kRangePush, 0, 0, messageOf(attributes));
    return 0;
}
int NVTX_API rangePop()
{
    record(ovs::profile::kRangePop, 0, 0, {});
    return 0;
}
nvtxRangeId_t NVTX_API rangeStartA(const char* message)
{
    const std::uint64_t id = nextRangeId();
    record(ovs::profile::kRangeStart, 0, id, message ? message : "");
    return id;
}
nvtxRangeId_t NVTX_API rangeStartW(const wchar_t* message)
{
    const std::uint64_t id = nextRangeId();
    record(ovs::profile::kRangeStart, 0, id, utf8(message));
    return id;
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* attributes)
{
    const std::uint64_t id = nextRangeId();
    record(ovs::profile::kRangeStart, 0, id, messageOf(attributes));
    return id;
}
void NVTX_API rangeEnd(nvtxRangeId_t id)
{
    record(ovs::profile::kRangeEnd, 0, id, {});
}

int NVTX_API domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    record(ovs::profile::kRangePush, domainIdOf(domain), 0, messageOf(attributes));
    return 0;
}
int NVTX_API domainRangePop(nvtxDomainHandle_t domain)
{
    record(ovs::profile::kRangePop, domainIdOf(domain), 0, {});
    return 0;
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    const std::uint64_t id = nextRangeId();
    record(ovs::profile::kRangeStart, domainIdOf(domain), id, messageOf(attributes));
    return id;
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
    record(ovs::profile::kRangeEnd, domainIdOf(domain), id, {});
}

// Domains and registered strings live as long as the process: NVTX never
// says when a program is done with a handle (nvtxDomainDestroy aside, and a
// range may still be open in it), and there are few.
nvtxDomainHandle_t NVTX_API domainCreate()
{
    static std::atomic<std::uint32_t> next{1};
    return new nvtxDomainRegistration_st{next.fetch_add(1, std::memory_order_relaxed)};
}
nvtxDomainHandle_t NVTX_API domainCreateA(const char*) { return domainCreate(); }
nvtxDomainHandle_t NVTX_API domainCreateW(const wchar_t*) { return domainCreate(); }
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t, const char* text)
{
    return new nvtxStringRegistration_st{text ? text : ""};
}
nvtxStringHandle_t NVTX_API domainRegisterStringW(nvtxDomainHandle_t, const wchar_t* text)
{
    return new nvtxStringRegistration_st{utf8(text)};
}

template <typename Function>
void install(NvtxFunctionTable table, unsigned int size, unsigned int id, Function function)
{
    if (table && id < size && table[id])
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int NVTX_API InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t getExportTable)
{
    if (!getExportTable)
        return 0;
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) || !callbacks->GetModuleFunctionTable)
        return 0;
    NvtxFunctionTable core = nullptr;
    unsigned int coreSize = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &coreSize) || !core)
        return 0;
    install(core, coreSize, NVTX_CBID_CORE_RangePushA, rangePushA);
    install(core, coreSize, NVTX_CBID_CORE_RangePushW, rangePushW);
    install(core, coreSize, NVTX_CBID_CORE_RangePushEx, rangePushEx);
    install(core, coreSize, NVTX_CBID_CORE_RangePop, rangePop);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartA, rangeStartA);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartW, rangeStartW);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartEx, rangeStartEx);
    install(core, coreSize, NVTX_CBID_CORE_RangeEnd, rangeEnd);
    // The domain calls: NVTX3's C++ API (nvtx3::scoped_range) uses them,
    // with the default domain (a null handle) unless the program names one.
    NvtxFunctionTable core2 = nullptr;
    unsigned int core2Size = 0;
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2Size) && core2) {
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePushEx, domainRangePushEx);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePop, domainRangePop);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeStartEx, domainRangeStartEx);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeEnd, domainRangeEnd);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateA, domainCreateA);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateW, domainCreateW);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringA, domainRegisterStringA);
        install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringW, domainRegisterStringW);
    }
    return 1;
}
