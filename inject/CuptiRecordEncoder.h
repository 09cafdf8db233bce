#pragma once

#include "cupti/GpuActivity.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamEncoder.h"

#include <cupti.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ovs::inject {

// Turns CUPTI activity records into the record stream's (ProfileRecord.h):
// GPU work through the CUPTI module's decoder (cupti/GpuActivityDecoder.h),
// API calls, synchronizations, devices, contexts and streams read here. Names
// (kernels, API calls, threads) go into the stream once, as string records,
// and are referred to by id after that.
//
// Not thread-safe: the tracer calls it under its stream lock.
class CuptiRecordEncoder {
public:
    // How API calls are named: CUPTI's cuptiGetCallbackName.
    using CallbackName = decltype(&::cuptiGetCallbackName);
    explicit CuptiRecordEncoder(CallbackName callbackName) : m_callbackName(callbackName) {}

    // Appends what `record` says to `out`; records of no interest add nothing.
    void encode(const CUpti_Activity& record, profile::ProfileStreamEncoder& out);
    // GPU records CUPTI handed over without times (cupti/Timing.h), so far.
    std::uint64_t untimed() const { return m_untimed; }

private:
    void encodeGpuWork(const cupti::GpuActivity& work, profile::ProfileStreamEncoder& out);
    void encodeApi(const CUpti_ActivityAPI& a, std::uint8_t domain, profile::ProfileStreamEncoder& out);
    void encodeSync(const CUpti_ActivitySynchronization2& s, profile::ProfileStreamEncoder& out);
    void encodeUnifiedMemory(const CUpti_ActivityUnifiedMemoryCounter3& u, profile::ProfileStreamEncoder& out);
    void encodeDevice(const CUpti_ActivityDevice5& d, profile::ProfileStreamEncoder& out);
    std::uint32_t intern(std::string_view text, profile::ProfileStreamEncoder& out);
    std::uint32_t kernelName(const char* mangled, profile::ProfileStreamEncoder& out);
    std::uint32_t apiName(std::uint8_t domain, std::uint32_t callbackId, profile::ProfileStreamEncoder& out);
    void noteThread(std::uint32_t threadId, profile::ProfileStreamEncoder& out);

    CallbackName m_callbackName;
    std::uint64_t m_untimed = 0;
    std::uint32_t m_nextStringId = 1;
    std::unordered_map<std::string, std::uint32_t> m_strings;
    struct KernelName {
        std::string mangled;
        std::uint32_t id = 0;
    };
    // By CUPTI's name pointer, which stays the same for a function's launches.
    std::unordered_map<const char*, KernelName> m_kernelNames;
    std::unordered_map<std::uint64_t, std::uint32_t> m_apiNames; // domain << 32 | callback id
    std::unordered_set<std::uint32_t> m_threads;
};

} // namespace ovs::inject
