#include "formats/ChromeTraceImport.h"

#include "base/MessageText.h"
#include "formats/FileWindow.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ovs {

namespace {

using Value = JsonReader::Value;

// CUPTI reports the legacy default (NULL) stream of a context as stream 7 in
// the traces PyTorch writes; streams the program creates get other ids.
constexpr std::int64_t kLegacyDefaultStream = 7;

[[noreturn]] void fail(std::size_t event, const std::string& message)
{
    throw JsonReadError{"event " + std::to_string(event) + ": " + message};
}

// What an event is to us.
enum class Category : std::uint8_t { Kernel, Memcpy, Memset, Runtime, Driver, Other };

Category categoryOf(std::string_view cat)
{
    // Kineto's names, and the older spellings some versions wrote.
    if (cat == "kernel" || cat == "Kernel")
        return Category::Kernel;
    if (cat == "gpu_memcpy" || cat == "Memcpy")
        return Category::Memcpy;
    if (cat == "gpu_memset" || cat == "Memset")
        return Category::Memset;
    if (cat == "cuda_runtime" || cat == "Runtime")
        return Category::Runtime;
    if (cat == "cuda_driver")
        return Category::Driver;
    return Category::Other;
}

// A side of a copy as CUPTI names it ("Pageable", "Device", "Managed Static").
HostMemoryKind memoryFromName(std::string_view name)
{
    if (name == "Pageable")
        return HostMemoryKind::Pageable;
    if (name == "Pinned")
        return HostMemoryKind::Pinned;
    if (name.substr(0, 7) == "Managed")
        return HostMemoryKind::Managed;
    if (name.substr(0, 6) == "Device" || name == "Array")
        return HostMemoryKind::Device;
    return HostMemoryKind::None;
}

// "Memcpy HtoD (Pageable -> Device)": direction and the host side's memory.
// HtoH copies and unnamed ones are not modelled (nullopt).
std::optional<std::pair<OpKind, HostMemoryKind>> memcpyFromName(std::string_view name)
{
    if (name.substr(0, 7) != "Memcpy ")
        return std::nullopt;
    const std::string_view kind = name.substr(7, 4);
    std::string_view from, to;
    const auto open = name.find('(');
    const auto arrow = name.find(" -> ");
    const auto close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos
        && open < arrow && arrow < close) {
        from = name.substr(open + 1, arrow - open - 1);
        to = name.substr(arrow + 4, close - arrow - 4);
    }
    if (kind == "HtoD" || kind == "HtoA")
        return std::pair{OpKind::Upload, memoryFromName(from)};
    if (kind == "DtoH" || kind == "AtoH")
        return std::pair{OpKind::Download, memoryFromName(to)};
    if (kind == "DtoD" || kind == "PtoP" || kind == "DtoA" || kind == "AtoD" || kind == "AtoA") {
        const bool managed = memoryFromName(from) == HostMemoryKind::Managed || memoryFromName(to) == HostMemoryKind::Managed;
        return std::pair{OpKind::DeviceCopy, managed ? HostMemoryKind::Managed : HostMemoryKind::Device};
    }
    return std::nullopt;
}

HostMemoryKind memsetMemory(std::string_view name)
{
    // "Memset (Device)"
    const auto open = name.find('(');
    const auto close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return HostMemoryKind::Device;
    const HostMemoryKind memory = memoryFromName(name.substr(open + 1, close - open - 1));
    return memory == HostMemoryKind::None ? HostMemoryKind::Device : memory;
}

// One event's members, as far as we use them.
struct Event {
    std::string_view ph, cat, name;
    std::int64_t pid = 0, tid = 0;
    bool hasPid = false, hasTid = false, hasTs = false, hasDur = false;
    std::int64_t tsNs = 0, durNs = 0;
    // args
    std::optional<std::int64_t> device, stream, correlation, bytes, sortIndex, externalId;
    std::string_view argName;
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

class Importer {
public:
    explicit Importer(JsonReader& json) : m_json(&json) {}
    // For a later part of the events, read from a window that use() gives.
    Importer() : m_json(nullptr) {}

    // Room for the ops of `textBytes` of events: twice what PyTorch's
    // traces hold (about 550 bytes of text per op, the events skipped
    // included); a trace with more grows as before. Growing by doubling
    // touched twice the memory of the ops, fresh, and copied them each time;
    // the room reserved and never filled is never touched.
    void reserveFor(std::uint64_t textBytes)
    {
        m_pending.reserve(static_cast<std::size_t>(textBytes / 256));
    }
    // The reader of the next piece of a trace read in windows.
    void use(JsonReader& json) { m_json = &json; }

    ChromeTraceImport read()
    {
        readRoot();
        return build();
    }

    // Everything but the ops' build: the root, its events, the end.
    void readRoot()
    {
        const JsonKind root = m_json->rootKind();
        if (root == JsonKind::Array) {
            Value events;
            if (const auto error = m_json->document().get_value().get(events))
                m_json->syntaxError(error);
            readEvents(events, 1);
        } else if (root == JsonKind::Object) {
            bool sawEvents = false;
            m_json->forEachMember(m_json->rootObject(), 1, [&](std::string_view key, Value& v) {
                if (key == "traceEvents") {
                    if (m_json->kind(v) != JsonKind::Array)
                        throw JsonReadError{std::string("\"traceEvents\" must be an array, not ")
                                            + describe(m_json->kind(v))};
                    readEvents(v, 2);
                    sawEvents = true;
                } else if (key == "deviceProperties" && m_json->kind(v) == JsonKind::Array) {
                    m_json->forEachElement(v, 2, [&](Value& d, std::size_t) { readDeviceProperties(d); });
                } else if (key == "baseTimeNanoseconds") {
                    m_kineto = true;
                    m_baseTimeNs = optionalInteger(v, 2);
                } else if (key == "distributedInfo" && m_json->kind(v) == JsonKind::Object) {
                    readDistributedInfo(v);
                } else if (key == "schemaVersion") {
                    m_kineto = true;
                    m_json->skip(v, 2);
                } else {
                    m_json->skip(v, 2);
                }
            });
            if (!sawEvents)
                throw JsonReadError{"not a trace: there is neither a \"format\" field (OverlapScope) nor a "
                                    "\"traceEvents\" array (Chrome, PyTorch)"};
        } else {
            throw JsonReadError{std::string("not a trace: the file holds ") + describe(root)
                                + ", not an object or an array of events"};
        }
        m_json->finish();
    }

private:
    void readDeviceProperties(Value& v)
    {
        if (m_json->kind(v) != JsonKind::Object) {
            m_json->skip(v, 3);
            return;
        }
        std::int64_t id = -1;
        DeviceInfo device;
        std::int64_t major = -1, minor = -1;
        m_json->forEachMember(v, 3, [&](std::string_view key, Value& m) {
            const JsonKind kind = m_json->kind(m);
            if (key == "id" && kind == JsonKind::Integer)
                id = m_json->integer(m);
            else if (key == "name" && kind == JsonKind::String)
                device.name = m_json->string(m);
            else if (key == "totalGlobalMem" && kind == JsonKind::Integer)
                device.totalMemoryBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, m_json->integer(m)));
            else if (key == "computeMajor" && kind == JsonKind::Integer)
                major = m_json->integer(m);
            else if (key == "computeMinor" && kind == JsonKind::Integer)
                minor = m_json->integer(m);
            else
                m_json->skip(m, 4);
        });
        if (major >= 0 && minor >= 0 && major < 100 && minor < 100)
            device.detail = "sm_" + std::to_string(major) + std::to_string(minor);
        if (id >= 0)
            m_devices[id] = std::move(device);
    }

    // torch.profiler's {"backend": "nccl", "rank": 3, "world_size": 8} of a
    // distributed job: the rank labels the run (core/ranks).
    void readDistributedInfo(Value& v)
    {
        m_json->forEachMember(v, 3, [&](std::string_view key, Value& m) {
            const std::optional<std::int64_t> value = optionalInteger(m, 4);
            if (key == "rank" && value && *value >= 0 && *value <= std::numeric_limits<int>::max())
                m_rank = static_cast<int>(*value);
        });
    }

    void readEvents(Value& events, int depth)
    {
        m_json->forEachElement(events, depth, [&](Value& v, std::size_t i) { readEvent(v, i, depth + 1); });
    }

public:
    ChromeTraceImport build();

    // Appends what `later` read of the events that follow this one's, as
    // one reader of both would have it: its names interned again in its
    // order, its counts added, its metadata over this one's. False where
    // `later` numbered string ids otherwise than one reader would have
    // (they are numbered in the order met, and kept in many places).
    bool append(Importer&& later)
    {
        std::vector<std::pair<std::int64_t, std::string_view>> stringIds;
        for (const auto& [text, id] : later.m_stringIds)
            stringIds.emplace_back(id, text);
        std::sort(stringIds.begin(), stringIds.end(), std::greater<>()); // -1 first: the order met
        for (const auto& [id, text] : stringIds) {
            const auto it = m_stringIds.find(text);
            const std::int64_t merged =
                it != m_stringIds.end()
                    ? it->second
                    : m_stringIds.emplace(std::string(text), -static_cast<std::int64_t>(m_stringIds.size()) - 1)
                          .first->second;
            if (merged != id)
                return false;
        }
        std::vector<std::uint32_t> nameIds(later.m_names.size(), 0);
        for (std::size_t i = 1; i < later.m_names.size(); ++i)
            nameIds[i] = intern(later.m_names[i]);
        m_pending.reserve(m_pending.size() + later.m_pending.size());
        for (Pending& p : later.m_pending) {
            p.op.nameId = nameIds[p.op.nameId];
            m_pending.push_back(p);
        }
        std::vector<std::uint32_t> regionNameIds(later.m_regionNames.size());
        for (std::size_t i = 0; i < later.m_regionNames.size(); ++i)
            regionNameIds[i] = internRegionName(later.m_regionNames[i]);
        for (PendingRegion& r : later.m_regions) {
            r.nameId = regionNameIds[r.nameId];
            m_regions.push_back(r);
        }
        for (auto& [pid, name] : later.m_processNames)
            m_processNames.insert_or_assign(pid, std::move(name));
        for (auto& [thread, name] : later.m_threadNames)
            m_threadNames.insert_or_assign(thread, std::move(name));
        for (const auto& [thread, index] : later.m_threadSort)
            m_threadSort.insert_or_assign(thread, index);
        m_hostPids.insert(later.m_hostPids.begin(), later.m_hostPids.end());
        m_gpuDevices.insert(later.m_gpuDevices.begin(), later.m_gpuDevices.end());
        for (const auto& [what, count] : later.m_skipped)
            m_skipped[what] += count;
        for (const auto& [what, count] : later.m_badRegions)
            m_badRegions[what] += count;
        m_kineto = m_kineto || later.m_kineto;
        m_events += later.m_events;
        m_gpuOps += later.m_gpuOps;
        m_apiCalls += later.m_apiCalls;
        return true;
    }

    std::int64_t idOf(Value& v, std::size_t index, const char* what)
    {
        const JsonKind kind = m_json->kind(v);
        if (kind == JsonKind::Integer)
            return m_json->integer(v);
        if (kind == JsonKind::String) {
            // Chrome allows names as ids ("Spans"); give each a negative id.
            const std::string_view text = m_json->string(v);
            if (const auto it = m_stringIds.find(text); it != m_stringIds.end())
                return it->second;
            return m_stringIds.emplace(std::string(text), -static_cast<std::int64_t>(m_stringIds.size()) - 1)
                .first->second;
        }
        fail(index, std::string("\"") + what + "\" must be an integer or a string, not " + describe(kind));
    }

    std::int64_t microseconds(Value& v, std::size_t index, const char* what)
    {
        const JsonKind kind = m_json->kind(v);
        if (kind != JsonKind::Integer && kind != JsonKind::Number)
            fail(index, std::string("\"") + what + "\" must be a number, not " + describe(kind));
        const std::string_view text = JsonReader::rawText(v);
        (void)m_json->number(v); // validates the number
        std::int64_t ns = 0;
        if (!microsecondsTextToNs(text, ns))
            fail(index, std::string("\"") + what + "\" " + messageText(text, 40) + " is out of range");
        return ns;
    }

    std::optional<std::int64_t> optionalInteger(Value& v, int depth)
    {
        if (m_json->kind(v) == JsonKind::Integer)
            return m_json->integer(v);
        m_json->skip(v, depth); // any other kind: validated, ignored
        return std::nullopt;
    }

    void readArgs(Value& v, Event& e, int depth)
    {
        if (m_json->kind(v) != JsonKind::Object) {
            m_json->skip(v, depth);
            return;
        }
        m_json->forEachMember(v, depth, [&](std::string_view key, Value& m) {
            if (key == "stream")
                e.stream = optionalInteger(m, depth + 1);
            else if (key == "device")
                e.device = optionalInteger(m, depth + 1);
            else if (key == "correlation")
                e.correlation = optionalInteger(m, depth + 1);
            else if (key == "bytes")
                e.bytes = optionalInteger(m, depth + 1);
            else if (key == "sort_index")
                e.sortIndex = optionalInteger(m, depth + 1);
            else if (key == "External id")
                e.externalId = optionalInteger(m, depth + 1);
            else if (key == "name" && m_json->kind(m) == JsonKind::String)
                e.argName = m_json->string(m);
            else
                m_json->skip(m, depth + 1);
        });
    }

    void readEvent(Value& v, std::size_t index, int depth)
    {
        const JsonKind kind = m_json->kind(v);
        if (kind != JsonKind::Object)
            fail(index, std::string("must be an object, not ") + describe(kind)
                            + " (a Chrome trace is an array of event objects)");
        Event e;
        m_json->forEachMember(v, depth, [&](std::string_view key, Value& m) {
            const auto text = [&](const char* what) {
                const JsonKind k = m_json->kind(m);
                if (k != JsonKind::String)
                    fail(index, std::string("\"") + what + "\" must be a string, not " + describe(k));
                return m_json->string(m);
            };
            if (key == "ph") {
                e.ph = text("ph");
            } else if (key == "cat") {
                e.cat = text("cat");
            } else if (key == "name") {
                e.name = text("name");
            } else if (key == "pid") {
                e.pid = idOf(m, index, "pid");
                e.hasPid = true;
            } else if (key == "tid") {
                e.tid = idOf(m, index, "tid");
                e.hasTid = true;
            } else if (key == "ts") {
                e.tsNs = microseconds(m, index, "ts");
                e.hasTs = true;
            } else if (key == "dur") {
                e.durNs = microseconds(m, index, "dur");
                e.hasDur = true;
            } else if (key == "args") {
                readArgs(m, e, depth + 1);
            } else {
                m_json->skip(m, depth + 1);
            }
        });
        ++m_events; // after the walk: an event cut by a window's end is read again
        if (e.ph == "M")
            metadata(e);
        else if (e.ph == "X")
            complete(e, index);
        else
            skipped(e.cat.empty() ? "ph " + std::string(e.ph.substr(0, 8)) : e.cat.substr(0, 40));
    }

    void metadata(const Event& e)
    {
        if (e.name == "process_name" && !e.argName.empty())
            m_processNames[e.pid] = std::string(e.argName);
        else if (e.name == "thread_name" && !e.argName.empty())
            m_threadNames[{e.pid, e.tid}] = std::string(e.argName);
        else if (e.name == "thread_sort_index" && e.sortIndex)
            m_threadSort[{e.pid, e.tid}] = *e.sortIndex;
    }

    // Counted by kind; most events are skipped (flows, CPU ops), so a kind
    // seen before costs no string.
    void skipped(std::string_view what)
    {
        const auto it = m_skipped.find(what);
        if (it != m_skipped.end())
            ++it->second;
        else
            m_skipped.emplace(std::string(what), 1);
    }

    std::uint32_t intern(std::string_view name)
    {
        if (name.empty())
            return 0;
        // Looked up by view: a name seen before (most are) costs no string.
        if (const auto it = m_nameIds.find(name); it != m_nameIds.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_names.size());
        m_nameIds.emplace(std::string(name), id);
        m_names.emplace_back(name);
        return id;
    }

    void complete(const Event& e, std::size_t index)
    {
        const Category category = categoryOf(e.cat);
        if (category == Category::Other) {
            if (const auto source = regionSourceOf(e)) {
                region(e, *source);
                return;
            }
            skipped(e.cat.empty() ? std::string_view("uncategorized") : e.cat.substr(0, 40));
            return;
        }
        m_kineto = m_kineto || e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "cuda_runtime";
        if (!e.hasTs || !e.hasDur)
            fail(index, std::string("a complete event (\"ph\": \"X\") needs \"ts\" and \"dur\""));
        if (e.durNs < 0)
            fail(index, "\"dur\" is negative");
        if (e.tsNs > std::numeric_limits<std::int64_t>::max() - e.durNs)
            fail(index, "\"ts\" + \"dur\" is out of range");
        Pending p;
        p.op.startNs = e.tsNs;
        p.op.endNs = e.tsNs + e.durNs;
        p.op.correlation = e.correlation && *e.correlation > 0 && *e.correlation <= std::numeric_limits<std::uint32_t>::max()
                               ? static_cast<std::uint32_t>(*e.correlation)
                               : 0;
        if (category == Category::Runtime || category == Category::Driver) {
            p.op.kind = OpKind::ApiCall;
            p.op.nameId = intern(e.name);
            p.a = e.pid;
            p.b = e.tid;
            m_hostPids.emplace(e.pid, 0);
            ++m_apiCalls;
        } else {
            p.gpu = true;
            p.a = e.device.value_or(e.pid);
            p.b = e.stream.value_or(e.tid);
            p.op.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, e.bytes.value_or(0)));
            // GPU times in these traces are CUPTI's: when the engine ran the op.
            p.op.execStartNs = p.op.startNs;
            p.op.execEndNs = p.op.endNs;
            if (category == Category::Kernel) {
                p.op.kind = OpKind::Kernel;
                p.op.bytes = 0;
                p.op.nameId = intern(e.name);
            } else if (category == Category::Memset) {
                p.op.kind = OpKind::Memset;
                p.op.memory = memsetMemory(e.name);
            } else {
                const auto copy = memcpyFromName(e.name);
                if (!copy) {
                    ++m_skipped["memcpy kinds not modelled (" + messageText(e.name, 40) + ")"];
                    return;
                }
                p.op.kind = copy->first;
                p.op.memory = copy->second;
            }
            m_gpuDevices.emplace(p.a, 0);
            ++m_gpuOps;
        }
        m_pending.push_back(p);
    }

    // Kineto's ranges: torch.profiler's steps, record_function on the host
    // and its GPU span.
    static std::optional<RegionSource> regionSourceOf(const Event& e)
    {
        if (e.cat == "gpu_user_annotation")
            return RegionSource::GpuAnnotation;
        // Steps are user_annotation in PyTorch 2, cpu_op in older versions.
        if (e.name.starts_with("ProfilerStep#") && (e.cat == "user_annotation" || e.cat == "cpu_op"))
            return RegionSource::ProfilerStep;
        if (e.cat == "user_annotation")
            return RegionSource::Annotation;
        return std::nullopt;
    }

    // A malformed range is left out with a note, not a refused trace: the
    // ops are what the import is for, and a profiler stopped mid-step
    // leaves such ranges behind.
    void region(const Event& e, RegionSource source)
    {
        const char* bad = nullptr;
        if (!e.hasTs || !e.hasDur)
            bad = "no ts or dur";
        else if (e.durNs < 0)
            bad = "negative dur";
        else if (e.tsNs > std::numeric_limits<std::int64_t>::max() - e.durNs)
            bad = "ts + dur out of range";
        else if (e.name.empty())
            bad = "unnamed";
        if (bad) {
            ++m_badRegions[bad];
            return;
        }
        PendingRegion r;
        r.nameId = internRegionName(e.name);
        r.beginNs = e.tsNs;
        r.endNs = e.tsNs + e.durNs;
        r.source = source;
        r.gpu = source == RegionSource::GpuAnnotation;
        // A GPU annotation is on its stream, named as GPU ops name theirs.
        r.a = r.gpu ? e.device.value_or(e.pid) : e.pid;
        r.b = r.gpu ? e.stream.value_or(e.tid) : e.tid;
        r.externalId = e.externalId.value_or(0);
        m_regions.push_back(r);
    }

    std::uint32_t internRegionName(std::string_view name)
    {
        if (const auto it = m_regionNameIds.find(name); it != m_regionNameIds.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_regionNames.size());
        m_regionNameIds.emplace(std::string(name), id);
        m_regionNames.emplace_back(name);
        return id;
    }

private:
    struct Pending;
    // The run of each pending op and range: one per host process that called CUDA.
    struct RunsOfPids {
        explicit RunsOfPids(const Importer& importer);
        std::uint32_t runOfPid(std::int64_t pid) const;
        std::uint32_t runOf(const Pending& p) const;

        std::vector<std::int64_t> pids; // sorted; the runs' order
        std::unordered_map<std::uint32_t, std::uint32_t> runOfCorrelation;
        std::vector<std::uint32_t> regionRuns; // of each pending range
    };
    struct RegionCounts {
        std::size_t all = 0, steps = 0, annotations = 0, gpuAnnotations = 0;
    };

    std::int64_t firstTime() const;
    std::map<LaneKey, std::vector<std::uint32_t>> groupByLane(const RunsOfPids& runsOf, std::int64_t first);
    std::string laneName(const LaneKey& key) const;
    std::size_t placeOnLanes(std::vector<Run>& runs, std::map<LaneKey, std::vector<std::uint32_t>>& byLane,
                             std::map<LaneKey, std::uint16_t>& laneOfKey);
    RegionCounts countRegions() const;
    std::string sourceName() const;
    void describeRuns(std::vector<Run>& runs, const std::vector<std::int64_t>& runPids, std::int64_t first) const;
    std::string summary(std::size_t splitLanes, const RegionCounts& regions) const;
    std::vector<std::uint32_t> runsOfRegions(const std::vector<std::int64_t>& runPids) const;
    void buildRegions(std::vector<Run>& runs, const std::vector<std::uint32_t>& regionRuns,
                      const std::map<LaneKey, std::uint16_t>& laneOfKey, std::int64_t first);

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
        std::int64_t a = 0, b = 0; // device and stream, or pid and tid
    };

    JsonReader* m_json;
    bool m_kineto = false;
    int m_rank = -1;                           // distributedInfo.rank
    std::optional<std::int64_t> m_baseTimeNs; // Kineto's ts count from it
    std::vector<Pending> m_pending;
    std::vector<std::string> m_names{std::string()};
    std::unordered_map<std::string, std::uint32_t, ViewHash, std::equal_to<>> m_nameIds;
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
    std::size_t m_events = 0;
    std::size_t m_gpuOps = 0;
    std::size_t m_apiCalls = 0;
};

ChromeTraceImport Importer::build()
{
    if (m_pending.empty())
        throw JsonReadError{"the trace holds no GPU work: no kernel, memcpy, memset or CUDA API event "
                            "(categories kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver)"};
    const RunsOfPids runsOf(*this);
    const std::int64_t first = firstTime();
    std::map<LaneKey, std::vector<std::uint32_t>> byLane = groupByLane(runsOf, first);
    ChromeTraceImport result;
    std::vector<Run>& runs = result.trace.runs;
    runs.resize(runsOf.pids.size());
    std::map<LaneKey, std::uint16_t> laneOfKey; // the lane of each key's first op
    const std::size_t splitLanes = placeOnLanes(runs, byLane, laneOfKey);
    const RegionCounts regionCounts = countRegions();
    buildRegions(runs, runsOf.regionRuns, laneOfKey, first);
    describeRuns(runs, runsOf.pids, first);
    result.events = m_events;
    result.summary = summary(splitLanes, regionCounts);
    return result;
}

// One run per host process that called CUDA (one when none did). GPU work
// goes to the process whose API call has its correlation id; work nobody
// claims goes to the first.
Importer::RunsOfPids::RunsOfPids(const Importer& importer)
{
    for (const auto& [pid, unused] : importer.m_hostPids)
        pids.push_back(pid);
    if (pids.empty())
        pids.push_back(std::numeric_limits<std::int64_t>::min());
    if (pids.size() > 1)
        for (const Pending& p : importer.m_pending)
            if (!p.gpu && p.op.correlation != 0)
                runOfCorrelation.emplace(p.op.correlation, runOfPid(p.a));
    regionRuns = importer.runsOfRegions(pids);
}

std::uint32_t Importer::RunsOfPids::runOfPid(std::int64_t pid) const
{
    return static_cast<std::uint32_t>(std::lower_bound(pids.begin(), pids.end(), pid) - pids.begin());
}

std::uint32_t Importer::RunsOfPids::runOf(const Pending& p) const
{
    if (pids.size() == 1)
        return 0;
    if (!p.gpu)
        return runOfPid(p.a);
    const auto it = runOfCorrelation.find(p.op.correlation);
    return it == runOfCorrelation.end() ? 0 : it->second;
}

// Times count from the first event of the file, for every run alike.
std::int64_t Importer::firstTime() const
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const Pending& p : m_pending) {
        first = std::min(first, p.op.startNs);
        last = std::max(last, p.op.endNs);
    }
    for (const PendingRegion& r : m_regions) {
        first = std::min(first, r.beginNs);
        last = std::max(last, r.endNs);
    }
    const bool spanOverflows = first < 0 && last > std::numeric_limits<std::int64_t>::max() + first;
    if (spanOverflows || last - first >= Trace::kTimeLimitNs)
        throw JsonReadError{"the trace spans more than 2^62 ns (146 years) from its first event to its last"};
    return first;
}

// The pending ops' indices by lane, their times made relative to `first`.
// A thread or stream that only opened ranges gets its lane too: the range
// is drawn where it was opened.
std::map<LaneKey, std::vector<std::uint32_t>> Importer::groupByLane(const RunsOfPids& runsOf, std::int64_t first)
{
    std::map<LaneKey, std::vector<std::uint32_t>> byLane;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        Pending& p = m_pending[i];
        p.op.startNs -= first;
        p.op.endNs -= first;
        if (p.gpu) {
            p.op.execStartNs = p.op.startNs;
            p.op.execEndNs = p.op.endNs;
        }
        byLane[{runsOf.runOf(p), p.gpu, p.a, p.b}].push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t i = 0; i < m_regions.size(); ++i)
        byLane.try_emplace({runsOf.regionRuns[i], m_regions[i].gpu, m_regions[i].a, m_regions[i].b});
    return byLane;
}

std::string Importer::laneName(const LaneKey& key) const
{
    if (key.gpu)
        return "GPU " + std::to_string(key.a) + " stream " + std::to_string(key.b)
               + (key.b == kLegacyDefaultStream ? " (legacy default)" : "");
    const auto threadName = m_threadNames.find({key.a, key.b});
    return threadName != m_threadNames.end() ? messageText(threadName->second, 80) : "thread " + std::to_string(key.b);
}

// Each key's ops into its run, by start time, on the key's lanes. A lane
// runs one op at a time: where ops overlap (API calls nested in others,
// clock rounding), the later one moves to an extra lane. Returns how many
// extra lanes were made.
std::size_t Importer::placeOnLanes(std::vector<Run>& runs, std::map<LaneKey, std::vector<std::uint32_t>>& byLane,
                                   std::map<LaneKey, std::uint16_t>& laneOfKey)
{
    std::vector<std::size_t> opsOfRun(runs.size(), 0);
    for (const auto& [key, indices] : byLane)
        opsOfRun[key.run] += indices.size();
    for (std::size_t r = 0; r < runs.size(); ++r)
        runs[r].ops.reserve(opsOfRun[r]);
    std::size_t splitLanes = 0;
    for (auto& [key, indices] : byLane) {
        Run& run = runs[key.run];
        std::stable_sort(indices.begin(), indices.end(), [&](std::uint32_t x, std::uint32_t y) {
            return std::tie(m_pending[x].op.startNs, m_pending[x].op.endNs)
                   < std::tie(m_pending[y].op.startNs, m_pending[y].op.endNs);
        });
        const std::string name = laneName(key);
        // Kineto's events do not say how the program made its streams; only
        // the legacy default stream is known by its id.
        const Lane lane{name, key.gpu ? LaneKind::Stream : LaneKind::HostThread, 0,
                        key.gpu && key.b == kLegacyDefaultStream ? StreamKind::LegacyDefault : StreamKind::Unknown};
        const auto addLane = [&](std::size_t sub) {
            if (run.lanes.size() >= kMaxLanes)
                throw JsonReadError{"the trace needs more than 65535 lanes in one process"};
            run.lanes.push_back(lane);
            if (sub > 0)
                run.lanes.back().name += " (" + std::to_string(sub + 1) + ")";
        };
        std::vector<std::int64_t> laneEnds;
        const std::size_t firstLane = run.lanes.size();
        if (indices.empty()) // ranges only
            addLane(0);
        laneOfKey.emplace(key, static_cast<std::uint16_t>(firstLane));
        for (std::uint32_t i : indices) {
            Op& op = m_pending[i].op;
            std::size_t sub = 0;
            while (sub < laneEnds.size() && laneEnds[sub] > op.startNs)
                ++sub;
            if (sub == laneEnds.size()) {
                addLane(sub);
                laneEnds.push_back(op.endNs);
                splitLanes += sub > 0;
            }
            laneEnds[sub] = op.endNs;
            op.lane = static_cast<std::uint16_t>(firstLane + sub);
            run.ops.push_back(op);
        }
    }
    m_pending.clear();
    m_pending.shrink_to_fit();
    return splitLanes;
}

Importer::RegionCounts Importer::countRegions() const
{
    RegionCounts counts;
    counts.all = m_regions.size();
    for (const PendingRegion& r : m_regions) {
        counts.steps += r.source == RegionSource::ProfilerStep;
        counts.annotations += r.source == RegionSource::Annotation;
        counts.gpuAnnotations += r.source == RegionSource::GpuAnnotation;
    }
    return counts;
}

std::string Importer::sourceName() const
{
    return m_kineto ? "PyTorch profiler (Kineto) trace" : "Chrome trace";
}

// Each run's name (its process), rank, clock, device, timing and span;
// its ops sorted. `first`: the file's first time, the runs' time 0.
void Importer::describeRuns(std::vector<Run>& runs, const std::vector<std::int64_t>& runPids, std::int64_t first) const
{
    for (std::size_t r = 0; r < runs.size(); ++r) {
        Run& run = runs[r];
        const std::int64_t pid = runPids[r];
        const bool known = pid != std::numeric_limits<std::int64_t>::min();
        const auto processName = m_processNames.find(pid);
        run.name = known ? (processName != m_processNames.end() ? messageText(processName->second, 80) + " (pid "
                                                                      + std::to_string(pid) + ")"
                                                                : "process " + std::to_string(pid))
                         : "GPU work";
        run.pipeline = m_kineto ? "pytorch" : "chrome-trace";
        run.rank = m_rank;
        // Kineto's ts is wall-clock time (from baseTimeNanoseconds where
        // given), which the ranks of one job share; a plain Chrome trace's
        // clock is its own.
        std::int64_t origin = 0;
        if (m_kineto && !__builtin_add_overflow(m_baseTimeNs.value_or(0), first, &origin))
            run.sharedClockOriginNs = origin;
        run.timing = "cupti (imported)";
        run.names = m_names;
        std::int64_t end = 0;
        for (const Op& op : run.ops)
            end = std::max(end, op.endNs);
        for (const Region& region : run.regions)
            end = std::max(end, region.endNs);
        run.timedBeginNs = 0;
        run.timedEndNs = end;
        run.verification.message = "not verified: imported from a " + sourceName();
        if (!m_devices.empty() || !m_gpuDevices.empty()) {
            const std::int64_t device = m_gpuDevices.empty() ? m_devices.begin()->first : m_gpuDevices.begin()->first;
            const auto info = m_devices.find(device);
            if (info != m_devices.end())
                run.device = info->second;
            if (run.device.name.empty())
                run.device.name = "GPU " + std::to_string(device);
            if (m_gpuDevices.size() > 1)
                run.device.detail += (run.device.detail.empty() ? "" : ", ") + std::to_string(m_gpuDevices.size())
                                     + " GPUs";
        }
        run.sortOps();
    }
}

// "imported from a ...: N GPU ops and M CUDA API calls; ...; skipped ..."
std::string Importer::summary(std::size_t splitLanes, const RegionCounts& regions) const
{
    std::string text = "imported from a " + sourceName() + ": " + std::to_string(m_gpuOps) + " GPU ops and "
                       + std::to_string(m_apiCalls) + " CUDA API calls";
    if (splitLanes > 0)
        text += "; " + std::to_string(splitLanes) + " extra lanes for overlapping ops";
    if (regions.all > 0)
        text += "; " + std::to_string(regions.all) + " regions (" + std::to_string(regions.steps) + " profiler steps, "
                + std::to_string(regions.annotations) + " annotations, " + std::to_string(regions.gpuAnnotations)
                + " GPU annotations)";
    if (!m_badRegions.empty()) {
        std::size_t bad = 0;
        std::string why;
        for (const auto& [what, count] : m_badRegions) {
            bad += count;
            why += (why.empty() ? "" : ", ") + what + " " + std::to_string(count);
        }
        text += "; left out " + std::to_string(bad) + " malformed annotations (" + why + ")";
    }
    std::size_t skipped = 0;
    std::string kinds;
    for (const auto& [what, count] : m_skipped) {
        skipped += count;
        if (kinds.size() < 160)
            kinds += (kinds.empty() ? "" : ", ") + what + " " + std::to_string(count);
    }
    if (skipped > 0)
        text += "; skipped " + std::to_string(skipped) + " other events (" + kinds + ")";
    return text;
}

// A host range belongs to its process's run (the first run when that
// process made no CUDA call); a GPU annotation to the run of the host range
// with its External id, else the first.
std::vector<std::uint32_t> Importer::runsOfRegions(const std::vector<std::int64_t>& runPids) const
{
    const auto runOfPid = [&](std::int64_t pid) -> std::uint32_t {
        const auto it = std::lower_bound(runPids.begin(), runPids.end(), pid);
        return it != runPids.end() && *it == pid ? static_cast<std::uint32_t>(it - runPids.begin()) : 0;
    };
    std::unordered_map<std::int64_t, std::uint32_t> runOfExternalId;
    if (runPids.size() > 1)
        for (const PendingRegion& r : m_regions)
            if (!r.gpu && r.externalId != 0)
                runOfExternalId.emplace(r.externalId, runOfPid(r.a));
    std::vector<std::uint32_t> runs;
    runs.reserve(m_regions.size());
    for (const PendingRegion& r : m_regions) {
        if (runPids.size() == 1) {
            runs.push_back(0);
        } else if (!r.gpu) {
            runs.push_back(runOfPid(r.a));
        } else {
            const auto it = runOfExternalId.find(r.externalId);
            runs.push_back(it == runOfExternalId.end() ? 0 : it->second);
        }
    }
    return runs;
}

// Each range on its lane (a thread's first lane, its extra lanes being
// the same thread), nested by time: a range that begins inside another
// still open on that thread is one level deeper.
void Importer::buildRegions(std::vector<Run>& runs, const std::vector<std::uint32_t>& regionRuns,
                            const std::map<LaneKey, std::uint16_t>& laneOfKey, std::int64_t first)
{
    for (std::size_t i = 0; i < m_regions.size(); ++i) {
        const PendingRegion& r = m_regions[i];
        Run& run = runs[regionRuns[i]];
        Region region;
        region.name = m_regionNames[r.nameId];
        region.beginNs = r.beginNs - first;
        region.endNs = r.endNs - first;
        region.lane = laneOfKey.at({regionRuns[i], r.gpu, r.a, r.b});
        region.source = r.source;
        run.regions.push_back(std::move(region));
    }
    m_regions.clear();
    m_regions.shrink_to_fit();
    for (Run& run : runs) {
        std::vector<Region>& regions = run.regions;
        // Outer ranges first where two begin together: the longer holds the shorter.
        std::stable_sort(regions.begin(), regions.end(), [](const Region& x, const Region& y) {
            return std::tuple(x.lane, x.beginNs, y.endNs) < std::tuple(y.lane, y.beginNs, x.endNs);
        });
        std::vector<std::int64_t> open; // ends of the ranges open on the lane
        for (std::size_t i = 0; i < regions.size(); ++i) {
            if (i == 0 || regions[i].lane != regions[i - 1].lane)
                open.clear();
            // Ranges that overlap without nesting close in any order.
            std::erase_if(open, [&](std::int64_t end) { return end <= regions[i].beginNs; });
            regions[i].depth = static_cast<std::uint16_t>(std::min<std::size_t>(open.size(), 0xFFFF));
            open.push_back(regions[i].endNs);
        }
        std::stable_sort(regions.begin(), regions.end(), [](const Region& x, const Region& y) {
            return std::tuple(x.beginNs, x.depth, x.lane) < std::tuple(y.beginNs, y.depth, y.lane);
        });
    }
}

// Reading a file a window at a time (ChromeTraceImport::readFile). Each
// window is cut after a line break, which no JSON string holds, so simdjson
// can index it; the events in it are read as the elements of an array
// ("[" before the text, "]" after the cut). The event that the cut
// truncates fails to parse: it is read again at the start of the next
// window. The root's other members (devices, Kineto's fields) are read at
// the end from the text before and after the events.
class WindowedRead {
public:
    WindowedRead(int fd, std::size_t windowBytes, std::uint64_t fileBytes, const ReadProgress& progress)
        : m_window(fd, windowBytes), m_fileBytes(fileBytes), m_progress(progress)
    {
    }

    std::optional<ChromeTraceImport> read()
    {
        if (!readRootKind())
            return std::nullopt;
        try {
            for (;;) {
                m_progress.throwIfCancelled();
                if (step())
                    break;
                m_progress.report(m_window.start(), m_fileBytes);
            }
            std::optional<ChromeTraceImport> done = finish();
            m_progress.report(m_fileBytes, m_fileBytes);
            return done;
        } catch (const Fallback&) {
            return std::nullopt;
        }
    }

    // The same read on two threads, each over one part of the events: the
    // calling thread from the start to `split`, a second one from `split`
    // to the end. `split` is the start of a line that begins with '{' after
    // a line that ends with ','; where the first part does not end exactly
    // there (an object inside an event begins on such a line), or anything
    // else goes amiss, nothing: read() then decides. Each window is half
    // the size: the two hold the memory of one.
    static std::optional<ChromeTraceImport> readInTwo(int fd, std::size_t windowBytes, std::uint64_t fileBytes,
                                                      const ReadProgress& progress, std::uint64_t split)
    {
        windowBytes = std::max<std::size_t>(windowBytes / 2, 1);
        WindowedRead head(fd, windowBytes, fileBytes, progress);
        if (!head.readRootKind())
            return std::nullopt;
        head.m_window.limitTo(split);
        std::atomic<std::uint64_t> tailBytes{0};
        ReadProgress tailProgress; // the calling thread reports for both
        tailProgress.cancel = progress.cancel;
        WindowedRead tail(fd, windowBytes, fileBytes, tailProgress, split);
        tail.m_rootArray = head.m_rootArray;
        tail.m_depth = head.m_depth;
        auto tailRead = std::async(std::launch::async, [&] { return tail.readTail(tailBytes); });
        const auto report = [&](std::uint64_t headBytes) { progress.report(headBytes + tailBytes, fileBytes); };
        bool tailDone = false;
        bool headDone = false;
        try {
            headDone = head.readToLimit(report);
            tailDone = tailRead.get();
        } catch (const Fallback&) {
        } catch (const Grow&) {
        }
        if (!headDone || !tailDone || !head.m_importer->append(std::move(*tail.m_importer)))
            return std::nullopt;
        try {
            std::string rest = tail.rootRest();
            std::optional<ChromeTraceImport> done = head.finishWith(std::move(rest));
            progress.report(fileBytes, fileBytes);
            return done;
        } catch (const Fallback&) {
            return std::nullopt;
        }
    }

private:
    // Control flow: the read cannot go on in windows; the whole-text reader
    // decides (and words any error).
    struct Fallback {};
    // The window holds no complete event: it needs to be larger.
    struct Grow {};
    // The events read end exactly at the window's limit.
    struct ReachedLimit {};

    // The later part's reader, from file offset `from`: its first window
    // begins with an event.
    WindowedRead(int fd, std::size_t windowBytes, std::uint64_t fileBytes, const ReadProgress& progress,
                 std::uint64_t from)
        : m_window(fd, windowBytes, from), m_fileBytes(fileBytes), m_progress(progress), m_first(false)
    {
        m_importer.emplace();
        m_importer->reserveFor(fileBytes - from);
    }

    // Whether the root is an object or an array; false where the file is
    // no trace for windows (one window holds it, or it begins otherwise).
    bool readRootKind()
    {
        if (!m_window.fill() || m_window.atEnd())
            return false; // one window holds it: read whole
        const std::string_view text = m_window.text();
        const std::size_t first = text.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos || (text[first] != '{' && text[first] != '['))
            return false;
        m_rootArray = text[first] == '[';
        m_depth = m_rootArray ? 1 : 2;
        return true;
    }

    // The first part: true when its events end exactly at the limit; false
    // when the events' array closed before it.
    template <typename Report>
    bool readToLimit(const Report& report)
    {
        try {
            for (;;) {
                m_progress.throwIfCancelled();
                if (step())
                    return false;
                report(m_window.start());
            }
        } catch (const ReachedLimit&) {
            return true;
        }
    }

    // The later part, to the events' end; its bytes read go to `done`.
    bool readTail(std::atomic<std::uint64_t>& done)
    {
        const std::uint64_t from = m_window.start();
        for (;;) {
            m_progress.throwIfCancelled();
            if (step())
                return true;
            done = m_window.start() - from;
        }
    }

    // Reads one window; true once the events' array has closed.
    bool step()
    {
        for (;;) {
            try {
                return m_first ? readFirstWindow() : readNextWindow();
            } catch (const Grow&) {
                if (m_window.atEnd())
                    throw Fallback{};
                m_window.grow();
                if (!m_window.fill())
                    throw Fallback{};
            }
        }
    }

    // Where the window is cut: after its last line break, or at the end of
    // the file.
    std::size_t cut() const
    {
        const std::string_view text = m_window.text();
        if (m_window.atEnd())
            return text.size();
        const std::size_t newline = text.rfind('\n');
        if (newline == std::string_view::npos)
            throw Grow{};
        return newline + 1;
    }

    bool readFirstWindow()
    {
        const std::size_t at = cut();
        const std::string_view document = m_window.document("", at, m_rootArray ? "]" : "]}");
        JsonReader json(document, m_parser);
        json.setErrorsUnplaced();
        m_importer.emplace(json); // afresh: a grown first window starts over
        m_importer->reserveFor(m_fileBytes);
        m_index = 0;
        struct EventsRead {};
        bool ended = false;
        try {
            if (m_rootArray) {
                Value events;
                if (json.document().get_value().get(events))
                    throw Grow{};
                ended = readEvents(json, events, document.data(), at);
            } else {
                bool sawEvents = false;
                json.forEachMember(json.rootObject(), 1, [&](std::string_view key, Value& v) {
                    if (key == "format")
                        throw Fallback{}; // ours
                    if (key != "traceEvents") {
                        json.skip(v, 2); // read at the end, with the rest of the root
                        return;
                    }
                    if (json.kind(v) != JsonKind::Array)
                        throw Fallback{};
                    ended = readEvents(json, v, document.data(), at);
                    sawEvents = true;
                    throw EventsRead{};
                });
                if (!sawEvents)
                    throw Grow{};
            }
        } catch (const EventsRead&) {
        } catch (const JsonReadError&) {
            throw Grow{};
        }
        m_first = false;
        return ended;
    }

    bool readNextWindow()
    {
        if (!m_window.fill())
            throw Fallback{};
        std::string_view text = m_window.text();
        std::size_t skip = text.find_first_not_of(" \t\r\n");
        if (m_expectComma && skip != std::string_view::npos && text[skip] == ',') {
            m_expectComma = false;
            skip = text.find_first_not_of(" \t\r\n", skip + 1);
        }
        if (skip == std::string_view::npos) { // white space to the cut
            if (m_window.atLimit() && !m_expectComma)
                throw ReachedLimit{};
            if (m_window.atEnd())
                throw Fallback{};
            m_window.drop(text.size());
            return false;
        }
        if (m_expectComma || text[skip] == ']') {
            if (m_expectComma && text[skip] != ']')
                throw Fallback{};
            m_window.drop(skip);
            return true;
        }
        m_window.drop(skip);
        const std::size_t at = cut();
        const std::string_view document = m_window.document("[", at, "]");
        JsonReader json(document, m_parser);
        json.setErrorsUnplaced();
        m_importer->use(json);
        Value events;
        if (json.document().get_value().get(events))
            throw Grow{};
        return readEvents(json, events, document.data() + 1, at);
    }

    // The events of `array` in a window whose text begins at `text` and is
    // cut at text + `cut`. True once the events' own array has closed;
    // else the window is dropped up to the first event not read.
    bool readEvents(JsonReader& json, Value& array, const char* text, std::size_t cut)
    {
        std::size_t done = 0;
        const char* resume = nullptr; // after the comma that follows the last event read
        const char* close = nullptr;  // the bracket that closed the array
        const char* arrayStart = JsonReader::rawText(array).data();
        if (m_first)
            m_head.assign(text, static_cast<std::size_t>(arrayStart + 1 - text));
        try {
            json.forEachElement(array, m_depth, [&](Value& v, std::size_t) {
                m_importer->readEvent(v, m_index, m_depth + 1);
                ++m_index;
                ++done;
                const char* next = nullptr;
                if (json.document().current_location().get(next) || !next)
                    throw Grow{};
                if (*next == ',')
                    resume = next + 1;
                else
                    close = next;
            });
        } catch (const JsonReadError&) {
            // The truncated event, or one that is wrong: the next window
            // tells them apart (a wrong one fails there at its start).
            if (done == 0 || !resume)
                throw Grow{};
            if (m_window.atEnd() && !m_window.atLimit())
                throw Fallback{};
            m_window.drop(static_cast<std::size_t>(resume - text));
            return false;
        }
        if (done == 0) {
            // An empty array: its closing bracket follows the opening one.
            const std::string_view rest(arrayStart + 1, static_cast<std::size_t>(text + cut + 1 - arrayStart));
            close = arrayStart + 1 + rest.find_first_not_of(" \t\r\n");
        }
        if (!close)
            throw Fallback{};
        if (close >= text + cut) {
            // Our bracket after the cut: every event before the cut was read;
            // the comma after the last one comes in the next window.
            if (m_window.atEnd())
                throw Fallback{}; // the file ends inside the array
            m_window.drop(cut);
            m_expectComma = done > 0;
            return false;
        }
        m_window.drop(static_cast<std::size_t>(close - text));
        return true;
    }

    ChromeTraceImport finish() { return finishWith(rootRest()); }

    // The text from the events' closing bracket to the end of the file.
    std::string rootRest()
    {
        if (!m_window.fill())
            throw Fallback{};
        while (!m_window.atEnd()) {
            m_window.grow();
            if (!m_window.fill())
                throw Fallback{};
        }
        return std::string(m_window.text());
    }

    // The root without its events: the text up to the events' opening
    // bracket, then `rest`.
    ChromeTraceImport finishWith(std::string rest)
    {
        std::string root = std::move(m_head);
        root.append(rest);
        const simdjson::padded_string padded(root);
        JsonReader json(std::string_view(padded.data(), padded.size()));
        m_importer->use(json);
        try {
            m_importer->readRoot();
        } catch (const JsonReadError&) {
            throw Fallback{};
        }
        return m_importer->build();
    }

    FileWindow m_window;
    std::uint64_t m_fileBytes;
    const ReadProgress& m_progress;
    simdjson::ondemand::parser m_parser;
    std::optional<Importer> m_importer;
    std::string m_head; // the text before the events, their '[' included
    bool m_rootArray = false;
    bool m_first = true;
    bool m_expectComma = false;
    int m_depth = 2;
    std::size_t m_index = 0;
};

// Where a second thread can start reading the events of a file big enough
// to be worth it: near its middle, the start of a line that begins with '{'
// right after a line that ends with ',', as PyTorch and most Chrome traces
// write their events. Nothing where the machine has one core or a probe of
// the middle finds no such line; WindowedRead::readInTwo checks the rest.
std::optional<std::uint64_t> splitPoint(int fd, std::uint64_t fileBytes, std::size_t windowBytes)
{
    if (fileBytes < 4 * std::uint64_t(windowBytes) || std::thread::hardware_concurrency() < 2)
        return std::nullopt;
    std::string probe(std::size_t(1) << 20, '\0');
    const std::uint64_t from = fileBytes / 2;
    const ssize_t n = ::pread(fd, probe.data(), probe.size(), static_cast<off_t>(from));
    if (n <= 0)
        return std::nullopt;
    probe.resize(static_cast<std::size_t>(n));
    for (std::size_t newline = probe.find('\n'); newline != std::string::npos; newline = probe.find('\n', newline + 1)) {
        const std::size_t brace = probe.find_first_not_of(" \t\r", newline + 1);
        if (brace == std::string::npos)
            break;
        if (newline == 0 || probe[brace] != '{')
            continue;
        const std::size_t before = probe.find_last_not_of(" \t\r", newline - 1);
        if (before != std::string::npos && probe[before] == ',')
            return from + brace;
    }
    return std::nullopt;
}

} // namespace

ChromeTraceImport ChromeTraceImport::read(JsonReader& json)
{
    return Importer(json).read();
}

std::optional<ChromeTraceImport> ChromeTraceImport::readFile(const std::string& path, std::uint64_t maxBytes,
                                                             std::size_t windowBytes, const ReadProgress& progress)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    // Closed however the read ends, a cancel (RunCancelled) included.
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } const closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || static_cast<std::uint64_t>(info.st_size) > maxBytes
        || static_cast<std::uint64_t>(info.st_size) <= windowBytes)
        return std::nullopt;
    const auto size = static_cast<std::uint64_t>(info.st_size);
    try {
        if (const auto split = splitPoint(fd, size, windowBytes))
            if (auto done = WindowedRead::readInTwo(fd, windowBytes, size, progress, *split))
                return done;
        return WindowedRead(fd, windowBytes, size, progress).read();
    } catch (const JsonReadError&) {
        return std::nullopt;
    } catch (const std::bad_alloc&) {
        return std::nullopt;
    }
}

bool microsecondsTextToNs(std::string_view text, std::int64_t& ns)
{
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    // The digits, without the point, and where the point was (on the
    // stack: every event has two such numbers).
    char digitText[64];
    std::size_t digitCount = 0;
    std::int64_t pointAt = -1;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            if (digitCount < sizeof digitText)
                digitText[digitCount++] = c;
            else if (pointAt < 0)
                return false; // over 64 integer digits
        } else if (c == '.' && pointAt < 0) {
            pointAt = static_cast<std::int64_t>(digitCount);
        } else {
            break;
        }
    }
    const std::string_view digits(digitText, digitCount);
    if (digits.empty())
        return false;
    if (pointAt < 0)
        pointAt = static_cast<std::int64_t>(digits.size());
    std::int64_t exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negativeExponent = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (i >= text.size())
            return false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            exponent = std::min<std::int64_t>(exponent * 10 + (text[i] - '0'), 100'000);
        if (negativeExponent)
            exponent = -exponent;
    }
    if (i != text.size())
        return false;
    // ns = 0.digits * 10^(pointAt + exponent + 3)
    const std::int64_t integerDigits = pointAt + exponent + 3;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t value = 0;
    std::int64_t k = 0;
    for (; k < integerDigits; ++k) {
        const int digit = k < static_cast<std::int64_t>(digits.size()) ? digits[static_cast<std::size_t>(k)] - '0' : 0;
        if (value > (kMax - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    // Round half away from zero on the first dropped digit.
    if (integerDigits >= 0 && k < static_cast<std::int64_t>(digits.size()) && digits[static_cast<std::size_t>(k)] >= '5') {
        if (value == kMax)
            return false;
        ++value;
    }
    ns = negative ? -value : value;
    return true;
}

} // namespace ovs
