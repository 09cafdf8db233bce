#pragma once

// Each of a run's names decided once by the one table (trace/ApiNames.h):
// the role of a call of that name and whether it is stream-ordered
// ("...Async"). A trace of millions of calls has a few thousand names, so
// the index of every span judged (the whole span and each step's view) and
// the graph's builder read these, built once per run, rather than match
// names against the table call by call.

#include "trace/ApiNames.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

class NameRoles {
public:
    explicit NameRoles(const std::vector<std::string>& names);

    // By name id; ids past the run's names are the empty name's.
    ApiRole role(std::uint32_t nameId) const { return nameId < m_role.size() ? m_role[nameId] : apiRole({}); }
    bool isAsync(std::uint32_t nameId) const { return nameId < m_async.size() && m_async[nameId] != 0; }

private:
    std::vector<ApiRole> m_role;
    std::vector<std::uint8_t> m_async;
};

} // namespace ovs
