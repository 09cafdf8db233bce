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

#include "base/FreedMemory.h"

#include <cstddef>

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

} // namespace
