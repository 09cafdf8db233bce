#pragma once

#include "formats/NsightSchema.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ovs {

// The CUDA backtraces of an Nsight Systems report (nsys profile
// --cudabacktrace=..., then nsys export --type sqlite): the call rows'
// callchainId and the frames of each chain in CUDA_CALLCHAINS (id,
// stackDepth from 0 innermost, symbol and module as StringIds, unresolved).
// Each call's chain gives the innermost frame of the program's own code by
// NativeFrame.h's rule (docs/profiling.md, "Call sites"). What a stranger's
// file may hold instead (ids with no frames, depths missing or repeated,
// values of the wrong type) leaves the call without a site and is counted
// for the import's summary, never trusted and never fatal.
class NsightCallchains {
public:
    // Nsight's StringIds: id -> text ("" where there is none).
    using StringLookup = std::function<std::string(std::int64_t)>;
    // Frames beyond this many in one chain make it garbled: no real stack
    // is that deep, and a crafted one would only cost memory.
    static constexpr std::size_t kMaxFrames = 1024;

    NsightCallchains(const SqliteDatabase& db, const NsightSchema& schema, StringLookup names);

    // A call row that names a chain (its callchainId), with the call's
    // name ("cudaMalloc_v3020", or the backtrace row's "cudaMalloc"),
    // before read().
    void noteCall(std::int64_t chainId, const std::string& apiName);
    // Reads the frames of the chains noted, checks them and decides how
    // the ids join (see joinOffset).
    void read();

    // What a call's chain says.
    enum class Outcome : std::uint8_t {
        Site,        // the program's own frame
        NoUserFrame, // every frame is a library's, CUDA's or unresolved
        NoFrames,    // the id has no frames in CUDA_CALLCHAINS
        Garbled,     // depths missing, repeated or out of range; too many frames
        NoTable,     // the report has no CUDA_CALLCHAINS table
    };
    struct Site {
        std::string module;   // the frame's module, as the report writes its path
        std::string function; // the frame's symbol, as written ("main", "train(Model&)")
        std::string called;   // the resolved frame just inside it ("cudaMalloc"); "" where none
    };
    // `launchedKernel`: the name of the kernel the call launched, "" for none.
    Outcome siteOf(std::int64_t chainId, std::string_view launchedKernel, Site& site);

    // 0 where a call's callchainId is the id of its frames, as NVIDIA's
    // schema documents; 1 where the report numbers them one apart, as
    // Nsight Systems 2022.2's export does (its chains are 1-based, its
    // callchainIds 0-based: tests/data/nsight's saxpy report). Decided by
    // which join names the call's own function among its chain's frames
    // for more of the calls.
    int joinOffset() const { return m_offset; }
    // Rows of CUDA_CALLCHAINS whose id or depth is no integer.
    std::uint64_t badRows() const { return m_badRows; }

private:
    struct Frame {
        std::int64_t depth = 0;
        std::int64_t symbol = -1; // StringIds id; -1 none
        std::int64_t module = -1;
        bool unresolved = false;
    };
    struct Chain {
        std::vector<Frame> frames; // by depth once read() has checked them
        bool garbled = false;
    };
    const std::string& text(std::int64_t stringId);
    const std::string& functionOf(std::int64_t symbolId);
    bool namesCall(const Chain& chain, const std::string& call);
    const Chain* chain(std::int64_t id) const;

    const SqliteDatabase& m_db;
    const NsightSchema& m_schema;
    StringLookup m_lookup;
    bool m_hasTable = false;
    int m_offset = 0;
    std::uint64_t m_badRows = 0;
    // The calls noted: chain id and the call's name (an index into m_callNames).
    std::vector<std::pair<std::int64_t, std::uint32_t>> m_calls;
    std::vector<std::string> m_callNames;
    std::unordered_map<std::string, std::uint32_t> m_callNameIds;
    std::unordered_set<std::int64_t> m_wanted;
    std::unordered_map<std::int64_t, Chain> m_chains;
    std::unordered_map<std::int64_t, std::string> m_texts;     // StringIds read so far
    std::unordered_map<std::int64_t, std::string> m_functions; // symbol id -> the bare name for the join
    // (symbol, module) -> the frame is the user's by the rule, kernels aside.
    std::map<std::pair<std::int64_t, std::int64_t>, bool> m_userFrame;
};

} // namespace ovs
