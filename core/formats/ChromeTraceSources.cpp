// Where a Kineto trace's CUDA calls came from: the Python frames
// (python_function events, with_stack=True) and framework ops (cpu_op
// events, the aten ops) that enclose each call in time on its thread, or an
// older PyTorch's "Call stack" carried by the cpu_op. Each call gets the
// innermost frame of the user's own code (PythonFrame.h's rule), the
// innermost aten op and what the user's line called; a call with no such
// frame gets no site.

#include "formats/ChromeTraceImporter.h"

#include <algorithm>
#include <limits>

namespace ovs {

// Per-frame answers, worked out once per distinct name.
struct ChromeTraceImporter::FrameWalk {
    std::vector<std::optional<std::uint32_t>> siteOfFrame;  // by m_frameNames id: site id, 0 not the user's
    std::vector<std::uint32_t> calledOfFrame;               // by m_frameNames id: m_names id + 1, 0 unknown
    std::vector<std::optional<OpSource>> sourceOfStack;     // by m_callStacks index
};

void ChromeTraceImporter::frame(const Event& e, bool python)
{
    // A frame without times encloses nothing; it is not worth refusing the
    // trace for (the ops are what the import is for).
    if (!e.hasTs || !e.hasDur || e.durNs < 0 || e.tsNs > std::numeric_limits<std::int64_t>::max() - e.durNs
        || e.name.empty()) {
        ++m_badFrames;
        return;
    }
    PendingFrame f;
    f.pid = e.pid;
    f.tid = e.tid;
    f.beginNs = e.tsNs;
    f.endNs = e.tsNs + e.durNs;
    f.nameId = internFrameName(e.name);
    f.python = python;
    const std::string_view stack = e.stackText.empty() ? e.callStack : std::string_view(e.stackText);
    if (!python && !stack.empty()) {
        f.stackId = internCallStack(stack) + 1;
        m_stacks = true;
    }
    m_stacks = m_stacks || python;
    m_frames.push_back(f);
}

std::uint32_t ChromeTraceImporter::internFrameName(std::string_view name)
{
    if (const auto it = m_frameNameIds.find(name); it != m_frameNameIds.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_frameNames.size());
    m_frameNameIds.emplace(std::string(name), id);
    m_frameNames.emplace_back(name);
    return id;
}

std::uint32_t ChromeTraceImporter::internCallStack(std::string_view stack)
{
    if (const auto it = m_callStackIds.find(stack); it != m_callStackIds.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_callStacks.size());
    m_callStackIds.emplace(std::string(stack), id);
    m_callStacks.emplace_back(stack);
    return id;
}

std::uint32_t ChromeTraceImporter::siteOf(const SourceSite& site)
{
    const auto [it, added] = m_siteIds.emplace(site, static_cast<std::uint32_t>(m_sites.size() + 1));
    if (added)
        m_sites.push_back(site);
    return it->second;
}

// `python`: the thread's Python frames open at `atNs`, outermost first.
OpSource ChromeTraceImporter::sourceFromFrames(const std::vector<const PendingFrame*>& python, std::int64_t atNs,
                                               FrameWalk& walk)
{
    OpSource source;
    const PendingFrame* inner = nullptr; // the frame just inside the one looked at
    for (auto it = python.rbegin(); it != python.rend(); ++it) {
        const PendingFrame& f = **it;
        // Frames that overlap without nesting can stay below one still open.
        if (f.beginNs > atNs || f.endNs < atNs)
            continue;
        std::optional<std::uint32_t>& site = walk.siteOfFrame[f.nameId];
        if (!site) {
            const PythonFrame parsed = parsePythonFrame(m_frameNames[f.nameId]);
            std::optional<SourceSite> at = parsed.site;
            if (at)
                at->lineIs = SiteLine::FrameEntry; // the line where the profiler met the frame (SiteLine)
            site = parsed.user && at ? siteOf(*at) : 0;
        }
        if (*site > 0) {
            source.site = *site;
            if (inner) {
                std::uint32_t& called = walk.calledOfFrame[inner->nameId];
                if (called == 0)
                    called = intern(stablePythonFrameName(m_frameNames[inner->nameId])) + 1;
                source.called = called - 1;
            }
            return source;
        }
        inner = &f;
    }
    return source;
}

// An older trace's "Call stack": innermost frame first, ';' between.
OpSource ChromeTraceImporter::sourceFromCallStack(std::uint32_t stackId, FrameWalk& walk)
{
    std::optional<OpSource>& cached = walk.sourceOfStack[stackId - 1];
    if (cached)
        return *cached;
    OpSource source;
    std::string_view rest = m_callStacks[stackId - 1];
    std::string_view inner;
    while (!rest.empty()) {
        const auto end = rest.find(';');
        const std::string_view entry = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const PythonFrame parsed = parsePythonFrame(entry);
        if (parsed.user && parsed.site) {
            source.site = siteOf(*parsed.site);
            if (!inner.empty())
                source.called = intern(stablePythonFrameName(inner));
            break;
        }
        inner = entry;
    }
    cached = source;
    return source;
}

// Each host call's OpSource from the frames of its thread, swept in time:
// the frames open at the call's start enclose it.
void ChromeTraceImporter::attributeSources()
{
    if (m_frames.empty())
        return;
    using Thread = std::pair<std::int64_t, std::int64_t>;
    std::map<Thread, std::vector<std::uint32_t>> callsOf;
    for (std::size_t i = 0; i < m_pending.size(); ++i)
        if (!m_pending[i].gpu)
            callsOf[{m_pending[i].a, m_pending[i].b}].push_back(static_cast<std::uint32_t>(i));
    // Outer frames first where two begin together: the longer holds the shorter.
    std::sort(m_frames.begin(), m_frames.end(), [](const PendingFrame& x, const PendingFrame& y) {
        return std::tie(x.pid, x.tid, x.beginNs, y.endNs) < std::tie(y.pid, y.tid, y.beginNs, x.endNs);
    });
    FrameWalk walk;
    walk.siteOfFrame.resize(m_frameNames.size());
    walk.calledOfFrame.resize(m_frameNames.size(), 0);
    walk.sourceOfStack.resize(m_callStacks.size());
    std::vector<std::uint32_t> atenOfFrame(m_frameNames.size(), 0); // m_names id + 1
    auto frameIt = m_frames.begin();
    for (auto& [thread, calls] : callsOf) {
        std::stable_sort(calls.begin(), calls.end(), [&](std::uint32_t x, std::uint32_t y) {
            return m_pending[x].op.startNs < m_pending[y].op.startNs;
        });
        frameIt = std::lower_bound(frameIt, m_frames.end(), thread, [](const PendingFrame& f, const Thread& t) {
            return std::pair(f.pid, f.tid) < t;
        });
        std::vector<const PendingFrame*> python, ops; // open frames, outermost first
        const auto popEnded = [](std::vector<const PendingFrame*>& open, std::int64_t t) {
            while (!open.empty() && open.back()->endNs < t)
                open.pop_back();
        };
        for (std::uint32_t call : calls) {
            const std::int64_t t = m_pending[call].op.startNs;
            for (; frameIt != m_frames.end() && std::pair(frameIt->pid, frameIt->tid) == thread && frameIt->beginNs <= t;
                 ++frameIt) {
                std::vector<const PendingFrame*>& open = frameIt->python ? python : ops;
                popEnded(open, frameIt->beginNs);
                open.push_back(&*frameIt);
            }
            popEnded(python, t);
            popEnded(ops, t);
            OpSource source = sourceFromFrames(python, t, walk);
            for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
                const PendingFrame& op = **it;
                if (op.beginNs > t || op.endNs < t)
                    continue;
                if (source.op == 0) {
                    std::uint32_t& aten = atenOfFrame[op.nameId];
                    if (aten == 0)
                        aten = intern(m_frameNames[op.nameId]) + 1;
                    source.op = aten - 1;
                }
                // An older trace's stack rides on the aten ops: the innermost that has one.
                if (source.site == 0 && python.empty() && op.stackId > 0) {
                    const OpSource fromStack = sourceFromCallStack(op.stackId, walk);
                    source.site = fromStack.site;
                    source.called = fromStack.called;
                }
                if (source.site != 0 || !python.empty() || op.stackId > 0)
                    break;
            }
            m_pending[call].source = source;
        }
        // The next thread's frames come after this one's.
        while (frameIt != m_frames.end() && std::pair(frameIt->pid, frameIt->tid) <= thread)
            ++frameIt;
    }
}

} // namespace ovs
