#pragma once

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_runtime_cbid.h>

#include <string>

namespace ovs {

// libcupti, opened at run time rather than linked: our binaries must start on
// GPU servers that have only the driver, and there say "event times only"
// instead of failing to load. Only the headers are needed to build.
//
// Internal to core/cuda. The library is loaded once per process and never
// closed: CUPTI's worker thread and our buffer callbacks may still run until
// the process exits, and unloading a library with registered callbacks is
// not supported.
class CuptiLoader {
public:
    // The entry points we use, resolved from the loaded library.
    struct Api {
        decltype(&::cuptiActivityEnable) activityEnable = nullptr;
        decltype(&::cuptiActivityDisable) activityDisable = nullptr;
        decltype(&::cuptiActivityRegisterCallbacks) activityRegisterCallbacks = nullptr;
        decltype(&::cuptiActivityFlushAll) activityFlushAll = nullptr;
        decltype(&::cuptiActivityGetNextRecord) activityGetNextRecord = nullptr;
        decltype(&::cuptiGetTimestamp) getTimestamp = nullptr;
        decltype(&::cuptiActivityPushExternalCorrelationId) activityPushExternalCorrelationId = nullptr;
        decltype(&::cuptiActivityPopExternalCorrelationId) activityPopExternalCorrelationId = nullptr;
        decltype(&::cuptiGetResultString) getResultString = nullptr;
        // Optional (null where this CUPTI lacks them): runtime-API records
        // switched off call by call.
        decltype(&::cuptiActivityEnableRuntimeApi) activityEnableRuntimeApi = nullptr;
        decltype(&::cuptiGetCallbackName) getCallbackName = nullptr;
    };

    // The process's loader; the first call tries to load the library.
    static const CuptiLoader& instance();

    bool loaded() const { return m_loaded; }
    // Why the library is not usable ("libcupti not found: ..."); empty when loaded.
    const std::string& whyNot() const { return m_whyNot; }
    // The name or path that loaded.
    const std::string& path() const { return m_path; }
    const Api& api() const { return m_api; }

    // "cuptiActivityEnable failed: CUPTI_ERROR_NOT_COMPATIBLE"-style text for `result`.
    std::string describe(CUptiResult result, const std::string& what) const;

private:
    CuptiLoader();

    bool m_loaded = false;
    std::string m_whyNot;
    std::string m_path;
    Api m_api;
};

} // namespace ovs
