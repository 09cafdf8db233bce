#pragma once

// The formats room's own: what ChromeTraceImport and its windowed reader
// share. Not for other rooms (they read traces through ChromeTraceImport).

#include "base/TwoPartVector.h"
#include "formats/ChromeTraceImport.h"
#include "trace/CorrelationMap.h"
#include "trace/KernelShapeTable.h"
#include "trace/PythonFrame.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ovs {

// Reads a Chrome/Kineto trace's events into pending ops and ranges
// (ChromeTraceEvents.cpp), then builds the trace from them: runs, lanes,
// regions, the summary (ChromeTraceBuild.cpp). A file read in windows feeds
// one importer a window at a time (use()); a file read on two threads has
// one importer per part, the later appended to the first (append()).
class ChromeTraceImporter {
public:
    using Value = JsonReader::Value;

    explicit ChromeTraceImporter(JsonReader& json) : m_json(&json) {}
    // For a later part of the events, read from a window that use() gives.
    ChromeTraceImporter() : m_json(nullptr) {}

    // Room for the ops of `textBytes` of events: twice what PyTorch's
    // traces hold (about 550 bytes of text per op, the events skipped
    // included); a trace with more grows as before. Growing by doubling
    // touched twice the memory of the ops, fresh, and copied them each time;
    // the room reserved and never filled is never touched.
    void reserveFor(std::uint64_t textBytes) { m_pending.reserve(static_cast<std::size_t>(textBytes / 256)); }
    // The reader of the next piece of a trace read in windows.
    void use(JsonReader& json) { m_json = &json; }

    ChromeTraceImport read()
    {
        readRoot();
        return build();
    }

    // Everything but the ops' build: the root, its events, the end.
    void readRoot();
    // One element of the events' array, the index-th.
    void readEvent(Value& v, std::size_t index, int depth);
    // Appends what `later` read of the events that follow this one's, as
    // one reader of both would have it. False where it cannot be.
    bool append(ChromeTraceImporter&& later);

    // The trace from what was read; throws JsonReadError where it holds no
    // GPU work or spans more than Trace::kTimeLimitNs.
    ChromeTraceImport build();

private:
    // One event's members, as far as we use them.
    struct Event {
        std::string_view ph, cat, name;
        std::int64_t pid = 0, tid = 0;
        bool hasPid = false, hasTid = false, hasTs = false, hasDur = false;
        std::int64_t tsNs = 0, durNs = 0;
        // args
        std::optional<std::int64_t> device, stream, correlation, bytes, sortIndex, externalId;
        std::string_view argName;
        // An older PyTorch's "Call stack" of a cpu_op, innermost frame first,
        // ';' between frames (a "stack" array is joined into `stackText`).
        std::string_view callStack;
        std::string stackText;
        KernelShape shape; // a kernel's "grid", "block", "registers per thread", "shared memory"
    };

    // Lets maps keyed by std::string be searched by string_view, without a copy.
    struct ViewHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };

    struct LaneKey {
        std::uint32_t run = 0;
        bool gpu = false;
        std::int64_t a = 0; // device, or pid
        std::int64_t b = 0; // stream, or tid
        friend bool operator<(const LaneKey& x, const LaneKey& y)
        {
            return std::tie(x.run, x.gpu, x.a, x.b) < std::tie(y.run, y.gpu, y.a, y.b);
        }
    };

    struct PendingRegion {
        std::uint32_t nameId = 0;
        std::int64_t beginNs = 0, endNs = 0;
        std::int64_t a = 0, b = 0; // pid and tid, or device and stream
        std::int64_t externalId = 0;
        RegionSource source = RegionSource::Annotation;
        bool gpu = false;
    };

    struct Pending {
        Op op;
        bool gpu = false;
        std::uint32_t shape = 0; // a kernel's: its id in m_shapes (0: none)
        std::int64_t a = 0, b = 0; // device and stream, or pid and tid
        OpSource source; // a host call's: its site (in m_sites), aten op and what the user called (in m_names)
    };

    // A Python frame (python_function) or a framework op (cpu_op) on a host
    // thread: what encloses the thread's CUDA calls (ChromeTraceSources.cpp).
    struct PendingFrame {
        std::int64_t pid = 0, tid = 0;
        std::int64_t beginNs = 0, endNs = 0;
        std::uint32_t nameId = 0;  // in m_frameNames
        std::uint32_t stackId = 0; // a cpu_op's "Call stack": 1 + its index in m_callStacks; 0 none
        bool python = false;       // python_function, else cpu_op
    };

    // Reading (ChromeTraceEvents.cpp).
    void readDeviceProperties(Value& v);
    void readDistributedInfo(Value& v);
    void readEvents(Value& events, int depth);
    std::int64_t idOf(Value& v, std::size_t index, const char* what);
    std::int64_t microseconds(Value& v, std::size_t index, const char* what);
    std::optional<std::int64_t> optionalInteger(Value& v, int depth);
    void readArgs(Value& v, Event& e, int depth);
    void readDims(Value& v, std::array<std::uint32_t, 3>& dims, int depth);
    void metadata(const Event& e);
    void skipped(std::string_view what);
    std::uint32_t intern(std::string_view name);
    void complete(const Event& e, std::size_t index);
    static std::optional<RegionSource> regionSourceOf(const Event& e);
    void region(const Event& e, RegionSource source);
    std::uint32_t internRegionName(std::string_view name);

    // Building (ChromeTraceBuild.cpp).
    // The run of each pending op and range: one per host process that called CUDA.
    struct RunsOfPids {
        explicit RunsOfPids(const ChromeTraceImporter& importer);
        std::uint32_t runOfPid(std::int64_t pid) const;
        std::uint32_t runOf(const Pending& p) const;

        std::vector<std::int64_t> pids; // sorted; the runs' order
        CorrelationMap runOfCorrelation; // a host call's correlation -> its run
        std::vector<std::uint32_t> regionRuns; // of each pending range
    };
    struct RegionCounts {
        std::size_t all = 0, steps = 0, annotations = 0, gpuAnnotations = 0;
    };

    // A lane's pending ops (their indices, in the file's order) and
    // whether that is their time order: one pass over millions of ops
    // finds it while grouping them, so placing them need not read them all
    // once more to see that it is.
    struct LaneOps {
        std::vector<std::uint32_t> indices;
        bool inTimeOrder = true;
        bool shapes = false;  // an op of it has a kernel's launch shape
        bool sources = false; // an op of it has a call source
        std::int64_t lastStartNs = std::numeric_limits<std::int64_t>::min();
        std::int64_t lastEndNs = std::numeric_limits<std::int64_t>::min();
    };

    // Where a lane's ops go in its run (placeOnLanes): from `at` on.
    struct LanePlace {
        const std::vector<std::uint32_t>* indices;
        std::uint32_t run;
        std::size_t at;
    };

    std::int64_t firstTime() const;
    std::map<LaneKey, LaneOps> groupByLane(const RunsOfPids& runsOf, std::int64_t first);
    std::string laneName(const LaneKey& key) const;
    std::vector<LanePlace> placeOnLanes(std::vector<Run>& runs, std::map<LaneKey, LaneOps>& byLane,
                                        std::map<LaneKey, std::uint16_t>& laneOfKey,
                                        std::vector<std::vector<std::int64_t>>& gpusOfRun, std::size_t& splitLanes);
    void copyToRuns(std::vector<Run>& runs, const std::vector<LanePlace>& places) const;
    RegionCounts countRegions() const;
    std::string sourceName() const;
    void describeRuns(std::vector<Run>& runs, const std::vector<std::int64_t>& runPids,
                      const std::vector<std::vector<std::int64_t>>& gpusOfRun, std::int64_t first) const;
    DeviceInfo deviceOf(std::int64_t ordinal) const;
    std::string summary(std::size_t splitLanes, const RegionCounts& regions, std::size_t pythonFrames,
                        std::size_t frameworkOps) const;
    std::vector<std::uint32_t> runsOfRegions(const std::vector<std::int64_t>& runPids) const;
    void buildRegions(std::vector<Run>& runs, const std::vector<std::uint32_t>& regionRuns,
                      const std::map<LaneKey, std::uint16_t>& laneOfKey, std::int64_t first);

    // Call sites (ChromeTraceSources.cpp).
    void frame(const Event& e, bool python);
    std::uint32_t internFrameName(std::string_view name);
    std::uint32_t internCallStack(std::string_view stack);
    void attributeSources();
    struct FrameWalk;
    OpSource sourceFromFrames(const std::vector<const PendingFrame*>& python, std::int64_t atNs, FrameWalk& walk);
    OpSource sourceFromCallStack(std::uint32_t stackId, FrameWalk& walk);
    std::uint32_t siteOf(const SourceSite& site);

    JsonReader* m_json;
    bool m_kineto = false;
    int m_rank = -1;                           // distributedInfo.rank
    std::optional<std::int64_t> m_baseTimeNs; // Kineto's ts count from it
    TwoPartVector<Pending> m_pending; // the windowed read's two parts, joined without a copy
    // The ops a later reader read (append), with its name and shape ids:
    // made this reader's as the build first walks the ops (groupByLane),
    // not in a walk of their own over a gigabyte trace's millions, on one
    // core. `names` is done; a shape is taken into m_shapes where its
    // first op comes.
    struct LaterIds {
        std::size_t from = 0;                // the first of them in m_pending
        std::vector<std::uint32_t> names;    // its name id -> this reader's
        std::vector<KernelShape> shapes;     // its shapes (its id - 1)
        std::vector<std::uint32_t> shapeIds; // its shape id -> this reader's; 0 until met
    };
    std::optional<LaterIds> m_laterIds;
    void renumber(Pending& p, LaterIds& ids);
    void renumberLater(); // all at once, where the build will not
    // The first begin and the last end of the pending ops and ranges, kept
    // as each is added (firstTime): a pass over millions of pending ops
    // at the read's end, on one core, less.
    std::int64_t m_firstNs = std::numeric_limits<std::int64_t>::max();
    std::int64_t m_lastNs = std::numeric_limits<std::int64_t>::min();
    KernelShapeTable m_shapes;
    std::vector<std::string> m_names{std::string()};
    std::unordered_map<std::string, std::uint32_t, ViewHash, std::equal_to<>> m_nameIds;
    // Names interned lately, by a hash of their length and first and last
    // bytes (intern): a trace names a few kernels and calls millions of
    // times, and hashing a templated kernel's name of hundreds of bytes for
    // the map each time cost more than comparing it once. 0: none.
    std::array<std::uint32_t, 256> m_recentNames{};
    std::unordered_map<std::string, std::int64_t, ViewHash, std::equal_to<>> m_stringIds;
    std::map<std::int64_t, DeviceInfo> m_devices;
    std::map<std::int64_t, std::string> m_processNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_threadNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> m_threadSort;
    std::map<std::int64_t, int> m_hostPids;
    std::map<std::int64_t, int> m_gpuDevices;
    std::map<std::string, std::size_t, std::less<>> m_skipped;
    std::vector<PendingRegion> m_regions;
    std::vector<std::string> m_regionNames;
    std::unordered_map<std::string, std::uint32_t, ViewHash, std::equal_to<>> m_regionNameIds;
    std::map<std::string, std::size_t> m_badRegions;
    std::vector<PendingFrame> m_frames;
    std::vector<std::string> m_frameNames;
    std::unordered_map<std::string, std::uint32_t, ViewHash, std::equal_to<>> m_frameNameIds;
    std::vector<std::string> m_callStacks;
    std::unordered_map<std::string, std::uint32_t, ViewHash, std::equal_to<>> m_callStackIds;
    std::vector<SourceSite> m_sites; // the user's lines the calls are attributed to
    std::map<SourceSite, std::uint32_t> m_siteIds;
    bool m_stacks = false; // some frame or call stack was recorded
    std::size_t m_badFrames = 0; // frames without times or names, left out
    std::size_t m_events = 0;
    std::size_t m_gpuOps = 0;
    std::size_t m_apiCalls = 0;
};

} // namespace ovs
