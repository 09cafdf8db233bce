#include "symbols/StackSites.h"

#include "symbols/NativeSiteRule.h"

#include <algorithm>
#include <cstdio>

namespace ovs {

void StackSites::addModule(NativeModule module)
{
    if (module.lowAddress < module.highAddress)
        m_modules.push_back(std::move(module));
}

void StackSites::addStack(std::uint32_t id, std::vector<std::uint64_t> returnAddresses)
{
    m_stacks[id] = std::move(returnAddresses);
}

const NativeModule* StackSites::moduleAt(std::uint64_t address) const
{
    // By start; an object loaded later over an unloaded one's range (rare)
    // comes later in the records and wins.
    const NativeModule* found = nullptr;
    for (const NativeModule& m : m_modules)
        if (m.lowAddress <= address && address < m.highAddress)
            found = &m;
    return found;
}

const std::vector<NativeFrame>& StackSites::framesAt(std::uint64_t address)
{
    if (!m_prepared) {
        m_prepared = true;
        // Only the user's objects are read: the libraries' frames are
        // skipped by their path alone.
        for (const NativeModule& m : m_modules)
            if (!libraryObject(m.path))
                m_symbolizer.addModule(m);
    }
    const auto known = m_frames.find(address);
    if (known != m_frames.end())
        return known->second;
    return m_frames.emplace(address, m_symbolizer.frames(address)).first->second;
}

std::optional<SourceSite> StackSites::siteOf(std::uint32_t id)
{
    if (const auto known = m_sites.find(id); known != m_sites.end())
        return known->second;
    std::optional<SourceSite> site;
    const auto stack = m_stacks.find(id);
    if (stack != m_stacks.end()) {
        for (const std::uint64_t returnAddress : stack->second) {
            const NativeModule* module = returnAddress > 0 ? moduleAt(returnAddress - 1) : nullptr;
            if (!module || libraryObject(module->path))
                continue;
            // A return address is the instruction after the call: one less
            // is inside the call, on the call's line.
            const std::vector<NativeFrame>& frames = framesAt(returnAddress - 1);
            const auto users = std::find_if(frames.begin(), frames.end(), [](const NativeFrame& f) {
                return (!f.file.empty() || !f.function.empty()) && usersFrame(f);
            });
            if (users == frames.end())
                continue;
            SourceSite s;
            s.lineIs = SiteLine::Call;
            if (!users->file.empty()) {
                s.file = users->file;
                s.line = users->line;
                s.function = users->function;
            } else {
                s.file = module->path;
                char offset[32];
                std::snprintf(offset, sizeof offset, "+0x%llx", static_cast<unsigned long long>(users->functionOffset));
                s.function = users->function + offset;
            }
            site = std::move(s);
            break;
        }
    }
    m_sites.emplace(id, site);
    return site;
}

} // namespace ovs
