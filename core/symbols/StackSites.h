#pragma once

#include "symbols/NativeFrame.h"
#include "symbols/Symbolizer.h"
#include "trace/SourceSite.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ovs {

// A profiled process's call stacks (return addresses, innermost first) and
// the objects they ran in, turned into the user's lines after the run: the
// site of a stack is its innermost frame of the user's own code
// (NativeSiteRule.h), read by the Symbolizer.
class StackSites {
public:
    void addModule(NativeModule module);
    void addStack(std::uint32_t id, std::vector<std::uint64_t> returnAddresses);
    std::size_t stackCount() const { return m_stacks.size(); }
    bool empty() const { return m_stacks.empty(); }

    // The site of stack `id`: file and line where the object has debug
    // information, else the object's path, line 0 and "function+0xOFFSET"
    // from its symbol table; nullopt where no frame is the user's, the
    // stack is unknown, or a frame of the user's object names nothing (a
    // stripped object: it could be the CUDA runtime linked into it).
    std::optional<SourceSite> siteOf(std::uint32_t id);
    // What kept objects from being read ("...: rebuilt since the run").
    const std::vector<std::string>& problems() const { return m_symbolizer.problems(); }

private:
    const NativeModule* moduleAt(std::uint64_t address) const;
    const std::vector<NativeFrame>& framesAt(std::uint64_t address);

    std::vector<NativeModule> m_modules;
    bool m_prepared = false;
    std::unordered_map<std::uint32_t, std::vector<std::uint64_t>> m_stacks;
    std::unordered_map<std::uint32_t, std::optional<SourceSite>> m_sites;
    std::unordered_map<std::uint64_t, std::vector<NativeFrame>> m_frames;
    Symbolizer m_symbolizer;
};

} // namespace ovs
