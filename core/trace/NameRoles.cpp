#include "trace/NameRoles.h"

namespace ovs {

NameRoles::NameRoles(const std::vector<std::string>& names)
{
    m_role.reserve(names.size());
    m_flags.reserve(names.size());
    for (const std::string& name : names) {
        // By the display name, as users read it: the table's prefixes and
        // "Async" are the same with CUPTI's version suffix or without.
        const std::string_view shown = apiDisplayName(name);
        m_role.push_back(apiRole(shown));
        m_flags.push_back(static_cast<std::uint8_t>((apiIsAsync(shown) ? kAsync : 0)
                                                    | (isCollectiveName(name) ? kCollective : 0)));
    }
}

} // namespace ovs
