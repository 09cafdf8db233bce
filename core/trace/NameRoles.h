#pragma once

// Each of a run's names decided once by the one table (trace/ApiNames.h):
// the role of a call of that name, whether it is stream-ordered
// ("...Async") and whether it names a collective. A trace of millions of calls has a few thousand names, so
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
    bool isAsync(std::uint32_t nameId) const { return (flags(nameId) & kAsync) != 0; }
    // A collective's name (isCollectiveName): NCCL's kernels, c10d's ops.
    bool isCollective(std::uint32_t nameId) const { return (flags(nameId) & kCollective) != 0; }

private:
    static constexpr std::uint8_t kAsync = 1;
    static constexpr std::uint8_t kCollective = 2;
    std::uint8_t flags(std::uint32_t nameId) const { return nameId < m_flags.size() ? m_flags[nameId] : 0; }
    std::vector<ApiRole> m_role;
    std::vector<std::uint8_t> m_flags;
};

} // namespace ovs
