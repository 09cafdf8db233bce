#include "cuda/CuptiLoader.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <vector>

namespace ovs {
namespace {

// Activity record layouts change between CUPTI major versions, so the
// versioned name of the toolkit we compiled against comes first. The plain
// name and the toolkit's own directory cover machines where libcupti is
// installed but not on the loader's path (the toolkit does not register
// lib64 with ldconfig).
std::vector<std::string> candidates()
{
    const std::string versioned = "libcupti.so." + std::to_string(CUDART_VERSION / 1000);
    return {versioned,
            "libcupti.so",
            "/usr/local/cuda/lib64/" + versioned,
            "/usr/local/cuda/lib64/libcupti.so",
            "/usr/local/cuda/extras/CUPTI/lib64/" + versioned};
}

template <typename Function>
void resolve(void* library, const char* name, Function& slot, std::string& missing)
{
    // dlsym hands back an object pointer; POSIX guarantees it converts to a function pointer.
    slot = reinterpret_cast<Function>(dlsym(library, name));
    if (!slot)
        missing += std::string(missing.empty() ? "" : ", ") + name;
}

} // namespace

const CuptiLoader& CuptiLoader::instance()
{
    static const CuptiLoader loader;
    return loader;
}

CuptiLoader::CuptiLoader()
{
    std::string firstError;
    std::string tried;
    void* library = nullptr;
    for (const std::string& name : candidates()) {
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
        m_whyNot = "libcupti not found: " + firstError + " (tried " + tried + ")";
        return;
    }

    std::string missing;
    resolve(library, "cuptiActivityEnable", m_api.activityEnable, missing);
    resolve(library, "cuptiActivityDisable", m_api.activityDisable, missing);
    resolve(library, "cuptiActivityRegisterCallbacks", m_api.activityRegisterCallbacks, missing);
    resolve(library, "cuptiActivityFlushAll", m_api.activityFlushAll, missing);
    resolve(library, "cuptiActivityGetNextRecord", m_api.activityGetNextRecord, missing);
    resolve(library, "cuptiGetTimestamp", m_api.getTimestamp, missing);
    resolve(library, "cuptiActivityPushExternalCorrelationId", m_api.activityPushExternalCorrelationId, missing);
    resolve(library, "cuptiActivityPopExternalCorrelationId", m_api.activityPopExternalCorrelationId, missing);
    resolve(library, "cuptiGetResultString", m_api.getResultString, missing);
    if (!missing.empty()) {
        // Left open on purpose: see the class comment.
        m_whyNot = m_path + " lacks " + missing + " (a CUPTI older than this build expects)";
        m_api = {};
        return;
    }
    // Optional: without them every runtime call is traced, at some cost.
    std::string optional;
    resolve(library, "cuptiActivityEnableRuntimeApi", m_api.activityEnableRuntimeApi, optional);
    resolve(library, "cuptiGetCallbackName", m_api.getCallbackName, optional);
    if (!m_api.activityEnableRuntimeApi || !m_api.getCallbackName) {
        m_api.activityEnableRuntimeApi = nullptr;
        m_api.getCallbackName = nullptr;
    }
    m_loaded = true;
}

std::string CuptiLoader::describe(CUptiResult result, const std::string& what) const
{
    const char* text = nullptr;
    if (!m_api.getResultString || m_api.getResultString(result, &text) != CUPTI_SUCCESS || !text)
        return what + " failed: CUPTI error " + std::to_string(static_cast<int>(result));
    return what + " failed: " + text;
}

} // namespace ovs
