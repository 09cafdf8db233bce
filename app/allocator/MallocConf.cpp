// The programs' allocator: jemalloc, linked statically where it is found
// (the top CMakeLists.txt, OVERLAPSCOPE_JEMALLOC), configured here. jemalloc
// reads this symbol when it starts; each program compiles this file with its
// own OVERLAPSCOPE_MALLOC_CONF (overlapscope_use_allocator).
//
// Why: reading and analysing a trace of gigabytes allocates and frees arrays
// of hundreds of megabytes (the ops, the what-if graph, its replays). glibc's
// malloc maps each large array afresh and hands it back when freed, so every
// 4 KiB page of it is faulted in and zeroed again; on our 2-core VM that was
// about half of `analyze`'s time on a 450 MB trace. With `thp:always`
// jemalloc backs its memory with 2 MiB pages where the kernel allows them
// (transparent huge pages in "madvise" mode, Debian's default, is enough):
// a fault per 2 MiB, not per 4 KiB. docs/timeline-performance.md has the
// measurements.
//
// Except where the machine hands the memory a program frees back to its
// host (a virtual machine whose balloon device reports free pages,
// VIRTIO_BALLOON_F_REPORTING): there the guest's huge pages come from the
// free memory the host took back, and each 2 MiB is backed again inside
// one fault, while 4 KiB pages mostly come from memory just freed and
// still backed. On our 2-core VM a gigabyte faulted in took 1.5 to 2.6 s
// in huge pages against 0.56 to 1.36 s in small ones (app/bench's
// overlapscope-fault-bench), and `analyze` of the 2 GB trace 5.15 s
// against 4.82 s warm, 5.77 s against 4.71 s after a pause (medians,
// docs/timeline-performance.md, "Huge pages where the host takes freed
// memory back"). There the programs turn
// huge pages off for themselves (PR_SET_THP_DISABLE) as they start, and
// the programs they start get the system's (base/ChildHugePages.h);
// OVERLAPSCOPE_HUGE_PAGES=on keeps them, =off turns them off anywhere.
//
// The command-line programs also keep every freed page for reuse (no decay)
// in one arena for all threads: a second thread's graph copy reuses what the
// reader freed instead of faulting fresh pages, and the process ends when
// the job is done. The window returns freed pages to the system over about
// ten seconds (jemalloc's default decay), so its memory falls back after a
// large trace is closed. Where a phase of the analysis has freed what the
// next cannot reuse, core hands it back at once (base/FreedMemory.h): the
// release set here purges every arena's free pages.
#ifndef OVERLAPSCOPE_MALLOC_CONF
#error "compile with OVERLAPSCOPE_MALLOC_CONF (overlapscope_use_allocator in the top CMakeLists.txt)"
#endif

#include "HugePages.h"
#include "base/FreedMemory.h"

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#ifdef __linux__
#include <sys/prctl.h>
#endif

extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's.
const char* malloc_conf = OVERLAPSCOPE_MALLOC_CONF;
int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp, std::size_t newlen);
}

namespace {

// MALLCTL_ARENAS_ALL (4096): every arena's unused dirty pages.
void purgeArenas()
{
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
}

const bool kReleaseSet = (ovs::setFreedMemoryRelease(&purgeArenas), true);

// Whether a virtio balloon device reports the guest's free memory to the
// host: its features, one '0' or '1' per bit, have bit 5 set.
bool hostTakesFreedMemory()
{
    std::error_code error;
    for (const auto& device : std::filesystem::directory_iterator("/sys/bus/virtio/devices", error)) {
        std::string id, features;
        std::ifstream(device.path() / "device") >> id;
        if (id != "0x0005") // a balloon
            continue;
        std::ifstream(device.path() / "features") >> features;
        if (features.size() > 5 && features[5] == '1')
            return true;
    }
    return false;
}

// Decided once, as the program starts (before its big arrays).
const char* decideHugePages()
{
    const char* asked = std::getenv("OVERLAPSCOPE_HUGE_PAGES");
    const std::string_view want = asked ? asked : "";
    if (want == "on")
        return "transparent huge pages on (OVERLAPSCOPE_HUGE_PAGES=on)";
    const bool off = want == "off" || hostTakesFreedMemory();
#ifdef __linux__
    if (off && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0)
        return want == "off" ? "transparent huge pages off (OVERLAPSCOPE_HUGE_PAGES=off)"
                             : "transparent huge pages off (the machine reports freed memory to its host)";
#endif
    return "transparent huge pages on";
}

const char* const kHugePages = decideHugePages();

} // namespace

const char* ovs::hugePagesInWords()
{
    return kHugePages;
}
