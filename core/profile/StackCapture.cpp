#include "profile/StackCapture.h"

#include "trace/ApiNames.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>

#if OVERLAPSCOPE_HAVE_STACKS
#define UNW_LOCAL_ONLY
#include <libunwind.h>
// libunwind's names are macros over per-architecture symbols
// (unw_set_caching_policy is _ULx86_64_set_caching_policy): dlsym needs the
// symbol, which the header spells.
#define OVS_SYMBOL_TEXT2(x) #x
#define OVS_SYMBOL_TEXT(x) OVS_SYMBOL_TEXT2(x)
#endif

namespace ovs::profile {

namespace {

std::uint64_t hashFrames(const std::uint64_t* frames, int count)
{
    // FNV-1a over the addresses, then a final mix: stacks differ mostly in
    // their low bits.
    std::uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < count; ++i) {
        h ^= frames[i];
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

// The GNU build-id of a loaded object, read from its note segments in memory.
std::uint32_t buildIdOf(const dl_phdr_info& info, std::uint8_t (&out)[20])
{
    for (int i = 0; i < info.dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info.dlpi_phdr[i];
        if (ph.p_type != PT_NOTE)
            continue;
        const auto* at = reinterpret_cast<const std::uint8_t*>(info.dlpi_addr + ph.p_vaddr);
        const std::uint8_t* end = at + ph.p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof note);
            const std::uint8_t* name = at + sizeof note;
            const std::uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
            const std::uint8_t* next = desc + ((note.n_descsz + 3) & ~3u);
            if (next > end)
                break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                const std::uint32_t bytes = std::min<std::uint32_t>(note.n_descsz, sizeof out);
                std::memcpy(out, desc, bytes);
                return bytes;
            }
            at = next;
        }
    }
    return 0;
}

std::string executablePath()
{
    char path[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

struct ModuleScan {
    std::vector<std::pair<ModuleRecord, std::string>> modules;
    std::string executable;
};

int addModule(dl_phdr_info* info, std::size_t, void* data)
{
    auto& scan = *static_cast<ModuleScan*>(data);
    std::string path = info->dlpi_name ? info->dlpi_name : "";
    // The executable comes with no name; the vDSO's name is no file.
    if (path.empty())
        path = scan.executable;
    if (path.empty() || path.front() != '/')
        return 0;
    ModuleRecord r;
    r.loadBias = info->dlpi_addr;
    r.lowAddress = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD)
            continue;
        r.lowAddress = std::min<std::uint64_t>(r.lowAddress, info->dlpi_addr + ph.p_vaddr);
        r.highAddress = std::max<std::uint64_t>(r.highAddress, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
    }
    if (r.lowAddress >= r.highAddress)
        return 0;
    r.buildIdBytes = buildIdOf(*info, r.buildId);
    scan.modules.emplace_back(r, std::move(path));
    return 0;
}

} // namespace

bool StackCapture::wants(StackMode mode, std::string_view apiName)
{
    if (mode == kStacksOff)
        return false;
    const ApiRole role = apiRole(apiName);
    const bool async = apiIsAsync(apiName);
    switch (role) {
    case ApiRole::DeviceSync:
    case ApiRole::StreamSync:
    case ApiRole::EventSync:
    case ApiRole::Register:
    // Async copies and memsets too: a pageable "async" copy blocks, and the
    // pageable-memory and stream findings point at the copies.
    case ApiRole::Copy:
    case ApiRole::Memset: return true;
    case ApiRole::Alloc:
    case ApiRole::Free: return !async || mode == kStacksAll;
    case ApiRole::Launch: return mode == kStacksAll;
    default: return false;
    }
}

StackMode StackCapture::parseMode(std::string_view text, bool* ok)
{
    *ok = true;
    if (text == "sync")
        return kStacksSync;
    if (text == "all")
        return kStacksAll;
    if (text == "off" || text.empty())
        return kStacksOff;
    *ok = false;
    return kStacksOff;
}

const char* StackCapture::modeName(StackMode mode)
{
    switch (mode) {
    case kStacksSync: return "sync";
    case kStacksAll: return "all";
    default: return "off";
    }
}

bool StackCapture::start(StackMode mode, const std::string& firstFolder, std::string* whyNot)
{
#if OVERLAPSCOPE_HAVE_STACKS
    std::vector<std::string> candidates;
    if (!firstFolder.empty())
        candidates.push_back(firstFolder + "/libunwind.so.8");
    candidates.emplace_back("libunwind.so.8");
    std::string errors;
    for (const std::string& candidate : candidates) {
        // Local: its _Unwind_* must not stand in for the C++ runtime's.
        void* library = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* error = ::dlerror();
            errors += (errors.empty() ? "" : "; ") + std::string(error ? error : candidate);
            continue;
        }
        auto backtrace = reinterpret_cast<Backtrace>(::dlsym(library, OVS_SYMBOL_TEXT(unw_backtrace)));
        if (!backtrace) {
            errors += (errors.empty() ? "" : "; ") + candidate + " has no unw_backtrace";
            continue;
        }
        // A cache per thread: threads unwinding at once take no lock.
        using SetCaching = int (*)(unw_addr_space_t, unw_caching_policy_t);
        auto setCaching = reinterpret_cast<SetCaching>(::dlsym(library, OVS_SYMBOL_TEXT(unw_set_caching_policy)));
        auto* space = static_cast<unw_addr_space_t*>(::dlsym(library, OVS_SYMBOL_TEXT(unw_local_addr_space)));
        if (setCaching && space)
            static_cast<void>(setCaching(*space, UNW_CACHE_PER_THREAD));
        std::lock_guard lock(m_mutex);
        m_slots.assign(std::size_t(kMaxStacks) * 2, 0);
        m_slotHashes.assign(m_slots.size(), 0);
        m_libraryPath = candidate;
        m_mode = mode;
        m_backtrace = backtrace;
        return true;
    }
    *whyNot = "libunwind could not be loaded (" + errors + "; apt-get install libunwind8, or put libunwind.so.8 "
              "next to the injection library)";
    return false;
#else
    static_cast<void>(mode);
    static_cast<void>(firstFolder);
    *whyNot = "this build has no call stacks (built without libunwind's and libdw's headers: "
              "apt-get install libunwind-dev libdw-dev and build again)";
    return false;
#endif
}

__attribute__((noinline)) void StackCapture::record(std::uint32_t correlationId)
{
    if (!m_backtrace)
        return;
    // One more than kept: frame 0 is this function, and a stack that
    // fills the buffer is known to be cut.
    void* raw[kMaxFrames + 2];
    const int got = m_backtrace(raw, kMaxFrames + 2);
    const int count = std::max(0, std::min(got - 1, kMaxFrames));
    std::uint64_t frames[kMaxFrames];
    for (int i = 0; i < count; ++i)
        frames[i] = reinterpret_cast<std::uintptr_t>(raw[i + 1]);
    const bool truncated = got > kMaxFrames + 1;

    std::lock_guard lock(m_mutex);
    bool added = false;
    const std::uint32_t id = count > 0 ? stackId(frames, count, &added) : 0;
    if (id == 0) {
        ++m_callsWithoutStack;
        return;
    }
    if (truncated && added)
        ++m_truncated; // counted once, when the stack is new
    if (m_calls.bytes().size() >= kMaxPendingBytes) {
        ++m_callsWithoutStack;
        return;
    }
    m_calls.add(CallStackRecord{correlationId, id});
}

std::uint32_t StackCapture::stackId(const std::uint64_t* frames, int count, bool* added)
{
    const std::uint64_t hash = hashFrames(frames, count);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t id = m_slots[i];
        if (id == 0)
            break;
        if (m_slotHashes[i] != hash)
            continue;
        const std::uint32_t begin = id == 1 ? 0 : m_stackEnds[id - 2];
        const std::uint32_t end = m_stackEnds[id - 1];
        if (end - begin == static_cast<std::uint32_t>(count)
            && std::equal(frames, frames + count, m_frames.begin() + begin))
            return id;
    }
    if (m_stackEnds.size() >= kMaxStacks)
        return 0;
    m_frames.insert(m_frames.end(), frames, frames + count);
    m_stackEnds.push_back(static_cast<std::uint32_t>(m_frames.size()));
    const auto id = static_cast<std::uint32_t>(m_stackEnds.size());
    *added = true;
    // Half full at most (kMaxStacks of 2 * kMaxStacks slots): a free slot is always found.
    for (std::size_t i = hash & mask;; i = (i + 1) & mask)
        if (m_slots[i] == 0) {
            m_slots[i] = id;
            m_slotHashes[i] = hash;
            break;
        }
    return id;
}

StackStateRecord StackCapture::state() const
{
    StackStateRecord s;
    s.mode = m_mode;
    s.maxFrames = kMaxFrames;
    s.maxStacks = kMaxStacks;
    s.stacks = static_cast<std::uint32_t>(m_stackEnds.size());
    s.callsWithoutStack = m_callsWithoutStack;
    s.truncatedStacks = m_truncated;
    return s;
}

std::vector<std::pair<ModuleRecord, std::string>> StackCapture::loadedModules()
{
    ModuleScan scan;
    scan.executable = executablePath();
    ::dl_iterate_phdr(addModule, &scan);
    return std::move(scan.modules);
}

void StackCapture::addModules(ProfileStreamEncoder& out)
{
    for (auto& [record, path] : loadedModules())
        if (m_modulesSent.emplace(path, record.loadBias).second)
            out.addWithText(record, path);
}

void StackCapture::take(ProfileStreamEncoder& out)
{
    if (!m_backtrace)
        return;
    // The stacks and calls are moved out under the lock; the objects are
    // listed after it, so a program's calls never wait on the loader's lock.
    ProfileStreamEncoder stacks;
    bool newStacks = false;
    StackStateRecord now;
    bool stateChanged = false;
    {
        std::lock_guard lock(m_mutex);
        newStacks = m_stacksSent < m_stackEnds.size();
        for (; m_stacksSent < m_stackEnds.size(); ++m_stacksSent) {
            const std::uint32_t begin = m_stacksSent == 0 ? 0 : m_stackEnds[m_stacksSent - 1];
            const std::uint32_t end = m_stackEnds[m_stacksSent];
            stacks.addWithTail(StackRecord{m_stacksSent + 1, end - begin}, m_frames.data() + begin,
                               std::size_t(end - begin) * sizeof(std::uint64_t));
        }
        stacks.appendRecords(m_calls);
        m_calls.clear();
        now = state();
        stateChanged = !m_stateSent || now.callsWithoutStack != m_sentWithout || now.truncatedStacks != m_sentTruncated
                       || (now.stacks != m_sentStacks && now.stacks == kMaxStacks);
        if (stateChanged) {
            m_stateSent = true;
            m_sentWithout = now.callsWithoutStack;
            m_sentTruncated = now.truncatedStacks;
            m_sentStacks = now.stacks;
        }
    }
    if (stateChanged)
        out.add(now);
    // The objects first, so a reader meets the modules before the
    // addresses in them (it needs both only at the end, though).
    if (newStacks)
        addModules(out);
    out.appendRecords(stacks);
}

} // namespace ovs::profile
