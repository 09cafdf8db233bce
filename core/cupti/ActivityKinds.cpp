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

void EnabledKinds::disable(const Library::Api& api)
{
    for (auto k = m_on.rbegin(); k != m_on.rend(); ++k)
        static_cast<void>(api.activityDisable(*k));
    m_on.clear();
}

} // namespace ovs::cupti
