#pragma once

#include <cupti.h>

#include <string>

namespace ovs::inject {

// The libcupti entry points the tracer uses, resolved with dlopen/dlsym so
// that the injection library, like our other binaries, links nothing of
// CUDA: it is loaded into the program by the driver, which is already there.
//
// OVERLAPSCOPE_CUPTI_LIBRARY names the library to use; otherwise the
// versioned name of the toolkit we built with comes first (activity record
// layouts change between CUPTI major versions), then the toolkit's folders.
// Never closed: CUPTI keeps threads and callbacks into us until exit.
struct CuptiLibrary {
    decltype(&::cuptiGetVersion) getVersion = nullptr;
    decltype(&::cuptiGetResultString) getResultString = nullptr;
    decltype(&::cuptiSubscribe) subscribe = nullptr;
    // Newer CUPTIs name the subscriber already holding CUPTI; may be null.
    decltype(&::cuptiSubscribe_v2) subscribeV2 = nullptr;
    decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
    decltype(&::cuptiEnableCallback) enableCallback = nullptr;
    decltype(&::cuptiGetCallbackName) getCallbackName = nullptr;
    decltype(&::cuptiSetThreadIdType) setThreadIdType = nullptr;
    decltype(&::cuptiActivityRegisterCallbacks) activityRegisterCallbacks = nullptr;
    decltype(&::cuptiActivityEnable) activityEnable = nullptr;
    decltype(&::cuptiActivityDisable) activityDisable = nullptr;
    decltype(&::cuptiActivityEnableRuntimeApi) activityEnableRuntimeApi = nullptr;
    decltype(&::cuptiActivityEnableDriverApi) activityEnableDriverApi = nullptr;
    // Newer CUPTIs only; may be null.
    decltype(&::cuptiActivityEnableAllSyncRecords) activityEnableAllSyncRecords = nullptr;
    decltype(&::cuptiActivityFlushAll) activityFlushAll = nullptr;
    decltype(&::cuptiActivityGetNextRecord) activityGetNextRecord = nullptr;
    decltype(&::cuptiActivityGetNumDroppedRecords) activityGetNumDroppedRecords = nullptr;
    decltype(&::cuptiGetTimestamp) getTimestamp = nullptr;

    std::string path; // what loaded

    // Loads the library; false with `whyNot` ("libcupti not found: ...").
    bool load(std::string* whyNot);
    // "cuptiSubscribe: CUPTI_ERROR_NOT_INITIALIZED"-style text.
    std::string describe(CUptiResult result, const char* what) const;
};

} // namespace ovs::inject
