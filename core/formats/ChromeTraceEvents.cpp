// Reading a Chrome/Kineto trace's events into the importer's pending ops
// and ranges: each event is read once, as simdjson's On Demand walks it,
// and what becomes no op or range is only counted.

#include "formats/ChromeTraceImporter.h"

#include "base/MessageText.h"
#include "cupti/OpKinds.h"
#include "cupti/RecordValues.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

namespace ovs {

namespace {

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

// "Memcpy HtoD (Pageable -> Device)": CUPTI's copy kind and the memory of
// each side in its words, mapped by cupti::copyOp as a profile's copies are.
// A name that is no copy CUPTI names (nullopt) is counted as skipped.
std::optional<cupti::CopyOp> memcpyFromName(std::string_view name)
{
    if (name.substr(0, 7) != "Memcpy ")
        return std::nullopt;
    const std::uint32_t kind = cupti::copyKindFromWord(name.substr(7, 4));
    if (kind == cupti::kCopyUnknown)
        return std::nullopt;
    std::string_view from, to;
    const auto open = name.find('(');
    const auto arrow = name.find(" -> ");
    const auto close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos
        && open < arrow && arrow < close) {
        from = name.substr(open + 1, arrow - open - 1);
        to = name.substr(arrow + 4, close - arrow - 4);
    }
    return cupti::copyOp(kind, cupti::memoryKindFromWord(from), cupti::memoryKindFromWord(to),
                         kind == cupti::kCopyPtoP);
}

HostMemoryKind memsetMemory(std::string_view name)
{
    // "Memset (Device)"
    const auto open = name.find('(');
    const auto close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return HostMemoryKind::Device;
    const HostMemoryKind memory = cupti::memoryKind(cupti::memoryKindFromWord(name.substr(open + 1, close - open - 1)));
    return memory == HostMemoryKind::None ? HostMemoryKind::Device : memory;
}

} // namespace

// Everything but the ops' build: the root, its events, the end.
void ChromeTraceImporter::readRoot()
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

void ChromeTraceImporter::readDeviceProperties(Value& v)
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
        else if (key == "numSms" && kind == JsonKind::Integer)
            device.smCount = static_cast<int>(std::clamp<std::int64_t>(m_json->integer(m), 0, 1 << 20));
        else
            m_json->skip(m, 4);
    });
    if (major >= 0 && minor >= 0 && major < 100 && minor < 100)
        device.detail = "sm_" + std::to_string(major) + std::to_string(minor);
    if (major > 0 && minor >= 0 && major < 100 && minor < 10)
        device.computeCapability = static_cast<int>(major * 10 + minor);
    if (id >= 0)
        m_devices[id] = std::move(device);
}

// torch.profiler's {"backend": "nccl", "rank": 3, "world_size": 8} of a
// distributed job: the rank labels the run (core/ranks).
void ChromeTraceImporter::readDistributedInfo(Value& v)
{
    m_json->forEachMember(v, 3, [&](std::string_view key, Value& m) {
        const std::optional<std::int64_t> value = optionalInteger(m, 4);
        if (key == "rank" && value && *value >= 0 && *value <= std::numeric_limits<int>::max())
            m_rank = static_cast<int>(*value);
    });
}

void ChromeTraceImporter::readEvents(Value& events, int depth)
{
    m_json->forEachElement(events, depth, [&](Value& v, std::size_t i) { readEvent(v, i, depth + 1); });
}


// Appends what `later` read of the events that follow this one's, as
// one reader of both would have it: its names interned again in its
// order, its counts added, its metadata over this one's. False where
// `later` numbered string ids otherwise than one reader would have
// (they are numbered in the order met, and kept in many places).
bool ChromeTraceImporter::append(ChromeTraceImporter&& later)
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
    // The later ops joined as they are (TwoPartVector.h); their name and
    // shape ids made this reader's as the build first walks them
    // (LaterIds), the names interned here, in the order met.
    renumberLater();
    LaterIds ids;
    ids.from = m_pending.size();
    ids.names.assign(later.m_names.size(), 0);
    for (std::size_t i = 1; i < later.m_names.size(); ++i)
        ids.names[i] = intern(later.m_names[i]);
    ids.shapes = later.m_shapes.shapes();
    ids.shapeIds.assign(ids.shapes.size() + 1, 0);
    m_laterIds = std::move(ids);
    m_pending.append(std::move(later.m_pending));
    std::vector<std::uint32_t> regionNameIds(later.m_regionNames.size());
    for (std::size_t i = 0; i < later.m_regionNames.size(); ++i)
        regionNameIds[i] = internRegionName(later.m_regionNames[i]);
    for (PendingRegion& r : later.m_regions) {
        r.nameId = regionNameIds[r.nameId];
        m_regions.push_back(r);
    }
    m_firstNs = std::min(m_firstNs, later.m_firstNs);
    m_lastNs = std::max(m_lastNs, later.m_lastNs);
    // Frames and call stacks: names interned again, sites made at the build.
    std::vector<std::uint32_t> frameNameIds(later.m_frameNames.size());
    for (std::size_t i = 0; i < later.m_frameNames.size(); ++i)
        frameNameIds[i] = internFrameName(later.m_frameNames[i]);
    std::vector<std::uint32_t> callStackIds(later.m_callStacks.size());
    for (std::size_t i = 0; i < later.m_callStacks.size(); ++i)
        callStackIds[i] = internCallStack(later.m_callStacks[i]);
    m_frames.reserve(m_frames.size() + later.m_frames.size());
    for (PendingFrame f : later.m_frames) {
        f.nameId = frameNameIds[f.nameId];
        if (f.stackId > 0)
            f.stackId = callStackIds[f.stackId - 1] + 1;
        m_frames.push_back(f);
    }
    m_stacks = m_stacks || later.m_stacks;
    m_badFrames += later.m_badFrames;
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

void ChromeTraceImporter::renumber(Pending& p, LaterIds& ids)
{
    p.op.nameId = ids.names[p.op.nameId];
    if (p.shape > 0) {
        // Shapes taken in the order their ops come, as a reader of both
        // parts would have met them.
        std::uint32_t& id = ids.shapeIds[p.shape];
        if (id == 0)
            id = m_shapes.add(ids.shapes[p.shape - 1]);
        p.shape = id;
    }
}

void ChromeTraceImporter::renumberLater()
{
    if (!m_laterIds)
        return;
    for (std::size_t i = m_laterIds->from; i < m_pending.size(); ++i)
        renumber(m_pending[i], *m_laterIds);
    m_laterIds.reset();
}

std::int64_t ChromeTraceImporter::idOf(Value& v, std::size_t index, const char* what)
{
    if (std::int64_t id = 0; m_json->plainInteger(v, id))
        return id;
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

std::int64_t ChromeTraceImporter::microseconds(Value& v, std::size_t index, const char* what)
{
    // A well-formed number in range, read once: most as microseconds with
    // at most three decimals (exact as ns); others through their text;
    // anything else as below, which words the error.
    if (std::int64_t ns = 0; m_json->scaledInteger(v, 3, ns))
        return ns;
    if (const std::string_view text = m_json->numberText(v); !text.empty())
        if (std::int64_t ns = 0; microsecondsTextToNs(text, ns))
            return ns;
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

std::optional<std::int64_t> ChromeTraceImporter::optionalInteger(Value& v, int depth)
{
    if (std::int64_t value = 0; m_json->plainInteger(v, value))
        return value;
    if (m_json->kind(v) == JsonKind::Integer)
        return m_json->integer(v);
    m_json->skip(v, depth); // any other kind: validated, ignored
    return std::nullopt;
}

void ChromeTraceImporter::readArgs(Value& v, Event& e, int depth)
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
        else if ((key == "Call stack" || key == "stack") && m_json->kind(m) == JsonKind::String)
            e.callStack = m_json->string(m);
        else if ((key == "Call stack" || key == "stack") && m_json->kind(m) == JsonKind::Array) {
            m_json->forEachElement(m, depth + 1, [&](Value& f, std::size_t) {
                if (m_json->kind(f) != JsonKind::String) {
                    m_json->skip(f, depth + 2);
                    return;
                }
                e.stackText += (e.stackText.empty() ? "" : ";") + std::string(m_json->string(f));
            });
        }
        else if (key == "grid")
            readDims(m, e.shape.grid, depth + 1);
        else if (key == "block")
            readDims(m, e.shape.block, depth + 1);
        else if (key == "registers per thread") {
            const auto registers = optionalInteger(m, depth + 1);
            e.shape.registersPerThread = registers && *registers > 0 && *registers <= 0xFFFF
                                             ? static_cast<std::uint16_t>(*registers)
                                             : std::uint16_t{0};
        } else if (key == "shared memory") {
            const auto bytes = optionalInteger(m, depth + 1);
            e.shape.sharedMemoryBytes = bytes && *bytes > 0 && *bytes <= std::numeric_limits<std::uint32_t>::max()
                                            ? static_cast<std::uint32_t>(*bytes)
                                            : 0;
        } else
            m_json->skip(m, depth + 1);
    });
}

// Kineto's [x, y, z] of a kernel's grid or block; anything else leaves
// them 0 (no shape).
void ChromeTraceImporter::readDims(Value& v, std::array<std::uint32_t, 3>& dims, int depth)
{
    if (m_json->kind(v) != JsonKind::Array) {
        m_json->skip(v, depth);
        return;
    }
    std::array<std::uint32_t, 3> read{};
    bool good = true;
    m_json->forEachElement(v, depth, [&](Value& d, std::size_t i) {
        const auto value = optionalInteger(d, depth + 1);
        if (i >= 3 || !value || *value < 0 || *value > std::numeric_limits<std::uint32_t>::max())
            good = false;
        else
            read[i] = static_cast<std::uint32_t>(*value);
    });
    if (good)
        dims = read;
}

void ChromeTraceImporter::readEvent(Value& v, std::size_t index, int depth)
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

void ChromeTraceImporter::metadata(const Event& e)
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
void ChromeTraceImporter::skipped(std::string_view what)
{
    const auto it = m_skipped.find(what);
    if (it != m_skipped.end())
        ++it->second;
    else
        m_skipped.emplace(std::string(what), 1);
}

std::uint32_t ChromeTraceImporter::intern(std::string_view name)
{
    if (name.empty())
        return 0;
    // Recently interned: one comparison, no hash of the whole name.
    std::uint64_t head = 0, tail = 0;
    std::memcpy(&head, name.data(), std::min<std::size_t>(name.size(), 8));
    std::memcpy(&tail, name.data() + name.size() - std::min<std::size_t>(name.size(), 8),
                std::min<std::size_t>(name.size(), 8));
    const std::uint64_t key = (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ name.size()) * 0xFF51AFD7ED558CCDull;
    std::uint32_t& recent = m_recentNames[key >> 56];
    if (recent != 0 && m_names[recent] == name)
        return recent;
    // Looked up by view: a name seen before (most are) costs no string.
    if (const auto it = m_nameIds.find(name); it != m_nameIds.end())
        return recent = it->second;
    const auto id = static_cast<std::uint32_t>(m_names.size());
    m_nameIds.emplace(std::string(name), id);
    m_names.emplace_back(name);
    return recent = id;
}

void ChromeTraceImporter::complete(const Event& e, std::size_t index)
{
    const Category category = categoryOf(e.cat);
    if (category == Category::Other) {
        if (const auto source = regionSourceOf(e)) {
            region(e, *source);
            return;
        }
        if (e.cat == "python_function" || e.cat == "cpu_op") {
            frame(e, e.cat == "python_function");
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
            p.shape = m_shapes.add(e.shape);
        } else if (category == Category::Memset) {
            p.op.kind = OpKind::Memset;
            p.op.memory = memsetMemory(e.name);
        } else {
            const auto copy = memcpyFromName(e.name);
            if (!copy) {
                ++m_skipped["memcpy kinds not modelled (" + messageText(e.name, 40) + ")"];
                return;
            }
            p.op.kind = copy->kind;
            p.op.memory = copy->memory;
        }
        m_gpuDevices.emplace(p.a, 0);
        ++m_gpuOps;
    }
    m_firstNs = std::min(m_firstNs, p.op.startNs);
    m_lastNs = std::max(m_lastNs, p.op.endNs);
    m_pending.push_back(p);
}

// Kineto's ranges: torch.profiler's steps, record_function on the host
// and its GPU span.
std::optional<RegionSource> ChromeTraceImporter::regionSourceOf(const Event& e)
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
void ChromeTraceImporter::region(const Event& e, RegionSource source)
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
    m_firstNs = std::min(m_firstNs, r.beginNs);
    m_lastNs = std::max(m_lastNs, r.endNs);
    m_regions.push_back(r);
}

std::uint32_t ChromeTraceImporter::internRegionName(std::string_view name)
{
    if (const auto it = m_regionNameIds.find(name); it != m_regionNameIds.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_regionNames.size());
    m_regionNameIds.emplace(std::string(name), id);
    m_regionNames.emplace_back(name);
    return id;
}

} // namespace ovs
