#pragma once

#include <cupti.h>

#include <string>
#include <vector>

namespace ovs::cupti {

// libcupti, opened at run time rather than linked: our binaries (and the
// injection library, which lives in other people's processes) must start on
// GPU servers that have only the driver, and there say why CUPTI is missing
// instead of failing to load. Only the headers are needed to build.
//
// Loaded once per process and never closed: CUPTI's worker thread and our
// callbacks may run until the process exits, and unloading a library with
// registered callbacks is not supported.
class Library {
public:
    // The entry points the CUDA device and the injection library use.
    struct Api {
        decltype(&::cuptiGetVersion) getVersion = nullptr;
        decltype(&::cuptiGetResultString) getResultString = nullptr;
        decltype(&::cuptiGetTimestamp) getTimestamp = nullptr;
        decltype(&::cuptiSubscribe) subscribe = nullptr;
        decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
        decltype(&::cuptiEnableCallback) enableCallback = nullptr;
        decltype(&::cuptiGetCallbackName) getCallbackName = nullptr;
        decltype(&::cuptiSetThreadIdType) setThreadIdType = nullptr;
        decltype(&::cuptiActivityRegisterCallbacks) activityRegisterCallbacks = nullptr;
        decltype(&::cuptiActivityEnable) activityEnable = nullptr;
        decltype(&::cuptiActivityDisable) activityDisable = nullptr;
        decltype(&::cuptiActivityEnableRuntimeApi) activityEnableRuntimeApi = nullptr;
        decltype(&::cuptiActivityEnableDriverApi) activityEnableDriverApi = nullptr;
        decltype(&::cuptiActivityFlushAll) activityFlushAll = nullptr;
        decltype(&::cuptiActivityGetNextRecord) activityGetNextRecord = nullptr;
        decltype(&::cuptiActivityGetNumDroppedRecords) activityGetNumDroppedRecords = nullptr;
        decltype(&::cuptiActivityPushExternalCorrelationId) activityPushExternalCorrelationId = nullptr;
        decltype(&::cuptiActivityPopExternalCorrelationId) activityPopExternalCorrelationId = nullptr;
        // Newer CUPTIs only; null where absent.
        decltype(&::cuptiSubscribe_v2) subscribeV2 = nullptr; // names the subscriber already holding CUPTI
        decltype(&::cuptiActivityEnableAllSyncRecords) activityEnableAllSyncRecords = nullptr;
        decltype(&::cuptiActivityConfigureUnifiedMemoryCounter) activityConfigureUnifiedMemoryCounter = nullptr;
    };

    // The process's library; the first call loads it.
    static const Library& instance();

    // The names tried, in order. OVERLAPSCOPE_CUPTI_LIBRARY (a name or a
    // path), when set, is the only one. Otherwise the versioned name of the
    // toolkit we built with comes first, since activity record layouts change
    // between CUPTI major versions; then the plain name, then the toolkit's
    // folders, for machines where libcupti is installed but not on the
    // loader's path (the toolkit does not register lib64 with ldconfig).
    static std::vector<std::string> searchPath();

    bool loaded() const { return m_loaded; }
    // Why not ("libcupti not found: ..."); empty when loaded.
    const std::string& whyNot() const { return m_whyNot; }
    // The name or path that loaded.
    const std::string& path() const { return m_path; }
    const Api& api() const { return m_api; }

    // "<what>: CUPTI_ERROR_NOT_INITIALIZED"-style text for `result`.
    std::string describe(CUptiResult result, const std::string& what) const;

private:
    Library();
    bool resolveAll(void* library);

    bool m_loaded = false;
    std::string m_whyNot;
    std::string m_path;
    Api m_api;
};

// describe() for a table of entry points that need not be the loaded
// library's: the buffer loop's tests hand it one of their own.
std::string describeResult(const Library::Api& api, CUptiResult result, const std::string& what);

} // namespace ovs::cupti
