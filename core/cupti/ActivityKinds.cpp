#include "cupti/ActivityKinds.h"

#include "base/EnvironmentFlags.h"

#include <algorithm>

namespace ovs::cupti {

bool EnabledKinds::enable(const Library::Api& api, Client client, const std::vector<std::string_view>& requested,
                          const char* skipVariable, std::string* whyNot, std::vector<std::string>* warnings)
{
    const auto warn = [&](std::string text) {
        if (warnings)
            warnings->push_back(std::move(text));
    };
    for (const ActivityKind& k : kActivityKinds) {
        const Need need = client == Client::EngineTiming ? k.engineTiming : k.profile;
        if (need == Need::No
            || (need == Need::OnRequest && std::find(requested.begin(), requested.end(), k.token) == requested.end()))
            continue;
        if (environmentListHas(skipVariable, k.token)) {
            warn(std::string(k.name) + " records left off (" + skipVariable + ")");
            continue;
        }
        const CUptiResult result = api.activityEnable(k.kind);
        if (result == CUPTI_SUCCESS) {
            m_on.push_back(k.kind);
            continue;
        }
        const std::string what = describeResult(api, result, std::string("cuptiActivityEnable(") + k.name + ")");
        if (need == Need::Essential) {
            // Leaves nothing half on: a client that does not start leaves
            // CUPTI as it found it (free for a profiler of the program's own).
            disable(api);
            if (whyNot)
                *whyNot = what;
            return false;
        }
        warn(what + ": " + k.name + " records are missing");
    }
    return true;
}

int switchApiRecords(const Library::Api& api, CUpti_CallbackDomain domain, bool (*chosen)(std::string_view name),
                     bool on, std::string* failure)
{
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    const auto select = runtime ? api.activityEnableRuntimeApi : api.activityEnableDriverApi;
    const std::uint32_t count = runtime ? std::uint32_t(CUPTI_RUNTIME_TRACE_CBID_SIZE)
                                        : std::uint32_t(CUPTI_DRIVER_TRACE_CBID_SIZE);
    int switched = 0;
    for (std::uint32_t id = 1; id < count; ++id) {
        const char* name = nullptr;
        if (api.getCallbackName(domain, id, &name) != CUPTI_SUCCESS || !name || !chosen(name))
            continue;
        const CUptiResult result = select(id, on ? 1 : 0);
        if (result == CUPTI_SUCCESS)
            ++switched;
        else if (failure && failure->empty())
            *failure = describeResult(api, result,
                                      runtime ? "cuptiActivityEnableRuntimeApi" : "cuptiActivityEnableDriverApi");
    }
    return switched;
}

void EnabledKinds::disable(const Library::Api& api)
{
    for (auto k = m_on.rbegin(); k != m_on.rend(); ++k)
        static_cast<void>(api.activityDisable(*k));
    m_on.clear();
}

} // namespace ovs::cupti
