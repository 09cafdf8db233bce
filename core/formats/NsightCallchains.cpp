#include "formats/NsightCallchains.h"

#include "trace/ApiNames.h"
#include "trace/NativeFrame.h"

#include <algorithm>
#include <limits>

namespace ovs {

NsightCallchains::NsightCallchains(const SqliteDatabase& db, const NsightSchema& schema, StringLookup names)
    : m_db(db), m_schema(schema), m_lookup(std::move(names))
{
}

void NsightCallchains::noteCall(std::int64_t chainId, const std::string& apiName)
{
    const auto [it, added] = m_callNameIds.try_emplace(apiName, static_cast<std::uint32_t>(m_callNames.size()));
    if (added)
        m_callNames.push_back(apiName);
    m_calls.emplace_back(chainId, it->second);
    // Either join may be the report's: the frames of both are kept.
    m_wanted.insert(chainId);
    if (chainId < std::numeric_limits<std::int64_t>::max())
        m_wanted.insert(chainId + 1);
}

void NsightCallchains::read()
{
    if (m_calls.empty() || !m_schema.hasTable("CUDA_CALLCHAINS"))
        return;
    m_hasTable = true;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUDA_CALLCHAINS", {{"id"}, {"stackDepth"}, {"symbol"}, {"module"}, {"unresolved", false}}));
    while (rows.step()) {
        if (!rows.isInteger(0) || !rows.isInteger(1)) {
            ++m_badRows;
            continue;
        }
        const std::int64_t id = rows.integer(0);
        if (!m_wanted.contains(id))
            continue;
        Chain& chain = m_chains[id];
        if (chain.garbled)
            continue;
        if (chain.frames.size() >= kMaxFrames) {
            chain.garbled = true;
            std::vector<Frame>().swap(chain.frames);
            continue;
        }
        Frame frame;
        frame.depth = rows.integer(1);
        // A name that is no StringIds id is a frame the report cannot name.
        frame.symbol = rows.optionalInteger(2).value_or(-1);
        frame.module = rows.optionalInteger(3).value_or(-1);
        frame.unresolved = rows.optionalInteger(4).value_or(0) != 0;
        chain.frames.push_back(frame);
    }
    // Depths 0, 1, 2, ... each once: any other chain lost frames (or holds
    // another's), and its innermost frame of the user's may be the one
    // missing.
    for (auto& [id, chain] : m_chains) {
        std::sort(chain.frames.begin(), chain.frames.end(),
                  [](const Frame& x, const Frame& y) { return x.depth < y.depth; });
        for (std::size_t i = 0; i < chain.frames.size() && !chain.garbled; ++i)
            chain.garbled = chain.frames[i].depth != static_cast<std::int64_t>(i);
    }
    std::size_t sameId = 0;
    std::size_t nextId = 0;
    for (const auto& [chainId, name] : m_calls) {
        if (const Chain* c = chain(chainId))
            sameId += namesCall(*c, m_callNames[name]) ? 1 : 0;
        if (chainId < std::numeric_limits<std::int64_t>::max())
            if (const Chain* c = chain(chainId + 1))
                nextId += namesCall(*c, m_callNames[name]) ? 1 : 0;
    }
    m_offset = nextId > sameId ? 1 : 0;
}

const NsightCallchains::Chain* NsightCallchains::chain(std::int64_t id) const
{
    const auto it = m_chains.find(id);
    return it == m_chains.end() ? nullptr : &it->second;
}

const std::string& NsightCallchains::text(std::int64_t stringId)
{
    static const std::string none;
    if (stringId < 0)
        return none;
    auto it = m_texts.find(stringId);
    if (it == m_texts.end())
        it = m_texts.emplace(stringId, m_lookup(stringId)).first;
    return it->second;
}

const std::string& NsightCallchains::functionOf(std::int64_t symbolId)
{
    auto it = m_functions.find(symbolId);
    if (it == m_functions.end())
        it = m_functions.emplace(symbolId, std::string(apiDisplayName(nativeFunctionName(text(symbolId))))).first;
    return it->second;
}

// The chain holds the call's own function (the API's entry point, which
// the backtrace passes through): "cudaMalloc" for cudaMalloc_v3020.
bool NsightCallchains::namesCall(const Chain& chain, const std::string& call)
{
    if (chain.garbled)
        return false;
    const std::string_view wanted = apiDisplayName(call);
    return std::any_of(chain.frames.begin(), chain.frames.end(),
                       [&](const Frame& f) { return f.symbol >= 0 && functionOf(f.symbol) == wanted; });
}

NsightCallchains::Outcome NsightCallchains::siteOf(std::int64_t chainId, std::string_view launchedKernel, Site& site)
{
    if (!m_hasTable)
        return Outcome::NoTable;
    if (m_offset > 0 && chainId == std::numeric_limits<std::int64_t>::max())
        return Outcome::NoFrames;
    const Chain* c = chain(chainId + m_offset);
    if (!c || (c->frames.empty() && !c->garbled))
        return Outcome::NoFrames;
    if (c->garbled)
        return Outcome::Garbled;
    const Frame* inner = nullptr; // the resolved frame just inside the one looked at
    for (const Frame& f : c->frames) {
        if (f.unresolved || f.symbol < 0)
            continue;
        const auto key = std::make_pair(f.symbol, f.module);
        auto known = m_userFrame.find(key);
        if (known == m_userFrame.end())
            known = m_userFrame.emplace(key, isUserNativeFrame(text(f.symbol), text(f.module), {})).first;
        if (known->second && (launchedKernel.empty() || isUserNativeFrame(text(f.symbol), text(f.module), launchedKernel))) {
            site.module = text(f.module);
            site.function = text(f.symbol);
            site.called = inner ? text(inner->symbol) : std::string();
            return Outcome::Site;
        }
        if (!text(f.symbol).starts_with("0x"))
            inner = &f;
    }
    return Outcome::NoUserFrame;
}

} // namespace ovs
