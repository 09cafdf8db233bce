#include "cupti/Library.h"

#include <dlfcn.h>

#include <cstdlib>

namespace ovs::cupti {
namespace {

constexpr const char* kLibraryVariable = "OVERLAPSCOPE_CUPTI_LIBRARY";

template <typename Function>
void resolve(void* library, const char* name, Function& slot, std::string* missing)
{
    // dlsym hands back an object pointer; POSIX guarantees it converts to a function pointer.
    slot = reinterpret_cast<Function>(dlsym(library, name));
    if (!slot && missing)
        *missing += std::string(missing->empty() ? "" : ", ") + name;
}

} // namespace

const Library& Library::instance()
{
    // Never destroyed: see the class comment.
    static const Library* library = new Library;
    return *library;
}

std::vector<std::string> Library::searchPath()
{
    if (const char* chosen = std::getenv(kLibraryVariable); chosen && *chosen)
        return {chosen};
    const std::string versioned = "libcupti.so." + std::to_string(CUDA_VERSION / 1000);
    return {versioned,
            "libcupti.so",
            "/usr/local/cuda/lib64/" + versioned,
            "/usr/local/cuda/lib/" + versioned,
            "/usr/local/cuda/extras/CUPTI/lib64/" + versioned,
            "/usr/local/cuda/lib64/libcupti.so"};
}

Library::Library()
{
    std::string firstError;
    std::string tried;
    void* library = nullptr;
    for (const std::string& name : searchPath()) {
        library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library) {
            m_path = name;
            break;
        }
        const char* error = dlerror();
        if (firstError.empty())
            firstError = error ? error : name + ": unknown dlopen error";
        tried += (tried.empty() ? "" : ", ") + name;
    }
    if (!library) {
        m_whyNot = "libcupti not found: " + firstError + " (tried " + tried + "; " + kLibraryVariable
                   + "=/path/to/libcupti.so chooses one)";
        return;
    }
    // A library lacking entry points is left open: see the class comment.
    m_loaded = resolveAll(library);
}

bool Library::resolveAll(void* library)
{
    std::string missing;
    resolve(library, "cuptiGetVersion", m_api.getVersion, &missing);
    resolve(library, "cuptiGetResultString", m_api.getResultString, &missing);
    resolve(library, "cuptiGetTimestamp", m_api.getTimestamp, &missing);
    resolve(library, "cuptiSubscribe", m_api.subscribe, &missing);
    resolve(library, "cuptiUnsubscribe", m_api.unsubscribe, &missing);
    resolve(library, "cuptiEnableCallback", m_api.enableCallback, &missing);
    resolve(library, "cuptiGetCallbackName", m_api.getCallbackName, &missing);
    resolve(library, "cuptiSetThreadIdType", m_api.setThreadIdType, &missing);
    resolve(library, "cuptiActivityRegisterCallbacks", m_api.activityRegisterCallbacks, &missing);
    resolve(library, "cuptiActivityEnable", m_api.activityEnable, &missing);
    resolve(library, "cuptiActivityDisable", m_api.activityDisable, &missing);
    resolve(library, "cuptiActivityEnableRuntimeApi", m_api.activityEnableRuntimeApi, &missing);
    resolve(library, "cuptiActivityEnableDriverApi", m_api.activityEnableDriverApi, &missing);
    resolve(library, "cuptiActivityFlushAll", m_api.activityFlushAll, &missing);
    resolve(library, "cuptiActivityGetNextRecord", m_api.activityGetNextRecord, &missing);
    resolve(library, "cuptiActivityGetNumDroppedRecords", m_api.activityGetNumDroppedRecords, &missing);
    resolve(library, "cuptiActivityPushExternalCorrelationId", m_api.activityPushExternalCorrelationId, &missing);
    resolve(library, "cuptiActivityPopExternalCorrelationId", m_api.activityPopExternalCorrelationId, &missing);
    resolve(library, "cuptiSubscribe_v2", m_api.subscribeV2, nullptr);
    resolve(library, "cuptiActivityEnableAllSyncRecords", m_api.activityEnableAllSyncRecords, nullptr);
    resolve(library, "cuptiActivityConfigureUnifiedMemoryCounter", m_api.activityConfigureUnifiedMemoryCounter,
            nullptr);
    if (missing.empty())
        return true;
    m_whyNot = m_path + " lacks " + missing + " (a CUPTI older than this build expects)";
    m_api = {};
    return false;
}

std::string Library::describe(CUptiResult result, const std::string& what) const
{
    return describeResult(m_api, result, what);
}

std::string describeResult(const Library::Api& api, CUptiResult result, const std::string& what)
{
    const char* text = nullptr;
    if (!api.getResultString || api.getResultString(result, &text) != CUPTI_SUCCESS || !text)
        return what + ": CUPTI error " + std::to_string(static_cast<int>(result));
    return what + ": " + text;
}

} // namespace ovs::cupti
