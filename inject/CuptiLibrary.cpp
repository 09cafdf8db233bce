#include "CuptiLibrary.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace ovs::inject {
namespace {

std::vector<std::string> candidates()
{
    if (const char* chosen = std::getenv("OVERLAPSCOPE_CUPTI_LIBRARY"); chosen && *chosen)
        return {chosen};
    const std::string versioned = "libcupti.so." + std::to_string(CUDA_VERSION / 1000);
    return {versioned,
            "libcupti.so",
            "/usr/local/cuda/lib64/" + versioned,
            "/usr/local/cuda/lib/" + versioned,
            "/usr/local/cuda/extras/CUPTI/lib64/" + versioned};
}

template <typename Function>
void resolve(void* library, const char* name, Function& slot, std::string* missing)
{
    // dlsym hands back an object pointer; POSIX guarantees it converts to a function pointer.
    slot = reinterpret_cast<Function>(dlsym(library, name));
    if (!slot && missing)
        *missing += std::string(missing->empty() ? "" : ", ") + name;
}

} // namespace

bool CuptiLibrary::load(std::string* whyNot)
{
    std::string firstError;
    std::string tried;
    void* library = nullptr;
    for (const std::string& name : candidates()) {
        library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library) {
            path = name;
            break;
        }
        const char* error = dlerror();
        if (firstError.empty())
            firstError = error ? error : name + ": unknown dlopen error";
        tried += (tried.empty() ? "" : ", ") + name;
    }
    if (!library) {
        *whyNot = "libcupti not found: " + firstError + " (tried " + tried
                  + "; OVERLAPSCOPE_CUPTI_LIBRARY=/path/to/libcupti.so chooses one)";
        return false;
    }
    std::string missing;
    resolve(library, "cuptiGetVersion", getVersion, &missing);
    resolve(library, "cuptiGetResultString", getResultString, &missing);
    resolve(library, "cuptiSubscribe", subscribe, &missing);
    resolve(library, "cuptiSubscribe_v2", subscribeV2, nullptr);
    resolve(library, "cuptiUnsubscribe", unsubscribe, &missing);
    resolve(library, "cuptiEnableCallback", enableCallback, &missing);
    resolve(library, "cuptiGetCallbackName", getCallbackName, &missing);
    resolve(library, "cuptiSetThreadIdType", setThreadIdType, &missing);
    resolve(library, "cuptiActivityRegisterCallbacks", activityRegisterCallbacks, &missing);
    resolve(library, "cuptiActivityEnable", activityEnable, &missing);
    resolve(library, "cuptiActivityDisable", activityDisable, &missing);
    resolve(library, "cuptiActivityEnableRuntimeApi", activityEnableRuntimeApi, &missing);
    resolve(library, "cuptiActivityEnableDriverApi", activityEnableDriverApi, &missing);
    resolve(library, "cuptiActivityEnableAllSyncRecords", activityEnableAllSyncRecords, nullptr);
    resolve(library, "cuptiActivityFlushAll", activityFlushAll, &missing);
    resolve(library, "cuptiActivityGetNextRecord", activityGetNextRecord, &missing);
    resolve(library, "cuptiActivityGetNumDroppedRecords", activityGetNumDroppedRecords, &missing);
    resolve(library, "cuptiGetTimestamp", getTimestamp, &missing);
    if (!missing.empty()) {
        *whyNot = path + " lacks " + missing + " (a CUPTI older than this build expects)";
        return false;
    }
    return true;
}

std::string CuptiLibrary::describe(CUptiResult result, const char* what) const
{
    const char* text = nullptr;
    if (!getResultString || getResultString(result, &text) != CUPTI_SUCCESS || !text)
        return std::string(what) + ": CUPTI error " + std::to_string(static_cast<int>(result));
    return std::string(what) + ": " + text;
}

} // namespace ovs::inject
